"""A small writer of CMYK ICC profiles for the tests: version 2, output class ('prtr'),
Lab connection space, with 16-bit lookup tables (``lut16Type``) in both directions.

No profile of a real printing condition may be downloaded or shipped with the tests, and
Pillow's ImageCms can only create sRGB, Lab and XYZ profiles, so the tests make their own
CMYK profile from a made-up press: four inks on paper, each absorbing mostly one third of
the spectrum (cyan red light, magenta green, yellow blue, black all of it) with some
unwanted absorption, dot gain in the midtones, grey component replacement (GCR) and a
total ink limit. It is nobody's printing condition, and not meant to be one; it is a valid
profile that littleCMS reads, smooth and monotonic enough that conversions through it
behave like those through a real one, and different enough from cardgen's naive formula
that a test can tell which of the two converted an image.

``tests/data/cmyk-test.icc`` is :func:`cmyk_profile` with its defaults (made by
``python -m tests.iccwrite``; ``tests/test_icc.py`` checks that it still is). Both the
writer and the file are cardgen's own, under its licence.
"""

from __future__ import annotations

import struct
import sys
from functools import cache
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"
TEST_PROFILE = DATA / "cmyk-test.icc"

# The made-up press. Each ink's absorption at full coverage, of red, green and blue light
# (linear, as shares of the light the paper returns).
ABSORPTION = {
    "c": (0.90, 0.22, 0.08),
    "m": (0.06, 0.90, 0.28),
    "y": (0.01, 0.06, 0.92),
    "k": (0.975, 0.975, 0.97),
}
INKS = ("c", "m", "y", "k")
DOT_GAIN = 1.25  # printed coverage = 1 - (1 - tone) ** DOT_GAIN: about +8 % at 50 %
PAPER = (0.93, 0.93, 0.90)  # the paper's reflectance (the media white point)
PERCEPTUAL_CHROMA = 0.85  # the share of chroma the perceptual tables keep
# Linear RGB (sRGB primaries, adapted to D50) to XYZ: RGB 1, 1, 1 is the D50 white.
RGB_TO_XYZ = ((0.4360747, 0.3850649, 0.1430804),
              (0.2225045, 0.7168786, 0.0606169),
              (0.0139322, 0.0971045, 0.7141733))
D50 = (0.9642, 1.0, 0.8249)


def _coverage(tone: float) -> float:
    return 1 - (1 - tone) ** DOT_GAIN


def _coverage_slope(tone: float) -> float:
    return DOT_GAIN * (1 - tone) ** (DOT_GAIN - 1) if tone < 1 else 0.0


def transmittance(c: float, m: float, y: float, k: float) -> tuple[float, float, float]:
    """The light of each third of the spectrum that the inks let through (relative to the
    paper: no ink is 1, 1, 1)."""
    light = [1.0, 1.0, 1.0]
    for ink, tone in zip(INKS, (c, m, y, k), strict=True):
        cover = _coverage(tone)
        for ch in range(3):
            light[ch] *= 1 - cover * ABSORPTION[ink][ch]
    return light[0], light[1], light[2]


def _lab(xyz: tuple[float, float, float]) -> tuple[float, float, float]:
    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    fx, fy, fz = (f(v / w) for v, w in zip(xyz, D50, strict=True))
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def cmyk_to_lab(c: float, m: float, y: float, k: float) -> tuple[float, float, float]:
    """The colour a CMYK tone value prints, relative to the paper (the colorimetric
    intents' PCS: paper is L* 100)."""
    light = transmittance(c, m, y, k)
    xyz = tuple(sum(RGB_TO_XYZ[r][ch] * light[ch] for ch in range(3)) for r in range(3))
    return _lab((xyz[0], xyz[1], xyz[2]))


def _lab_slope(xyz: tuple[float, float, float]) -> tuple[tuple[float, ...], ...]:
    """d(L*, a*, b*) / d(X, Y, Z) at ``xyz``."""
    def df(t: float) -> float:
        return t ** (-2 / 3) / 3 if t > (6 / 29) ** 3 else 1 / (3 * (6 / 29) ** 2)

    dx, dy, dz = (df(v / w) / w for v, w in zip(xyz, D50, strict=True))
    return ((0.0, 116 * dy, 0.0), (500 * dx, -500 * dy, 0.0), (0.0, 200 * dy, -200 * dz))


