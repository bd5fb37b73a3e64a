"""QR codes: the symbol's modules as a matrix, and drawn as vector runs.

Imports ``cardgen.draw`` and ``cardgen.errors``; reportlab's QR encoder inside the
function that encodes (``_encoded``, behind :func:`qr_matrix`).
"""

from __future__ import annotations

import enum
import functools

from cardgen.draw.colors import Color
from cardgen.draw.page import CLOSE, Item, LineTo, MoveTo, Path, PathOp, Rect
from cardgen.errors import CardgenError

QUIET_ZONE = 4  # light modules around the symbol, as the QR standard requires


class QRCapacityError(CardgenError):
    """The text is longer than the largest QR symbol holds at the error-correction level."""


class ErrorCorrection(enum.StrEnum):
    """How much of the symbol may be lost and still read: about 7 % (L), 15 % (M), 25 %
    (Q), 30 % (H). Each level up makes the symbol larger for the same text."""

    L = "L"
    M = "M"
    Q = "Q"
    H = "H"


def qr_matrix(text: str, level: ErrorCorrection = ErrorCorrection.L) -> list[list[bool]]:
    """The QR symbol's modules (True = dark), without the quiet zone: the smallest
    version that holds ``text`` (UTF-8, byte mode) at ``level``.

    Level L is the default: a printed card is a clean, flat, high-contrast medium, where
    what keeps a code from scanning is modules too small for the camera or scanner, not
    damage. L gives the fewest, so the largest, modules for a text (a 200-byte vCard is
    version 9 at L, 11 at M)."""
    return [list(row) for row in _encoded(text, level)]


@functools.lru_cache(maxsize=32)
def _encoded(text: str, level: ErrorCorrection) -> tuple[tuple[bool, ...], ...]:
    """The symbol of :func:`qr_matrix`, encoded once per text and level. Reportlab's
    encoder, pure Python, tries all eight masks and takes some 15 ms; the same card is
    built many times in one process when the tests run the command line in process."""
    from reportlab.graphics.barcode import qrencoder

    code = qrencoder.QRCode(None, getattr(qrencoder.QRErrorCorrectLevel, level.value))
    code.addData(qrencoder.QR8bitByte(text.encode("utf-8")))
    try:
        code.make()
    except Exception:  # reportlab raises a bare Exception("code length overflow ...")
        raise QRCapacityError(f"{len(text.encode('utf-8'))} bytes are too many for a QR code "
                              f"at error-correction level {level.value}.", value=text) from None
    n = code.getModuleCount()
    return tuple(tuple(bool(code.isDark(r, c)) for c in range(n)) for r in range(n))


def module_runs(matrix: list[list[bool]]) -> list[tuple[int, int, int]]:
    """Horizontal runs of dark modules as (row, first column, length): fewer shapes and
    no hairline seams between neighbouring modules."""
    runs = []
    for r, row in enumerate(matrix):
        c = 0
        while c < len(row):
            if row[c]:
                start = c
                while c < len(row) and row[c]:
                    c += 1
                runs.append((r, start, c - start))
            else:
                c += 1
    return runs


def module_size(matrix: list[list[bool]], side: float) -> float:
    """The side of one module when the symbol and its quiet zone fill ``side`` mm."""
    return side / (len(matrix) + 2 * QUIET_ZONE)


def qr_items(matrix: list[list[bool]], x: float, y: float, side: float, background: Color,
             modules: Color) -> list[Item]:
    """The symbol with its quiet zone as a ``side`` mm square at (x, y): a light square
    and one path of dark module runs."""
    module = module_size(matrix, side)
    ops: list[PathOp] = []
    for row, col, length in module_runs(matrix):
        mx = x + (col + QUIET_ZONE) * module
        my = y + (row + QUIET_ZONE) * module
        ops += [MoveTo(mx, my), LineTo(mx + length * module, my),
                LineTo(mx + length * module, my + module), LineTo(mx, my + module), CLOSE]
    return [Rect(x, y, side, side, fill=background), Path(tuple(ops), fill=modules)]
