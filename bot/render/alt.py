"""Alt text for every posted picture: whose turn, scores and the last move, in plain words."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import ENGLISH, ntranslate, translate
from bot.render.common import speaking, spoken
from rules.core import Outcome
from rules.first_in_flight.labels import STEP_WORDS
from rules.first_in_flight.view import GameView
from rules.flight.view import FlightGameView, FlightView
from rules.takeoff.view import TakeoffView

# discord.File(description=…) is limited to 1,024 characters.
ALT_LIMIT = 1024


def clip(text: str, limit: int = ALT_LIMIT) -> str:
    """`text` cut to `limit` characters with an ellipsis."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def join(parts: Sequence[str]) -> str:
    """Sentences joined, empty ones dropped."""
    return " ".join(p.strip() for p in parts if p and p.strip())


def name_of(names: Sequence[str], seat: int | None, none: str | None = None) -> str:
    """A seat's name ('Seat n' when unnamed; 'nobody' or `none` for no seat)."""
    if seat is None:
        return translate(spoken(), "nobody") if none is None else none
    if seat < len(names) and names[seat]:
        return names[seat]
    return translate(spoken(), "Seat {number}", number=seat + 1)


def listed(items: Sequence[str]) -> str:
    """'a, b and c' in the picture's language."""
    if len(items) <= 1:
        return "".join(items)
    return translate(spoken(), "{items} and {last}", items=", ".join(items[:-1]), last=items[-1])


def card_names(names: Sequence[str]) -> str:
    """Card names (from the data files) in the picture's language, comma-separated."""
    return ", ".join(translate(spoken(), name) for name in names)


def last_move(last: str) -> str:
    """'Last move: …' from the newest log line (already in the reader's language)."""
    return translate(spoken(), "Last move: {move}.", move=last.rstrip(".")) if last else ""


def takeoff(view: TakeoffView, names: Sequence[str], last: str = "") -> str:
    """The Takeoff! plane: scores, whose turn, the last seats taken, the viewer's hand."""
    lang = spoken()
    scores = ", ".join(f"{name_of(names, s)} {score_in(view.scores[s], 'point')}" for s in range(2))
    if view.over:
        turn = translate(lang, "Game over.")
    else:
        turn = translate(
            lang,
            "{player} to move (pass {number} of 3).",
            player=name_of(names, view.turn),
            number=view.pass_number,
        )
    taken = sum(1 for row in view.rows for owner in row.seats if owner >= 0)
    parts = [
        translate(
            lang, "Takeoff! plane, {taken} of {seats} seats taken.", taken=taken,
            seats=len(view.rows) * 6,
        ),
        turn,
        translate(lang, "Scores: {scores}.", scores=scores),
        *last_seats(view),
        last_move(last),
    ]  # fmt: skip
    if view.viewer is not None:
        hand = card_names([c.name for c in view.hand]) or translate(lang, "no cards")
        parts.append(translate(lang, "Your hand: {cards}.", cards=hand))
        parts.append(placing(view))
    return clip(join(parts))


def last_seats(view: TakeoffView) -> list[str]:
    """The seats the last move changed, split into those now taken and those it emptied (a
    Stretcher or a move leaves seats free: calling them "last seats" read as taken)."""
    rows = {row.number: row.seats for row in view.rows}

    def owner(label: str) -> int:
        """Who sits in seat `label` ("7E"): a seat index, or -1 when free or unknown."""
        seats = rows.get(int(label[:-1]))
        column = "ABCDEF".find(label[-1])
        return seats[column] if seats is not None and 0 <= column < len(seats) else -1

    taken = [s for s in view.last_seats if owner(s) >= 0]
    emptied = [s for s in view.last_seats if owner(s) < 0]
    lang = spoken()
    return [
        translate(lang, "Seats the last move took: {seats}.", seats=", ".join(taken))
        if taken
        else "",
        translate(lang, "Seats the last move emptied: {seats}.", seats=", ".join(emptied))
        if emptied
        else "",
    ]


