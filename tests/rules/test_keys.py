"""Action keys: each game's one codec reads every key it offers and writes it back unchanged."""

from __future__ import annotations

import ast
import random
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from rules import get_game
from rules.core import IllegalActionError
from rules.first_in_flight import GAME as FIF
from rules.first_in_flight import auto, engine, text
from rules.first_in_flight import keys as fif_keys
from rules.first_in_flight.state import Step
from rules.flight import keys as flight_keys
from rules.takeoff import GAME as TAKEOFF
from rules.takeoff import keys as takeoff_keys
from tests.rules.first_in_flight.helpers import table

Codec = Callable[[str, str], str]  # (key, FIF step kind) → the key written back


def _takeoff(key: str, kind: str) -> str:
    """Round trip through Takeoff!'s codec."""
    return takeoff_keys.format_key(takeoff_keys.parse_key(key))


def _flight(key: str, kind: str) -> str:
    """Round trip through Flight's codec."""
    return flight_keys.format_key(flight_keys.parse_key(key))


def _fif(key: str, kind: str) -> str:
    """Round trip through First in Flight's codec (which reads `use:`/`copy:` by step)."""
    return fif_keys.format_key(fif_keys.parse_key(key, kind))


CODECS: dict[str, Codec] = {"takeoff": _takeoff, "flight": _flight, "first-in-flight": _fif}


@pytest.mark.parametrize(("game_id", "players", "seed"), [
    ("takeoff", 2, 3),
    ("flight", 3, 4),
    ("first-in-flight", 1, 5),
    ("first-in-flight", 2, 6),
    ("first-in-flight", 4, 7),
])  # fmt: skip
def test_every_offered_key_round_trips(game_id: str, players: int, seed: int) -> None:
    """Over a whole random game, parse → format gives back exactly the key the engine offered."""
    game = get_game(game_id)
    state = game.new_game(seed, players, None)
    chooser = random.Random(seed)
    seen: set[str] = set()
    while active := game.active_players(state):
        legal = game.legal_actions(state, active[0])
        kind = state.steps[-1].kind if game_id == "first-in-flight" else ""
        for action in legal:
            assert CODECS[game_id](action.key, kind) == action.key
            seen.add(action.key.partition(":")[0])
        state = game.apply(state, active[0], chooser.choice(legal)).state
    assert len(seen) >= 4, f"too few kinds of key exercised: {seen}"


@pytest.mark.parametrize("game_id", ["takeoff", "flight", "first-in-flight"])
@pytest.mark.parametrize("junk", ["bogus", "play", "fly:", "menu:nowhere", "pay:m1", "slot:2"])
def test_junk_is_refused_with_a_reason_and_changes_nothing(game_id: str, junk: str) -> None:
    """A key no game offers is an IllegalActionError with a readable reason; the state stays."""
    game = get_game(game_id)
    state = game.new_game(1, game.min_players if game_id != "takeoff" else 2, None)
    seat = game.active_players(state)[0]
    before = game.dump_state(state)
    with pytest.raises(IllegalActionError) as refused:
        game.apply(state, seat, junk)
    assert str(refused.value)
    assert game.dump_state(state) == before


def test_takeoff_dispatch_refuses_a_target_key_in_the_main_step() -> None:
    """Takeoff!'s dispatcher no longer sends an unrecognised key to end_turn."""
    state = TAKEOFF.new_game(2, 2, None)
    with pytest.raises(IllegalActionError):
        TAKEOFF._dispatch(state, state.turn, "seat:4A")
    with pytest.raises(IllegalActionError):
        takeoff_keys.parse_key("seat")


