"""Fixtures shared by the tests: the built-in example card, built and rendered once.

The quick loop (``-m "not slow"``) keeps at least one test of every behaviour; ``slow``
marks the exhaustive sweeps, which the full command runs as well. A sweep over cases of
one kind keeps a sample in the quick loop (``tests.helpers.sampled``) and leaves the rest
to the full run:

- every field of every data file given every TOML type, and every batch column given
  every kind of cell, as whole runs (``test_hostile_types``; the quick loop checks every
  field of every schema given every type in words, and whole runs of a date or time
  where text belongs);
- each Connector game's US answer shaken and offset (the EU answers stay;
  ``test_connector_tolerance``); SIGTERM's one line from a real run (SIGINT stays, and
  ``test_signals`` sends both); the light theme's curves around the letters
  (``test_front_text``); the long-edge booklet (``test_rules_cli``); the US card's die
  line (``test_dieline``); the back offset on the A4 sheets (the US letter sheet's stays:
  ``test_sheet``); the variants among ``tests.every_pdf``'s command lines (other
  themes, presets, papers, --rgb of the sheet, --no-marks: ``every_pdf.QUICK`` is the
  sample that the overprint, PDF/X, file identity and signature box checks read in the
  quick loop; the golden hashes pin the variants' pages down there too); seven of ten
  grading seeds (``test_rotator_grading``, a win and a loss stay) and two of four solver
  boards (``test_rotator_solver``);
- one sample of each end-to-end check of 0.3 s or more, the variants in the full run:
  a preset and theme of the bleed checks (``test_bleed``), two of eight QR scans
  (``test_qr``), SIGTERM of the real signals in the write phase (``test_output``), the
  A4 sheets' marks (``test_sheet``, ``test_print_marks``), one Ladder card of six
  (``test_ladder``), the A4 rules sheet (``test_ladder_print``), the golden scenarios
  that take under 0.2 s (``test_golden``);
- and the sweeps of the other modules marked ``slow`` there (``grep -n "mark.slow"
  tests``): every file operation and module lookup signalled, the Defector search at its
  full budget, Ghostscript's separations, the whole books' type sizes, every PDF made
  twice.
"""

from __future__ import annotations

import gc
import io

import pytest


@pytest.fixture(scope="session")
def example_build():
    from cardgen.card.build import build_card
    from cardgen.card.config import load_config

    return build_card(load_config(None))


@pytest.fixture(scope="session")
def example_pdf(example_build) -> bytes:
    from cardgen.render.pdf import render_pdf

    return render_pdf(example_build.document)


@pytest.fixture(scope="session")
def example_pdf_reader(example_pdf):
    from pypdf import PdfReader

    return PdfReader(io.BytesIO(example_pdf))


@pytest.fixture(scope="session")
def example_plumber(example_pdf):
    import pdfplumber

    with pdfplumber.open(io.BytesIO(example_pdf)) as pdf:
        yield pdf


@pytest.fixture(scope="session")
def shared_folder(tmp_path_factory):
    """``shared_folder(key, make)``: the folder ``make(folder)`` filled for ``key``, made
    once a test run, not once a test process.

    The xdist workers of one run share the parent of their temporary folders; the first
    worker that asks for ``key`` makes it there while holding a lock on it, the others
    wait for it and read the same files (made by the same command line, they would be
    the same bytes: ``test_pdf_id`` checks that, across processes now). ``make`` returns
    what to remember (paths inside the folder, or anything JSON can hold with paths as
    text). Without xdist it is simply a cache of this process."""
    import hashlib
    import json
    import os
    import shutil

    try:
        import fcntl
    except ImportError:  # (no POSIX locks: each test process makes its own)
        fcntl = None
    base = tmp_path_factory.getbasetemp()
    worker = os.environ.get("PYTEST_XDIST_WORKER") and fcntl is not None
    root = (base.parent if worker else base) / "shared"
    root.mkdir(exist_ok=True)
    remembered: dict[str, object] = {}

    def get(key: str, make):
        if key in remembered:
            return remembered[key]
        name = hashlib.sha256(key.encode()).hexdigest()[:16]
        folder, done = root / name, root / f"{name}.json"
        with open(root / f"{name}.lock", "w") as lock:
            if fcntl is not None:
                fcntl.flock(lock, fcntl.LOCK_EX)  # waits while another worker makes it
            if not done.exists():
                shutil.rmtree(folder, ignore_errors=True)  # what a failed make left
                folder.mkdir()
                made = make(folder)
                tmp = root / f"{name}.json.tmp"
                tmp.write_text(json.dumps(_as_text(made)), encoding="utf-8")
                tmp.replace(done)  # only a finished folder is marked done
        remembered[key] = _as_paths(json.loads(done.read_text(encoding="utf-8")))
        return remembered[key]

    return get


