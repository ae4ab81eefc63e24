"""One voice for every game: the refusal sentences and small wording helpers, in one place.

Every game and the bot say a refusal of one kind with the same opening sentence; a game's own
reason is appended after it, never rephrased (issue 15, "One voice").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rules.core.errors import Said, joined, said

if TYPE_CHECKING:
    from rules.core.game import Game

# The opening sentence of each refusal kind. Every refusal says what happened and what to do
# (tests/bot/test_refusals.py checks the form of each one). Each is `said`, so the bot shows it
# in the player's language (issue 30).
NOT_AVAILABLE = said("That move is not available now.")
PICK_OFFERED = said("Pick one of the offered actions (My hand & moves, or /play).")
NOT_YOUR_TURN = said("Not your turn — wait until the bot pings you.")
GAME_OVER = said("The game is over — start a new one with /game new.")
STALE = said(
    "This prompt is out of date — the game has moved on; pick again from the newest board."
)
NOT_IN_GAME = said(
    "You are not in this game — join a lobby with /game join; a running game is closed, so wait "
    "for the next one (or ask an admin to /admin replace a player)."
)
NO_GAME_HERE = said("There is no game in this channel — start one with /game new.")
NOT_STARTED = said("The game has not started yet — the creator starts it with /game start.")
GAME_ENDED = said("This channel's game has ended — start a new one with /game new.")
# Text that is no action of the game at all: one wording in every game and in /play.
NOT_A_MOVE = joined(NOT_AVAILABLE, PICK_OFFERED)

# How the bot says a sentence in its reader's language (`bot.i18n.say` for one locale); rules
# code stays pure, so the caller hands it in. `str` says it in English.
Tell = Callable[[str], str]

# Irregular plurals the games use; anything else takes an "s".
_IRREGULAR = {"Gustave": "Gustave", "Business-Class": "Business-Class"}


def refusal(reason: str = "") -> Said:
    """The sentence for an illegal move, with the game's own reason appended when it has one.

    Each half is translated on its own: the shared opening, then the game's reason.
    """
    return joined(NOT_AVAILABLE, reason if reason.strip() else PICK_OFFERED)


def not_your_turn(who: str = "") -> Said:
    """'Not your turn — it is alice's turn.' (a name or `{seatN}`, never translated)."""
    return said("Not your turn — it is {who}'s turn.", who=who) if who else NOT_YOUR_TURN


def plural(n: int, word: str, many: str | None = None) -> str:
    """'1 card', '2 cards', '0 cards' (`many` for irregular plurals, e.g. 'Glides')."""
    if n == 1:
        return f"{n} {word}"
    return f"{n} {many or _IRREGULAR.get(word) or _regular_plural(word)}"


def _regular_plural(word: str) -> str:
    """English plural of a regular noun: card → cards, pass → passes, city → cities."""
    if word.endswith(("s", "x", "ch", "sh")):
        return word + "es"
    if word.endswith("y") and len(word) > 1 and word[-2] not in "aeiou":
        return word[:-1] + "ies"
    return word + "s"


def join_names(names: list[str] | tuple[str, ...]) -> str:
    """'alice', 'alice and bob', 'alice, bob and carol' (a Said: the "and" is translated, the
    names never are)."""
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    return said("{names} and {last}", names=", ".join(names[:-1]), last=names[-1])


def rules_page(game: Game, topic: str | None, tell: Tell = str) -> str:
    """`/game rules` in one shape for every game: the text, the topic list, then footnotes.

    An unknown topic says so and lists the topics. Footnotes are the `-# ` lines a game's
    text carries; they always come last, in Discord's small print. `tell` says the game's page
    and these sentences in the reader's language (before the page is split into lines).
    """
    topics = list(game.rules_topics()) or ["overview"]
    listed = " · ".join(f"`{t}`" for t in topics)
    wanted = (topic or "").strip().lower()
    if wanted and wanted not in [t.lower() for t in topics]:
        return tell(
            said(
                "There is no “{topic}” topic in the {title} rules. Topics: {topics}.",
                topic=topic,
                title=game.title,
                topics=listed,
            )
        )
    chosen = next((t for t in topics if t.lower() == wanted), None)
    lines = tell(game.rules_text(chosen)).strip().split("\n")
    body = [line for line in lines if not line.startswith("-# ")]
    notes = list(dict.fromkeys(line for line in lines if line.startswith("-# ")))
    more = tell(said("Topics: {topics} — `/game rules topic:…`", topics=listed))
    return "\n".join([*body, "", more, *notes])


def which_game(games: list[Game], tell: Tell = str) -> str:
    """`/game rules` where no game is running: ask which game (never guess one)."""
    names = "\n".join(
        tell(said("• **{title}** — `/game rules game:{title}`", title=g.title)) for g in games
    )
    return tell(said("There is no game in this channel — which game's rules?")) + "\n" + names
