"""Reading hostile input: each fast path against the plain way, in this process.

    python benchmarks/bench_hostile.py [--runs N]

For each row both ways run here, on the same input, and must give the same answer; the
table shows the median CPU seconds (``time.process_time``) of each and the ratio
plain / fast (above 1: the fast way is faster). The rows:

- the first control character of a field (``cardgen.chars.control_character``, one
  regular expression) against the walk over its characters it replaced, on a megabyte
  of letters and on a card's fields;
- a board ID read cell by cell (``board._read_id(..., runs=False)``) and in runs of
  cells, a megabyte long and as people type one;
- a theme read twice, as ``card --theme`` reads it, afresh each time
  (``themes._theme.__wrapped__``) and remembered the second time (``load_theme``);
- the top of a megabyte text's ink at the 14 sizes fitting tries, measured each time
  (``FontMetrics.ink_top_units``) and measured once, then remembered (``ink_top_mm``).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cardgen.card.themes import _theme, load_theme, theme_path
from cardgen.chars import control_character
from cardgen.games.rotator.board import _read_id
from cardgen.text.fonts import MM_PER_PT, bundled_fonts


def _plain_control_character(text: str, allowed: str = "") -> str | None:
    """control_character as it was: a walk over the characters."""
    for ch in dict.fromkeys(text):
        if ch not in allowed and unicodedata.category(ch) in ("Cc", "Zl", "Zp"):
            return ch
    return None


def _median(make: Callable[[], Any], runs: int) -> tuple[float, Any]:
    times, result = [], None
    for _ in range(runs):
        start = time.process_time()
        result = make()
        times.append(time.process_time() - start)
    return statistics.median(times), result


def _row(name: str, plain: Callable[[], Any], fast: Callable[[], Any], runs: int) -> None:
    old, expected = _median(plain, runs)
    new, got = _median(fast, runs)
    assert got == expected, name
    print(f"{name:<44} {old:9.4f} {new:9.4f} {old / new:7.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    print(f"{'what':<44} {'plain s':>9} {'fast s':>9} {'ratio':>7}   (median of {runs})")
    big = "x" * 1_000_000
    _row("control character, a megabyte of letters", lambda: _plain_control_character(big),
         lambda: control_character(big), runs)
    fields = ["Ada Example", "Puzzle Designer", "Example Games", "ada@example.org",
              "+1 555 0100", "example.org", "12 Harbour Street\nLeith"] * 100
    _row(f"control character, {len(fields)} card fields",
         lambda: [_plain_control_character(f, "\n") for f in fields],
         lambda: [control_character(f, "\n") for f in fields], runs)
    for name, board_id in (("board ID, a megabyte of cells",
                            "R1:" + "B2" * 250_000 + "-" + "E4" * 250_000),
                           ("board ID, 300 typed ones", "r1: b2b8e4i2i8 - b4e2e8h4i9")):
        times = 300 if "typed" in name else 1
        _row(name, lambda i=board_id, n=times: [_read_id(i, "ID", i, runs=False)
                                                for _ in range(n)],
             lambda i=board_id, n=times: [_read_id(i, "ID", i) for _ in range(n)], runs)
    path = theme_path("dark")
    text = path.read_text(encoding="utf-8")

    def twice() -> list[Any]:  # as card --theme reads it, from a cold start
        _theme.cache_clear()
        return [load_theme("dark") for _ in range(2)]

    _row("theme dark, read twice", lambda: [_theme.__wrapped__(path, text, "dark")
                                            for _ in range(2)], twice, runs)
    metrics = bundled_fonts().regular.metrics
    sizes = [6 + i / 2 for i in range(14)]
    em = metrics.units_per_em
    _row("ink top, a megabyte at 14 sizes",
         lambda: [metrics.ink_top_units(big) * s / em * MM_PER_PT for s in sizes],
         lambda: metrics._tops.clear() or [metrics.ink_top_mm(big, s) for s in sizes], runs)


if __name__ == "__main__":
    main()
