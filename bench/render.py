"""Render cost, before → after: drawing, PNG encoding, bytes, the pool and the cache.

"Before" is the previous picture (First in Flight: the whole table, `render_table` — once 960 px
wide, now its phone-sized pages stacked) encoded as before (Pillow, full colour, zlib level 6);
"after" is what the bot posts now (the phone turn picture, encoded by bot/render/png.py). A single
picture is timed "cold" (every band new, as after a restart); a game's pictures move after move are
timed as the bot meets them (the bands a move did not change come from the cache). Crispness: the
PNG decoded back against the drawn picture (share of exact pixels, mean and worst error)."""

from __future__ import annotations

import asyncio
import io
import statistics
import time
from collections.abc import Callable
from typing import Any

from PIL import Image, ImageChops

from bot.render import first_in_flight, png, public_png, renderer_for
from bot.render.common import to_png, to_png_full
from bot.render.pool import RenderPool
from bot.render.samples import after_moves, final, play_until
from rules import GAMES

REPEATS = 9
NAMES = ["Player 1", "Player 2", "Player 3", "Player 4"]


def median_ms(work: Callable[[], Any], repeats: int = REPEATS) -> float:
    """Median CPU time of `work()` in milliseconds (CPU, not wall: the machine is shared, and
    wall time there measures the neighbours as much as the code)."""
    times = []
    for _ in range(repeats):
        start = time.process_time()
        work()
        times.append(time.process_time() - start)
    return statistics.median(times) * 1000


def cold_png(image: Image.Image) -> bytes:
    """The bot's encoding with an empty band cache: every band compressed."""
    return png.encode(image, png.BandCache())


def crispness(image: Image.Image) -> str:
    """How far the PNG the bot posts is from the drawn image, pixel by pixel."""
    decoded = Image.open(io.BytesIO(to_png(image))).convert("RGB")
    diff = ImageChops.difference(decoded, image.convert("RGB")).convert("L")
    hist = diff.histogram()
    total = sum(hist)
    mean = sum(i * n for i, n in enumerate(hist)) / total
    worst = max(i for i, n in enumerate(hist) if n)
    return (
        f"exact {100 * hist[0] / total:.1f} % of pixels, mean error {mean:.2f}/255, worst {worst}"
    )


def _fif_states() -> list[tuple[str, Any]]:
    """4-player First in Flight: mid-Year, mid-Flight and final boards."""
    return [
        ("4p mid-Year", after_moves("first-in-flight", 4, 60, seed=3)),
        (
            "4p mid-Flight",
            play_until(
                "first-in-flight", 4, 3, lambda s: s.flight is not None and len(s.flight.row) >= 4
            ),
        ),
        ("4p final", final("first-in-flight", 4, seed=3)),
    ]


def bench_fif() -> list[str]:
    """Before/after for the 4-player First in Flight board."""
    module = first_in_flight
    lines = []
    for label, state in _fif_states():
        view = GAMES["first-in-flight"].view(state, None)
        old = module.render_table(view, names=NAMES)
        new = module.render_board(view, names=NAMES)
        draw_old = median_ms(lambda v=view: module.render_table(v, names=NAMES))
        draw_new = median_ms(lambda v=view: module.render_board(v, names=NAMES))
        enc_old = median_ms(lambda im=old: to_png_full(im))
        enc_new = median_ms(lambda im=new: cold_png(im))
        enc_same = median_ms(lambda im=old: cold_png(im))
        size_old, size_new = len(to_png_full(old)), len(to_png(new))
        lines += [
            f"  first-in-flight {label}: {old.width}x{old.height} → {new.width}x{new.height}",
            f"    draw   {draw_old:6.1f} → {draw_new:6.1f} ms"
            f"  (after/before {draw_new / draw_old:.2f})",
            f"    encode {enc_old:6.1f} → {enc_new:6.1f} ms  (after/before {enc_new / enc_old:.2f};"
            f" same whole table: {enc_same:.1f} ms, {enc_same / enc_old:.2f})",
            f"    bytes  {size_old / 1024:6.0f} → {size_new / 1024:6.0f} KiB"
            f" (limit 10 MiB; the table itself now {len(to_png(old)) / 1024:.0f} KiB)",
            f"    crispness of the PNG (whole table): {crispness(old)}",
        ]
    return lines


