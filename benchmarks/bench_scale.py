"""What one core makes in an hour, through the library (``import cardgen``), against one
``cardgen`` process per item, the way a task system that shells out would run it.

    python benchmarks/bench_scale.py [--items 20] [--cold 4] [--boards 12]

Each product is made ``--items`` times in this process through the public API (warm: the
fonts and layouts read once, as in a long-lived worker), and ``--cold`` times as a new
``cardgen`` process (the baseline: Python's start, the imports and the fonts every
time). CPU seconds per item (this process's, or the child's user + system), the items
per hour per core they mean, and the ratio; both ways must give the same bytes, which
the script checks and says.

- a card: PDF only; its PNG previews at 150 dpi; and PDF, SVGs and PNGs at 300 dpi
  (``make_card``; ``cardgen card``), with the size of its files;
- Rotator boards of each grade, generated, proved, graded and printed as a book
  (``generate_rotator`` and ``make_rotator_book``, ``--boards`` per grade, one job;
  ``cardgen rotator generate``), per board;
- a book of 12 boards of mixed grades (``generate_rotator`` and ``make_rotator_book``),
  per book;
- the rules book of all six games (``make_rules``; ``cardgen rules all``).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import cardgen  # noqa: E402

CONFIG = """\
[person]
name = "Person {i:03d}"
title = "Game Designer"
company = "Paper Lantern Games"
email = "p{i}@paperlantern.example"
phone = "+44 20 7946 {phone}"
web = "paperlantern.example"
"""


def config(i: int) -> str:
    return CONFIG.format(i=i, phone=1000 + i)


def cpu() -> float:
    return time.process_time()


def child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def cold(args: list[str], folder: Path) -> tuple[float, dict[str, bytes]]:
    """One cardgen process: its CPU seconds and the files it wrote."""
    out = folder / f"cold-{len(list(folder.iterdir()))}"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    before = child_cpu()
    subprocess.run([sys.executable, "-m", "cardgen", *args, "-o", str(out), "-q"],
                   check=True, env=env, cwd=folder, stdout=subprocess.DEVNULL)
    spent = child_cpu() - before
    return spent, {p.name: p.read_bytes() for p in sorted(out.iterdir())}


def warm(make: Callable[[int], dict[str, bytes]],
         items: int) -> tuple[float, list[dict[str, bytes]]]:
    make(0)  # the first call reads the fonts and layouts, as a worker's first task does
    start = cpu()
    made = [make(i) for i in range(items)]
    return (cpu() - start) / items, made


def row(what: str, unit: str, library: float, process: float, same: bool) -> None:
    print(f"  {what:<34} library {library * 1000:8.1f} ms/{unit}  "
          f"({3600 / library:9,.0f} {unit}s/hour/core)   "
          f"one process each {process * 1000:8.1f} ms  ratio {process / library:5.1f}x   "
          f"same bytes: {'yes' if same else 'NO'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--items", type=int, default=20)
    parser.add_argument("--cold", type=int, default=4)
    parser.add_argument("--boards", type=int, default=12)
    args = parser.parse_args()
    load = os.getloadavg()[0]
    print(f"cardgen {cardgen.__version__}, load {load:.1f}, CPU seconds per item")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for fmt, dpi, label in (("pdf", 300, "card, PDF"),
                                ("png", 150, "card preview, PNGs at 150 dpi"),
                                ("pdf,svg,png", 300, "card, PDF + SVGs + PNGs at 300 dpi")):
            def card(i: int, fmt: str = fmt, dpi: int = dpi) -> dict[str, bytes]:
                return dict(cardgen.make_card(config(i), formats=fmt, dpi=dpi).files)

            library, made = warm(card, args.items)
            spent, same = 0.0, True
            for i in range(args.cold):
                path = folder / f"p{i}.toml"
                path.write_text(config(i), encoding="utf-8")
                took, files = cold(["card", str(path), "-f", fmt, "--dpi", str(dpi)]
                                   if "png" in fmt else ["card", str(path), "-f", fmt], folder)
                spent += took
                same &= files == made[i]
            row(label, "card", library, spent / args.cold, same)
            size = sum(len(data) for files in made for data in files.values()) / len(made)
            print(f"  {'':<34} {size / 1024:,.0f} KB of files a card")

        for grade in ("easy", "medium", "hard"):
            start = cpu()
            made_boards = cardgen.generate_rotator(seed=2026, count=args.boards,
                                                   difficulty=grade, jobs=1)
            book = dict(cardgen.make_rotator_book(made_boards).files)
            library = (cpu() - start) / args.boards
            took, files = cold(["rotator", "generate", "--seed", "2026", "--count",
                                str(args.boards), "--difficulty", grade, "--jobs", "1"],
                               folder)
            row(f"Rotator board, {grade}", "board", library, took / args.boards,
                files == book)

        start = cpu()
        generation = cardgen.generate_rotator(seed=7, count=12, jobs=1)
        book = dict(cardgen.make_rotator_book(generation).files)
        library = cpu() - start
        took, files = cold(["rotator", "generate", "--seed", "7", "--count", "12",
                            "--jobs", "1"], folder)
        row("book of 12 boards, mixed grades", "book", library, took, files == book)

        def rules(i: int) -> dict[str, bytes]:
            return dict(cardgen.make_rules("all").files)

        library, made = warm(rules, max(2, args.items // 10))
        took, files = cold(["rules", "all"], folder)
        row("rules book of the six games", "book", library, took, files == made[0])


if __name__ == "__main__":
    main()
