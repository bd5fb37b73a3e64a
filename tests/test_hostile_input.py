"""Hostile input is normal input: every parser and every text field, fed what a fuzzer or
an attacker would feed it, answers with one line naming the field or file and exit 1 —
no traceback, no hang, nothing printed wrong, nothing executed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from cardgen.card.build import build_card
from cardgen.card.config import Person, load_config
from cardgen.card.contact import vcard
from cardgen.draw.colors import Color
from cardgen.draw.geometry import Box
from cardgen.draw.page import Page, Text, page_texts
from cardgen.errors import CardgenError, FontError
from cardgen.text.fit import check_drawn_texts
from cardgen.text.fonts import FontFace, FontStyle
from tests.glyphs import page_texts as pdf_page_texts
from tests.helpers import (
    BASE_CONFIG,
    ROOT,
    cff_font,
    children,
    cli,
    error_line,
    examples,
    ok,
    proc_fields,
    proc_stat,
    run_process,
    sampled,
    write_config,
)
from tests.pdfops import read_pages

HANG_GUARD = 120  # seconds: only a run that hangs takes this long, however loaded

FUZZ = settings(max_examples=examples(40), deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])


def with_person(**fields: str) -> str:
    """BASE_CONFIG with [person] fields set (TOML basic strings, escapes allowed)."""
    text = BASE_CONFIG
    for key, value in fields.items():
        line = next((ln for ln in text.splitlines() if ln.startswith(f"{key} = ")), None)
        new = f'{key} = "{value}"'
        text = text.replace(line, new) if line else text + new + "\n"
    return text


def card(tmp_path: Path, text: str, *extra: str):
    return cli("card", write_config(tmp_path, text), "-o", tmp_path / "out", "-f", "pdf", *extra)


# --- vCard injection (2) ----------------------------------------------------------------

@pytest.mark.parametrize("key", ["name", "title", "company", "email", "phone", "web",
                                 "tagline"])
def test_a_carriage_return_in_any_field_is_refused_naming_it(tmp_path, key):
    line = error_line(card(tmp_path, with_person(**{key: "x.example\\rTEL:+1666"})),
                      f"person.{key}", "carriage return")
    assert "control characters" in line
    assert not (tmp_path / "out").exists()


def test_the_vcard_escapes_the_address_and_refuses_other_controls():
    payload = vcard(Person(name="Ada Lee", address="1 Road; Leith\nEdinburgh, UK"))
    assert "\r\nADR:;;1 Road\\; Leith\\nEdinburgh\\, UK\r\n" in payload
    assert payload.count("\r") == payload.count("\r\n") == len(payload.splitlines())
    for value in ("A\rEND:VCARD", "A\x00B", "A\tB", "A\u2028B"):
        with pytest.raises(CardgenError, match=r"person\.company: .* a vCard cannot hold"):
            vcard(Person(name="Ada", company=value))
    with pytest.raises(CardgenError, match=r"person\.name: .*line break"):
        vcard(Person(name="Ada\nLee"))


# --- control characters in text fields (4) ------------------------------------------------

@pytest.mark.parametrize("value,needle", [("Ada\\nLee", "line break"), ("Ada\\tLee", "a tab"),
                                          ("Ada\\rLee", "carriage return"),
                                          ("Ada\\u0007Lee", "control character"),
                                          ("Ada\\u2028Lee", "line separator")])
def test_control_characters_in_a_one_line_field_are_refused(tmp_path, value, needle):
    error_line(card(tmp_path, with_person(name=value)), "person.name", needle)


def test_a_multi_line_address_is_laid_out_line_by_line_in_every_renderer(tmp_path):
    config = write_config(tmp_path, with_person(address="12 Harbour Street\\r\\nLeith\\n"
                                                        "Edinburgh EH6 6LL"))
    build = build_card(load_config(config))
    names = {t.name: t for t, _ in page_texts(build.document.pages[0])}
    lines = [names[n] for n in ("person-address", "person-address-2", "person-address-3")]
    assert [t.text for t in lines] == ["12 Harbour Street", "Leith", "Edinburgh EH6 6LL"]
    assert lines[0].y < lines[1].y < lines[2].y and len({t.x for t in lines}) == 1
    result = ok(cli("card", config, "-o", tmp_path / "out", "-f", "pdf,svg,png", "--dpi", "72"))
    assert "Traceback" not in result.stderr
    text = pdf_page_texts(tmp_path / "out" / "card.pdf")[0]  # as PDFium reads it
    assert "Leith" in text and "\x00" not in text
    svg = (tmp_path / "out" / "card-outside.svg").read_text(encoding="utf-8")
    assert ">Leith</text>" in svg and ">Edinburgh EH6 6LL</text>" in svg


# --- every string drawn is checked against its font (5) ------------------------------------

LATIN = ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789@.+-–,;:'’?!()&/·×"
         "ÅÖÄåöä")


def _font_config(tmp_path: Path, style: str, letters: str) -> str:
    """BASE_CONFIG without its phone number (digits), with one face replaced."""
    cff_font(tmp_path / f"{style}.otf", letters)
    return with_person(phone="") + f'\n[fonts]\n{style} = "{style}.otf"\n'


# The Connector's fragments are set in cardgen's own face, which its layout is measured
# in; the numbers of players are the back of a custom size (which has no Connector).
CUSTOM_SIZE = 'preset = "eu"', "width_mm = 90\nheight_mm = 60"


@pytest.mark.parametrize("style,missing,needle,custom", [
    ("regular", "0123456789", "fonts.regular (the grids' row numbers and column letters)",
     False),
    ("italic", "–", "fonts.italic (the numbers of players)", True),
    ("bold", "3", "fonts.bold (the link numbers)", False),
])
def test_the_cards_own_text_is_checked_against_the_users_fonts(tmp_path, style, missing,
                                                                 needle, custom):
    letters = "".join(ch for ch in LATIN if ch not in missing)
    config = _font_config(tmp_path, style, letters)
    if custom:
        config = config.replace(*CUSTOM_SIZE)
    line = error_line(card(tmp_path, config), needle)
    assert "has no glyph for" in line


def test_the_connector_is_set_in_cardgens_own_face_whatever_the_users_fonts(tmp_path):
    """A user's regular face far wider than the bundled one (every letter half an em):
    the Connector's fragments, measured in the bundled face, still fit their boxes in it,
    and the user's face sets the user's own lines."""
    ok(card(tmp_path, _font_config(tmp_path, "regular", LATIN)))
    fonts = {run.font for page in read_pages(tmp_path / "out" / "card.pdf") for run in page.texts}
    assert {"TestBox-Regular", "SourceSans3-Regular"} <= fonts


def test_the_safety_net_checks_every_text_item_of_a_document(tmp_path):
    face = FontFace(cff_font(tmp_path / "abc.otf", "ABC"), FontStyle.ITALIC)
    page = Page("p", 10, 10, Box(0, 0, 10, 10), Box(0, 0, 10, 10))
    page.layer("x").add(Text(1, 1, "ABC", face, 8, Color.cmyk(0, 0, 0, 100), name="ok"),
                        Text(1, 5, "ABD", face, 8, Color.cmyk(0, 0, 0, 100), name="label-7"))
    with pytest.raises(FontError, match=r"fonts\.italic \(label-7\): .* no glyph for 'D'"):
        check_drawn_texts([page])


# --- right-to-left and shaped scripts (6) ------------------------------------------------

@pytest.mark.parametrize("value,script", [("محمد", "Arabic, a right-to-left script"),
                                          ("דוד", "Hebrew, a right-to-left script"),
                                          ("देव", "Devanagari, a script that needs shaping"),
                                          ("A\u202eB", "a bidirectional control")])
def test_text_that_needs_shaping_is_refused_even_when_the_font_has_the_glyphs(
        tmp_path, value, script):
    config = _font_config(tmp_path, "bold", LATIN + value)
    line = error_line(card(tmp_path, config.replace('name = "Ada Example"',
                                                    f'name = "{value}"')), "person.name")
    assert script in line and "cannot yet set correctly" in line


def test_composed_and_decomposed_accents_print_the_same(tmp_path):
    composed = build_card(load_config(write_config(tmp_path, with_person(name="Zoë Ångström"),
                                                   "a.toml")))
    decomposed = build_card(load_config(write_config(
        tmp_path, with_person(name="Zoe\\u0308 A\\u030angstro\\u0308m"), "b.toml")))
    def name(build):
        return [t for t, _ in page_texts(build.document.pages[0]) if t.name == "person-name"]

    assert [t.text for t in name(decomposed)] == ["Zo\u00eb \u00c5ngstr\u00f6m"]
    assert name(decomposed) == name(composed)  # same text, size and place


# --- input files that are not regular files (10) -------------------------------------------

@pytest.mark.parametrize("command", [["card"], ["rotator", "show"]])
def test_a_fifo_or_a_device_is_refused_without_reading(tmp_path, command):
    fifo = tmp_path / "in.toml"
    os.mkfifo(fifo)
    def hung(signum, frame):
        raise TimeoutError(f"still running after {HANG_GUARD} s: it read the input")

    # Reading the FIFO would wait for ever for a writer, /dev/zero would never end; the
    # line says the input was refused by its type. Only a read that hangs trips the guard.
    before = signal.signal(signal.SIGALRM, hung)
    signal.setitimer(signal.ITIMER_REAL, HANG_GUARD)
    try:
        for source in (fifo, Path("/dev/zero"), Path("/dev/urandom")):
            error_line(cli(*command, source, *(["-o", tmp_path / "out"]
                                               if command == ["card"] else [])),
                       "not a regular file")
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)


def test_a_file_larger_than_any_config_is_refused(tmp_path):
    big = tmp_path / "big.toml"
    big.write_bytes(b"# padding\n" * 150_000)
    error_line(cli("card", big, "-o", tmp_path / "out"), "big.toml", "larger than")


# --- lengths, numbers, nesting (12) --------------------------------------------------------

def test_a_board_id_far_too_long_for_a_file_name_is_one_line(tmp_path):
    line = error_line(cli("rotator", "show", "R1:" + "B2" * 400 + "-x"), "board ID")
    assert len(line) < 300
    error_line(cli("rotator", "show", "Z" * 5000), "malformed")
    error_line(cli("rotator", "show", "board\x00.toml"), "board")


@pytest.mark.parametrize("offset", ["nan,0", "0,inf", "-inf,1", "1e400,0"])
def test_non_finite_offsets_are_refused(tmp_path, offset):
    error_line(cli("sheet", "--registration", f"--offset={offset}", "-o", tmp_path),
               "--offset")


@pytest.mark.parametrize("kind", ["config", "theme", "board"])
@pytest.mark.parametrize("nest", ["{a = " * 400 + "1" + "}" * 400, "[" * 600 + "]" * 600])
def test_toml_nested_hundreds_deep_is_one_line(tmp_path, kind, nest):
    path = tmp_path / "deep.toml"
    path.write_text(f"x = {nest}\n", encoding="utf-8")
    args = {"config": ["card", path, "-o", tmp_path / "out"],
            "theme": ["card", "--theme", path, "-o", tmp_path / "out"],
            "board": ["rotator", "show", path]}[kind]
    error_line(cli(*args), "nested hundreds of levels deep")


def test_toml_numbers_that_are_not_finite_are_refused(tmp_path):
    error_line(card(tmp_path, "[card]\nwidth_mm = nan\nheight_mm = 55\n" + BASE_CONFIG.split(
        "\n", 3)[3]), "card.width_mm", "finite")


# --- messages (15) ---------------------------------------------------------------------------

@pytest.mark.parametrize("args,needle", [
    (["rotator", "generate", "--count", "0"], "--count must be from 1 to 500, not 0."),
    (["rotator", "generate", "--budget", "0"], "--budget must be from 100 to 10000000, not 0."),
    (["rotator", "generate", "--jobs", "0"], "--jobs must be at least 1."),
    (["rotator", "generate", "--tries", "0"], "--tries must be from 1 to 1000000, not 0."),
    (["card", "--dpi", "0"], "--dpi must be from 36 to 1200, not 0."),
    (["card", "--dpi", "nan"], "--dpi must be from 36 to 1200, not nan."),
    (["rotator", "solve", "R1:B2B8E4I2I8-B4E2E8H4I9", "--budget", "0"], "--budget"),
])
def test_bad_option_values_are_one_line_and_exit_1(tmp_path, args, needle):
    error_line(cli(*args, "-o", tmp_path) if args[0] == "rotator" and
               args[1] == "generate" else cli(*args), needle)


def test_a_value_not_of_the_options_type_is_a_usage_error(tmp_path):
    """``--count abc`` cannot be parsed: one line, exit 2 (a usage error)."""
    error_line(cli("rotator", "generate", "--count", "abc", "-o", tmp_path), "--count:",
               status=2)


def test_unknown_options_and_missing_arguments_stay_usage_errors():
    for args in (["card", "--bogus"], ["rotator", "solve"]):
        result = cli(*args)
        assert result.returncode == 2 and "Traceback" not in result.stderr


def test_a_byte_order_mark_is_accepted(tmp_path):
    path = tmp_path / "bom.toml"
    path.write_bytes(b"\xef\xbb\xbf" + BASE_CONFIG.encode("utf-8"))
    ok(cli("card", path, "-o", tmp_path / "out", "-f", "pdf"))


def test_a_huge_name_is_blamed_on_the_name_not_the_qr_code(tmp_path):
    line = error_line(card(tmp_path, with_person(name="A" * 500_000)), "person.name")
    assert "card.qr" not in line and len(line) < 400


def test_numbers_in_messages_are_never_rounded_into_other_numbers(tmp_path):
    config = BASE_CONFIG.replace('preset = "eu"', "width_mm = 150.0000001\nheight_mm = 55")
    error_line(card(tmp_path, config), "card.width_mm = 150.0000001 is impossible")


def test_a_huge_unknown_key_is_cut_short_in_the_message(tmp_path):
    key = "k" * 500_000  # (a file over 1 MB is refused before it is read)
    line = error_line(card(tmp_path, BASE_CONFIG + f"\n[images]\n{key} = 1\n"),
                      "unknown key images.kkkk")
    assert len(line) < 400


def test_a_dotless_i_or_other_lookalike_never_passes_for_a_letter_in_a_board_id():
    for lookalike in ("\u0131", "\u017f", "\u212a", "\u0669"):  # ı, ſ, Kelvin sign, ٩
        error_line(cli("rotator", "show", f"R1:B2B8E4{lookalike}2I8-B4E2E8H4I9"),
                   "board ID", "U+")


# --- signals (14) ----------------------------------------------------------------------------

@pytest.mark.parametrize("signum,status,word", sampled(
    [(signal.SIGINT, 130, "interrupted"), (signal.SIGTERM, 143, "terminated")],
    (signal.SIGINT, 130, "interrupted")))  # (test_signals sends SIGTERM in the quick loop)
def test_ctrl_c_and_sigterm_stop_with_one_line(tmp_path, signum, status, word):
    process = subprocess.Popen(
        [sys.executable, "-m", "cardgen", "rotator", "generate", "--difficulty", "hard",
         "--count", "5", "--jobs", "2", "-o", str(tmp_path)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + HANG_GUARD  # fails only if they never come
    workers = []
    while len(workers) < 2 or not all(_cpu(pid) >= 0.05 for pid, _ in workers):
        assert time.monotonic() < deadline and process.poll() is None, "no workers at work"
        workers = children(process.pid)
        time.sleep(0.02)  # until the workers analyse: the signal must stop them too
    process.send_signal(signum)
    _, err = process.communicate(timeout=HANG_GUARD)
    assert process.returncode == status, err
    assert err.strip().splitlines()[-1:] == [word] and "Traceback" not in err, err
    assert not (tmp_path / "r.pdf").exists()
    # The run kills and waits for its workers before it exits: none is left by then.
    assert not [w for w in workers if (stat := proc_stat(w[0])) is not None
                and stat[2] == w[1] and stat[0] not in "ZX"]


def _cpu(pid: int) -> float:
    """The processor time process ``pid`` has used (0 once it is gone)."""
    fields = proc_fields(pid)
    return 0.0 if fields is None else (int(fields[11]) + int(fields[12])) / os.sysconf(
        "SC_CLK_TCK")


# --- fuzzing every parser ------------------------------------------------------------------

def _answer(result) -> None:
    """A run on fuzzed input: success, or one error line with exit 1 (a traceback would
    have propagated out of the in-process run and failed the test already)."""
    if result.returncode != 0:
        error_line(result)


_VALID_CONFIG = (ROOT / "templates" / "example.toml").read_bytes()
_VALID_THEME = (ROOT / "templates" / "themes" / "dark.toml").read_bytes()


def _mutated(base: bytes) -> st.SearchStrategy[bytes]:
    """``base`` with a few bytes replaced, inserted or deleted."""
    edit = st.tuples(st.integers(0, len(base) - 1), st.sampled_from(["set", "ins", "del"]),
                     st.binary(min_size=1, max_size=4))

    def apply(edits: list[tuple[int, str, bytes]]) -> bytes:
        data = bytearray(base)
        for pos, kind, chunk in edits:
            pos %= max(len(data), 1)
            if kind == "set":
                data[pos:pos + len(chunk)] = chunk
            elif kind == "ins":
                data[pos:pos] = chunk
            else:
                del data[pos:pos + len(chunk)]
        return bytes(data)

    return st.lists(edit, min_size=1, max_size=6).map(apply)


HOSTILE_TEXT = st.one_of(
    st.text(max_size=30),
    st.text(st.sampled_from("Ab1 \r\n\t\x00\u2028\u202eמحدे\ufffd☃ıſ"), max_size=12))


def _toml_values() -> st.SearchStrategy[object]:
    scalars = st.one_of(HOSTILE_TEXT, st.integers(), st.integers(-10**30, 10**30),
                        st.floats(), st.booleans())
    return st.recursive(scalars, lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.text(min_size=1, max_size=12), inner, max_size=4)), max_leaves=12)


def _toml(data: dict[str, object]) -> str:
    import json

    def value(v: object) -> str:
        if isinstance(v, dict):
            return "{" + ", ".join(f"{json.dumps(k)} = {value(x)}" for k, x in v.items()) + "}"
        if isinstance(v, list):
            return "[" + ", ".join(value(x) for x in v) + "]"
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, float):
            return "nan" if v != v else "inf" if v == float("inf") else (
                "-inf" if v == float("-inf") else repr(v))
        if isinstance(v, int):
            return str(v)
        return json.dumps(v)

    return "\n".join(f"{json.dumps(k)} = {value(v)}" for k, v in data.items()) + "\n"


@FUZZ
@given(st.one_of(_mutated(_VALID_CONFIG),
                 st.dictionaries(st.sampled_from(["card", "person", "images", "fonts", "x"]),
                                 st.dictionaries(st.sampled_from(
                                     ["name", "preset", "width_mm", "theme", "qr", "logo",
                                      "address", "regular", "zz"]), _toml_values(),
                                     max_size=4), max_size=4).map(
                     lambda d: _toml(d).encode("utf-8")),
                 st.dictionaries(st.sampled_from(["name", "title", "company", "phone", "web",
                                                  "address", "tagline"]), HOSTILE_TEXT,
                                 min_size=1, max_size=3).map(
                     lambda person: _toml({"person": {"name": "Ada", **person}}).encode())))
@example(b'[person]\nname = "Ada\\rLee"\n')  # crashed the PNG renderer
@example(b'[person]\nname = "Ada"\naddress = "1 Road\\tLeith"\n')
@example(b'[person]\nname = "Ada"\n[card]\nx = ' + b"[" * 700 + b"]" * 700 + b"\n")
@example(b'[person]\nname = "Ada"\n[card]\nwidth_mm = nan\nheight_mm = 55\n')
def test_fuzz_card_configs(raw):
    with tempfile.TemporaryDirectory() as tmp:
        config = Path(tmp) / "card.toml"
        config.write_bytes(raw)
        _answer(cli("card", config, "-o", Path(tmp) / "out", "-f", "svg,png", "--dpi", "36",
                    "--no-marks"))


def _theme_with(key: str, value: object) -> bytes:
    """The dark theme with one value replaced."""
    lines = _VALID_THEME.decode("utf-8").splitlines()
    lines = [f"{key} = {_toml({'v': value}).split(' = ', 1)[1].strip()}"
             if line.startswith(f"{key} =") else line for line in lines]
    return ("\n".join(lines) + "\n").encode("utf-8")


@FUZZ
@given(st.one_of(_mutated(_VALID_THEME),
                 st.tuples(st.sampled_from(["lines", "amplitude", "background", "fill",
                                            "portrait_strength", "name"]),
                           _toml_values()).map(lambda kv: _theme_with(*kv))))
@example(_theme_with("fill", 5))  # a number where a list of colours belongs
@example(_theme_with("lines", float("inf")))
@example(_VALID_THEME + b"\nx = " + b"{a = " * 400 + b"1" + b"}" * 400 + b"\n")
def test_fuzz_themes(raw):
    with tempfile.TemporaryDirectory() as tmp:
        theme = Path(tmp) / "theme.toml"
        theme.write_bytes(raw)
        _answer(cli("card", "--theme", theme, "-o", Path(tmp) / "out", "-f", "svg",
                    "--no-marks"))


_ID_CHARS = "RABCDEFGHIJKZrabcj0123456789:- _ıſ٩\x00\n\t\u202e"


@settings(max_examples=examples(200), deadline=None, derandomize=True)
@given(st.one_of(st.text(_ID_CHARS, max_size=40), st.text(max_size=40),
                 st.text("B28-", min_size=260, max_size=600).map(lambda t: "R1:" + t),
                 st.builds(lambda a, b: f"R1:{a}-{b}", st.text("ABCDEFGHIJ0123456789", max_size=14),
                           st.text("ABCDEFGHIJ0123456789ı", max_size=14))))
def test_fuzz_board_ids(text):
    _answer(cli("rotator", "show", "--", text))


@FUZZ
@given(st.one_of(
    st.lists(st.text(max_size=8), max_size=12).map(lambda cells: _toml({"nodes": cells})),
    st.dictionaries(st.sampled_from(["nodes", "node", "x"]), _toml_values(),
                    max_size=3).map(_toml),
    st.integers(600, 900).map(lambda n: "nodes = " + "[" * n + "]" * n),
    st.binary(max_size=200).map(lambda b: b.decode("latin-1"))))
@example("nodes = " + "[" * 700 + "]" * 700)
@example('nodes = ["A:B2", "B:\u0131\u0662"]')
def test_fuzz_board_files(text):
    with tempfile.TemporaryDirectory() as tmp:
        board = Path(tmp) / "board.toml"
        board.write_text(text, encoding="utf-8", errors="surrogateescape")
        _answer(cli("rotator", "show", board))


@settings(max_examples=examples(80), deadline=None, derandomize=True)
@given(st.one_of(st.text(max_size=20),
                 st.tuples(st.floats(), st.floats()).map(lambda p: f"{p[0]},{p[1]}")))
def test_fuzz_offsets(text):
    with tempfile.TemporaryDirectory() as tmp:
        _answer(cli("sheet", "--registration", f"--offset={text}", "-o", tmp))


def test_a_real_process_never_prints_a_traceback_for_fuzzed_input(tmp_path):
    """Through a real process too (the in-process runs above share the test's
    interpreter): a carriage return bound for the PNG renderer, a broken config."""
    config = write_config(tmp_path, with_person(name="Ada\\rLee"))
    error_line(run_process("card", config, "-o", tmp_path / "out", "-f", "png"), "person.name")
    broken = tmp_path / "broken.toml"
    broken.write_bytes(_VALID_CONFIG.replace(b"[person]", b"[person\x00]"))
    error_line(run_process("card", broken, "-o", tmp_path / "out"), "invalid TOML")


def test_jobs_are_capped_at_the_cpus_and_the_command_says_so(tmp_path):
    from cardgen.games.rotator.generator import cpu_count

    result = ok(cli("rotator", "generate", "--seed", "3", "--count", "1", "--difficulty",
                    "easy", "--jobs", "5000", "-o", tmp_path))
    assert result.stderr.strip() == (f"warning: --jobs 5000 is more than the {cpu_count()} "
                                     f"CPUs this run may use; using {cpu_count()}.")