def _as_text(value):
    from pathlib import Path

    if isinstance(value, Path):
        return {"path": str(value)}
    if isinstance(value, dict):
        return {"dict": {k: _as_text(v) for k, v in value.items()}}
    return {"value": value}


def _as_paths(value):
    from pathlib import Path

    if "path" in value:
        return Path(value["path"])
    if "dict" in value:
        return {k: _as_paths(v) for k, v in value["dict"].items()}
    return value["value"]


@pytest.fixture(scope="session")
def produced(shared_folder):
    """``produced(*args)`` runs ``cardgen ARGS -o DIR`` once per argument list and test
    run (in process, through the CLI's error boundary; see ``shared_folder``) and
    returns DIR; later calls with the same arguments reuse the files. ``args`` may name
    a config written from ``config=`` text."""
    import json

    from tests.helpers import cli, ok

    def run(*args: str, config: str | None = None):
        def make(folder):
            extra: list[str] = []
            if config is not None:
                path = folder / "card.toml"
                path.write_text(config, encoding="utf-8")
                extra = [str(path)]
            out = folder / "out"
            ok(cli(args[0], *extra, *args[1:], "-o", str(out)))
            return out

        return shared_folder(json.dumps(["produced", args, config], default=str), make)

    return run


@pytest.fixture(scope="session")
def made(shared_folder):
    """``made(name)``: the PDFs of one command line of ``tests.every_pdf`` (``{"name/file.pdf":
    path}``), made once a test run (see ``shared_folder``) and shared by the modules that
    read them."""
    from tests.every_pdf import produce

    def get(name: str) -> dict:
        return shared_folder(f"made {name}", lambda folder: produce(folder, [name]))

    return get


@pytest.fixture(scope="session")
def checked(made, shared_folder):
    """``checked(name)``: what the checks of ``tests.printcheck`` find in each PDF of one
    command line of ``tests.every_pdf`` (``{"name/file.pdf": findings}``), each file read
    once a test run for the overprint, PDF/X, ink and signature box tests (see
    ``shared_folder``)."""
    from tests.printcheck import check_files

    def get(name: str) -> dict:
        return shared_folder(f"checked {name}", lambda folder: check_files(made(name), name))

    return get


def pytest_configure(config):
    """Each test process (and the xdist controller) spends less time on work that no
    test checks: see the two helpers. No test is bounded by the clock: see the third."""
    _collect_garbage_less_often()
    _note_the_quick_loop(config)
    _leave_hypothesis_unrewritten(config)
    _keep_compiled_modules(config)
    _no_deadline_for_hypothesis()
    _font_cache_in_a_temporary_folder()


def _font_cache_in_a_temporary_folder() -> None:
    """Point cardgen's cache (the bundled fonts' metrics, ``cardgen.text.fontcache``) at
    a folder of this test run, never the user's own: set in the xdist controller (or the
    only process) before any worker or command-line process starts, so they all inherit
    it, and removed when that process ends. It starts empty, so every run sees a cold
    cache first; ``tests/test_font_cache.py`` checks that output never depends on it."""
    import atexit
    import os
    import shutil
    import tempfile

    from cardgen.text import fontcache

    if os.environ.get("PYTEST_XDIST_WORKER"):
        return  # the controller chose it
    folder = tempfile.mkdtemp(prefix="cardgen-test-cache-")
    os.environ[fontcache.ENV] = folder
    atexit.register(shutil.rmtree, folder, ignore_errors=True)


