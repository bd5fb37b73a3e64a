"""The Connector: validating an assembly, and the solver per game.

    python benchmarks/bench_connector.py [--repeat N] [--preset eu|us]

Validation: every shipped assembly is judged ``--repeat`` times warm (the layout already
read), by cardgen's validator and by a baseline that decides what covers a fragment the
straightforward way, by testing points 0.2 mm apart over the fragment against every box
above it (the rest of the validation is shared). Both must agree.

The solver: for each game, the time to find the smallest assembly with the sound cut
(the default), and, as the baseline, the same exhaustive search judging every assembly
(``cut=False``): for Defector only up to four cards, since judging every five-card
assembly takes minutes. Both must agree on every count they both searched.

The check (``cardgen connector check``: every game solved, each answer shaken within the
tolerance) in CPU seconds of this process, against the way it ran before the speed work
of issue 23: boxes placed by ``Box.transformed``, ``overlaps`` on the box properties,
what a card shows found anew for each card of each scene, and each shake's connections
measured anew. Both must give the same problems.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Iterable

import cardgen.connector.model as model
import cardgen.connector.solve as solve_module
import cardgen.connector.tolerance as tolerance
import cardgen.connector.validate as validate_module
from cardgen.connector.assembly import read_assembly, shipped_assembly_path
from cardgen.connector.check import game_problems
from cardgen.connector.layout import bundled_layout
from cardgen.connector.model import CardLayout, Cover, Placed, Scene
from cardgen.connector.solve import solve
from cardgen.connector.validate import validate
from cardgen.draw.geometry import Box
from cardgen.games.names import CONNECTOR_GAMES, GameName
from cardgen.physical.card import Preset

STEP = 0.2  # mm between the baseline's sample points


def sampled_cover(scene: Scene, placed: Placed, below: int | None = None
                  ) -> tuple[Cover, list[int]]:
    """The baseline: sample the fragment's box and look each point up in the boxes
    above it."""
    coverers = scene.coverers(placed, below)
    box = placed.box
    nx, ny = max(int(box.w / STEP), 1), max(int(box.h / STEP), 1)
    hit = 0
    cards: list[int] = []
    for i in range(nx):
        for j in range(ny):
            x, y = box.x + (i + 0.5) * box.w / nx, box.y + (j + 0.5) * box.h / ny
            for card, c in coverers:
                if c.contains(x, y, 0.0) and (c.x < x < c.right and c.y < y < c.bottom):
                    hit += 1
                    if card not in cards:
                        cards.append(card)
                    break
    if hit == 0:
        return Cover.VISIBLE, []
    return (Cover.COVERED if hit == nx * ny else Cover.PARTLY), cards


def timed(fn, repeat: int) -> list[float]:  # type: ignore[no-untyped-def]
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        out.append(time.perf_counter() - start)
    return out


def ms(times: Iterable[float]) -> str:
    return f"{statistics.median(times) * 1000:8.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--preset", default="eu", choices=[p.value for p in Preset])
    args = parser.parse_args()
    preset = Preset(args.preset)
    layout = bundled_layout(preset)

    print(f"Validation, warm, median of {args.repeat} ({preset.value} card)")
    print(f"{'game':<10} {'cards':>5} {'cardgen ms':>11} {'baseline ms':>12} {'ratio':>7}")
    original = Scene.cover
    for game in CONNECTOR_GAMES:
        assembly = read_assembly(shipped_assembly_path(game, preset))
        ours = timed(lambda a=assembly: validate(layout, a), args.repeat)
        report = validate(layout, assembly)
        Scene.cover = sampled_cover  # type: ignore[method-assign,assignment]
        try:
            base = timed(lambda a=assembly: validate_module.validate(layout, a), args.repeat)
            baseline_report = validate(layout, assembly)
        finally:
            Scene.cover = original  # type: ignore[method-assign]
        assert baseline_report.problems == report.problems, game
        ratio = statistics.median(base) / statistics.median(ours)
        print(f"{game.value:<10} {report.cards:>5} {ms(ours):>11} {ms(base):>12} "
              f"{ratio:>6.1f}×")

    print(f"\nSolver: the smallest assembly ({preset.value} card)")
    print(f"{'game':<10} {'cards':>5} {'cut s':>8} {'judged':>8} {'no-cut s':>9} "
          f"{'judged':>8} {'ratio':>7}")
    for game in CONNECTOR_GAMES:
        start = time.perf_counter()
        result = solve(layout, game, preset.value)
        t_cut = time.perf_counter() - start
        limit = 4 if game is GameName.DEFECTOR else 8
        start = time.perf_counter()
        full = solve(layout, game, preset.value, max_cards=limit, cut=False)
        t_full = time.perf_counter() - start
        start = time.perf_counter()
        same = solve(layout, game, preset.value, max_cards=limit)
        t_same = time.perf_counter() - start
        assert (full.cards or 0) == (same.cards or 0), game
        note = "" if limit >= (result.cards or 0) else f"  (both up to {limit} cards)"
        ratio = t_full / t_same if t_same > 0 else float("inf")
        print(f"{game.value:<10} {result.cards!s:>5} {t_cut:>8.2f} "
              f"{result.total_searched:>8} {t_full:>9.2f} {full.total_searched:>8} "
              f"{ratio:>6.1f}×{note}")
    bench_check(preset)


def plain_overlaps(a: Box, b: Box) -> bool:
    """``overlaps`` as it is defined, on the box's own properties: the baseline here and
    the reference of tests/test_connector.py."""
    w = min(a.right, b.right) - max(a.x, b.x)
    h = min(a.bottom, b.bottom) - max(a.y, b.y)
    return w > 0 and h > 0 and w * h > model.AREA_EPS


def old_check(layout: CardLayout, preset: str) -> list[str]:
    """``game_problems`` as it ran before issue 23 (see the module docstring)."""
    patches = [(model, "_transformed", lambda box, t: box.transformed(t)),
               (model, "overlaps", plain_overlaps), (solve_module, "overlaps", plain_overlaps),
               (CardLayout, "present", CardLayout._find_present)]
    real_fit = tolerance._fit
    patches.append((tolerance, "_fit", lambda report, shift, offsets: real_fit(
        report, shift, tolerance.connection_offsets(report))))
    saved = [(owner, name, owner.__dict__[name]) for owner, name, _ in patches]
    for owner, name, value in patches:
        setattr(owner, name, value)
    try:
        return game_problems(layout, preset)
    finally:
        for owner, name, value in saved:
            setattr(owner, name, value)


def bench_check(preset: Preset) -> None:
    layout = bundled_layout(preset)
    game_problems(layout, preset.value)  # warm: the layout read, the caches filled
    start = time.process_time()
    new = game_problems(layout, preset.value)
    middle = time.process_time()
    old = old_check(layout, preset.value)
    end = time.process_time()
    assert new == old, (new, old)
    print(f"\nconnector check ({preset.value} card), CPU s: before {end - middle:.2f} s → "
          f"{middle - start:.2f} s ({(end - middle) / (middle - start):.1f}×), the same "
          "problems")


if __name__ == "__main__":
    main()
