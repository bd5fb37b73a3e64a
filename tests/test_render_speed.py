"""The fast paths of rendering and card building give exactly what the plain ones give.

Each speed-up of the renderers (``cardgen.render``) and of card building keeps a plain
way beside it, or names the library function it stands in for; these tests compare the
two over sweeps of inputs and whole documents, byte for byte. (How much faster each is:
``benchmarks/bench_card_render.py``.)
"""

from __future__ import annotations

import math
import random
import struct
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reportlab.lib import rl_accel

from cardgen.render import pdfcodec
from cardgen.render.pdfcodec import ascii85, fast_reportlab, fp_str
from tests.helpers import examples, sampled

FUZZ = settings(max_examples=examples(120), deadline=None, derandomize=True)
# reportlab's Python fallbacks (also when its C accelerator is installed).
PLAIN_FP_STR = pdfcodec.PURE_PYTHON["fp_str"]
PLAIN_A85 = pdfcodec.PURE_PYTHON["asciiBase85Encode"]
# What reportlab's modules bound: the C functions when the accelerator is installed.
BOUND_FP_STR, BOUND_A85 = rl_accel.fp_str, rl_accel.asciiBase85Encode


def _either(function, *args):
    """What a call gives: its value, or the type of the exception it raises."""
    try:
        return function(*args)
    except Exception as exc:
        return type(exc)


def _edge_numbers() -> list[float]:
    """Numbers where the formatting rule turns: powers of ten and their neighbours (the
    precision comes from log(x)/log(10), which is a hair low at 1000), the 1e-7
    threshold, halves that round, negative zero, the largest and smallest floats, big
    integers."""
    values: list[float] = [0.0, -0.0, 1e-7, -1e-7, 1.0000001e-7, 9.9999e-8, 5e-324,
                           sys.float_info.max, -sys.float_info.max, sys.float_info.min,
                           0.5, -0.5, 0.05, 0.0000005, 2.5e-7, -2.5e-7, 1.5e-6, 999999.5,
                           1e6, 1e7, 123456789.123, 2.0 ** 53 + 1]
    for exponent in range(-9, 25):
        power = 10.0 ** exponent
        for value in (power, math.nextafter(power, 0), math.nextafter(power, math.inf),
                      power * 0.5, power * 1.5, power * 9.9999995, power * 0.99999995):
            values += [value, -value]
    return values


def _swept_numbers(count: int) -> list[float]:
    """Seeded numbers of every kind cardgen writes and more: coordinates, rounded
    values, integers, tiny and huge magnitudes, halves at every precision, and any
    64-bit pattern."""
    r = random.Random(23)
    values: list[float] = []
    for _ in range(count):
        kind = r.randrange(6)
        if kind == 0:
            values.append(r.uniform(-1000, 1000))
        elif kind == 1:
            values.append(round(r.uniform(-300, 300), r.randint(0, 8)))
        elif kind == 2:
            values.append(r.uniform(-1, 1) * 10.0 ** r.randint(-9, 12))
        elif kind == 3:
            values.append((r.randint(-200_000, 200_000) + 0.5) / 10 ** r.randint(0, 7))
        elif kind == 4:
            values.append(struct.unpack("<d", struct.pack("<Q", r.getrandbits(64)))[0])
        else:
            values.append(r.randint(-10 ** 9, 10 ** 9))
    return values


@pytest.mark.parametrize("values", [_edge_numbers(), _swept_numbers(40_000),
                                    [int(v) for v in _swept_numbers(2_000) if abs(v) < 1e30]],
                         ids=["edges", "sweep", "integers"])
def test_fp_str_writes_every_number_as_reportlab_does(values):
    got = [_either(fp_str, v) for v in values]  # memo cold, then warm
    assert [_either(fp_str, v) for v in values] == got
    assert got == [_either(PLAIN_FP_STR, v) for v in values]
    assert fp_str(*values[:50]) == PLAIN_FP_STR(*values[:50])
    assert fp_str(values[:50]) == PLAIN_FP_STR(values[:50])
    assert fp_str(tuple(values[:7])) == PLAIN_FP_STR(tuple(values[:7]))


@FUZZ
@given(st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(),
                 st.booleans()))
def test_fp_str_agrees_on_any_number_nan_and_infinity_included(value):
    assert _either(fp_str, value) == _either(PLAIN_FP_STR, value)
    assert _either(fp_str, value, 1.5, -value) == _either(PLAIN_FP_STR, value, 1.5, -value)


def test_fp_str_memory_is_bounded(monkeypatch):
    monkeypatch.setattr(pdfcodec, "MEMO_SIZE", 100)
    pdfcodec._memo.clear()
    for n in range(1_000):
        assert fp_str(n + 0.25) == PLAIN_FP_STR(n + 0.25)
    assert len(pdfcodec._memo) <= 100


