"""QR codes: the symbol's modules as a matrix, and drawn as vector runs.

Imports ``cardgen.draw`` and ``cardgen.errors``; reportlab's QR encoder inside the
function that encodes (``_encoded``, behind :func:`qr_matrix`).
"""

from __future__ import annotations

import enum
import functools
import itertools
import operator
import re
from typing import Any

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
    """The symbol of :func:`qr_matrix`, encoded once per text and level: reportlab's
    encoder, with its choice of mask made by :func:`best_mask` (the same choice, a third
    of the time). The same card is built many times in one process when the tests run
    the command line in process."""
    from reportlab.graphics.barcode import qrencoder

    code = qrencoder.QRCode(None, getattr(qrencoder.QRErrorCorrectLevel, level.value))
    code.addData(qrencoder.QR8bitByte(text.encode("utf-8")))
    try:
        code.version = code.calculate_version()
        code.makeImpl(False, best_mask(code))
    except Exception:  # reportlab raises a bare Exception("code length overflow ...")
        raise QRCapacityError(f"{len(text.encode('utf-8'))} bytes are too many for a QR code "
                              f"at error-correction level {level.value}.", value=text) from None
    n = code.getModuleCount()
    return tuple(tuple(bool(code.isDark(r, c)) for c in range(n)) for r in range(n))


# --- choosing the mask: reportlab's choice, made faster -----------------------------------
#
# reportlab's ``QRCode.make`` draws the symbol with each of the eight masks and scores it
# with ``QRUtil.getLostPoint``, all in Python over lists of booleans: most of the time a
# QR code takes. :func:`best_mask` makes the same choice from the same eight symbols,
# scored by :func:`lost_points`, which counts what ``getLostPoint`` counts (its quirks
# included) on rows and columns as bytes and integers. tests/test_render_speed.py compares
# both with reportlab's over a sweep of texts, versions and levels.

_RUN = re.compile(rb"\x00{5,}|\x01{5,}")
_FINDER = bytes([1, 0, 1, 1, 1, 0, 1, 0, 0, 0, 0])  # the one direction reportlab looks for
_BITS = bytes.maketrans(b"\x00\x01", b"01")


def _run_points(lines: list[bytes]) -> int:
    """Rule 1 of ``getLostPoint`` along ``lines`` (rows, or columns): each run of five or
    more modules of one colour scores its length less 2."""
    return sum(run.end() - run.start() - 2 for line in lines for run in _RUN.finditer(line))


def _finder_points(rows: list[bytes]) -> int:
    """Rule 3 of ``getLostPoint``: 40 for each finder-like pattern in a row, counted left
    to right without overlaps (the pattern cannot overlap itself) and only where it
    starts before the row's last 11 modules (reportlab's ``while j < len(row) - 11``).
    reportlab's column half of the rule compares tuples with a list, so it never
    counts; neither does this."""
    return 40 * sum(row[:-1].count(_FINDER) for row in rows)


def lost_points(rows: list[bytes]) -> int:
    """reportlab's ``QRUtil.getLostPoint`` of the symbol whose rows are ``rows`` (one
    byte a module, 1 dark): long runs in rows and columns, finder-like patterns in rows, 2 × 2
    blocks of one colour (3 each), and the distance of the share of dark modules from
    half (in whole steps of 5 %, 10 each)."""
    n = len(rows)
    columns = [bytes(column) for column in zip(*rows, strict=True)]
    score = _run_points(rows) + _run_points(columns) + _finder_points(rows)
    numbers = [int(row.translate(_BITS), 2) for row in rows]
    pairs = (1 << (n - 1)) - 1  # bit i and bit i + 1 are neighbours, for i < n - 1
    for upper, lower in itertools.pairwise(numbers):
        same = ~(upper ^ lower)
        score += 3 * (same & (same >> 1) & ~(upper ^ (upper >> 1)) & pairs).bit_count()
    dark = sum(row.count(1) for row in rows)
    return score + 10 * (abs(100 * dark // (n * n) - 50) // 5)


@functools.lru_cache(maxsize=40)
def _layout(version: int, positions: tuple[tuple[int, int], ...]) -> tuple[Any, tuple[bytes, ...]]:
    """For one version: how to lay a symbol out from its function modules (row by row)
    followed by its data modules in reportlab's placing order, as one ``itemgetter``; and
    for each mask, whether it flips each data module (placing order)."""
    from reportlab.graphics.barcode.qrencoder import QRUtil

    n = version * 4 + 17
    source = list(range(n * n))
    for k, (col, row) in enumerate(positions):
        source[row * n + col] = n * n + k
    flips = tuple(bytes(bool(QRUtil.getMask(mask)(row, col)) for col, row in positions)
                  for mask in range(8))
    return operator.itemgetter(*source), flips


def best_mask(code: Any) -> int:
    """The mask reportlab's ``QRCode.getBestMaskPattern`` chooses for ``code`` (a
    ``qrencoder.QRCode`` with its version set): the first of the lowest
    :func:`lost_points` among the eight test symbols, which differ only in the data
    modules (their format and version bits are all light)."""
    code.makeImpl(True, 0)
    n = code.moduleCount
    base = b"".join(bytes(row) for row in code.modules)
    positions = tuple(code.dataPosIterator())
    place, flips = _layout(code.version, positions)
    bits = bytes(code.dataBitIterator(code.dataCache))
    bits += bytes(len(positions) - len(bits))  # reportlab's zip_longest(fillvalue=False)
    data = int.from_bytes(bits, "big")
    best, lowest = 0, 0
    for mask in range(8):
        masked = (data ^ int.from_bytes(flips[mask], "big")).to_bytes(len(bits), "big")
        flat = bytes(place(base + masked))
        points = lost_points([flat[r * n:(r + 1) * n] for r in range(n)])
        if mask == 0 or lowest > points:
            best, lowest = mask, points
    return best


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
    and one path of dark module runs. Made once for the same symbol, place and colours
    (the items are immutable; the place and colours are keyed by their ``repr``, so 0.0
    and -0.0, or 1 and 1.0, are not taken for each other)."""
    key = (tuple(tuple(row) for row in matrix), repr((x, y, side, background, modules)))
    items = _QR_ITEMS.get(key)
    if items is None:
        items = _qr_items(matrix, x, y, side, background, modules)
        if len(_QR_ITEMS) >= 32:
            _QR_ITEMS.clear()
        _QR_ITEMS[key] = items
    return list(items)


_QR_ITEMS: dict[tuple[object, ...], tuple[Item, ...]] = {}


def _qr_items(matrix: list[list[bool]], x: float, y: float, side: float, background: Color,
              modules: Color) -> tuple[Item, ...]:
    module = module_size(matrix, side)
    ops: list[PathOp] = []
    for row, col, length in module_runs(matrix):
        mx = x + (col + QUIET_ZONE) * module
        my = y + (row + QUIET_ZONE) * module
        ops += [MoveTo(mx, my), LineTo(mx + length * module, my),
                LineTo(mx + length * module, my + module), LineTo(mx, my + module), CLOSE]
    return (Rect(x, y, side, side, fill=background), Path(tuple(ops), fill=modules))