# (Constants of the solver below, computed once: the same values.)
_EDGE = (6 / 29) ** 3
_LINEAR = 3 * (6 / 29) ** 2
_GAIN_POWER = DOT_GAIN - 1


def _solve_cmy(goal: tuple[float, float, float], k: float) -> list[float]:
    """The cyan, magenta and yellow (with black ``k``) that print closest to ``goal``
    (least squares in Lab: the nearest colour the press has, for one it has not):
    damped Gauss-Newton steps, each tone kept in 0..1."""
    # The functions above written out with one name a number (no lists, no loops): the
    # same operations on the same numbers in the same order, each sum of three products
    # with 0.0 first as sum() adds them, the multiplications by the Lab slope's zeros
    # included, and the 3 x 3 inverse by cofactors: the tables are byte for byte those of
    # the loops over lists this replaces (tests/data/cmyk-test.icc, which test_icc
    # compares with what this makes), in two fifths of the time.
    t0 = t1 = t2 = 0.5
    damping = 1e-3
    (m00, m01, m02), (m10, m11, m12), (m20, m21, m22) = RGB_TO_XYZ
    # absorption of channel ch by ink i: a<ch><i>
    a00, a01, a02 = (ABSORPTION[ink][0] for ink in INKS[:3])
    a10, a11, a12 = (ABSORPTION[ink][1] for ink in INKS[:3])
    a20, a21, a22 = (ABSORPTION[ink][2] for ink in INKS[:3])
    k0, k1, k2 = (1 - _coverage(k) * ABSORPTION["k"][ch] for ch in range(3))
    wx, wy, wz = D50
    g0, g1, g2 = goal
    edge, linear, power, gain_power = _EDGE, _LINEAR, DOT_GAIN, _GAIN_POWER
    for _ in range(60):
        c0 = 1 - (1 - t0) ** power
        c1 = 1 - (1 - t1) ** power
        c2 = 1 - (1 - t2) ** power
        n0 = DOT_GAIN * (1 - t0) ** gain_power if t0 < 1 else 0.0
        n1 = DOT_GAIN * (1 - t1) ** gain_power if t1 < 1 else 0.0
        n2 = DOT_GAIN * (1 - t2) ** gain_power if t2 < 1 else 0.0
        l0 = 1.0 * (1 - c0 * a00) * (1 - c1 * a01) * (1 - c2 * a02) * k0
        l1 = 1.0 * (1 - c0 * a10) * (1 - c1 * a11) * (1 - c2 * a12) * k1
        l2 = 1.0 * (1 - c0 * a20) * (1 - c1 * a21) * (1 - c2 * a22) * k2
        tx = (0.0 + m00 * l0 + m01 * l1 + m02 * l2) / wx
        ty = (0.0 + m10 * l0 + m11 * l1 + m12 * l2) / wy
        tz = (0.0 + m20 * l0 + m21 * l1 + m22 * l2) / wz
        fx = tx ** (1 / 3) if tx > edge else tx / linear + 4 / 29
        fy = ty ** (1 / 3) if ty > edge else ty / linear + 4 / 29
        fz = tz ** (1 / 3) if tz > edge else tz / linear + 4 / 29
        r0 = 116 * fy - 16 - g0
        r1 = 500 * (fx - fy) - g1
        r2 = 200 * (fy - fz) - g2
        # d light[ch] / d tone[i]: e<ch><i>
        e00 = -l0 * a00 * n0 / (1 - c0 * a00)
        e01 = -l0 * a01 * n1 / (1 - c1 * a01)
        e02 = -l0 * a02 * n2 / (1 - c2 * a02)
        e10 = -l1 * a10 * n0 / (1 - c0 * a10)
        e11 = -l1 * a11 * n1 / (1 - c1 * a11)
        e12 = -l1 * a12 * n2 / (1 - c2 * a12)
        e20 = -l2 * a20 * n0 / (1 - c0 * a20)
        e21 = -l2 * a21 * n1 / (1 - c1 * a21)
        e22 = -l2 * a22 * n2 / (1 - c2 * a22)
        # through XYZ: x<row><i>
        x00 = 0.0 + m00 * e00 + m01 * e10 + m02 * e20
        x01 = 0.0 + m00 * e01 + m01 * e11 + m02 * e21
        x02 = 0.0 + m00 * e02 + m01 * e12 + m02 * e22
        x10 = 0.0 + m10 * e00 + m11 * e10 + m12 * e20
        x11 = 0.0 + m10 * e01 + m11 * e11 + m12 * e21
        x12 = 0.0 + m10 * e02 + m11 * e12 + m12 * e22
        x20 = 0.0 + m20 * e00 + m21 * e10 + m22 * e20
        x21 = 0.0 + m20 * e01 + m21 * e11 + m22 * e21
        x22 = 0.0 + m20 * e02 + m21 * e12 + m22 * e22
        dx = (tx ** (-2 / 3) / 3 if tx > edge else 1 / linear) / wx
        dy = (ty ** (-2 / 3) / 3 if ty > edge else 1 / linear) / wy
        dz = (tz ** (-2 / 3) / 3 if tz > edge else 1 / linear) / wz
        s01, s10, s11, s21, s22 = 116 * dy, 500 * dx, -500 * dy, 200 * dy, -200 * dz
        # the Jacobian j<row><i>, the slope's rows (0, s01, 0), (s10, s11, 0), (0, s21, s22)
        j00 = 0.0 + 0.0 * x00 + s01 * x10 + 0.0 * x20
        j01 = 0.0 + 0.0 * x01 + s01 * x11 + 0.0 * x21
        j02 = 0.0 + 0.0 * x02 + s01 * x12 + 0.0 * x22
        j10 = 0.0 + s10 * x00 + s11 * x10 + 0.0 * x20
        j11 = 0.0 + s10 * x01 + s11 * x11 + 0.0 * x21
        j12 = 0.0 + s10 * x02 + s11 * x12 + 0.0 * x22
        j20 = 0.0 + 0.0 * x00 + s21 * x10 + s22 * x20
        j21 = 0.0 + 0.0 * x01 + s21 * x11 + s22 * x21
        j22 = 0.0 + 0.0 * x02 + s21 * x12 + s22 * x22
        # JᵀJ + damping (q<a><b>) and Jᵀr (v<a>)
        q00 = 0.0 + j00 * j00 + j10 * j10 + j20 * j20 + damping
        q01 = 0.0 + j00 * j01 + j10 * j11 + j20 * j21 + 0
        q02 = 0.0 + j00 * j02 + j10 * j12 + j20 * j22 + 0
        q10 = 0.0 + j01 * j00 + j11 * j10 + j21 * j20 + 0
        q11 = 0.0 + j01 * j01 + j11 * j11 + j21 * j21 + damping
        q12 = 0.0 + j01 * j02 + j11 * j12 + j21 * j22 + 0
        q20 = 0.0 + j02 * j00 + j12 * j10 + j22 * j20 + 0
        q21 = 0.0 + j02 * j01 + j12 * j11 + j22 * j21 + 0
        q22 = 0.0 + j02 * j02 + j12 * j12 + j22 * j22 + damping
        v0 = 0.0 + j00 * r0 + j10 * r1 + j20 * r2
        v1 = 0.0 + j01 * r0 + j11 * r1 + j21 * r2
        v2 = 0.0 + j02 * r0 + j12 * r1 + j22 * r2
        # (JᵀJ + damping)⁻¹ by cofactors: i<row><column>
        det = (q00 * (q11 * q22 - q12 * q21) - q01 * (q10 * q22 - q12 * q20)
               + q02 * (q10 * q21 - q11 * q20))
        i00 = (q11 * q22 - q12 * q21) / det
        i01 = (q02 * q21 - q01 * q22) / det
        i02 = (q01 * q12 - q02 * q11) / det
        i10 = (q12 * q20 - q10 * q22) / det
        i11 = (q00 * q22 - q02 * q20) / det
        i12 = (q02 * q10 - q00 * q12) / det
        i20 = (q10 * q21 - q11 * q20) / det
        i21 = (q01 * q20 - q00 * q21) / det
        i22 = (q00 * q11 - q01 * q10) / det
        d0 = 0.0 + i00 * v0 + i01 * v1 + i02 * v2
        d1 = 0.0 + i10 * v0 + i11 * v1 + i12 * v2
        d2 = 0.0 + i20 * v0 + i21 * v1 + i22 * v2
        t0 = min(1.0, max(0.0, t0 - d0))
        t1 = min(1.0, max(0.0, t1 - d1))
        t2 = min(1.0, max(0.0, t2 - d2))
        if max(abs(d0), abs(d1), abs(d2)) < 1e-6:
            break
    return [t0, t1, t2]