@FUZZ
@given(st.binary(max_size=64))
def test_ascii85_encodes_as_reportlab_does(data):
    assert ascii85(data) == PLAIN_A85(data)


@pytest.mark.parametrize("data", [b"", b"\0", b"\0" * 4, b"\0" * 7, b"\xff" * 9,
                                  b"\0\0\0\0abc\0\0\0", bytes(range(256)) * 40],
                         ids=lambda d: f"{len(d)}-bytes")
def test_ascii85_zero_words_and_short_ends(data):
    assert ascii85(data) == PLAIN_A85(data)
    assert ascii85(data.decode("latin-1")) == PLAIN_A85(data.decode("latin-1"))


def test_the_fast_encoders_are_in_place_only_while_a_pdf_is_written():
    from reportlab.pdfbase import pdfdoc
    from reportlab.pdfgen import canvas, pathobject, textobject

    modules = (pdfdoc, canvas, pathobject, textobject)
    assert all(m.fp_str is BOUND_FP_STR for m in modules)
    with fast_reportlab():
        with fast_reportlab():
            assert all(m.fp_str is fp_str for m in modules)
            assert pdfdoc.asciiBase85Encode is ascii85
        assert all(m.fp_str is fp_str for m in modules)
        assert rl_accel.fp_str is BOUND_FP_STR  # what later imports bind stays reportlab's
    assert all(m.fp_str is BOUND_FP_STR for m in modules)
    assert pdfdoc.asciiBase85Encode is BOUND_A85
    with pytest.raises(RuntimeError), fast_reportlab():
        raise RuntimeError
    assert canvas.fp_str is BOUND_FP_STR


@pytest.mark.parametrize("cmyk", [True, False], ids=["cmyk", "rgb"])
def test_a_pdf_is_the_same_with_the_fast_encoders_and_without(example_build, cmyk):
    from cardgen.render.pdf import _render_pdf, render_pdf

    for document in (example_build.document, example_build.dieline):
        assert render_pdf(document, cmyk=cmyk) == _render_pdf(document, cmyk)


def _texts(chunk: int) -> list[tuple[str, str]]:
    """Seeded texts from every alphabet a card's contact details use (UTF-8 in byte
    mode), at every error-correction level: chunk 0 up to 150 bytes (versions 1 to
    about 10: the cards'), chunk 1 up to 400 (to about version 20)."""
    r = random.Random(9 + chunk)
    letters = "abcXYZ0129 :;.@+-\n\u00e9\u00df\u4e2d"
    longest = (150, 400)[chunk]
    return [(r.choice("LMQH"), "".join(r.choice(letters) for _ in range(r.randint(0, longest))))
            for _ in range(24)]


def _plain_qr(text: str, level: str):
    from reportlab.graphics.barcode import qrencoder

    code = qrencoder.QRCode(None, getattr(qrencoder.QRErrorCorrectLevel, level))
    code.addData(qrencoder.QR8bitByte(text.encode("utf-8")))
    return code


@pytest.mark.parametrize("chunk", sampled(range(2), 0))
def test_the_qr_mask_and_matrix_are_reportlabs(chunk, monkeypatch):
    """cardgen's encoder makes the symbol reportlab's ``make`` makes (its mask included),
    and ``lost_points`` scores each of the eight test symbols as ``QRUtil.getLostPoint``
    does, for every text. (reportlab's scoring is most of the test's time, so each test
    symbol is scored by reportlab once: ``make`` scores the eight itself, in
    ``getBestMaskPattern``, and the test records each score and the mask chosen as
    ``make`` computes them, instead of asking reportlab for them a second and a third
    time.)"""
    from reportlab.graphics.barcode.qrencoder import QRUtil

    from cardgen.draw.qr import ErrorCorrection, _encoded, lost_points

    plain_score = QRUtil.getLostPoint
    scored: list[tuple[int, int]] = []  # reportlab's score, lost_points's, per test symbol

    def scoring(code) -> int:
        score = plain_score(code)
        scored.append((score, lost_points([bytes(row) for row in code.modules])))
        return score

    monkeypatch.setattr(QRUtil, "getLostPoint", scoring)
    checked = 0
    for level, text in _texts(chunk):
        plain = _plain_qr(text, level)
        chosen_by_make: list[int] = []

        def best(chosen=chosen_by_make, plain_best=plain.getBestMaskPattern) -> int:
            chosen.append(plain_best())
            return chosen[-1]

        plain.getBestMaskPattern = best
        scored.clear()
        try:
            plain.make()
        except Exception:  # too long for the level: both refuse it
            with pytest.raises(Exception):  # noqa: B017
                _encoded.__wrapped__(text, ErrorCorrection(level))
            continue
        assert len(scored) == 8 and chosen_by_make  # make scored the eight symbols
        assert [ours for _, ours in scored] == [theirs for theirs, _ in scored]
        size = plain.getModuleCount()
        assert _encoded.__wrapped__(text, ErrorCorrection(level)) == tuple(
            tuple(bool(plain.isDark(r, c)) for c in range(size)) for r in range(size))
        checked += 1
    assert checked >= 15


