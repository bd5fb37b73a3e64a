"""Team previews: what a card costs in ``cardgen card --batch`` with every format
(``-f pdf,svg,png``), with PNGs at print settings (the baseline) and as previews.

    python benchmarks/bench_previews.py [--people 20] [--rounds 3]

The studio of ``benchmarks/bench_team.py`` (a shared config with a logo; name, title,
e-mail, phone and, for every fifth person, an ability) is printed in this process as
``cardgen card --batch`` does it: every card laid out, rendered and written as one set.
Two ways, interleaved (baseline, new, baseline, new …), ``--rounds`` times each:

- **baseline**: the PNGs at 300 dpi, compressed at zlib level 6, drawn by the
  rasterizer as it was (``benchmarks/png_baseline.py``, a frozen copy: each card's logo
  resampled and each text rendered for it): how every batch made its PNGs before they
  became previews.
- **previews**: the PNGs at the batch's preview resolution
  (:data:`cardgen.card.batch.PREVIEW_DPI`, 150 dpi) at zlib's fastest level, the shared
  logo resampled and the shared text rendered once: what ``cardgen card --batch`` does
  now.

Both include laying the cards out and writing the files. The time is CPU time
(``time.process_time``) per card, the median of the rounds; the ratio is the baseline's
over each way's. Two more ways, in the same rounds: the batch with ``--dpi 300`` (PNGs at
print resolution, as previews otherwise), and with ``-f pdf`` alone, for reference.

It checks that the PDFs and SVGs of both ways are byte-identical, and that each preview
PNG decodes to the very pixels of the same page drawn by the frozen rasterizer at 150 dpi
and compressed at zlib level 6 (what is kept between cards, and the fast level, change the
time and the file, never the picture), and says so.
"""

from __future__ import annotations

import argparse
import io
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import png_baseline
from bench_team import write_studio

from cardgen.draw.page import View

T = TypeVar("T")


def batch(table: Path, studio: Path, output: Path, formats: str, *, dpi: float,
          baseline: bool) -> dict[Path, bytes]:
    """``cardgen card --batch table studio -o output -f formats`` as the command does it,
    with the PNGs at ``dpi``: as previews, or (``baseline``) by the frozen rasterizer at
    zlib level 6."""
    from benchmarks.batch_baseline import team_files as _team_files
    from cardgen.card.batch import build_team
    from cardgen.cli.common import parse_formats
    from cardgen.output import write_set
    from cardgen.prepress.dieline import DielineMode
    from cardgen.render import png

    current = png.render_png
    if baseline:
        png.render_png = _baseline_png
    try:
        cards = build_team(table, studio, DielineMode.FILE)
        _, files, _ = _team_files(cards, output, parse_formats(formats), cmyk=True,
                                  dpi=dpi, fast=not baseline)
        write_set(files)
    finally:
        png.render_png = current
    return files


def _baseline_png(view: View, dpi: float = 300, *, level: int = 6) -> bytes:
    assert level == 6  # (the frozen copy compresses at 6, as every PNG was)
    return png_baseline.render_png(view, dpi)


def cpu(run: Callable[[], T]) -> tuple[float, T]:
    start = time.process_time()
    result = run()
    return time.process_time() - start, result


def same_pixels(new: dict[Path, bytes], plain: dict[Path, bytes]) -> bool:
    """Every PNG of ``new`` decodes to the pixels of the same file in ``plain``, at the
    same size and recorded resolution."""
    from PIL import Image

    for path, data in new.items():
        if path.suffix != ".png":
            continue
        with Image.open(io.BytesIO(data)) as a, Image.open(io.BytesIO(plain[path])) as b:
            if (a.size, a.mode, a.info.get("dpi"), a.tobytes()) != (
                    b.size, b.mode, b.info.get("dpi"), b.tobytes()):
                return False
    return True


def main() -> None:
    from cardgen.card.batch import PREVIEW_DPI

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--people", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    n = args.people
    every = "pdf,svg,png"
    ways = {  # label -> (formats, PNG resolution, baseline)
        "-f pdf,svg,png, PNG 300 dpi zlib 6 (baseline)": (every, 300, True),
        f"-f pdf,svg,png, PNG {PREVIEW_DPI:g} dpi zlib 1 (previews)": (every, PREVIEW_DPI,
                                                                      False),
        "-f pdf,svg,png --dpi 300, PNG zlib 1": (every, 300, False),
        "-f pdf (for reference)": ("pdf", PREVIEW_DPI, False),
    }
    baseline, previews = list(ways)[:2]
    times: dict[str, list[float]] = {label: [] for label in ways}
    files: dict[str, dict[Path, bytes]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        table, studio = write_studio(folder, n)
        out = folder / "out"
        # Warm: the fonts, the layouts and the logo are read once per process.
        batch(table, studio, out, "pdf", dpi=PREVIEW_DPI, baseline=False)
        for _ in range(args.rounds):
            for label, (formats, dpi, old) in ways.items():
                seconds, made = cpu(lambda f=formats, d=dpi, o=old: batch(
                    table, studio, out, f, dpi=d, baseline=o))
                times[label].append(seconds / n)
                files[label] = made
        plain = batch(table, studio, out, "png", dpi=PREVIEW_DPI, baseline=True)
    old, new = files[baseline], files[previews]
    print_files = [p for p in new if p.suffix in (".pdf", ".svg")]
    identical = sorted(new) == sorted(old) and all(new[p] == old[p] for p in print_files)
    pixels = same_pixels(new, plain)
    load = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    ms = {label: statistics.median(seconds) * 1000 for label, seconds in times.items()}
    print(f"Team previews: {n} people, cardgen card --batch, CPU ms per card "
          f"(median of {args.rounds} interleaved rounds)")
    print(f"{'how':46} {'ms per card':>11} {'PNG kB/card':>12} {'ratio':>6}")
    for label in ways:
        pngs = [len(d) for p, d in files[label].items() if p.suffix == ".png"]
        size = f"{sum(pngs) / n / 1000:12.0f}" if pngs else f"{'-':>12}"
        print(f"{label:46} {ms[label]:11.0f} {size} {ms[baseline] / ms[label]:5.1f}×")
    print(f"PDF and SVG files byte-identical to the baseline's: "
          f"{'yes' if identical else 'NO'} ({len(print_files)} files)")
    print(f"preview PNGs decode to the pixels the frozen rasterizer draws at "
          f"{PREVIEW_DPI:g} dpi (zlib level 6): {'yes' if pixels else 'NO'} "
          f"({sum(p.suffix == '.png' for p in new)} files)")
    print(f"load: {load}")
    if not (identical and pixels):
        raise SystemExit(1)


if __name__ == "__main__":
    main()