def placing(view: TakeoffView) -> str:
    """The card being played by the viewer: where it can go, or (a Pinch) the hand it shows."""
    lang = spoken()
    if view.shown_hand:  # a Pinch look: the picture shows both hands and no plane
        theirs = card_names([c.name for c in view.shown_hand])
        return translate(
            lang, "Pinch: your opponent's hand is {cards}; take one of these cards.", cards=theirs
        )
    if not view.targets:
        return ""
    seats = ", ".join(view.targets)
    if view.pending is None:
        return translate(lang, "It can be played on: {seats}.", seats=seats)
    card = translate(lang, view.pending.card_name)
    return translate(lang, "{card} can be played on: {seats}.", card=card, seats=seats)


def flight_phase(phase: str) -> str:
    """What the Flight player to act is doing, in the picture's language."""
    lang = spoken()
    words = {
        "draw": translate(lang, "drawing"),
        "play": translate(lang, "playing cards"),
        "target": translate(lang, "choosing a flight"),
        "discard": translate(lang, "discarding"),
    }
    return words.get(phase, phase)


def flight(view: FlightGameView, names: Sequence[str], last: str = "") -> str:
    """The Flight table: hand number, whose turn, scores, routes, the viewer's hand."""
    lang = spoken()
    scores = ", ".join(f"{name_of(names, s.seat)} {signed(s.score)}" for s in view.seats)
    if view.over:
        winners = " & ".join(name_of(names, w) for w in view.winners)
        turn = translate(lang, "Match over; won by {winners}.", winners=winners)
    else:
        turn = translate(
            lang,
            "{player} to play ({doing}).",
            player=name_of(names, view.turn),
            doing=flight_phase(view.phase),
        )
    routes = "; ".join(
        f"{translate(lang, f.name)}: {route_state(f)}" for f in view.flights if f.started
    )
    parts = [
        translate(lang, "Flight table, hand {number}.", number=view.hand_number),
        turn,
        translate(lang, "Scores: {scores}.", scores=scores),
        translate(lang, "Flying: {routes}.", routes=routes)
        if routes
        else translate(lang, "No flight started yet."),
        last_move(last),
    ]
    if view.viewer is not None and view.hand is not None:
        hand = card_names([c.name for c in view.hand]) or translate(lang, "no cards")
        parts.append(translate(lang, "Your hand: {cards}.", cards=hand))
    return clip(join(parts))


def route_state(f: FlightView) -> str:
    """How far a started flight is: landed, held up, or its stops and the next one (the stop
    the board frames in orange)."""
    lang = spoken()
    if f.landed:
        return translate(lang, "landed")
    done = translate(lang, "{count} of 5 stops", count=f.next_number - 1)
    if f.blocked:
        return translate(lang, "{done}, held up", done=done)
    nxt = next((s for s in f.stops if s.number == f.next_number), None)
    if nxt is None:
        return translate(lang, "{done}, next Safe Landing", done=done)
    return translate(lang, "{done}, next {number} {town}", done=done, number=nxt.number,
                     town=translate(lang, nxt.town))  # fmt: skip


def first_in_flight(view: GameView, names: Sequence[str], last: str = "") -> str:
    """First in Flight: Year, who decides, records, the Flight in progress, the viewer's cards."""
    lang = spoken()
    records = ", ".join(
        f"{name_of(names, s.seat)} {s.record}" for s in sorted(view.seats, key=lambda s: -s.record)
    )
    if view.gustave_record is not None:
        records += f", Gustave {view.gustave_record}"
    if view.over:
        turn = translate(lang, "Game over.")
    elif view.deciding is None:
        turn = ""
    else:
        turn = translate(
            lang, "{player} is {doing}.", player=name_of(names, view.deciding),
            doing=fif_step(view.step),
        )  # fmt: skip
    parts = [
        translate(lang, "First in Flight, Year {year} of 4.", year=view.year),
        turn,
        fif_flight(view, names),
        translate(lang, "Records: {records}.", records=records),
        last_move(last),
    ]
    if view.viewer is not None and view.known_top:
        top = card_names(view.known_top)
        parts.append(translate(lang, "Top of your deck: {cards}.", cards=top))
    return clip(join(parts))