_coordinate = st.one_of(st.floats(allow_nan=False, allow_infinity=False, width=64),
                        st.integers(-10**6, 10**6), st.sampled_from([0.0, -0.0, 1e-7, 0.5]))


def _ops(draw_ops):
    from cardgen.draw.page import CLOSE, CurveTo, LineTo, MoveTo

    ops = []
    for kind, values in draw_ops:
        if kind == "m":
            ops.append(MoveTo(*values[:2]))
        elif kind == "l":
            ops.append(LineTo(*values[:2]))
        elif kind == "c":
            ops.append(CurveTo(*values))
        else:
            ops.append(CLOSE)
    return ops


_path = st.lists(st.tuples(st.sampled_from("mlch"), st.lists(_coordinate, min_size=6,
                                                             max_size=6)), max_size=12)


class _Recorder:
    def __init__(self):
        self.calls = []

    def move_to(self, *a):
        self.calls.append(("m", a))

    def line_to(self, *a):
        self.calls.append(("l", a))

    def curve_to(self, *a):
        self.calls.append(("c", a))

    def close(self):
        self.calls.append(("h", ()))


@FUZZ
@given(_path)
def test_walk_path_hands_on_each_operation_in_order(path):
    from cardgen.render.base import walk_path

    sink = _Recorder()
    walk_path(_ops(path), sink)
    assert sink.calls == [(k, () if k == "h" else tuple(v[:2] if k in "ml" else v))
                          for k, v in path]


@FUZZ
@given(_path)
def test_the_pdf_path_code_is_what_reportlabs_path_methods_write(path):
    """``_PathBuilder`` adds to a reportlab path exactly what ``moveTo``, ``lineTo``,
    ``curveTo`` and ``close`` would (and refuses a path that starts with no move, as
    reportlab does)."""
    from reportlab.pdfgen.pathobject import PDFPathObject

    from cardgen.render.base import walk_path
    from cardgen.render.pdf import _PathBuilder

    ops = [(k, v) for k, v in path]
    plain, fast = PDFPathObject(), PDFPathObject()
    methods = {"m": plain.moveTo, "l": plain.lineTo, "c": plain.curveTo}
    plain_error = fast_error = None
    try:  # (numbers written as reportlab's Python fallback writes them: see fp_str's tests)
        with fast_reportlab():
            for kind, values in ops:
                if kind == "h":
                    plain.close()
                else:
                    methods[kind](*(values[:2] if kind in "ml" else values))
    except AssertionError as exc:
        plain_error = exc
    try:
        with fast_reportlab():
            walk_path(_ops(ops), _PathBuilder(fast))
    except AssertionError as exc:
        fast_error = exc
    assert (plain_error is None) == (fast_error is None)
    assert fast.getCode() == plain.getCode()


@FUZZ
@given(st.tuples(*[_coordinate] * 4), st.tuples(*[_coordinate] * 6))
def test_a_box_transformed_is_the_box_around_its_mapped_corners(box, matrix):
    from cardgen.draw.geometry import Affine, Box

    b, t = Box(*box), Affine(*matrix)
    assert repr(b.transformed(t)) == repr(Box.around(t.apply(x, y) for x, y in b.corners()))


def test_qr_items_are_made_once_for_the_same_symbol_place_and_colours():
    from cardgen.draw.colors import Color
    from cardgen.draw.qr import _qr_items, qr_items, qr_matrix

    matrix = qr_matrix("https://example.org")
    dark, light = Color.cmyk(0, 0, 0, 100), Color.cmyk(0, 0, 0, 0)
    for x, y, side in [(0.0, 0.0, 20.0), (-0.0, 0.0, 20.0), (0, 0, 20), (1.5, 2.25, 18.0)]:
        first = qr_items(matrix, x, y, side, light, dark)
        again = qr_items([list(row) for row in matrix], x, y, side, light, dark)
        plain = list(_qr_items(matrix, x, y, side, light, dark))
        assert repr(first) == repr(again) == repr(plain)
        assert again is not first  # a new list each time: callers may extend it


@FUZZ
@given(st.lists(st.text(alphabet=st.characters(codec="utf-8"), max_size=80), max_size=6),
       st.floats(min_value=0.5, max_value=200))
