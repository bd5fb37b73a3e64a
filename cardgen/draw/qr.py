"""QR codes: the symbol's modules as a matrix, and drawn as vector runs.

Imports ``cardgen.draw`` and ``cardgen.errors`` only: the encoder is cardgen's own
(reportlab's symbols, module for module, without importing reportlab's barcode package).
"""

from __future__ import annotations

import enum
import functools
import itertools
import operator
import re
from dataclasses import dataclass
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


# --- the encoder ---------------------------------------------------------------------------
#
# The symbols are reportlab's (``reportlab.graphics.barcode.qrencoder``, which cardgen used
# until issue 26), module for module: byte mode, the smallest version from 1 to 39 (its
# search stops before 40), its table of error-correction blocks, its placing of the format
# bits and its choice of mask (:func:`lost_points`). Importing that module runs the whole
# barcode package first, about a third of a cold card's imports; this encoder imports
# nothing. tests/test_qr_encoder.py compares both over a sweep of texts, levels and
# versions (reportlab's encoder is the tests' oracle only).

LAST_VERSION = 39  # reportlab's version search: range(1, 40)
_LEVEL_BITS = {"L": 1, "M": 0, "Q": 3, "H": 2}  # the level's two bits in the format bits
_PADS = b"\xec\x11"

# The centres of the alignment patterns, per version (from 1).
_ALIGNMENT: tuple[tuple[int, ...], ...] = (
    (), (6, 18), (6, 22), (6, 26), (6, 30), (6, 34), (6, 22, 38), (6, 24, 42), (6, 26, 46),
    (6, 28, 50), (6, 30, 54), (6, 32, 58), (6, 34, 62), (6, 26, 46, 66), (6, 26, 48, 70),
    (6, 26, 50, 74), (6, 30, 54, 78), (6, 30, 56, 82), (6, 30, 58, 86), (6, 34, 62, 90),
    (6, 28, 50, 72, 94), (6, 26, 50, 74, 98), (6, 30, 54, 78, 102), (6, 28, 54, 80, 106),
    (6, 32, 58, 84, 110), (6, 30, 58, 86, 114), (6, 34, 62, 90, 118), (6, 26, 50, 74, 98, 122),
    (6, 30, 54, 78, 102, 126), (6, 26, 52, 78, 104, 130), (6, 30, 56, 82, 108, 134),
    (6, 34, 60, 86, 112, 138), (6, 30, 58, 86, 114, 142), (6, 34, 62, 90, 118, 146),
    (6, 30, 54, 78, 102, 126, 150), (6, 24, 50, 76, 102, 128, 154), (6, 28, 54, 80, 106, 132, 158),
    (6, 32, 58, 84, 110, 136, 162), (6, 26, 54, 82, 110, 138, 166), (6, 30, 58, 86, 114, 142, 170),
)

