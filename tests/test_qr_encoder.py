"""cardgen's QR encoder against reportlab's (``reportlab.graphics.barcode.qrencoder``, the
encoder cardgen used before; here the oracle only): the same symbol, module for module,
for every text and level, at every version, around every version's capacity, and the
same refusal past the largest. The card never imports reportlab's barcode package
(tests/test_cold_start.py).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardgen.draw.qr import (
    LAST_VERSION,
    ErrorCorrection,
    QRCapacityError,
    _capacity,
    _codewords,
    _encoded,
    _layout,
    _length_bits,
    _version,
)
from tests.helpers import examples, sampled

LEVELS = "LMQH"
LETTERS = "abcXYZ0129 :;.@+-/\n\u00e9\u00df\u4e2d\U0001f600"


def _reportlabs(text: str, level: str) -> tuple[tuple[bool, ...], ...] | None:
    """reportlab's symbol of ``text`` at ``level`` (``make``: its version, its mask), or
    None where it refuses the text."""
    from reportlab.graphics.barcode import qrencoder

    code = qrencoder.QRCode(None, getattr(qrencoder.QRErrorCorrectLevel, level))
    code.addData(qrencoder.QR8bitByte(text.encode("utf-8")))
    try:
        code.make()
    except Exception:  # reportlab raises a bare Exception("code length overflow ...")
        return None
    n = code.getModuleCount()
    return tuple(tuple(bool(code.isDark(r, c)) for c in range(n)) for r in range(n))


def _ours(text: str, level: str) -> tuple[tuple[bool, ...], ...] | None:
    try:
        return _encoded.__wrapped__(text, ErrorCorrection(level))
    except QRCapacityError:
        return None


def _text(rng: random.Random, size: int) -> str:
    return "".join(rng.choice(LETTERS) for _ in range(size))


@pytest.mark.parametrize("version", sampled(range(1, 41), 1, 7, 10))
def test_the_function_modules_and_the_placing_order_are_reportlabs(version):
    from reportlab.graphics.barcode import qrencoder

    code = qrencoder.QRCode(version, qrencoder.QRErrorCorrectLevel.L)
    code.addData(qrencoder.QR8bitByte(b""))
    code.makeImpl(True, 0)  # the test symbol: format and version bits light
    layout = _layout(version)
    assert list(layout.positions) == [(row, col) for col, row in code.dataPosIterator()]
    n = layout.size
    data = set(layout.positions)
    theirs = b"".join(bytes(row) for row in code.modules)
    assert all(layout.modules[r * n + c] == theirs[r * n + c]
               for r in range(n) for c in range(n) if (r, c) not in data)


@pytest.mark.parametrize("seed", sampled(range(25), 0))
def test_the_symbol_is_reportlabs_for_any_text(seed):
    """Texts of 0 to 300 characters from every alphabet a card's contact details use
    (ASCII, accents, CJK, emoji: 1 to 4 bytes each), at every level: 16 texts in the quick
    loop, 400 in the full run."""
    rng = random.Random(seed)
    for _ in range(16):
        level = rng.choice(LEVELS)
        text = _text(rng, rng.choice([rng.randint(0, 30), rng.randint(0, 300)]))
        assert _ours(text, level) == _reportlabs(text, level), (level, text)


@settings(max_examples=examples(60), deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=300), st.sampled_from(LEVELS))
def test_the_symbol_is_reportlabs_for_any_unicode_text(text, level):
    """Any text Hypothesis makes (any character but a lone surrogate, which UTF-8 cannot
    encode), at any level."""
    assert _ours(text, level) == _reportlabs(text, level)


def _around_capacity(version: int, level: str) -> list[str]:
    """Texts of one byte less, exactly, and one byte more than ``version`` holds."""
    most = (8 * _capacity(version, level) - 4 - _length_bits(version)) // 8
    rng = random.Random(version)
    return ["".join(rng.choice("ab~.") for _ in range(size)) for size in (most - 1, most, most + 1)]


@pytest.mark.parametrize("version", sampled(range(1, LAST_VERSION + 1), 2, 9, 10))
def test_the_version_and_codewords_are_reportlabs_around_each_versions_capacity(version):
    """The version chosen (the byte count takes 16 bits from version 10) and the codewords
    (the terminator left out where it does not fit, the pad codewords, the blocks and
    their error correction, interleaved), at every level, for one byte less, exactly and
    one byte more than each version holds; past version 39 both refuse the text
    (reportlab's search stops at 39). (reportlab's version 15 at level H holds fewer
    bytes than its version 14: a text past 14 goes to 16, here as there.)"""
    from reportlab.graphics.barcode import qrencoder

    for level in LEVELS:
        for text in _around_capacity(version, level):
            data = text.encode("utf-8")
            code = qrencoder.QRCode(None, getattr(qrencoder.QRErrorCorrectLevel, level))
            code.addData(qrencoder.QR8bitByte(data))
            theirs_version = code.calculate_version()
            try:
                theirs = qrencoder.QRCode.createData(theirs_version, code.errorCorrectLevel,
                                                     code.dataList)
            except Exception:  # reportlab raises a bare Exception("code length overflow ...")
                theirs = None
            try:
                ours_version = _version(len(data), level)
            except QRCapacityError:
                assert theirs is None, (level, len(data))
                continue
            assert ours_version == theirs_version, (level, len(data))
            assert list(_codewords(data, ours_version, level)) == theirs, (level, len(data))
    if version == LAST_VERSION:
        assert all(_ours(texts[-1], level) is None for level in LEVELS
                   for texts in [_around_capacity(version, level)])


@pytest.mark.parametrize("version", sampled([1, 2, 6, 7, 9, 10, 14, 16, 20, 26, 27, 33, 39], 10))
def test_the_symbol_is_reportlabs_at_each_versions_capacity(version):
    """The whole symbol (function modules, placing, mask chosen, format and version bits)
    of a text that fills the version, at one level a version (each level in turn)."""
    level = LEVELS[version % 4]
    text = _around_capacity(version, level)[1]
    assert _ours(text, level) == _reportlabs(text, level)


def test_a_text_too_long_is_refused_with_its_size():
    with pytest.raises(QRCapacityError, match="2810 bytes are too many for a QR code at "
                                              "error-correction level L"):
        _encoded.__wrapped__("x" * 2810, ErrorCorrection.L)
