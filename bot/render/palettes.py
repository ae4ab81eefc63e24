"""Making each game's house palette: the colours its pictures are mostly made of, in order.

A picture of at most 256 colours is stored with a palette (png.py). If each picture's palette
were only its own colours in order, one new colour (a seat's token, a card's band) would shift
the indices of most colours, and every band of the picture would be deflated again. A picture
of a game starts from the game's house palette instead: a colour of the house palette always has
the same index, so an unchanged band keeps its compressed bytes from move to move and from the
board to a seat's view; colours outside it follow, in order. The bytes depend on the pixels only.

The palettes are data (`assets/palettes.json`, read by common.house), made from seeded games
drawn in full by `python -m bot.render.palettes`; a test checks the file is what that makes. A
colour missing from the file costs bytes and time, never a wrong pixel.
"""

from __future__ import annotations

import json
import random
import sys
from collections import Counter
from collections.abc import Iterator
from typing import Any

from PIL import Image

from bot.render.common import PALETTES_FILE
from bot.render.png import pack
from rules import GAMES

# Colours kept per game: room is left for the colours of a picture outside them (256 in all).
HOUSE_COLOURS = 240
SEEDS = (1, 2)
STATES = 10  # states drawn per seeded game, evenly spread over it


def _states(game_id: str, players: int, seed: int) -> list[Any]:
    """STATES states of a seeded random game, evenly spread from its start to its end."""
    game = GAMES[game_id]
    state = game.new_game(seed, players, None)
    rng = random.Random(seed)
    played = [state]
    while (active := game.active_players(state)) and len(played) < 4000:
        key = rng.choice(game.legal_actions(state, active[0])).key
        state = game.apply(state, active[0], key).state
        played.append(state)
    step = max(1, len(played) // STATES)
    return [*played[::step][:STATES], played[-1]]


def _pictures(game_id: str) -> Iterator[Image.Image]:
    """The boards, live pictures and every seat's view of seeded games of every size."""
    from bot.render import renderer_for  # the registry imports this module's users

    renderer = renderer_for(game_id)
    assert renderer is not None
    game = GAMES[game_id]
    names = [f"Player {n + 1}" for n in range(game.max_players)]
    for players in sorted({game.min_players, game.max_players}):
        for seed in SEEDS:
            for state in _states(game_id, players, seed):
                public = game.view(state, None)
                yield renderer.board(public, names=names[:players])
                if renderer.live is not None:
                    yield renderer.live(public, names=names[:players])
                for seat in range(players):
                    yield renderer.private(game.view(state, seat), names=names[:players])


def made(game_id: str) -> list[str]:
    """The house palette drawn from seeded games: the HOUSE_COLOURS colours found in the most
    pictures, in order, as hex."""
    seen: Counter[int] = Counter()
    for picture in _pictures(game_id):
        found: list[tuple[int, Any]] = picture.convert("RGB").getcolors(1 << 16) or []
        seen.update(pack(colour) for _, colour in found)
    common = sorted(seen, key=lambda colour: (-seen[colour], colour))[:HOUSE_COLOURS]
    return [f"{colour:06x}" for colour in sorted(common)]


def written(data: dict[str, list[str]]) -> str:
    """The file's text: one game a line."""
    lines = [f"  {json.dumps(game_id)}: {json.dumps(colours)}" for game_id, colours in data.items()]
    return "{\n" + ",\n".join(lines) + "\n}\n"


# Games whose pictures are stored with a palette. First in Flight's are not: its pictures have
# up to 240 colours and, with cards coming and going, a new set of colours outside its house
# palette nearly every move, and Pillow's lookup fills its cache anew for each new palette (the
# bench: its render worker took 17.8 ms a move against 11.0 in full colour, for 132 -> 47 KiB).
PALETTE_GAMES = ("takeoff", "flight")


def main() -> None:
    """Write assets/palettes.json from seeded games of the games stored with a palette."""
    data = {game_id: made(game_id) for game_id in PALETTE_GAMES}
    PALETTES_FILE.write_text(written(data))
    sizes = ", ".join(f"{game_id} {len(colours)}" for game_id, colours in data.items())
    print(f"wrote {PALETTES_FILE.name}: {sizes}", file=sys.stderr)


if __name__ == "__main__":
    main()