def fif_step(step: str) -> str:
    """What the deciding player is doing, in the status bar's words ('choosing cards')."""
    # the words are the rules' (first_in_flight.po); a plain lookup of the English
    words = STEP_WORDS.get(step)
    return translate(spoken(), words) if words else translate(spoken(), "deciding")


def fif_flight(view: GameView, names: Sequence[str]) -> str:
    """The Flight on the table: whose it is, how it went, its Distance and Problems."""
    if view.flight is None:
        return ""
    f = view.flight
    lang = spoken()
    args = {"player": name_of(names, f.seat), "distance": f.distance_so_far, "problems": f.problems}
    if f.crashed:
        return translate(
            lang,
            "{player}'s Flight crashed: Distance {distance}, {problems} of 4 Problems.",
            **args,
        )
    if f.landed:
        return translate(
            lang, "{player}'s Flight has landed: Distance {distance}, {problems} of 4 Problems.",
            **args,
        )  # fmt: skip
    return translate(
        lang, "{player}'s Flight is in the air: Distance {distance}, {problems} of 4 Problems.",
        **args,
    )  # fmt: skip


def replay_alt(
    title: str,
    names: Sequence[str],
    turns: int,
    outcome: Outcome | None,
    *,
    score_word: str = "point",
    abandoned: bool = False,
    language: str = ENGLISH,
) -> str:
    """An animated replay in words: the game, its length, who won and the final scores."""
    with speaking(language) as lang:
        turns_said = ntranslate(lang, "{count} turn", "{count} turns", turns)
        if outcome is not None:
            head = translate(
                lang, "Animated replay of {title}, {turns} from the deal to the end.",
                title=title, turns=turns_said,
            )  # fmt: skip
            return clip(head + " " + result(names, outcome, score_word))
        if abandoned:
            return clip(translate(
                lang, "Animated replay of {title}, {turns} from the deal to the last move before "
                "it was abandoned, without a winner.", title=title, turns=turns_said,
            ))  # fmt: skip
        return clip(translate(
            lang, "Animated replay of {title}, {turns} from the deal to the latest move; the game "
            "is still going.", title=title, turns=turns_said,
        ))  # fmt: skip


def result(names: Sequence[str], outcome: Outcome, score_word: str = "point") -> str:
    """'alice won. Final scores: alice 42 points, bob 38 points.' (Gustave when he won)."""
    order = sorted(range(len(outcome.scores)), key=lambda s: (outcome.ranks[s], s))
    scores = ", ".join(
        f"{name_of(names, s)} {score_in(outcome.scores[s], score_word)}" for s in order
    )
    lang = spoken()
    if outcome.automa_won:
        verdict = translate(lang, "Gustave won.")
    elif outcome.is_draw:
        winners = listed([name_of(names, s) for s in outcome.winners])
        verdict = translate(lang, "{players} shared the win.", players=winners)
    else:
        verdict = translate(lang, "{player} won.", player=name_of(names, outcome.winners[0]))
    return verdict + " " + translate(lang, "Final scores: {scores}.", scores=scores)


def signed(n: int) -> str:
    """'12', '0' or '−3': a real minus sign, as the end texts write it."""
    return f"\u2212{-n}" if n < 0 else str(n)


def score_in(n: int, word: str) -> str:
    """A score in the game's own word: '12 points', '1 point', '−3 points' or 'record 44'."""
    lang = spoken()
    if word == "point":
        if n < 0:
            return "\u2212" + ntranslate(lang, "{count} point", "{count} points", -n)
        return ntranslate(lang, "{count} point", "{count} points", n)
    if word == "record":
        return translate(lang, "record {score}", score=signed(n))
    return f"{word} {signed(n)}"


def still_alt(heading: str, picture: str) -> str:
    """One replay frame: which turn it is, then the picture's own alt text."""
    return clip(join([heading, picture]))
