"""Big batches: cards per second per core and peak memory of ``cardgen card --batch``
for 10, 100 and 1 000 people, PDF only and every format, with ``--jobs`` 1 and 2,
against the batch it replaced (every file in memory, written at the end).

    python benchmarks/bench_batch.py [--people 10,100,1000] [--formats pdf,pdf+svg+png]
                                     [--jobs 1,2] [--no-trace] [--trace-up-to PEOPLE]

``--formats sheet`` measures ``cardgen sheet --batch`` (one PDF of duplex sheets) the same
way, against ``benchmarks/sheet_baseline.py`` (every card held, then every sheet imposed
into one document and rendered).

The people are the studio of ``benchmarks/bench_team.py`` (a shared config with a logo;
name, title, e-mail, phone and, for every fifth person, an ability), made the same way
for every size. For each size and set of formats, in this run, each way is measured in a
fresh process of its own (so that one way's peak is not another's):

- **baseline**: ``benchmarks/batch_baseline.py``, a frozen copy of the batch before it
  streamed: every card laid out, then every file rendered into memory, then written as
  one set.
- **jobs N**: ``cardgen card --batch … --jobs N`` in that process: each card made in turn
  (by N worker processes when N > 1) and staged on disk in the output folder, the set
  committed at the end.

Each is timed twice, in two fresh processes: once plain, for the time (wall clock, and
the CPU time of the process and its workers) and the peak resident memory (``getrusage``
``ru_maxrss``: the process's, and the largest worker's), and once under ``tracemalloc``,
for the peak of Python's allocations in the process that holds the batch. Cards per
second per core is the cards over the wall time, over the processes that made them (1,
or N). It checks that every file of every way has the baseline's bytes, and says whether
the peak memory at the largest size is at most twice that at the size before it.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def one(way: str, people: int, formats: str, trace: bool) -> dict[str, Any]:
    """One way, in this (fresh) process: its figures and its files' hashes."""
    sys.path[:0] = [str(HERE), str(HERE.parent)]
    import batch_baseline
    import sheet_baseline
    from bench_team import write_studio

    import cardgen.api.batch
    import cardgen.cli.card
    import cardgen.render  # (imported before the clock starts, for both ways)
    from cardgen.cli import run
    from cardgen.cli.common import parse_formats

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        table, studio = write_studio(folder, people)
        out = folder / "out"
        if trace:
            tracemalloc.start()
        start, times = time.perf_counter(), os.times()
        sheet = formats == "sheet"
        if way == "baseline" and sheet:
            out.mkdir()
            (out / "sheet.pdf").write_bytes(sheet_baseline.sheets(
                cardgen.api.batch.read_people(table, studio)))
        elif way == "baseline":
            batch_baseline.batch(table, studio, out, parse_formats(formats))
        else:
            with open(os.devnull, "w") as null:
                stdout, sys.stdout = sys.stdout, null
                try:
                    code = run(["sheet", "--batch", str(table), str(studio), "-o", str(out),
                                "--jobs", way.split()[1], "-q"] if sheet else
                               ["card", "--batch", str(table), str(studio), "-o", str(out),
                                "-f", formats, "--jobs", way.split()[1], "-q"])
                finally:
                    sys.stdout = stdout
            if code != 0:
                raise SystemExit(f"cardgen {'sheet' if sheet else 'card'} --batch failed "
                                 f"({code})")
        wall = time.perf_counter() - start
        after = os.times()
        traced = tracemalloc.get_traced_memory()[1] if trace else 0
        cpu = sum(after[:4]) - sum(times[:4])  # user and system, this process and workers
        hashes = {p.name: hashlib.sha256(p.read_bytes()).hexdigest()
                  for p in sorted(out.iterdir())}
    return {"wall": wall, "cpu": cpu, "traced": traced,
            "rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
            "rss_workers": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024,
            "files": hashes}