# Per version (from 1): error-correction codewords per block, the number of blocks of
# the first group, the data codewords of each, and the number of blocks of the second
# group (one data codeword more each). As reportlab has them, version 15 at level H
# included (11 blocks, where the standard adds 7 of 13 data codewords: reportlab leaves
# those modules light; cardgen's cards are level L).
_BLOCKS: dict[str, tuple[tuple[int, int, int, int], ...]] = {
    "L": (
        (7, 1, 19, 0), (10, 1, 34, 0), (15, 1, 55, 0), (20, 1, 80, 0), (26, 1, 108, 0),
        (18, 2, 68, 0), (20, 2, 78, 0), (24, 2, 97, 0), (30, 2, 116, 0), (18, 2, 68, 2),
        (20, 4, 81, 0), (24, 2, 92, 2), (26, 4, 107, 0), (30, 3, 115, 1), (22, 5, 87, 1),
        (24, 5, 98, 1), (28, 1, 107, 5), (30, 5, 120, 1), (28, 3, 113, 4), (28, 3, 107, 5),
        (28, 4, 116, 4), (28, 2, 111, 7), (30, 4, 121, 5), (30, 6, 117, 4), (26, 8, 106, 4),
        (28, 10, 114, 2), (30, 8, 122, 4), (30, 3, 117, 10), (30, 7, 116, 7), (30, 5, 115, 10),
        (30, 13, 115, 3), (30, 17, 115, 0), (30, 17, 115, 1), (30, 13, 115, 6), (30, 12, 121, 7),
        (30, 6, 121, 14), (30, 17, 122, 4), (30, 4, 122, 18), (30, 20, 117, 4), (30, 19, 118, 6),
    ),
    "M": (
        (10, 1, 16, 0), (16, 1, 28, 0), (26, 1, 44, 0), (18, 2, 32, 0), (24, 2, 43, 0),
        (16, 4, 27, 0), (18, 4, 31, 0), (22, 2, 38, 2), (22, 3, 36, 2), (26, 4, 43, 1),
        (30, 1, 50, 4), (22, 6, 36, 2), (22, 8, 37, 1), (24, 4, 40, 5), (24, 5, 41, 5),
        (28, 7, 45, 3), (28, 10, 46, 1), (26, 9, 43, 4), (26, 3, 44, 11), (26, 3, 41, 13),
        (26, 17, 42, 0), (28, 17, 46, 0), (28, 4, 47, 14), (28, 6, 45, 14), (28, 8, 47, 13),
        (28, 19, 46, 4), (28, 22, 45, 3), (28, 3, 45, 23), (28, 21, 45, 7), (28, 19, 47, 10),
        (28, 2, 46, 29), (28, 10, 46, 23), (28, 14, 46, 21), (28, 14, 46, 23), (28, 12, 47, 26),
        (28, 6, 47, 34), (28, 29, 46, 14), (28, 13, 46, 32), (28, 40, 47, 7), (28, 18, 47, 31),
    ),
    "Q": (
        (13, 1, 13, 0), (22, 1, 22, 0), (18, 2, 17, 0), (26, 2, 24, 0), (18, 2, 15, 2),
        (24, 4, 19, 0), (18, 2, 14, 4), (22, 4, 18, 2), (20, 4, 16, 4), (24, 6, 19, 2),
        (28, 4, 22, 4), (26, 4, 20, 6), (24, 8, 20, 4), (20, 11, 16, 5), (30, 5, 24, 7),
        (24, 15, 19, 2), (28, 1, 22, 15), (28, 17, 22, 1), (26, 17, 21, 4), (30, 15, 24, 5),
        (28, 17, 22, 6), (30, 7, 24, 16), (30, 11, 24, 14), (30, 11, 24, 16), (30, 7, 24, 22),
        (28, 28, 22, 6), (30, 8, 23, 26), (30, 4, 24, 31), (30, 1, 23, 37), (30, 15, 24, 25),
        (30, 42, 24, 1), (30, 10, 24, 35), (30, 29, 24, 19), (30, 44, 24, 7), (30, 39, 24, 14),
        (30, 46, 24, 10), (30, 49, 24, 10), (30, 48, 24, 14), (30, 43, 24, 22), (30, 34, 24, 34),
    ),
    "H": (
        (17, 1, 9, 0), (28, 1, 16, 0), (22, 2, 13, 0), (16, 4, 9, 0), (22, 2, 11, 2),
        (28, 4, 15, 0), (26, 4, 13, 1), (26, 4, 14, 2), (24, 4, 12, 4), (28, 6, 15, 2),
        (24, 3, 12, 8), (28, 7, 14, 4), (22, 12, 11, 4), (24, 11, 12, 5), (24, 11, 12, 0),
        (30, 3, 15, 13), (28, 2, 14, 17), (28, 2, 14, 19), (26, 9, 13, 16), (28, 15, 15, 10),
        (30, 19, 16, 6), (24, 34, 13, 0), (30, 16, 15, 14), (30, 30, 16, 2), (30, 22, 15, 13),
        (30, 33, 16, 4), (30, 12, 15, 28), (30, 11, 15, 31), (30, 19, 15, 26), (30, 23, 15, 25),
        (30, 23, 15, 28), (30, 19, 15, 35), (30, 11, 15, 46), (30, 59, 16, 1), (30, 22, 15, 41),
        (30, 2, 15, 64), (30, 24, 15, 46), (30, 42, 15, 32), (30, 10, 15, 67), (30, 20, 15, 61),
    ),
}

