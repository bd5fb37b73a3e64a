"""The bundled fonts' metrics, cached between runs (``cardgen.text.fontcache``): what a
warm cache gives is what reading the font gives, output bytes never depend on the
cache's state (cold, warm, damaged, stale, unwritable, turned off), and a card set in
the bundled fonts alone does not import fontTools once the cache is warm.

Every test points the cache at a folder of its own (``tmp_path``); conftest points the
rest of the test run at a temporary folder, never the user's own."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardgen.text import fontcache, fonts
from tests.helpers import ROOT, examples, ok, sampled

FACES = ("regular", "bold", "italic")
# Characters the fonts do not map, besides ones they do (their extents are (0, 0)).
UNMAPPED = "\u0530\u4e00\U0001f600\uffff"


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    """An empty cache folder of this test, and no metrics remembered by the process."""
    folder = tmp_path / "cache"
    monkeypatch.setenv(fontcache.ENV, str(folder))
    fonts.load_metrics.cache_clear()
    yield folder
    fonts.load_metrics.cache_clear()


def _bundled_path(face: str) -> Path:
    return getattr(fonts.bundled_fonts(), face).path


def _state(metrics: fonts.FontMetrics) -> tuple:
    """Everything layout reads from a face's metrics, extents of every mapped (and some
    unmapped) character included, with the numbers' types."""
    characters = [chr(code) for code in metrics.advances] + list(UNMAPPED)
    extents = [(ch, metrics._glyph_extent(ch)) for ch in characters]
    return (metrics.postscript_name, metrics.full_name, metrics.units_per_em,
            metrics.ascender, metrics.descender, metrics.cap_height, metrics.is_cff,
            list(metrics.advances.items()), metrics.blank, metrics.file_bytes(),
            [(ch, tuple((type(v), v) for v in extent)) for ch, extent in extents])


@pytest.fixture(scope="module")
def fresh() -> dict[str, tuple]:
    """Each bundled face's metrics read with fontTools as before the cache, its glyphs'
    extents measured one by one."""
    return {face: _state(fonts._parse_metrics(_bundled_path(face))) for face in FACES}


def test_warm_and_cold_cache_give_the_metrics_of_the_font(cache, fresh):
    cold = {face: fonts.load_metrics(_bundled_path(face)) for face in FACES}
    assert len(list((cache / "fonts").glob("*.json"))) == 3
    fonts.load_metrics.cache_clear()
    warm = {face: fonts.load_metrics(_bundled_path(face)) for face in FACES}
    for face in FACES:
        assert warm[face]._glyphs is None  # read from the cache, not the font
        assert _state(cold[face]) == fresh[face]
        assert _state(warm[face]) == fresh[face]


def test_without_a_cache_the_fonts_are_read_as_before(monkeypatch, fresh):
    monkeypatch.setenv(fontcache.ENV, "")
    fonts.load_metrics.cache_clear()
    try:
        metrics = fonts.load_metrics(_bundled_path("regular"))
        assert not metrics._extents  # measured as text asks for them
        assert _state(metrics) == fresh["regular"]
    finally:
        fonts.load_metrics.cache_clear()


def _entry(cache: Path, face: str) -> Path:
    name = hashlib.sha256(_bundled_path(face).read_bytes()).hexdigest()
    return cache / "fonts" / f"{name}.json"


def _rewrite_body(entry: Path, change) -> None:
    """Change an entry's body and give it the digest of the new body (as a forger
    would: only the field checks stand in the way)."""
    head, _, body = entry.read_bytes().partition(b"\n")
    header = json.loads(head)
    new = json.dumps(change(json.loads(body))).encode()
    header["sha256"] = hashlib.sha256(new).hexdigest()
    entry.write_bytes(json.dumps(header).encode() + b"\n" + new)