def lab_to_cmyk(lab: tuple[float, float, float], tac: float) -> tuple[float, float, float,
                                                                       float]:
    """The tone values that print ``lab`` (or the nearest the press can): CMY first, then
    grey component replacement, then the total ink limit ``tac`` (shares: 3.0 is 300 %)."""
    without_black = _solve_cmy(lab, 0.0)
    grey = min(without_black)
    k = min(1.0, max(0.0, (grey - 0.2) / 0.8)) ** 1.1  # GCR from a fifth of grey up
    # (No black, as for most of the table: the same solution, not solved a second time.)
    c, m, y = without_black if k == 0.0 else _solve_cmy(lab, k)
    if c + m + y + k > tac:
        scale = max(0.0, tac - k) / (c + m + y)
        c, m, y = c * scale, m * scale, y * scale
    return c, m, y, k


# --- the ICC file -----------------------------------------------------------------------

def _s15(v: float) -> bytes:
    return struct.pack(">i", round(v * 65536))


def _u16(v: float) -> int:
    return min(65535, max(0, round(v * 65535)))


def _lab16(lab: tuple[float, float, float]) -> tuple[int, int, int]:
    """Lab in the version 2 16-bit PCS encoding: L* 0..100 is 0..0xFF00, a* and b*
    -128..127.996 are 0..0xFFFF (0 is 0x8000)."""
    return (min(0xFFFF, max(0, round(lab[0] / 100 * 0xFF00))),
            min(0xFFFF, max(0, round((lab[1] + 128) * 256))),
            min(0xFFFF, max(0, round((lab[2] + 128) * 256))))