def test_a_remembered_width_is_the_width_measured_afresh(texts, size):
    from cardgen.text.fonts import MM_PER_PT, bundled_fonts

    fonts = bundled_fonts()
    for face in (fonts.regular, fonts.bold, fonts.italic):
        metrics = face.metrics
        default = metrics.advances.get(0xFFFD, metrics.units_per_em // 2)
        for text in texts * 2:  # the second time from memory
            units = 0
            for ch in text:
                units += metrics.advances.get(ord(ch), default)
            assert metrics.text_units(text) == units
            assert face.width(text, size) == units * size / metrics.units_per_em * MM_PER_PT


def test_a_face_remembers_a_bounded_number_of_widths(monkeypatch):
    from cardgen.text import fonts

    monkeypatch.setattr(fonts, "WIDTHS_REMEMBERED", 50)
    metrics = fonts.bundled_fonts().regular.metrics
    for n in range(500):
        metrics.width(f"word {n}", 10)
    assert len(metrics._units) <= 50


_point = st.tuples(st.floats(-1e5, 1e5), st.floats(-1e5, 1e5))


@FUZZ
@given(_point, _point, _point, _point)
def test_a_flattened_curve_has_the_same_points_as_before(p0, p1, p2, p3):
    from cardgen.render.png import _bezier, _bezier_plain

    assert repr(_bezier(p0, p1, p2, p3)) == repr(_bezier_plain(p0, p1, p2, p3))


def test_a_reportlab_module_imported_later_gets_the_fast_encoders_too(monkeypatch):
    import types

    with fast_reportlab():
        pass  # the namespaces found once
    probe = types.ModuleType("reportlab._cardgen_probe")
    probe.fp_str = BOUND_FP_STR
    monkeypatch.setitem(sys.modules, probe.__name__, probe)
    with fast_reportlab():
        assert probe.fp_str is fp_str
    assert probe.fp_str is BOUND_FP_STR


@FUZZ
@given(_path, st.sampled_from([None, 0.0, 0.35, 2]))
def test_a_paths_ink_box_is_the_box_around_its_points(path, width):
    from cardgen.draw.colors import Color
    from cardgen.draw.geometry import Box
    from cardgen.draw.page import Close, CurveTo, Path, Stroke
    from cardgen.text.fit import item_box

    ops = tuple(_ops(path))
    stroke = None if width is None else Stroke(Color.cmyk(0, 0, 0, 100), width)
    points = []
    for op in ops:
        if isinstance(op, CurveTo):
            points += [(op.x1, op.y1), (op.x2, op.y2)]
        if not isinstance(op, Close):
            points.append((op.x, op.y))
    plain = Box.around(points).inset(-(width or 0.0) / 2) if points else None
    assert repr(item_box(Path(ops, stroke=stroke))) == repr(plain)


@pytest.mark.parametrize("seed", range(4))
def test_the_formula_cmyk_of_an_image_is_its_pixels_one_by_one(seed):
    """The fast way only regroups the loop (each colour converted once, the pixels
    joined), so a few seeded images of few and of many colours, odd sizes included,
    compare it fully."""
    from PIL import Image

    from cardgen.draw.icc import formula_cmyk, formula_cmyk_plain

    r = random.Random(seed)
    width, height = r.randint(1, 97), r.randint(1, 61)
    data = r.randbytes(width * height * 3)
    if seed % 2:  # few colours: black, white, greys and pure channels
        data = data.translate(bytes(b // 64 * 85 for b in range(256)))
    image = Image.frombytes("RGB", (width, height), data)
    assert formula_cmyk(image).tobytes() == formula_cmyk_plain(image).tobytes()


def test_a_text_found_printable_with_one_font_is_still_checked_with_another(tmp_path):
    """``check_printable`` remembers texts per face's metrics: a text the bundled font
    prints passes again, but a user's font that lacks one of its letters, or draws one
    as nothing, still refuses it, however often the text passed before."""
    from cardgen.errors import CardgenError
    from cardgen.text.fit import check_printable
    from cardgen.text.fonts import FontStyle, bundled_fonts, load_face
    from tests.helpers import cff_font

    bundled = bundled_fonts().regular
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
    lacking = load_face(cff_font(tmp_path / "lacking.otf", letters.replace("Z", "")),
                        FontStyle.REGULAR, "fonts.regular")
    blank = load_face(cff_font(tmp_path / "blank.otf", letters, empty="Z"),
                      FontStyle.REGULAR, "fonts.regular")
    for _ in range(2):
        check_printable("Zebra", bundled, "person.name")
        check_printable("ebra", lacking, "person.name")
        for face in (lacking, blank):
            with pytest.raises(CardgenError, match=r"person\.name"):
                check_printable("Zebra", face, "person.name")
        with pytest.raises(CardgenError, match=r"person\.name"):
            check_printable("Zebra\x07", bundled, "person.name")
