"""The logo's colours in print (issue 21, point 6): converted to CMYK through the user's
ICC profile (``print.cmyk_profile``) with littleCMS and the rendering intent asked for,
from the logo's own embedded profile or sRGB; without a profile by the simple formula,
said once per run; a bad profile refused in one sentence naming the field, before
anything is written.

The tests read the produced PDFs back with pikepdf and compare the logo's samples with
what Pillow's ImageCms makes of the same pixels, called here directly. The CMYK profile
is the tests' own (tests/iccwrite.py, tests/data/cmyk-test.icc): no real printing
condition's profile is downloaded or shipped.
"""

from __future__ import annotations

import io
import os
import struct
from pathlib import Path

import pikepdf
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image, ImageCms

from cardgen.card.logo import NO_PROFILE
from cardgen.draw.icc import (
    FIELD,
    CmykProfile,
    RenderingIntent,
    formula_cmyk,
    limit_ink,
    read_cmyk_profile,
)
from cardgen.errors import ProfileError
from tests.helpers import BASE_CONFIG, cli, error_line, examples, ok, write_config
from tests.iccwrite import TEST_PROFILE, cmyk_profile, rgb_profile
from tests.pdfread import pdfx_problems

ORANGE = (230, 120, 20)  # the example
FORMULA_ORANGE = (0, 122, 233, 25)  # C0 M47.8 Y91.4 K9.8: the simple formula's answer
LCMS_INTENT = {RenderingIntent.RELATIVE: ImageCms.Intent.RELATIVE_COLORIMETRIC,
               RenderingIntent.PERCEPTUAL: ImageCms.Intent.PERCEPTUAL,
               RenderingIntent.SATURATION: ImageCms.Intent.SATURATION,
               RenderingIntent.ABSOLUTE: ImageCms.Intent.ABSOLUTE_COLORIMETRIC}


# --- helpers ----------------------------------------------------------------------------

def lcms(rgb: Image.Image, intent: RenderingIntent = RenderingIntent.RELATIVE,
         target: bytes | None = None, source: bytes | None = None) -> Image.Image:
    """ImageCms's own conversion of ``rgb`` (described by ``source``, None: sRGB) to the
    ``target`` CMYK profile (None: the test profile), black point compensation with every
    intent but absolute colorimetric, as the README says."""
    flags = (ImageCms.Flags.NONE if intent is RenderingIntent.ABSOLUTE
             else ImageCms.Flags.BLACKPOINTCOMPENSATION)
    src = (ImageCms.ImageCmsProfile(io.BytesIO(source)) if source
           else ImageCms.createProfile("sRGB"))
    dst = ImageCms.ImageCmsProfile(io.BytesIO(target or TEST_PROFILE.read_bytes()))
    out = ImageCms.profileToProfile(rgb, src, dst, renderingIntent=LCMS_INTENT[intent],
                                    outputMode="CMYK", flags=flags)
    assert out is not None
    return out


def one(colour: tuple[int, ...], **options: object) -> tuple[int, ...]:
    pixel = lcms(Image.new("RGB", (1, 1), colour), **options).getpixel((0, 0))
    assert isinstance(pixel, tuple)
    return pixel