def _field() -> tuple[list[int], list[int]]:
    """Powers (doubled, so that a sum of two logarithms needs no modulo) and logarithms
    of the field GF(256) of the error-correction codewords (x^8 + x^4 + x^3 + x^2 + 1)."""
    exp, log = [0] * 512, [0] * 256
    value = 1
    for power in range(255):
        exp[power] = exp[power + 255] = value
        log[value] = power
        value <<= 1
        if value & 0x100:
            value ^= 0x11D
    exp[510], exp[511] = exp[0], exp[1]
    return exp, log


_EXP, _LOG = _field()


@functools.lru_cache(maxsize=64)
def _generator(degree: int) -> tuple[int, ...]:
    """The logarithms of the coefficients of the generator polynomial of ``degree``
    error-correction codewords, highest power first (its leading 1 left out)."""
    poly = [1]
    for i in range(degree):  # times (x + alpha^i)
        product = [*poly, 0]
        for j, coefficient in enumerate(poly):
            if coefficient:
                product[j + 1] ^= _EXP[_LOG[coefficient] + i]
        poly = product
    return tuple(_LOG[c] for c in poly[1:])


def _error_codewords(data: bytes, degree: int) -> bytes:
    """The remainder of ``data`` (a block's data codewords) divided by the generator."""
    generator = _generator(degree)
    remainder = [0] * degree
    for byte in data:
        factor = byte ^ remainder[0]
        del remainder[0]
        remainder.append(0)
        if factor:
            log = _LOG[factor]
            for i, g in enumerate(generator):
                remainder[i] ^= _EXP[g + log]
    return bytes(remainder)


def _capacity(version: int, level: str) -> int:
    """The data codewords of ``version`` at ``level``."""
    _, first, data, second = _BLOCKS[level][version - 1]
    return first * data + second * (data + 1)


def _length_bits(version: int) -> int:
    """The bits of the byte count in byte mode."""
    return 8 if version < 10 else 16


def _version(size: int, level: str) -> int:
    """The smallest version that holds ``size`` bytes at ``level``."""
    for version in range(1, LAST_VERSION + 1):
        if 4 + _length_bits(version) + 8 * size <= 8 * _capacity(version, level):
            return version
    raise QRCapacityError(f"{size} bytes are too many for a QR code at error-correction "
                          f"level {level}.")


