"""Text and fonts (issue 26): measuring by runs, reportlab's C accelerator, the font cache.

    python benchmarks/bench_text.py [--runs N]

Three parts, each against its baseline measured in the same run, each checking that both
ways give the same answer:

1. Word wrapping of the text of ``cardgen rules all`` (every paragraph and table cell the
   book wraps, recorded from a real run), in this process: the wrapping it replaced,
   which measured each trial line afresh character by character (kept as
   ``benchmarks/text_baseline.py``), against ``cardgen.text.fit`` (by runs); each pass
   starts with the faces' memory of measured texts empty. CPU seconds
   (``time.process_time``), the same lines from both.
2. reportlab's optional C accelerator (``rl_accel``, the ``fast`` extra): the PDF of
   ``rules all`` written in this process with reportlab's accelerated functions in place
   and with its pure-Python fallbacks swapped in (passes alternate), and whole
   ``cardgen rules all`` processes with and without it (alternating, CPU user+sys);
   the same bytes either way. Skipped when the accelerator is not installed.
3. The bundled fonts' cache: whole ``cardgen card -f pdf`` processes (alternating) with
   the cache turned off (every run reads the fonts, as before the cache), with a warm
   cache, and with a cold one (the first run, which fills it); and, inside each process,
   the CPU spent loading the three faces' metrics and the extents of a line of text
   (fontTools' import included when it is needed; cardgen's font module is imported
   before the clock starts). The same PDF bytes from all.

Medians of ``--runs`` (at least 3). The machine's load (``os.getloadavg``) is printed.
The font cache is kept in a temporary folder of the run, never the user's.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import text_baseline as baseline  # noqa: E402
from cardgen.text import fit, fonts  # noqa: E402


def _median_cpu(work: Callable[[], Any], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.process_time()
        work()
        times.append(time.process_time() - start)
    return statistics.median(times)


def _process_cpu(cmd: list[str], env: dict[str, str], cwd: str) -> tuple[float, str]:
    """User+sys CPU seconds of one whole process, and its last line of output."""
    process = subprocess.Popen(cmd, env=env, cwd=cwd, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True)
    out = process.stdout.read() if process.stdout else ""
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode:
        raise SystemExit(f"{' '.join(cmd)} failed ({process.returncode})")
    lines = out.strip().splitlines()
    return usage.ru_utime + usage.ru_stime, lines[-1] if lines else ""


# --- 1. wrapping by runs ------------------------------------------------------------------

def _recorded_wraps(folder: str) -> tuple[list[tuple], list[tuple]]:
    """The arguments of every wrap_runs and wrap call of a `cardgen rules all` run."""
    from cardgen.cli import run
    from cardgen.text import flow, table

    runs_calls: list[tuple] = []
    text_calls: list[tuple] = []
    plain_runs, plain_wrap = fit.wrap_runs, fit.wrap

    def wrap_runs(*args: Any) -> Any:
        runs_calls.append(args)
        return plain_runs(*args)

    def wrap(*args: Any) -> Any:
        text_calls.append(args)
        return plain_wrap(*args)

    spaces = [vars(fit), vars(flow), vars(table)]
    for space in spaces:
        space.update({k: v for k, v in (("wrap_runs", wrap_runs), ("wrap", wrap))
                      if k in space})
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            if run(["rules", "all", "-o", folder, "-q"]) != 0:
                raise SystemExit("cardgen rules all failed")
    finally:
        for space in spaces:
            space.update({k: v for k, v in (("wrap_runs", plain_runs), ("wrap", plain_wrap))
                          if k in space})
    return runs_calls, text_calls


def _forget_widths() -> None:
    for face in fonts.bundled_fonts().__dict__.values():
        face.metrics._units.clear()


def bench_wrapping(runs: int, folder: str) -> None:
    runs_calls, text_calls = _recorded_wraps(folder)
    chars = sum(len(t) for args in runs_calls for t, _ in args[0])
    chars += sum(len(args[0]) for args in text_calls)

    def wrap_all(runs_fn: Callable[..., Any], text_fn: Callable[..., Any]) -> list[Any]:
        _forget_widths()
        return ([runs_fn(*args) for args in runs_calls]
                + [text_fn(*args) for args in text_calls])

    old = wrap_all(baseline.wrap_runs, baseline.wrap)
    new = wrap_all(fit.wrap_runs, fit.wrap)
    same = old == new
    counted: dict[str, int] = {"old": 0, "new": 0}
    plain_units = fonts.FontMetrics.text_units

    def counting(which: str) -> Callable[[fonts.FontMetrics, str], int]:
        def text_units(self: fonts.FontMetrics, text: str) -> int:
            counted[which] += len(text)
            return plain_units(self, text)
        return text_units

    for which, pair in (("old", (baseline.wrap_runs, baseline.wrap)),
                        ("new", (fit.wrap_runs, fit.wrap))):
        setattr(fonts.FontMetrics, "text_units", counting(which))  # noqa: B010
        try:
            wrap_all(*pair)
        finally:
            setattr(fonts.FontMetrics, "text_units", plain_units)  # noqa: B010
    times = {"old": [], "new": []}
    for _ in range(runs):
        for which, pair in (("old", (baseline.wrap_runs, baseline.wrap)),
                            ("new", (fit.wrap_runs, fit.wrap))):
            start = time.process_time()
            wrap_all(*pair)
            times[which].append(time.process_time() - start)
    t_old, t_new = statistics.median(times["old"]), statistics.median(times["new"])
    print(f"1. Word wrapping of `cardgen rules all`: {len(runs_calls)} wrap_runs and "
          f"{len(text_calls)} wrap calls, {chars} characters of text")
    print(f"   per character (old, every trial line measured afresh): {t_old * 1000:8.1f} ms"
          f"  ({counted['old']} characters measured)")
    print(f"   by runs (new, each word once):                         {t_new * 1000:8.1f} ms"
          f"  ({counted['new']} characters measured)")
    print(f"   ratio old/new: {t_old / t_new:.1f}x; same lines and widths: "
          f"{'yes' if same else 'NO'}")


# --- 2. reportlab's C accelerator --------------------------------------------------------

def _swap_reportlab(functions: dict[str, Any]) -> Callable[[], None]:
    """Put ``functions`` (by rl_accel name) in place of the C functions reportlab's
    modules hold, as in a process without the accelerator; returns the undo. (Numbers
    and ASCII85 stay: cardgen writes them with its own functions either way.)"""
    from reportlab.lib import rl_accel
    from reportlab.pdfbase import ttfonts

    changed: list[tuple[dict[str, Any], str, Any]] = []
    for name, module in list(sys.modules.items()):
        if not name.startswith("reportlab") or module is None or module is rl_accel:
            continue
        space = vars(module)
        for attribute in set(rl_accel.__all__) - {"fp_str", "asciiBase85Encode"}:
            current = space.get(attribute)
            if current is not None and current is rl_accel._c_funcs.get(attribute):
                changed.append((space, attribute, current))
                space[attribute] = functions[attribute]
    width = ttfonts.TTFont.stringWidth
    setattr(ttfonts.TTFont, "stringWidth", functions["instanceStringWidthTTF"])  # noqa: B010

    def undo() -> None:
        for space, attribute, value in changed:
            space[attribute] = value
        setattr(ttfonts.TTFont, "stringWidth", width)  # noqa: B010
    return undo


def bench_accelerator(runs: int, folder: str) -> None:
    try:
        import _rl_accel  # noqa: F401
    except ImportError:
        print("2. reportlab's C accelerator: not installed (pip install -e '.[fast]'); "
              "skipped")
        return
    import cardgen.render as render_module
    from cardgen.cli import run
    from cardgen.render.pdf import render_pdf
    from cardgen.render.pdfcodec import PURE_PYTHON

    documents: list[Any] = []
    plain_render = render_module.render

    def keep(document: Any, *args: Any, **kwargs: Any) -> Any:
        documents.append(document)
        return plain_render(document, *args, **kwargs)

    setattr(render_module, "render", keep)  # noqa: B010
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            run(["rules", "all", "-o", folder, "-q"])
    finally:
        setattr(render_module, "render", plain_render)  # noqa: B010
    book = documents[0]
    times: dict[str, list[float]] = {"pure": [], "C": []}
    made: dict[str, set[bytes]] = {"pure": set(), "C": set()}
    for _ in range(runs):
        for which in ("pure", "C"):
            undo = _swap_reportlab(PURE_PYTHON) if which == "pure" else (lambda: None)
            try:
                start = time.process_time()
                data = render_pdf(book)
                times[which].append(time.process_time() - start)
            finally:
                undo()
            made[which].add(hashlib.sha256(data).digest())
    pure, fast = statistics.median(times["pure"]), statistics.median(times["C"])
    same = len(made["pure"] | made["C"]) == 1
    print(f"2. reportlab's C accelerator (rl_accel), `rules all` ({len(book.pages)} pages)")
    print(f"   PDF written in process, pure Python: {pure:.3f} s, accelerated: {fast:.3f} s, "
          f"ratio {pure / fast:.2f}x; same bytes: {'yes' if same else 'NO'}")
    code = ("import sys\nif sys.argv[1] == 'pure':\n    sys.modules['_rl_accel'] = None\n"
            "import hashlib\nfrom cardgen.cli import run\n"
            "assert run(['rules', 'all', '-o', sys.argv[2], '-q']) == 0\n"
            "print(hashlib.sha256(open(sys.argv[2] + '/rules-all.pdf', 'rb').read()).hexdigest())")
    cpu: dict[str, list[float]] = {"pure": [], "C": []}
    digests: set[str] = set()
    env = dict(os.environ)
    for _ in range(runs):
        for which in ("pure", "C"):
            seconds, digest = _process_cpu([sys.executable, "-c", code, which, folder], env,
                                           str(ROOT))
            cpu[which].append(seconds)
            digests.add(digest)
    pure, fast = statistics.median(cpu["pure"]), statistics.median(cpu["C"])
    print(f"   whole `cardgen rules all` processes, CPU: pure Python {pure:.3f} s, "
          f"accelerated {fast:.3f} s, ratio {pure / fast:.2f}x; same bytes: "
          f"{'yes' if len(digests) == 1 else 'NO'}")


# --- 3. the font cache -------------------------------------------------------------------

_CARD = """
import hashlib, sys, time
from cardgen.text import fonts
start = time.process_time()
family = fonts.bundled_fonts()
for face in (family.regular, family.bold, family.italic):
    face.metrics.ink_top_mm("Ada Example Puzzle Designer gjpqy 0123456789", 10)
