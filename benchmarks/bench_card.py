"""How long a cold `cardgen card` takes, against the bare cost of importing its two
main libraries, measured in the same run.

    python benchmarks/bench_card.py [--runs N]

Prints the medians and the ratio. The baseline is a cold
`python -c "import reportlab.pdfgen.canvas, PIL.Image"`: the floor any reportlab and
Pillow tool pays before doing work. The figure to watch is the ratio.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time


def _time(cmd: list[str], cwd: str) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, cwd=cwd, check=True, capture_output=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    py = sys.executable
    with tempfile.TemporaryDirectory() as tmp:
        _time([py, "-m", "cardgen", "card", "-o", "warm"], tmp)  # fill OS file caches
        rows = {
            "baseline: import reportlab + Pillow": [py, "-c",
                                                    "import reportlab.pdfgen.canvas, PIL.Image"],
            "cardgen --help": [py, "-m", "cardgen", "--help"],
            "cardgen card (PDF only)": [py, "-m", "cardgen", "card", "-o", "out", "-f", "pdf"],
            "cardgen card (PDF, SVG, PNG)": [py, "-m", "cardgen", "card", "-o", "out"],
        }
        medians = {name: statistics.median(_time(cmd, tmp) for _ in range(runs))
                   for name, cmd in rows.items()}
    base = medians["baseline: import reportlab + Pillow"]
    print(f"{'command':<40} {'median s':>9} {'× baseline':>11}   ({runs} cold runs each)")
    for name, value in medians.items():
        print(f"{name:<40} {value:9.3f} {value / base:11.2f}")


if __name__ == "__main__":
    main()