def _codewords(data: bytes, version: int, level: str) -> bytes:
    """The symbol's codewords: mode, count, bytes, terminator and pad codewords, split
    into blocks, each followed by its error correction, interleaved."""
    capacity = _capacity(version, level)
    value, bits = 0b0100, 4
    value = (value << _length_bits(version)) | len(data)
    bits += _length_bits(version)
    value = (value << 8 * len(data)) | int.from_bytes(data, "big")
    bits += 8 * len(data)
    if bits + 4 <= 8 * capacity:
        value, bits = value << 4, bits + 4  # the terminator
    value, bits = value << (-bits % 8), bits + (-bits % 8)
    stream = value.to_bytes(bits // 8, "big")
    stream += (_PADS * capacity)[:capacity - len(stream)]
    degree, first, size, second = _BLOCKS[level][version - 1]
    blocks, offset = [], 0
    for count in range(first + second):
        length = size + (count >= first)
        blocks.append(stream[offset:offset + length])
        offset += length
    ordered = bytearray()
    for i in range(size + 1):
        ordered += bytes(block[i] for block in blocks if i < len(block))
    errors = [_error_codewords(block, degree) for block in blocks]
    for i in range(degree):
        ordered += bytes(block[i] for block in errors)
    return bytes(ordered)


def _bch(data: int, generator: int, shift: int) -> int:
    """``data`` followed by the ``shift`` bits of its BCH code."""
    remainder = data << shift
    while remainder.bit_length() > shift:
        remainder ^= generator << (remainder.bit_length() - generator.bit_length())
    return (data << shift) | remainder


_FORMAT_GENERATOR, _FORMAT_MASK = 0b10100110111, 0b101010000010010
_VERSION_GENERATOR = 0b1111100100101

_MASKS = (
    lambda i, j: (i + j) % 2 == 0,
    lambda i, j: i % 2 == 0,
    lambda i, j: j % 3 == 0,
    lambda i, j: (i + j) % 3 == 0,
    lambda i, j: (i // 2 + j // 3) % 2 == 0,
    lambda i, j: (i * j) % 2 + (i * j) % 3 == 0,
    lambda i, j: ((i * j) % 2 + (i * j) % 3) % 2 == 0,
    lambda i, j: ((i * j) % 3 + (i + j) % 2) % 2 == 0,
)

_MASK_TILES = tuple(bytes(bool(mask(i, j)) for i in range(12) for j in range(12))
                    for mask in _MASKS)  # each mask's period divides 12 (2, 3, 4 or 6)


@dataclass(frozen=True)
class _Layout:
    """What one version's symbols share: the function modules (one byte a module, row by
    row, 1 dark; the format and version bits light, as the symbols the masks are scored
    on have them), the data modules in placing order as (row, column), how to lay a
    symbol out from the function modules followed by the data modules (one
    ``itemgetter``), and for each mask whether it flips each data module."""

    size: int
    modules: bytes
    positions: tuple[tuple[int, int], ...]
    place: Any
    flips: tuple[bytes, ...]


@functools.lru_cache(maxsize=40)
def _layout(version: int) -> _Layout:
    n = version * 4 + 17
    modules, used = bytearray(n * n), bytearray(n * n)

    def put(row: int, col: int, dark: bool = False) -> None:
        modules[row * n + col], used[row * n + col] = dark, 1

    for top, left in ((0, 0), (n - 7, 0), (0, n - 7)):  # finders and their separators
        for r in range(-1, 8):
            for c in range(-1, 8):
                if 0 <= top + r < n and 0 <= left + c < n:
                    ring = max(abs(r - 3), abs(c - 3))
                    put(top + r, left + c, ring in (0, 1, 3))
    centres = _ALIGNMENT[version - 1]
    for row, col in itertools.product(centres, centres):
        if (col <= 8 and (row <= 8 or row >= n - 8)) or (col >= n - 8 and row <= 8):
            continue  # on a finder
        for r in range(-2, 3):
            for c in range(-2, 3):
                put(row + r, col + c, max(abs(r), abs(c)) != 1)
    for i in range(8, n - 8):  # timing
        put(i, 6, i % 2 == 0)
        put(6, i, i % 2 == 0)
    for row, col in _format_places(n):
        put(row, col)
    put(n - 8, 8)  # the dark module (light in the symbols scored)
    if version >= 7:
        for row, col in _version_places(n):
            put(row, col)
    positions = []
    upward = True
    for right in range(n - 1, 0, -2):
        if right <= 6:
            right -= 1  # the vertical timing pattern is skipped
        rows = range(n - 1, -1, -1) if upward else range(n)
        positions += [(row, col) for row in rows for col in (right, right - 1)
                      if not used[row * n + col]]
        upward = not upward
    source = list(range(n * n))
    for k, (row, col) in enumerate(positions):
        source[row * n + col] = n * n + k
    # Each mask repeats every 12 rows and columns: its flips are looked up in its 12 × 12
    # tile (the same as asking the mask at every position, a twentieth of the time).
    tile_of = operator.itemgetter(*[row % 12 * 12 + col % 12 for row, col in positions])
    flips = tuple(bytes(tile_of(tile)) for tile in _MASK_TILES)
    return _Layout(n, bytes(modules), tuple(positions), operator.itemgetter(*source), flips)


def _format_places(n: int) -> list[tuple[int, int]]:
    """Where bit i of the format bits goes, twice (reportlab's order: by the top-left
    finder, then by the other two)."""
    down = [(i, 8) for i in range(6)] + [(7, 8), (8, 8)] + [(n - 15 + i, 8) for i in range(8, 15)]
    across = [(8, n - i - 1) for i in range(8)] + [(8, 7)] + [(8, 15 - i - 1) for i in range(9, 15)]
    return down + across


def _version_places(n: int) -> list[tuple[int, int]]:
    """Where bit i of the version bits goes, twice."""
    return ([(i // 3, i % 3 + n - 11) for i in range(18)]
            + [(i % 3 + n - 11, i // 3) for i in range(18)])


@functools.lru_cache(maxsize=32)
def _encoded(text: str, level: ErrorCorrection) -> tuple[tuple[bool, ...], ...]:
    """The symbol of :func:`qr_matrix`, encoded once per text and level. (The same card
    is built many times in one process when the tests run the command line in process.)"""
    data = text.encode("utf-8")
    try:
        version = _version(len(data), level.value)
    except QRCapacityError as exc:
        raise QRCapacityError(str(exc), value=text) from None
    layout = _layout(version)
    n = layout.size
    stream = _codewords(data, version, level.value)
    count = len(layout.positions)
    bits = bin(int.from_bytes(b"\x01" + stream, "big"))[3:].encode().translate(_BYTES)
    bits += bytes(count - len(bits))  # the remainder bits are light
    value = int.from_bytes(bits, "big")

    def masked(mask: int) -> bytes:
        flipped = (value ^ int.from_bytes(layout.flips[mask], "big")).to_bytes(count, "big")
        return bytes(layout.place(layout.modules + flipped))

    mask = _best_mask(masked, n)
    modules = bytearray(masked(mask))
    format_bits = _bch((_LEVEL_BITS[level.value] << 3) | mask, _FORMAT_GENERATOR, 10)
    format_bits ^= _FORMAT_MASK
    places = _format_places(n)
    for i, (row, col) in enumerate(places):
        modules[row * n + col] = (format_bits >> (i % 15)) & 1
    modules[(n - 8) * n + 8] = 1
    if version >= 7:
        version_bits = _bch(version, _VERSION_GENERATOR, 12)
        for i, (row, col) in enumerate(_version_places(n)):
            modules[row * n + col] = (version_bits >> (i % 18)) & 1
    return tuple(tuple(map(bool, modules[r * n:(r + 1) * n])) for r in range(n))


_BYTES = bytes.maketrans(b"01", b"\x00\x01")


def _best_mask(masked: Any, n: int) -> int:
    """The mask reportlab's ``QRCode.getBestMaskPattern`` chooses: the first of the lowest
    :func:`lost_points` among the eight test symbols (``masked(mask)``, one byte a module),
    which differ only in the data modules (their format and version bits are all light)."""
    best, lowest = 0, 0
    for mask in range(8):
        flat = masked(mask)
        points = lost_points([flat[r * n:(r + 1) * n] for r in range(n)])
        if mask == 0 or lowest > points:
            best, lowest = mask, points
    return best


# --- choosing the mask: reportlab's choice, made faster -----------------------------------
#
# reportlab's ``QRCode.make`` draws the symbol with each of the eight masks and scores it
# with ``QRUtil.getLostPoint``, all in Python over lists of booleans. :func:`_best_mask`
# makes the same choice from the same eight symbols, scored by :func:`lost_points`, which
# counts what ``getLostPoint`` counts (its quirks included) on rows and columns as bytes
# and integers. tests/test_render_speed.py compares both with reportlab's over a sweep of
# texts, versions and levels.

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