def _from_lab16(values: tuple[int, int, int]) -> tuple[float, float, float]:
    return values[0] / 0xFF00 * 100, values[1] / 256 - 128, values[2] / 256 - 128


def _lut16(inputs: int, outputs: int, grid: int, clut: list[int]) -> bytes:
    assert len(clut) == grid ** inputs * outputs
    identity = struct.pack(">HH", 0, 65535)
    head = (b"mft2" + b"\x00" * 4 + bytes((inputs, outputs, grid, 0))
            + b"".join(_s15(1.0 if r == c else 0.0) for r in range(3) for c in range(3))
            + struct.pack(">HH", 2, 2))
    return (head + identity * inputs + struct.pack(f">{len(clut)}H", *clut)
            + identity * outputs)


def _text_description(text: str) -> bytes:
    ascii_text = text.encode("ascii") + b"\x00"
    return (b"desc" + b"\x00" * 4 + struct.pack(">I", len(ascii_text)) + ascii_text
            + struct.pack(">II", 0, 0) + struct.pack(">HB", 0, 0) + b"\x00" * 67)


def _grid_points(grid: int, dims: int) -> list[tuple[int, ...]]:
    """Every node of a ``grid``^``dims`` lookup table, the first input varying slowest."""
    points: list[tuple[int, ...]] = [()]
    for _ in range(dims):
        points = [(*p, i) for p in points for i in range(grid)]
    return points