def sweep(size: tuple[int, int] = (240, 120)) -> Image.Image:
    """A logo of many colours: hues across, from full colour at the top to dark below."""
    hues = Image.linear_gradient("L").rotate(90).resize(size)
    sat = Image.new("L", size, 255)
    val = Image.linear_gradient("L").resize(size).point(lambda v: 255 - v * 3 // 4)
    return Image.merge("HSV", (hues, sat, val)).convert("RGB")


def card(folder: Path, logo: Image.Image | None, extra: str = "", *args: str,
         logo_options: dict[str, object] | None = None) -> tuple[Path, str]:
    """``cardgen card`` (PDF only) on the base config with ``logo`` saved as logo.png and
    ``extra`` TOML; the card's PDF and stderr."""
    folder.mkdir(parents=True, exist_ok=True)
    text = BASE_CONFIG
    if logo is not None:
        logo.save(folder / "logo.png", **(logo_options or {}))
        text += '\n[images]\nlogo = "logo.png"\n'
    config = write_config(folder, text + extra)
    result = ok(cli("card", config, "-o", folder / "out", "-f", "pdf", *args))
    return folder / "out" / "card.pdf", result.stderr


def profile_toml(path: Path | str = TEST_PROFILE, intent: str | None = None) -> str:
    text = f'\n[print]\ncmyk_profile = "{path}"\n'
    return text + (f'rendering_intent = "{intent}"\n' if intent else "")


def logo_pixels(pdf_path: Path) -> Image.Image:
    """The samples of the one colour image on the card's outside (the logo: the dark
    card without a portrait has no other), in the image's own colour space."""
    with pikepdf.open(pdf_path) as pdf:
        found = [x for x in pdf.pages[0].Resources.XObject.values()
                 if x.get("/Subtype") == "/Image" and not x.get("/ImageMask")]
        assert len(found) == 1, "the dark card's outside has one image, the logo"
        image = found[0]
        mode = {"/DeviceCMYK": "CMYK", "/DeviceRGB": "RGB"}[str(image.ColorSpace)]
        assert list(image.Filter) == ["/FlateDecode"]
        return Image.frombytes(mode, (int(image.Width), int(image.Height)),
                               image.read_bytes())


def colours(image: Image.Image) -> set[tuple[int, ...]]:
    return {image.getpixel((x, y)) for x in range(image.width)
            for y in range(image.height)}


# --- the test profile -------------------------------------------------------------------

@pytest.mark.slow
def test_the_shipped_test_profile_is_what_the_writer_makes():
    assert TEST_PROFILE.read_bytes() == cmyk_profile()


def test_littlecms_reads_the_test_profile_as_a_cmyk_press():
    profile = ImageCms.ImageCmsProfile(str(TEST_PROFILE))
    assert profile.profile.xcolor_space.strip() == "CMYK"
    assert profile.profile.device_class == "prtr"
    assert profile.profile.connection_space.strip() == "Lab"
    assert profile.profile.version == pytest.approx(2.1)
    for intent in ImageCms.Intent:
        assert ImageCms.isIntentSupported(profile, intent, ImageCms.Direction.OUTPUT)
    # Paper stays paper, and the profile is nothing like the formula.
    assert one((255, 255, 255)) == (0, 0, 0, 0)
    assert one(ORANGE) != FORMULA_ORANGE


# --- conversion through the profile -----------------------------------------------------

def test_orange_through_the_profile_is_littlecms_not_the_formula(tmp_path):
    """Every sample of a flat orange logo is what ImageCms makes of orange with the test
    profile (relative colorimetric, black point compensation), not the formula's
    0/47/91/9; without a profile, every sample is the formula's."""
    flat = Image.new("RGB", (200, 120), ORANGE)
    managed, _ = card(tmp_path / "managed", flat, profile_toml())
    plain, _ = card(tmp_path / "plain", flat)
    expected = one(ORANGE)
    assert expected != FORMULA_ORANGE
    assert colours(logo_pixels(managed)) == {expected}
    assert pdfx_problems(managed) == []  # still PDF/X-1a: DeviceCMYK, no ICC colour
    assert colours(logo_pixels(plain)) == {FORMULA_ORANGE}
    assert colours(formula_cmyk(Image.new("RGB", (1, 1), ORANGE))) == {FORMULA_ORANGE}


def test_every_sample_is_littlecms_conversion_of_the_same_pixels(tmp_path):
    """A logo of many colours, with each rendering intent: the CMYK samples in the print
    PDF are ImageCms's conversion of the very RGB samples the --rgb PDF carries (the
    logo's resampled pixels, the same whatever the intent: they do not go through the
    profile); most differ from the formula's. The test profile's perceptual tables
    differ from its colorimetric ones, and absolute colorimetric simulates its paper:
    each intent asked for is the one used."""
    logo = sweep()
    rgb_pdf, _ = card(tmp_path / "rgb", logo, profile_toml(), "--rgb")
    rgb = logo_pixels(rgb_pdf)
    assert rgb.mode == "RGB"
    formula = formula_cmyk(rgb).tobytes()
    made = {}
    for intent in RenderingIntent:
        cmyk_pdf, _ = card(tmp_path / intent.value, logo, profile_toml(intent=intent.value))
        cmyk = logo_pixels(cmyk_pdf)
        assert cmyk.mode == "CMYK" and cmyk.size == rgb.size
        made[intent] = cmyk.tobytes()
        assert made[intent] == lcms(rgb, intent).tobytes(), intent
        differ = sum(made[intent][i:i + 4] != formula[i:i + 4]
                     for i in range(0, len(formula), 4))
        assert differ > 0.9 * cmyk.width * cmyk.height, intent
    assert len({made[intent] for intent in (RenderingIntent.RELATIVE,
                RenderingIntent.PERCEPTUAL, RenderingIntent.ABSOLUTE)}) == 3


def test_same_profile_gives_byte_identical_files(tmp_path):
    logo = sweep()
    first, _ = card(tmp_path / "a", logo, profile_toml())
    second, _ = card(tmp_path / "b", logo, profile_toml())
    assert first.read_bytes() == second.read_bytes()
    other = tmp_path / "other.icc"
    other.write_bytes(cmyk_profile(tac=2.6, a2b_grid=5, b2a_grid=5))
    third, _ = card(tmp_path / "c", logo, profile_toml(other))
    assert third.read_bytes() != first.read_bytes()


def test_the_profile_path_is_relative_to_the_config(tmp_path):
    (tmp_path / "profiles").mkdir()
    (tmp_path / "profiles" / "press.icc").write_bytes(TEST_PROFILE.read_bytes())
    pdf, stderr = card(tmp_path, Image.new("RGB", (60, 60), ORANGE),
                       profile_toml("profiles/press.icc"))
    assert colours(logo_pixels(pdf)) == {one(ORANGE)}
    assert NO_PROFILE not in stderr


@pytest.fixture(scope="module")
def rich_profile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A profile of a press with a 400 % ink limit (the test press, less held back),
    with the coarsest tables: only its black is printed, which is a node of them."""
    path = tmp_path_factory.mktemp("rich") / "rich.icc"
    path.write_bytes(cmyk_profile(tac=4.0, a2b_grid=3, b2a_grid=3,
                                  description="cardgen test, 400 %"))
    return path


def test_a_richer_profile_is_held_to_the_ink_rule(tmp_path, rich_profile):
    """Black through a 400 % profile: ImageCms gives more than 300 %; the PDF has exactly
    300 %, with the same black and less cyan, magenta and yellow."""
    raw = one((0, 0, 0), target=rich_profile.read_bytes())
    assert sum(raw) > 765
    pdf, _ = card(tmp_path, Image.new("RGB", (60, 60), (0, 0, 0)), profile_toml(rich_profile))
    (printed,) = colours(logo_pixels(pdf))
    assert printed[3] == raw[3] and sum(printed) <= 765 and sum(printed) >= 761
    assert all(p <= r for p, r in zip(printed, raw, strict=True))


def test_limit_ink_scales_colour_and_keeps_black():
    image = Image.new("CMYK", (3, 1))
    image.putdata([(250, 240, 230, 255), (100, 100, 100, 100), (255, 255, 255, 0)])
    held = limit_ink(image, 3.0)
    pixels = [held.getpixel((x, 0)) for x in range(3)]
    assert pixels[1] == (100, 100, 100, 100)  # within the limit: untouched
    assert pixels[0][3] == 255 and sum(pixels[0]) <= 765
    assert pixels[2] == (255, 255, 255, 0)  # 300 % exactly
    assert limit_ink(image, 4.0).tobytes() == image.tobytes()


# --- the logo's own profile -------------------------------------------------------------

def test_an_embedded_rgb_profile_is_the_source(tmp_path):
    """A logo whose embedded profile says its values are linear light: grey 128 is sRGB's
    188. The print samples are ImageCms's conversion from that profile, the preview's
    sRGB is 188; without a CMYK profile, the formula of sRGB 188."""
    linear = rgb_profile()
    grey = Image.new("RGB", (80, 80), (128, 128, 128))
    options = {"icc_profile": linear}
    managed, stderr = card(tmp_path / "managed", grey, profile_toml(),
                           logo_options=options)
    assert colours(logo_pixels(managed)) == {one((128, 128, 128), source=linear)}
    assert one((128, 128, 128), source=linear) != one((128, 128, 128))
    preview, _ = card(tmp_path / "preview", grey, profile_toml(), "--rgb",
                      logo_options=options)
    assert colours(logo_pixels(preview)) == {(188, 188, 188)}
    plain, _ = card(tmp_path / "plain", grey, logo_options=options)
    assert colours(logo_pixels(plain)) == colours(
        formula_cmyk(Image.new("RGB", (1, 1), (188, 188, 188))))
    assert "colour profile" not in stderr


def test_a_profile_that_does_not_fit_the_pixels_is_a_note(tmp_path):
    """An RGB logo carrying a CMYK profile: its colours are taken as sRGB, and a warning
    says so."""
    pdf, stderr = card(tmp_path, Image.new("RGB", (60, 60), ORANGE), profile_toml(),
                       logo_options={"icc_profile": TEST_PROFILE.read_bytes()})
    assert colours(logo_pixels(pdf)) == {one(ORANGE)}
    assert ("warning: images.logo: logo.png carries a CMYK colour profile that does not "
            "fit its RGB pixels, so its colours were taken as sRGB.") in stderr


def test_a_cmyk_logo_with_its_profile_is_converted_through_it(tmp_path):
    """A CMYK JPEG logo that carries the test profile: its colours are read through it
    (to sRGB, then to print through the same profile)."""
    ink = (10, 200, 240, 5)
    logo = Image.new("CMYK", (60, 60), ink)
    pdf, _ = card(tmp_path, logo, profile_toml(),
                  logo_options={"icc_profile": TEST_PROFILE.read_bytes(), "format": "TIFF"})
    (printed,) = colours(logo_pixels(pdf))
    screen = ImageCms.profileToProfile(
        Image.new("CMYK", (1, 1), ink), ImageCms.ImageCmsProfile(str(TEST_PROFILE)),
        ImageCms.createProfile("sRGB"), renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
        outputMode="RGB", flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)
    assert screen is not None
    assert printed == one(screen.getpixel((0, 0)))


def test_the_portrait_is_read_through_its_embedded_profile():
    from cardgen.card.portrait import _gray

    photo = Image.new("RGB", (20, 20), (128, 128, 128))
    photo.info["icc_profile"] = rgb_profile()
    assert _gray(photo).getpixel((0, 0)) == 188
    photo.info.pop("icc_profile")
    assert _gray(photo).getpixel((0, 0)) == 128


# --- the warning without a profile ------------------------------------------------------

def _warned(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if "colour management" in line]


def test_without_a_profile_one_warning_and_none_with_one(tmp_path):
    flat = Image.new("RGB", (60, 60), ORANGE)
    _, plain = card(tmp_path / "plain", flat)
    assert _warned(plain) == [f"warning: {NO_PROFILE}"]
    _, managed = card(tmp_path / "managed", flat, profile_toml())
    assert _warned(managed) == []
    _, no_logo = card(tmp_path / "none", None)
    assert _warned(no_logo) == []  # nothing is converted: the portraits are duotones


def _team(folder: Path, extra: str = "") -> tuple[Path, Path]:
    folder.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", (60, 60), ORANGE).save(folder / "logo.png")
    config = write_config(folder, BASE_CONFIG + '\n[images]\nlogo = "logo.png"\n' + extra)
    table = folder / "people.csv"
    table.write_text("person.name,person.title\nAda One,Artist\nBo Two,Artist\n"
                     "Cy Three,Artist\n", encoding="utf-8")
    return config, table


def test_a_batch_warns_once_for_all_its_cards(tmp_path):
    config, table = _team(tmp_path / "plain")
    result = ok(cli("card", config, "--batch", table, "-o", tmp_path / "out1", "-f", "pdf"))
    assert _warned(result.stderr) == [f"warning: lines 2-4 (3 cards): {NO_PROFILE}"]
    config, table = _team(tmp_path / "managed", profile_toml())
    result = ok(cli("card", config, "--batch", table, "-o", tmp_path / "out2", "-f", "pdf"))
    assert _warned(result.stderr) == []
    assert colours(logo_pixels(tmp_path / "out2" / "bo-two.pdf")) == {one(ORANGE)}


def test_a_batch_column_names_the_profile_relative_to_the_table(tmp_path):
    config, table = _team(tmp_path)
    (tmp_path / "press.icc").write_bytes(TEST_PROFILE.read_bytes())
    table.write_text("person.name,print.cmyk_profile\nAda One,press.icc\nBo Two,\n",
                     encoding="utf-8")
    result = ok(cli("card", config, "--batch", table, "-o", tmp_path / "out", "-f", "pdf"))
    assert colours(logo_pixels(tmp_path / "out" / "ada-one.pdf")) == {one(ORANGE)}
    assert colours(logo_pixels(tmp_path / "out" / "bo-two.pdf")) == {FORMULA_ORANGE}
    assert _warned(result.stderr) == [f"warning: line 3 (Bo Two): {NO_PROFILE}"]


# --- bad profiles -----------------------------------------------------------------------

def _truncated(data: bytes) -> bytes:
    return data[: len(data) // 2]


def _truncated_but_consistent(data: bytes) -> bytes:
    """Cut in the middle of its tables, with the header's size fixed to match: only
    littleCMS can tell."""
    cut = bytearray(data[: len(data) // 2])
    cut[:4] = struct.pack(">I", len(cut))
    return bytes(cut)


def _as(device_class: bytes = b"", space: bytes = b"") -> object:
    def change(data: bytes) -> bytes:
        out = bytearray(data)
        if device_class:
            out[12:16] = device_class
        if space:
            out[16:20] = space
        return bytes(out)
    return change


def _srgb(_: bytes) -> bytes:
    return ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()


def _png(_: bytes) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (4, 4)).save(buffer, "PNG")
    return buffer.getvalue()


@pytest.mark.parametrize(("make", "needles"), [
    (lambda d: b"", ["is empty"]),
    (lambda d: b"this is not a profile\n" * 20, ["not an ICC profile"]),
    (_png, ["is a PNG image, not an ICC profile"]),
    (_srgb, ["is an RGB profile, not a CMYK one"]),
    (_as(space=b"GRAY"), ["is a greyscale profile, not a CMYK one"]),
    (_as(device_class=b"link"), ["is a device link, not an output profile"]),
    (_as(device_class=b"mntr"), ["is a display profile"]),
    (_truncated, ["is truncated"]),
    (_truncated_but_consistent, ["damaged"]),
])
def test_a_bad_profile_is_one_sentence_and_nothing_is_written(tmp_path, make, needles):
    (tmp_path / "press.icc").write_bytes(make(TEST_PROFILE.read_bytes()))
    config = write_config(tmp_path, BASE_CONFIG + profile_toml("press.icc"))
    result = cli("card", config, "-o", tmp_path / "out", "-f", "pdf")
    line = error_line(result, FIELD, "press.icc", *needles,
                      f"set {FIELD} to the CMYK ICC profile")
    assert line.endswith("or leave it out.")
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def test_a_missing_profile(tmp_path):
    config = write_config(tmp_path, BASE_CONFIG + profile_toml("nope.icc"))
    error_line(cli("card", config, "-o", tmp_path / "out"), FIELD, "nope.icc",
               "does not exist", "or leave it out.")
    assert not (tmp_path / "out").exists()


def test_a_folder_as_profile(tmp_path):
    (tmp_path / "press.icc").mkdir()
    config = write_config(tmp_path, BASE_CONFIG + profile_toml("press.icc"))
    error_line(cli("card", config, "-o", tmp_path / "out"), FIELD, "press.icc",
               "is a folder", "or leave it out.")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_fifo_as_profile_is_not_read(tmp_path):
    os.mkfifo(tmp_path / "press.icc")  # no writer: opening it for reading would block
    config = write_config(tmp_path, BASE_CONFIG + profile_toml("press.icc"))
    error_line(cli("card", config, "-o", tmp_path / "out"), FIELD, "press.icc",
               "not a regular file", "or leave it out.")


def test_a_bad_profile_fails_the_batch_row_that_names_it(tmp_path):
    config, table = _team(tmp_path)
    (tmp_path / "bad.icc").write_text("not a profile", encoding="utf-8")
    table.write_text("person.name,print.cmyk_profile\nAda One,\nBo Two,bad.icc\n",
                     encoding="utf-8")
    line = error_line(cli("card", config, "--batch", table, "-o", tmp_path / "out"),
                      "line 3", FIELD, "bad.icc", "not an ICC profile")
    assert "Ada" not in line
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def test_an_unknown_intent_is_named_with_the_choices(tmp_path):
    config = write_config(tmp_path, BASE_CONFIG + profile_toml(intent="relative-colormetric"))
    error_line(cli("card", config, "-o", tmp_path / "out"), "print.rendering_intent",
               "relative-colorimetric, perceptual, saturation, absolute-colorimetric",
               "did you mean relative-colorimetric?")


# --- fuzzing ----------------------------------------------------------------------------

def _check_profile(tmp_path: Path, data: bytes) -> CmykProfile | None:
    """``data`` as a profile file: read and tried, or one ProfileError sentence naming
    the field; nothing else may escape."""
    path = tmp_path / "fuzz.icc"
    path.write_bytes(data)
    try:
        return read_cmyk_profile(path)
    except ProfileError as exc:
        message = str(exc)
        assert message.startswith(f"{FIELD}: "), message
        assert message.endswith("or leave it out."), message
        assert "\n" not in message and "Traceback" not in message
        return None


# Each fuzz test runs twice: a fixed sample of 40 examples in the quick loop, and its
# full run of random examples (300 and 200) among the slow tests.
QUICK_FUZZ = settings(max_examples=examples(40), deadline=None, derandomize=True,
                      suppress_health_check=[HealthCheck.function_scoped_fixture])
EDITS = st.lists(st.tuples(st.integers(0, 1 << 20), st.integers(0, 255)), max_size=40)
CUTS = st.one_of(st.none(), st.integers(0, 1 << 20))


def _structure(data: bytes) -> list[int]:
    """The offsets of a profile's bytes that say how the rest is laid out: the header,
    the tag table, and the first 64 bytes of each tag's data (its type, its counts, a
    lookup table's sizes and matrix)."""
    (count,) = struct.unpack(">I", data[128:132])
    offsets = set(range(132 + 12 * count))
    for n in range(count):
        at, size = struct.unpack(">II", data[132 + 12 * n + 4:132 + 12 * n + 12])
        offsets |= set(range(at, at + min(size, 64)))
    return sorted(offsets)


# The fuzzers at length put each edit half the time on those bytes, half anywhere: of the
# test profile's 75 KB, all but some 600 bytes are lookup table entries, where any value
# is valid, so that with offsets drawn evenly 299 edits in 300 changed a colour and no
# more, and most examples built littleCMS's transform again for a profile that differed
# from the last only in its colours (the product's cost: 9 ms each, nine tenths of the
# test's time). The quick samples keep the even draw.
AT_LENGTH_EDITS = st.lists(st.tuples(
    st.one_of(st.sampled_from(_structure(TEST_PROFILE.read_bytes())), st.integers(0, 1 << 20)),
    st.integers(0, 255)), max_size=40)
ENTRIES = st.lists(st.tuples(st.integers(0, 40), st.sampled_from(
    [0, 1, 0xFFFF, 0x7FFFFFFF, 0xFFFFFFFF, 132, 60_000])), min_size=1, max_size=6)


def _damaged(tmp_path: Path, capfd: pytest.CaptureFixture[str],
             edits: list[tuple[int, int]], cut: int | None, fix_size: bool) -> None:
    data = bytearray(TEST_PROFILE.read_bytes())
    for at, value in edits:
        data[at % len(data)] = value
    if cut is not None:
        del data[cut % len(data):]
    if fix_size and len(data) >= 4:
        data[:4] = struct.pack(">I", len(data))
    profile = _check_profile(tmp_path, bytes(data))
    if profile is not None:  # what is accepted converts an image
        from cardgen.draw.icc import print_cmyk

        assert print_cmyk(sweep((16, 8)), None, profile).mode == "CMYK"
    assert capfd.readouterr().err == ""  # littleCMS says nothing on file descriptor 2


@QUICK_FUZZ
@given(edits=EDITS, cut=CUTS, fix_size=st.booleans())
def test_fuzz_a_damaged_profile_is_used_or_refused_in_one_sentence(tmp_path, capfd, edits,
                                                                    cut, fix_size):
    _damaged(tmp_path, capfd, edits, cut, fix_size)


@pytest.mark.slow
@settings(max_examples=examples(300), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(edits=AT_LENGTH_EDITS, cut=CUTS, fix_size=st.booleans())
def test_fuzz_a_damaged_profile_at_length(tmp_path, capfd, edits, cut, fix_size):
    _damaged(tmp_path, capfd, edits, cut, fix_size)


def _hostile(tmp_path: Path, capfd: pytest.CaptureFixture[str],
             entries: list[tuple[int, int]]) -> None:
    """Tag offsets and sizes that point anywhere: outside the file, into the header,
    overlapping, enormous."""
    data = bytearray(TEST_PROFILE.read_bytes())
    (count,) = struct.unpack(">I", data[128:132])
    for slot, value in entries:
        field_at = 132 + 12 * (slot % count) + 4 + 4 * (slot // count % 2)
        data[field_at:field_at + 4] = struct.pack(">I", value)
    _check_profile(tmp_path, bytes(data))
    assert capfd.readouterr().err == ""


@QUICK_FUZZ
@given(ENTRIES)
def test_fuzz_a_hostile_tag_table(tmp_path, capfd, entries):
    _hostile(tmp_path, capfd, entries)


@pytest.mark.slow
@settings(max_examples=examples(200), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ENTRIES)
def test_fuzz_a_hostile_tag_table_at_length(tmp_path, capfd, entries):
    _hostile(tmp_path, capfd, entries)