loading = time.process_time() - start
from cardgen.cli import run
assert run(["card", "-o", sys.argv[1], "-f", "pdf", "-q"]) == 0
pdf = open(sys.argv[1] + "/card.pdf", "rb").read()
print(f"{loading} {'fontTools' in sys.modules} {hashlib.sha256(pdf).hexdigest()}")
"""


def bench_font_cache(runs: int, folder: str) -> None:
    from cardgen.text import fontcache

    warm_dir = tempfile.mkdtemp(prefix="bench-font-cache-")
    rows: dict[str, list[tuple[float, float, str]]] = {"off": [], "cold": [], "warm": []}
    digests: set[str] = set()
    for index in range(runs + 1):
        for which in ("off", "cold", "warm"):
            cache = {"off": "", "warm": warm_dir,
                     "cold": tempfile.mkdtemp(prefix="bench-font-cold-")}[which]
            env = {**os.environ, fontcache.ENV: cache}
            try:
                seconds, line = _process_cpu([sys.executable, "-c", _CARD, folder], env,
                                             str(ROOT))
            finally:
                if which == "cold":
                    shutil.rmtree(cache, ignore_errors=True)
            loading, imported, digest = line.split()
            digests.add(digest)
            if index:  # (the first round fills the warm cache)
                rows[which].append((seconds, float(loading), imported))
    print("3. The bundled fonts' cache: whole `cardgen card -f pdf` processes, CPU "
          "(user+sys), and the font loading inside them")
    base = statistics.median(s for s, _, _ in rows["off"])
    base_fonts = statistics.median(f for _, f, _ in rows["off"])
    for which, label in (("off", "no cache (fonts read every run, as before)"),
                         ("warm", "warm cache"),
                         ("cold", "cold cache (first run, fills it)")):
        total = statistics.median(s for s, _, _ in rows[which])
        loading = statistics.median(f for _, f, _ in rows[which])
        imported = {i for _, _, i in rows[which]}
        print(f"   {label:<44} card {total:.3f} s ({base / total:.2f}x), font loading "
              f"{loading * 1000:6.1f} ms ({base_fonts / loading:5.1f}x), "
              f"fontTools imported: {'/'.join(sorted(imported))}")
    shutil.rmtree(warm_dir, ignore_errors=True)
    print(f"   same PDF bytes in all: {'yes' if len(digests) == 1 else 'NO'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--only", choices=["wrap", "accel", "cache"])
    args = parser.parse_args()
    runs = max(3, args.runs)
    load = ", ".join(f"{v:.2f}" for v in os.getloadavg())
    print(f"load average before: {load}; medians of {runs}; "
          f"PYTHONDONTWRITEBYTECODE={'set' if sys.dont_write_bytecode else 'unset'}")
    with tempfile.TemporaryDirectory() as folder:
        # The font cache of this run, never the user's (part 3 chooses its own).
        from cardgen.text import fontcache

        os.environ[fontcache.ENV] = str(Path(folder) / "font-cache")
        if args.only in (None, "wrap"):
            bench_wrapping(runs, folder)
        if args.only in (None, "accel"):
            bench_accelerator(runs, folder)
        if args.only in (None, "cache"):
            bench_font_cache(runs, folder)
    load = ", ".join(f"{v:.2f}" for v in os.getloadavg())
    print(f"load average after: {load}")


if __name__ == "__main__":
    main()