DAMAGE = {
    "empty": lambda entry: entry.write_bytes(b""),
    "truncated": lambda entry: entry.write_bytes(entry.read_bytes()[:5000]),
    "garbage": lambda entry: entry.write_bytes(os.urandom(3000)),
    "a changed number": lambda entry: entry.write_bytes(
        entry.read_bytes().replace(b"[65,", b"[65,1", 1)),
    "stale": lambda entry: entry.write_bytes(
        entry.read_bytes().replace(b'"code":"', b'"code":"0', 1)),
    "another format": lambda entry: entry.write_bytes(
        entry.read_bytes().replace(b'"format":1', b'"format":0', 1)),
    "not an object": lambda entry: _rewrite_body(entry, lambda body: [body]),
    "a missing field": lambda entry: _rewrite_body(
        entry, lambda body: {k: v for k, v in body.items() if k != "extents"}),
    "a float advance": lambda entry: _rewrite_body(
        entry, lambda body: {**body, "advances": [[c, a + 0.5] for c, a in body["advances"]]}),
    "a boolean size": lambda entry: _rewrite_body(
        entry, lambda body: {**body, "units_per_em": True}),
    "deep nesting": lambda entry: _rewrite_body(
        entry, lambda body: {**body, "extents": [[0, 0, 0]] * 2 + [[[[]]]]}),
    "a name with a space": lambda entry: _rewrite_body(
        entry, lambda body: {**body, "postscript_name": "Source Sans"}),
    "deeply nested": lambda entry: entry.write_bytes(b"[" * 200_000 + b"\n[]"),
    "a folder": lambda entry: (entry.unlink(), entry.mkdir()),
}
if hasattr(os, "mkfifo"):  # a pipe in the entry's place: read as it is, it would never end
    DAMAGE["a pipe"] = lambda entry: (entry.unlink(), os.mkfifo(entry))


@pytest.mark.parametrize("damage", sampled(sorted(DAMAGE), "truncated", "a changed number",
                                             "a float advance", "stale"))
def test_a_damaged_or_stale_entry_is_ignored_and_replaced(cache, fresh, damage):
    fonts.load_metrics(_bundled_path("bold"))
    entry = _entry(cache, "bold")
    DAMAGE[damage](entry)
    fonts.load_metrics.cache_clear()
    metrics = fonts.load_metrics(_bundled_path("bold"))
    assert _state(metrics) == fresh["bold"]
    if entry.is_file():  # (written over, unless a folder stands in its place)
        assert fontcache.load(entry.stem, {"font": entry.stem,
                                           "code": fonts._code_identity()}) is not None


@settings(max_examples=examples(300), derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_an_entry_changed_anyhow_never_fails_and_is_used_only_when_whole(cache, data):
    """Bytes changed or cut anywhere: the entry is refused, or (a change that changes
    nothing) read as it was written; a body of any JSON value under a right digest is
    refused or read, never an exception."""
    path = _bundled_path("italic")
    if not _entry(cache, "italic").exists():
        fonts.load_metrics(path)
    entry = _entry(cache, "italic")
    whole = entry.read_bytes()
    key = {"font": entry.stem, "code": fonts._code_identity()}
    body = fontcache.load(entry.stem, key)
    assert body is not None
    try:
        raw = bytearray(whole)
        for _ in range(data.draw(st.integers(1, 4))):
            at = data.draw(st.integers(0, len(raw) - 1))
            if data.draw(st.booleans()):
                raw[at] = data.draw(st.integers(0, 255))
            else:
                del raw[at:at + data.draw(st.integers(1, 200))]
        entry.write_bytes(bytes(raw))
        read = fontcache.load(entry.stem, key)
        assert read is None or (bytes(raw) == whole and read == body)
        value = data.draw(st.recursive(
            st.none() | st.booleans() | st.integers()
            | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=5),
            lambda inner: st.lists(inner, max_size=4)
            | st.dictionaries(st.sampled_from(fonts._CACHE_FIELDS), inner, max_size=9),
            max_leaves=30))
        fontcache.store(entry.stem, key, value)
        got = fonts._metrics_from_cache(fontcache.load(entry.stem, key), path, b"")
        assert got is None or isinstance(got, fonts.FontMetrics)
    finally:
        entry.write_bytes(whole)