def test_codecs_read_the_stored_wire_format() -> None:
    """Keys stored in old games mean what they always meant."""
    assert takeoff_keys.parse_key("pair:4CD") == takeoff_keys.Spot("pair", "4CD")
    assert flight_keys.parse_key("draw:pack2+discard") == flight_keys.Draw("pack2+discard")
    pay = fif_keys.parse_key("pay:m2t1x3:peltier:edith_berg", "pay")
    assert pay == fif_keys.Pay(money=2, time=1, x=3, reducer="peltier:edith_berg")
    assert fif_keys.parse_key("use:7", "space") == fif_keys.UseSpace(7)
    assert fif_keys.parse_key("use:pilot", "abilities") == fif_keys.UseAbility("pilot")
    assert fif_keys.parse_key("copy:4", "any_target") == fif_keys.CopySpace(4)
    assert fif_keys.parse_key("slot:0+1", "repair_slot") == fif_keys.RepairSlots((0, 1))


@pytest.mark.parametrize("kind", fif_keys.STEP_KINDS)
def test_every_step_kind_has_its_menu_label_and_view_entry(kind: fif_keys.StepKind) -> None:
    """A First in Flight step kind is offered, prompted, played by the automa and shown."""
    assert kind in engine.STEPS, "no legal actions / handler"
    assert kind in text.PROMPTS, "no prompt label"
    assert kind in auto._HANDLERS, "the automatic player cannot decide it"
    state = table(2)
    state = state.model_copy(update={"steps": (*state.steps, Step(kind=kind, seat=0))})
    assert FIF.view(state, None).step == kind
    assert FIF.prompt(state, 0) == text.PROMPTS[kind]


def _key_slicing(path: Path) -> list[str]:
    """Places in a module that split, slice or spell an action key by hand."""
    in_rules = "rules" in path.parts  # the bot splits other texts (URLs) at colons
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            args = [a.value for a in node.args if isinstance(a, ast.Constant)]
            if node.func.attr in ("partition", "split") and ":" in args and in_rules:
                found.append(f"{path.name}:{node.lineno} {node.func.attr}(':')")
            if node.func.attr == "startswith" and any(
                isinstance(a, str) and KEY_LIKE.match(a) for a in args
            ):
                found.append(f"{path.name}:{node.lineno} startswith({args[0]!r})")
        elif isinstance(node, ast.JoinedStr) and node.values:
            head = node.values[0]
            if isinstance(head, ast.Constant) and KEY_LIKE.match(str(head.value)):
                found.append(f"{path.name}:{node.lineno} f'{head.value}…'")
        elif isinstance(node, ast.Constant) and KEY_LIKE.match(str(node.value)):
            found.append(f"{path.name}:{node.lineno} {node.value!r}")
    return found


# The verbs of the three games' keys (rules/*/keys.py), followed by their colon.
KEY_VERBS = (
    *("draw", "play", "to", "discard", "change", "take", "row", "seat", "pair", "side"),
    *("block", "move", "menu", "use", "opt", "copt", "copy", "slot", "pay", "top", "bottom"),
    *("fly", "pilot", "ignore", "refresh", "pick", "exhaust", "garage"),
)
KEY_LIKE = re.compile(rf"^({'|'.join(KEY_VERBS)}):[A-Za-z0-9_.+=-]*$")


def test_no_key_string_is_sliced_outside_a_codec() -> None:
    """Only the codecs (rules/*/keys.py, rules/core/keys.py) split, slice or spell a key."""
    root = Path(__file__).resolve().parents[2]
    offenders = [
        hit
        for folder in ("rules", "bot")
        for path in sorted((root / folder).rglob("*.py"))
        if path.name != "keys.py"
        for hit in _key_slicing(path)
    ]
    assert offenders == []


def test_the_slicing_check_sees_a_sliced_key(tmp_path: Path) -> None:
    """Each way of taking a key apart by hand is caught."""
    module = tmp_path / "rules" / "m.py"
    module.parent.mkdir()
    module.write_text(
        "a = k.startswith('play:')\nb = k.partition(':')\nc = f'seat:{x}'\nd = 'draw:pack'\n",
        encoding="utf-8",
    )
    lines = {hit.split()[0] for hit in _key_slicing(module)}
    assert lines == {"m.py:1", "m.py:2", "m.py:3", "m.py:4"}
