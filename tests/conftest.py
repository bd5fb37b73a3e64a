"""Fixtures shared by the tests: the built-in example card, built and rendered once."""

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
def produced(tmp_path_factory):
    """``produced(*args)`` runs ``cardgen ARGS -o DIR`` once per argument list (in process,
    through the CLI's error boundary) and returns DIR; later calls with the same
    arguments reuse the files. ``args`` may name a config written from ``config=`` text."""
    from tests.helpers import cli, ok

    made: dict[tuple[str, ...], object] = {}

    def run(*args: str, config: str | None = None):
        key = (*args, config or "")
        if key not in made:
            folder = tmp_path_factory.mktemp("produced")
            extra: list[str] = []
            if config is not None:
                path = folder / "card.toml"
                path.write_text(config, encoding="utf-8")
                extra = [str(path)]
            out = folder / "out"
            ok(cli(args[0], *extra, *args[1:], "-o", str(out)))
            made[key] = out
        return made[key]

    return run


@pytest.fixture(scope="session")
def made(tmp_path_factory):
    """``made(name)``: the PDFs of one command line of ``tests.every_pdf`` (``{"name/file.pdf":
    path}``), made once a test process and shared by the modules that read them."""
    from tests.every_pdf import produce

    cache: dict[str, dict] = {}

    def get(name: str) -> dict:
        if name not in cache:
            cache[name] = produce(tmp_path_factory.mktemp(name), [name])
        return cache[name]

    return get


def pytest_configure(config):
    """Each test process (and the xdist controller) spends less time on work that no
    test checks: see the two helpers. No test is bounded by the clock: see the third."""
    _collect_garbage_less_often()
    _leave_hypothesis_unrewritten(config)
    _no_deadline_for_hypothesis()


def _no_deadline_for_hypothesis() -> None:
    """Hypothesis fails an example that takes longer than its deadline (200 ms unless a
    test says otherwise), a bound by the clock that a loaded machine breaks (an example
    that takes 50 ms alone takes 400 ms at load 8 on 2 cores). Every property test here
    sets ``deadline=None`` itself; this makes it the default as well, so that a new
    ``@given`` without its own ``settings`` cannot fail by the clock either. (Settings
    that a test states win over these; only the deadline changes.)"""
    from hypothesis import settings

    settings.register_profile("cardgen", deadline=None)
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