def test_an_unwritable_cache_is_no_error(cache, fresh):
    cache.parent.mkdir(exist_ok=True)
    cache.write_text("a file where the folder would be")
    metrics = fonts.load_metrics(_bundled_path("regular"))
    assert not metrics._extents  # read as without a cache, not measured in full
    assert _state(metrics) == fresh["regular"]


def test_entries_are_written_whole_and_nothing_else_is_left(cache):
    fonts.load_metrics(_bundled_path("regular"))
    names = sorted(p.name for p in (cache / "fonts").iterdir())
    assert len(names) == 1 and names[0].endswith(".json")
    fontcache.store("x" * 64, {"k": 1}, {"body": [1, 2.5]})
    assert fontcache.load("x" * 64, {"k": 1}) == {"body": [1, 2.5]}
    assert fontcache.load("x" * 64, {"k": 2}) is None
    assert not [p for p in (cache / "fonts").iterdir() if p.suffix != ".json"]


def test_where_the_cache_is(monkeypatch, tmp_path):
    monkeypatch.setenv(fontcache.ENV, str(tmp_path / "mine"))
    assert fontcache.cache_dir() == tmp_path / "mine"
    monkeypatch.setenv(fontcache.ENV, "")
    assert fontcache.cache_dir() is None and fontcache.entry_path("a") is None
    assert not fontcache.writable("a")
    monkeypatch.delenv(fontcache.ENV)
    if sys.platform.startswith("linux"):
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
        assert fontcache.cache_dir() == tmp_path / "xdg" / "cardgen"
        monkeypatch.setenv("XDG_CACHE_HOME", "relative/ignored")
        monkeypatch.setenv("HOME", str(tmp_path / "home"))
        assert fontcache.cache_dir() == tmp_path / "home" / ".cache" / "cardgen"


def _card_pdf() -> bytes:
    from cardgen.card.build import build_card
    from cardgen.card.config import load_config
    from cardgen.render.pdf import render_pdf

    fonts.load_metrics.cache_clear()
    return render_pdf(build_card(load_config(None)).document)


def test_card_bytes_do_not_depend_on_the_cache(cache, monkeypatch):
    cold = _card_pdf()
    warm = _card_pdf()
    for face in FACES:
        DAMAGE["a changed number"](_entry(cache, face))
    damaged = _card_pdf()
    monkeypatch.setenv(fontcache.ENV, "")
    without = _card_pdf()
    assert cold == warm == damaged == without


def _run(code: str, cache: Path) -> str:
    env = {**os.environ, fontcache.ENV: str(cache)}
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            cwd=ROOT, env=env, timeout=300)  # only a hang fails
    ok(result)
    return result.stdout


def test_a_warm_card_does_not_import_fonttools(tmp_path):
    """A fresh process, as a user runs it: after one cold run (which fills the cache),
    a PDF card set in the bundled fonts alone leaves fontTools unimported, and its bytes
    are those of the cold run."""
    code = ("import sys\nfrom cardgen.cli import run\n"
            "code = run(['card', '-o', sys.argv[1], '-f', 'pdf', '-q'])\n"
            "print('FONTTOOLS', 'fontTools' in sys.modules, code)\n")
    cache = tmp_path / "cache"
    cold = _run(code.replace("sys.argv[1]", repr(str(tmp_path / "cold"))), cache)
    warm = _run(code.replace("sys.argv[1]", repr(str(tmp_path / "warm"))), cache)
    assert "FONTTOOLS True 0" in cold  # the cold run works the metrics out
    assert "FONTTOOLS False 0" in warm
    assert (tmp_path / "cold" / "card.pdf").read_bytes() == (
        tmp_path / "warm" / "card.pdf").read_bytes()


def test_the_cache_key_names_the_code(cache):
    identity = fonts._code_identity()
    assert len(identity) == 64 and identity == fonts._code_identity()
    fonts.load_metrics(_bundled_path("regular"))
    head = _entry(cache, "regular").read_bytes().partition(b"\n")[0]
    assert json.loads(head)["key"]["code"] == identity