def measure(way: str, people: int, formats: str, trace: bool) -> dict[str, Any]:
    done = subprocess.run([sys.executable, __file__, "--one", way, str(people), formats,
                           "1" if trace else "0"], capture_output=True, text=True,
                          check=False)
    if done.returncode != 0:
        raise SystemExit(done.stderr)
    result: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return result


def mb(size: float) -> str:
    return f"{float(size) / 2**20:8.0f}"


def main() -> None:
    if sys.argv[1:2] == ["--one"]:
        way, people, formats, trace = sys.argv[2:6]
        print(json.dumps(one(way, int(people), formats, trace == "1")))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--people", default="10,100,1000")
    parser.add_argument("--formats", default="pdf,pdf+svg+png",
                        help="sets of formats, comma-separated, each with + inside; "
                             "'sheet' for sheet --batch")
    parser.add_argument("--jobs", default="1,2")
    parser.add_argument("--no-trace", action="store_true",
                        help="skip the tracemalloc runs (half the time)")
    parser.add_argument("--trace-up-to", type=int, default=None, metavar="PEOPLE",
                        help="the tracemalloc runs only up to this many people")
    args = parser.parse_args()
    sizes = [int(n) for n in args.people.split(",")]
    ways = ["baseline", *(f"jobs {j}" for j in args.jobs.split(","))]
    load = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    print(f"Big batches: cardgen card --batch, studio of bench_team.py; load at start: {load}")
    print(f"{'people':>6} {'formats':11} {'way':9} {'wall s':>7} {'cards/s/core':>12} "
          f"{'cards/CPU-s':>11} {'RSS MB':>8} {'worker MB':>9} {'traced MB':>9}  same bytes")
    peaks: dict[tuple[str, str], dict[int, tuple[float, float]]] = {}
    for formats in args.formats.split(","):
        fmt = formats.replace("+", ",")
        if fmt == "sheet":
            fmt = formats
        for people in sizes:
            base: dict[str, Any] | None = None
            for way in ways:
                timed = measure(way, people, fmt, trace=False)
                trace = not args.no_trace and (args.trace_up_to is None
                                               or people <= args.trace_up_to)
                traced = float(measure(way, people, fmt, trace=True)["traced"]) if trace else 0.0
                if way == "baseline":
                    base = timed
                cores = 1 if way == "baseline" else int(way.split()[1])
                wall, cpu = float(timed["wall"]), float(timed["cpu"])
                same = base is not None and timed["files"] == base["files"]
                print(f"{people:6d} {fmt:11} {way:9} {wall:7.1f} {people / wall / cores:12.1f} "
                      f"{people / cpu:11.1f} {mb(timed['rss'])} {mb(timed['rss_workers']):>9} "
                      f"{mb(traced):>9}  {'yes' if same else 'NO'}", flush=True)
                peaks.setdefault((fmt, way), {})[people] = (float(timed["rss"]), traced)
    if len(sizes) >= 2:
        small, large = sizes[-2], sizes[-1]
        print(f"peak memory at {large} people ≤ 2 × that at {small}?")
        for (fmt, way), by_size in peaks.items():
            if small in by_size and large in by_size:
                (rss_s, tr_s), (rss_l, tr_l) = by_size[small], by_size[large]
                traced = ("" if not tr_l or not tr_s else
                          f"; traced {tr_l / 2**20:.0f} vs {tr_s / 2**20:.0f} MB: "
                          f"{'yes' if tr_l <= 2 * tr_s else 'no'} ({tr_l / tr_s:.2f}×)")
                print(f"  {fmt:11} {way:9} RSS {rss_l / 2**20:.0f} vs {rss_s / 2**20:.0f} MB: "
                      f"{'yes' if rss_l <= 2 * rss_s else 'no'} ({rss_l / rss_s:.2f}×){traced}")
    load = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    print(f"load at the end: {load}")


if __name__ == "__main__":
    main()
