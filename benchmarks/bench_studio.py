"""The studio's live picture: the time from saving the card's config to the new picture
in the page, and the server's memory over many edits.

    python benchmarks/bench_studio.py [--edits 20] [--memory-edits 200]

It starts ``cardgen studio card.toml --no-open`` in a process of its own, opens the page
in a headless Chromium (Selenium, Debian's ``chromium`` and ``chromium-driver``), then
saves the config ``--edits`` times, as an editor does (a new file renamed over the old),
each time with another name on the card, and waits for the page to draw it. The time of
an edit is from the save (``time.time()`` just before the rename) to the moment the page
has put the new SVG in its document (its ``Date.now()``, the same clock). Then it makes
``--memory-edits`` more edits and compares the server's resident memory
(``/proc/PID/status`` ``VmRSS``) after them with that after the first ``--edits``.

The baseline, measured in the same run: what a designer did before the studio, saving
and running ``cardgen card card.toml -f svg`` in a fresh process, timed from the start
of the process to its exit (the picture then still has to be opened). It prints the
medians and their ratio.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CONFIG = """\
[person]
name = "{name}"
title = "Game Designer"
phone = "+44 20 7946 0958"
email = "ada@example.com"
"""
NAMES = ("Ada Lovelace", "Grace Hopper", "Katherine Johnson", "Hedy Lamarr",
         "Margaret Hamilton", "Radia Perlman", "Frances Allen", "Barbara Liskov")


def save(path: Path, text: str) -> float:
    """Save as an editor does; the time of the save (epoch seconds)."""
    temporary = path.with_name(f".{path.name}.swp")
    temporary.write_text(text, encoding="utf-8")
    saved = time.time()
    os.replace(temporary, path)
    return saved


def rss_kb(pid: int) -> int:
    """The resident memory of process ``pid`` in KiB (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def shown(driver: Any) -> tuple[int, float, str]:
    shown_at, drawn_at, text = driver.execute_script(
        "const s = document.getElementById('spreads');"
        "return [s.dataset.shown, s.dataset.renderedAt || '0',"
        " document.querySelector('#outside svg')?.textContent || ''];")
    return int(shown_at), float(drawn_at), text


def edit(driver: Any, config: Path, number: int, timeout: float = 60.0) -> float:
    """One edit: save a new name, wait for the page to draw it; seconds it took."""
    from tests.studio_browser import wait_for

    name = f"{NAMES[number % len(NAMES)]} {number}"
    before = shown(driver)[0]
    saved = save(config, CONFIG.format(name=name))
    drawn = wait_for(driver, lambda d: (s := shown(d))[0] > before and name in s[2] and s,
                     f"edit {number} drawn", timeout)
    return drawn[1] / 1000 - saved


def start_studio(folder: Path) -> tuple[subprocess.Popen[str], str]:
    process = subprocess.Popen(
        [sys.executable, "-m", "cardgen", "studio", "card.toml", "--no-open", "-q",
         "-o", "out"], cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True)
    assert process.stdout is not None
    line = process.stdout.readline()
    if not line.startswith("cardgen studio: "):
        process.kill()
        raise RuntimeError(f"the studio did not start: {line!r} {process.stderr.read()!r}")
    return process, line.split(": ", 1)[1].strip()


def measure(edits: int = 20, memory_edits: int = 200, driver: Any = None) -> dict[str, Any]:
    """Run the measure; its figures (seconds, KiB)."""
    from tests.studio_browser import new_browser, wait_for

    own = driver is None
    driver = driver if driver is not None else new_browser()
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        config = folder / "card.toml"
        config.write_text(CONFIG.format(name=NAMES[0]), encoding="utf-8")
        process, url = start_studio(folder)
        try:
            driver.get(url)
            wait_for(driver, lambda d: NAMES[0] in shown(d)[2], "the card appears", 60)
            times = [edit(driver, config, n) for n in range(1, edits + 1)]
            rss_before = rss_kb(process.pid)
            for n in range(edits + 1, edits + memory_edits + 1):
                edit(driver, config, n)
            rss_after = rss_kb(process.pid)
        finally:
            process.terminate()
            process.communicate(timeout=60)
            if own:
                driver.quit()
        baseline = []
        for n in range(5):
            save(config, CONFIG.format(name=f"{NAMES[n]} baseline"))
            started = time.perf_counter()
            subprocess.run([sys.executable, "-m", "cardgen", "card", "card.toml", "-f", "svg",
                            "-q", "-o", "cli"], cwd=folder, check=True,
                           stdout=subprocess.DEVNULL)
            baseline.append(time.perf_counter() - started)
    return {"edits": times, "median": statistics.median(times),
            "rss_before_kb": rss_before, "rss_after_kb": rss_after,
            "memory_edits": memory_edits, "growth": rss_after / rss_before - 1,
            "baseline_median": statistics.median(baseline)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--edits", type=int, default=20)
    parser.add_argument("--memory-edits", type=int, default=200)
    args = parser.parse_args()
    figures = measure(args.edits, args.memory_edits)
    times = sorted(figures["edits"])
    print(f"save -> new picture in the page, {len(times)} edits: median "
          f"{figures['median'] * 1000:.0f} ms (fastest {times[0] * 1000:.0f} ms, slowest "
          f"{times[-1] * 1000:.0f} ms)")
    print(f"baseline, cardgen card -f svg in a fresh process: median "
          f"{figures['baseline_median'] * 1000:.0f} ms; the studio is "
          f"{figures['baseline_median'] / figures['median']:.1f}x quicker")
    print(f"server memory: {figures['rss_before_kb'] / 1024:.1f} MiB after {len(times)} "
          f"edits, {figures['rss_after_kb'] / 1024:.1f} MiB after {figures['memory_edits']} "
          f"more ({figures['growth'] * 100:+.1f} %)")


if __name__ == "__main__":
    main()