@cache
def cmyk_profile(tac: float = 2.9, a2b_grid: int = 9, b2a_grid: int = 13,
                 description: str = "cardgen test CMYK (made up, not a printing "
                 "condition)") -> bytes:
    """A CMYK output profile of the made-up press (see the module's docstring), with a
    total ink limit of ``tac`` (2.9: 290 %); deterministic, about 80 KB.

    The colorimetric tables (B2A1, used for both colorimetric intents) print each colour
    as closely as the press can; the perceptual ones (B2A0, shared by saturation) first
    take :data:`PERCEPTUAL_CHROMA` of every colour's chroma, a crude gamut compression,
    so that each intent gives its own result."""
    a2b: list[int] = []
    for node in _grid_points(a2b_grid, 4):
        a2b += _lab16(cmyk_to_lab(*(i / (a2b_grid - 1) for i in node)))
    colorimetric: list[int] = []
    perceptual: list[int] = []
    for node in _grid_points(b2a_grid, 3):
        lab = _from_lab16((node[0] * 65535 // (b2a_grid - 1),
                           node[1] * 65535 // (b2a_grid - 1),
                           node[2] * 65535 // (b2a_grid - 1)))
        colorimetric += [_u16(v) for v in lab_to_cmyk(lab, tac)]
        softer = (lab[0], lab[1] * PERCEPTUAL_CHROMA, lab[2] * PERCEPTUAL_CHROMA)
        perceptual += [_u16(v) for v in lab_to_cmyk(softer, tac)]
    gamut = _lut16(3, 1, 2, [0] * 8)  # everything in gamut: the tag is required, not used
    white = cmyk_to_lab(0, 0, 0, 0)
    assert abs(white[0] - 100) < 1e-9
    media = _xyz_tag(tuple(d * p for d, p in zip(D50, PAPER, strict=True)))
    tags: list[tuple[bytes, bytes]] = [
        (b"desc", _text_description(description)),
        (b"cprt", COPYRIGHT),
        (b"wtpt", media),
        (b"A2B0", _lut16(4, 3, a2b_grid, a2b)),
        (b"B2A0", _lut16(3, 4, b2a_grid, perceptual)),
        (b"B2A1", _lut16(3, 4, b2a_grid, colorimetric)),
        (b"gamt", gamut),
    ]
    # Tables shared between intents (a tag may point at another's data).
    shared = {b"A2B1": b"A2B0", b"A2B2": b"A2B0", b"B2A2": b"B2A0"}
    return _assemble(b"prtr", b"CMYK", b"Lab ", tags, shared)


COPYRIGHT = b"text" + b"\x00" * 4 + b"No copyright: made by cardgen's tests.\x00"


def _xyz_tag(xyz: tuple[float, ...]) -> bytes:
    return b"XYZ " + b"\x00" * 4 + b"".join(_s15(v) for v in xyz)


def rgb_profile(gamma: float = 1.0, description: str = "cardgen test RGB, linear") -> bytes:
    """A display RGB profile (matrix and tone curves) with sRGB's primaries and white
    point but a plain ``gamma`` for a tone curve: with 1.0, an image's values are linear
    light, so that 128 is sRGB's 188 and not its 128."""
    curve = b"curv" + b"\x00" * 4 + struct.pack(">IH", 1, round(gamma * 256)) + b"\x00" * 2
    tags: list[tuple[bytes, bytes]] = [
        (b"desc", _text_description(description)),
        (b"cprt", COPYRIGHT),
        (b"wtpt", _xyz_tag(D50)),
        (b"rXYZ", _xyz_tag(tuple(RGB_TO_XYZ[r][0] for r in range(3)))),
        (b"gXYZ", _xyz_tag(tuple(RGB_TO_XYZ[r][1] for r in range(3)))),
        (b"bXYZ", _xyz_tag(tuple(RGB_TO_XYZ[r][2] for r in range(3)))),
        (b"rTRC", curve),
    ]
    return _assemble(b"mntr", b"RGB ", b"XYZ ", tags, {b"gTRC": b"rTRC", b"bTRC": b"rTRC"})


def _assemble(device_class: bytes, space: bytes, pcs: bytes, tags: list[tuple[bytes, bytes]],
              shared: dict[bytes, bytes]) -> bytes:
    """A version 2.1 profile: the header, the tag table (``shared`` tags point at the
    data of the tag named), the tags' data each 4-byte aligned."""
    count = len(tags) + len(shared)
    offset = 128 + 4 + 12 * count
    table, body, where = [], b"", {}
    for signature, data in tags:
        data += b"\x00" * (-len(data) % 4)
        where[signature] = (offset + len(body), len(data))
        table.append((signature, *where[signature]))
        body += data
    table += [(signature, *where[source]) for signature, source in shared.items()]
    size = offset + len(body)
    header = (struct.pack(">I", size) + b"\x00" * 4 + bytes((2, 0x10, 0, 0)) + device_class
              + space + pcs + struct.pack(">6H", 2026, 1, 1, 0, 0, 0) + b"acsp"
              + b"\x00" * 4 + b"\x00" * 4 + b"\x00" * 8 + b"\x00" * 8
              + struct.pack(">I", 0) + b"".join(_s15(v) for v in D50) + b"\x00" * 4)
    header += b"\x00" * (128 - len(header))
    assert len(header) == 128
    directory = struct.pack(">I", count) + b"".join(
        signature + struct.pack(">II", at, length) for signature, at, length in table)
    return header + directory + body


if __name__ == "__main__":
    TEST_PROFILE.write_bytes(cmyk_profile())
    sys.stdout.write(f"wrote {TEST_PROFILE} ({TEST_PROFILE.stat().st_size:,} bytes)\n")