def _note_the_quick_loop(config) -> None:
    """Tell ``tests.helpers.examples`` whether this run leaves out the tests marked
    ``slow`` (the quick loop: ``-m "not slow"``, or any mark expression that deselects
    them), before the test modules that state their example counts are imported."""
    from tests import helpers

    expression = config.getoption("markexpr", "") or ""
    if not expression:
        return
    try:
        from _pytest.mark.expression import Expression

        slow_runs = Expression.compile(expression).evaluate(
            lambda name, **_: name == "slow")
    except Exception:  # another pytest: read the expression as words
        slow_runs = "not slow" not in expression
    helpers.QUICK_LOOP = not slow_runs


def _keep_compiled_modules(config) -> None:
    """Keep the compiled test modules and cardgen's between runs, in pytest's cache folder.

    With ``PYTHONDONTWRITEBYTECODE`` set (as on the machines these figures come from)
    Python keeps no bytecode, so every test process (each xdist worker) compiled all of
    cardgen again and pytest parsed and rewrote the asserts of all 100 test modules
    again: some 3 s of the 5 s each process spent collecting. That setting keeps
    ``__pycache__`` folders out of the source tree; this keeps them out too, writing
    instead under ``.pytest_cache/d/bytecode`` (``sys.pycache_prefix``, ignored by git).
    Python and pytest check each cached file against its source's size and time and
    recompile an edited module, as they do by default; no test's outcome depends on it.
    (The first run also fills it with the libraries' modules, about 20 MB and 1-2 s a
    process, once.) The command-line runs that tests start as real processes are left as
    they were: they compile little of their own. Nothing changes when the cache is
    turned off (``-p no:cacheprovider``) or a prefix is already set."""
    import sys

    cache = getattr(config, "cache", None)
    if cache is None or sys.pycache_prefix is not None or not sys.dont_write_bytecode:
        return
    folder = str(cache.mkdir("bytecode"))
    sys.pycache_prefix = folder
    sys.dont_write_bytecode = False


def _no_deadline_for_hypothesis() -> None:
    """Hypothesis fails an example that takes longer than its deadline (200 ms unless a
    test says otherwise), a bound by the clock that a loaded machine breaks (an example
    that takes 50 ms alone takes 400 ms at load 8 on 2 cores). Every property test here
    sets ``deadline=None`` itself; this makes it the default as well, so that a new
    ``@given`` without its own ``settings`` cannot fail by the clock either. (Settings
    that a test states win over these; only the deadline changes.)"""
    from hypothesis import settings

    from tests.helpers import examples

    # A test without a count of its own draws Hypothesis's default, scaled as the stated
    # counts are in the quick loop.
    settings.register_profile("cardgen", deadline=None,
                              max_examples=examples(settings.default.max_examples))
    settings.load_profile("cardgen")


def _leave_hypothesis_unrewritten(config) -> None:
    """Leave Hypothesis's own modules as they are, without pytest's assertion rewriting.

    Pytest rewrites the asserts of every package that provides a pytest plugin, so that a
    plugin's failing assert explains itself; Hypothesis ships one, so all of Hypothesis was
    parsed and recompiled on import, in every test process and in the xdist controller
    (which imports it for its end-of-run summary). Without cached bytecode that took
    0.5-0.6 s a process. The tests' own asserts are rewritten as before. (This uses the
    hook's set of names to rewrite; if a pytest version has no such set, nothing changes.)
    """
    hook = getattr(config.pluginmanager, "rewrite_hook", None)
    names = getattr(hook, "_must_rewrite", None)
    if isinstance(names, set) and "hypothesis" in names:
        names.discard("hypothesis")
        getattr(hook, "_marked_for_rewrite_cache", {}).clear()


def _collect_garbage_less_often() -> None:
    """Run Python's cyclic garbage collector after 10,000 new objects instead of 700.

    The tests allocate millions of short-lived objects (PDF parsing, rendering, the
    solver) while a test process holds some 200,000 long-lived ones (modules, collected
    tests, fixtures); at the default threshold the collector ran its full pass about 30
    times a process, 2.5-3 s of each test process's time. Garbage is still collected,
    only in fewer, larger batches (peak memory measured the same); nothing a test checks
    depends on when."""
    _, middle, oldest = gc.get_threshold()
    gc.set_threshold(10_000, middle, oldest)
