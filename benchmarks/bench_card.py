"""How long cold cardgen commands take, each against the floor it cannot go below,
measured in the same run with whole processes interleaved (floor, command, floor,
command, ...).

    python benchmarks/bench_card.py [--runs N] [--cardgen-from FOLDER]

Each row pairs a command with its floor:

- ``cardgen card -f pdf``, ``cardgen card`` (PDF, SVG and PNG) and ``cardgen rules all``
  against ``python -c "import reportlab.pdfgen.canvas, PIL.Image"``: what any reportlab and
  Pillow tool pays before it does any work;
- ``cardgen --help`` against ``python -c "import typer"`` (and, for reference, against
  ``import typer, typer.rich_utils``, what Typer's own help screens import: Rich's
  Markdown and Syntax with markdown-it and Pygments; and against ``import typer`` with
  the Rich modules cardgen draws its help screens with, cardgen.cli.helpscreen's);
- the light commands ``cardgen rotator solve BOARD`` and ``cardgen connector validate
  FILE`` against ``python -c pass``, a bare interpreter.

For each pair the runs alternate (A B A B ...), after one warm-up run of each to fill
the OS file caches and Python's bytecode caches (``__pycache__``, which an installed
package has: the runs ignore ``PYTHONDONTWRITEBYTECODE``), and the medians are
compared: CPU (user + system of the process, the figure the targets are about) and wall.
Every command must exit 0, and every run of a command must write the same bytes (the
check that it did the same work each time).
Prints one row per pair, and the load of the machine (``os.getloadavg``) before and after.
``--cardgen-from`` times the cardgen of another checkout (``git worktree add /tmp/old
main``), for a before and after on the same machine.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BOARD = "R1:B2B8E4I2I8-B4E2E8H4I9"
ASSEMBLY = ROOT / "templates" / "connector" / "reflector.toml"
ENV = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}


def _run(cmd: list[str], cwd: Path) -> tuple[float, float, str]:
    """Run ``cmd`` in ``cwd`` (its output folder ``out`` emptied first): its CPU seconds
    (user + system), its wall seconds, and a digest of its stdout and the files written."""
    shutil.rmtree(cwd / "out", ignore_errors=True)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=cwd, capture_output=True, env=ENV)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} exited {done.returncode}: {done.stderr.decode()}")
    digest = hashlib.sha256(done.stdout)
    if (cwd / "out").is_dir():
        for path in sorted((cwd / "out").iterdir()):
            digest.update(path.name.encode() + path.read_bytes())
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall, digest.hexdigest()


def _pair(floor: list[str], command: list[str], runs: int, cwd: Path
          ) -> tuple[float, float, float, float]:
    """Medians of CPU and wall of ``floor`` and ``command``, interleaved."""
    _run(floor, cwd), _run(command, cwd)  # warm-up
    times: dict[int, list[tuple[float, float]]] = {0: [], 1: []}
    digests: set[str] = set()
    for _ in range(runs):
        for which, cmd in enumerate((floor, command)):
            cpu, wall, digest = _run(cmd, cwd)
            times[which].append((cpu, wall))
            if which:
                digests.add(digest)
    if len(digests) != 1:
        raise SystemExit(f"{' '.join(command)} wrote other bytes on another run")
    return (statistics.median(c for c, _ in times[0]), statistics.median(w for _, w in times[0]),
            statistics.median(c for c, _ in times[1]), statistics.median(w for _, w in times[1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs of each (default 5)")
    parser.add_argument("--cardgen-from", type=Path, default=None,
                        help="the checkout whose cardgen to time (default: this one)")
    args = parser.parse_args()
    runs = args.runs
    if args.cardgen_from is not None:
        ENV["PYTHONPATH"] = str(args.cardgen_from.resolve())
    py = sys.executable
    cardgen = [py, "-m", "cardgen"]
    imports = [py, "-c", "import reportlab.pdfgen.canvas, PIL.Image"]
    typer_alone = [py, "-c", "import typer"]
    typer_help = [py, "-c", "import typer, typer.rich_utils"]
    typer_rich = [py, "-c", "import typer, rich.console, rich.table, rich.panel, rich.columns, "
                  "rich.padding, rich.align, rich.theme, rich.highlighter"]
    bare = [py, "-c", "pass"]
    rows = [
        ("cardgen card -f pdf", "import reportlab+PIL", imports,
         [*cardgen, "card", "-o", "out", "-f", "pdf"]),
        ("cardgen card (PDF, SVG, PNG)", "import reportlab+PIL", imports,
         [*cardgen, "card", "-o", "out"]),
        ("cardgen rules all", "import reportlab+PIL", imports,
         [*cardgen, "rules", "all", "-o", "out"]),
        ("cardgen --help", "import typer", typer_alone, [*cardgen, "--help"]),
        ("cardgen --help", "import typer+rich_utils", typer_help, [*cardgen, "--help"]),
        ("cardgen --help", "import typer+light Rich", typer_rich, [*cardgen, "--help"]),
        ("cardgen rotator solve BOARD", "python -c pass", bare,
         [*cardgen, "rotator", "solve", BOARD]),
        ("cardgen connector validate FILE", "python -c pass", bare,
         [*cardgen, "connector", "validate", str(ASSEMBLY)]),
    ]
    source = args.cardgen_from or ROOT
    print(f"cardgen from {source}; load before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; "
          f"{runs} interleaved cold runs of each, medians; every run exited 0 with the same bytes")
    print(f"{'command':<32} {'floor':<24} {'CPU s':>6} {'floor':>6} {'ratio':>6} "
          f"{'wall s':>7} {'floor':>6} {'ratio':>6}")
    ENV["COLUMNS"] = "80"  # the same help screen whatever the terminal
    with tempfile.TemporaryDirectory() as tmp:
        for name, floor_name, floor, command in rows:
            f_cpu, f_wall, c_cpu, c_wall = _pair(floor, command, runs, Path(tmp))
            print(f"{name:<32} {floor_name:<24} {c_cpu:6.3f} {f_cpu:6.3f} "
                  f"{c_cpu / f_cpu:6.2f} {c_wall:7.3f} {f_wall:6.3f} {c_wall / f_wall:6.2f}",
                  flush=True)
    print(f"load after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