def bench_game(game_id: str, players: int, moves: int) -> list[str]:
    """Drawing and encoding of one game's board and private view: one picture, then a game's
    pictures move after move (the band cache as the bot has it)."""
    renderer = renderer_for(game_id)
    assert renderer is not None
    game, names = GAMES[game_id], NAMES[:players]
    states = [after_moves(game_id, players, moves + n, seed=3) for n in range(12)]
    lines = []
    for label, seat, draw in (("board", None, renderer.board), ("private", 0, renderer.private)):
        view = game.view(states[0], seat)
        image = draw(view, names=names)
        ms = median_ms(lambda d=draw, v=view: d(v, names=names))
        full = median_ms(lambda im=image: to_png_full(im))
        cold = median_ms(lambda im=image: cold_png(im))
        pictures = [draw(game.view(state, seat), names=names) for state in states]
        cache = png.BandCache()
        png.encode(pictures[0], cache)
        seq = [median_ms(lambda im=im, c=cache: png.encode(im, c), 1) for im in pictures[1:]]
        size = statistics.fmean(len(to_png(im)) for im in pictures) / 1024
        lines.append(
            f"  {game_id} {label} {image.width}x{image.height}: draw {ms:.1f} ms; encode "
            f"Pillow z6 {full:.1f} ms {len(to_png_full(image)) / 1024:.0f} KiB → bands cold "
            f"{cold:.1f} ms, move after move {statistics.median(seq):.1f} ms, {size:.0f} KiB; "
            f"{crispness(image)}"
        )
    return lines


def bench_pool() -> list[str]:
    """20 different boards through the pool: 1 vs 2 worker processes; then a cache hit."""
    views = [
        GAMES["first-in-flight"].view(after_moves("first-in-flight", 4, 20 + 7 * i, seed=5), None)
        for i in range(20)
    ]

    async def batch(pool: RenderPool) -> float:
        warm = [pool.render(public_png, "first-in-flight", v, NAMES) for v in views[:4]]
        await asyncio.gather(*warm)  # start every worker before timing
        pool.cache = type(pool.cache)()
        start = time.perf_counter()
        await asyncio.gather(*(pool.render(public_png, "first-in-flight", v, NAMES) for v in views))
        elapsed = time.perf_counter() - start
        hit = time.perf_counter()
        await pool.render(public_png, "first-in-flight", views[-1], NAMES)
        batch.hit_ms = (time.perf_counter() - hit) * 1000  # type: ignore[attr-defined]
        pool.close()
        return elapsed

    results = {w: asyncio.run(batch(RenderPool(w))) for w in (0, 1, 2)}
    hit = batch.hit_ms  # type: ignore[attr-defined]
    return [
        f"  pool, 20 boards: thread {results[0] * 1000:.0f} ms, 1 process "
        f"{results[1] * 1000:.0f} ms, 2 processes {results[2] * 1000:.0f} ms "
        f"(2 vs 1: {results[1] / results[2]:.2f}x faster); a cached view: {hit:.2f} ms",
    ]


def main() -> None:
    """Print before → after figures for drawing, encoding, bytes, the pool and the cache."""
    print(f"render bench (median CPU ms of {REPEATS}; before → after; the pool line is wall time)")
    for line in bench_fif():
        print(line)
    for game_id, players, moves in (("takeoff", 2, 30), ("flight", 4, 40)):
        for line in bench_game(game_id, players, moves):
            print(line)
    for line in bench_pool():
        print(line)


if __name__ == "__main__":
    main()
