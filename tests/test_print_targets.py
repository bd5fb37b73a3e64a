"""Print targets (``card --target``): each bundled target's files checked against its
profile with readers of their own (pikepdf for the PDF's version and PDF/X keys,
Ghostscript's separations for the most ink any point puts down, Pillow for the images'
pixel sizes), the default target making today's bytes, the ink rule's two ways with a
colour over the limit, and the errors of a bad target or profile.

The separations need ``gs`` (CI installs it, see ``.ci/run``); without it those tests
are skipped, saying so.
"""

from __future__ import annotations

import io
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

from tests.helpers import ROOT, cli, error_line, ok

TARGETS = ROOT / "templates" / "print" / "targets"
GS = shutil.which("gs")
needs_gs = pytest.mark.skipif(GS is None, reason="Ghostscript (gs) is not installed: "
                              "the separations cannot be made")
# Ghostscript's separations are 8 bits a plate: each of the four rounds by up to half a
# step (0.2 %), so a colour exactly at the limit may read up to 0.8 % over it. Nothing is
# antialiased by tiffsep (no -dGraphicsAlphaBits), so no edge pixel mixes colours.
INK_TOLERANCE = 1.0  # %
SEPARATION_DPI = 150

# A card the size of the services' tarot card (2.75 × 4.75 in flat).
TAROT = """\
[card]
width_mm = 69.85
height_mm = 60.325
theme = "{theme}"

[person]
name = "Ada Example"
title = "Puzzle Designer"
email = "ada@example.org"
"""


def _config(folder: Path, theme: str = "dark") -> Path:
    path = folder / "tarot.toml"
    path.write_text(TAROT.format(theme=theme), encoding="utf-8")
    return path


def _heavy_theme(folder: Path) -> Path:
    """The dark theme with a ribbon of 400 % ink (C100 M100 Y100 K100)."""
    text = (ROOT / "templates" / "themes" / "dark.toml").read_text(encoding="utf-8")
    data = tomllib.loads(text)
    fills = data["curves"]["fill"]
    assert isinstance(fills, list)
    first = "fill = ["
    at = text.index(first, text.index("[curves]")) + len(first)
    path = folder / "heavy.toml"
    path.write_text(text[:at] + "[100, 100, 100, 100], " + text[at:], encoding="utf-8")
    return path


def _make(folder: Path, *args: str | Path) -> dict[str, bytes]:
    out = folder / "out"
    ok(cli("card", *args, "-o", out, "-q"))
    return {p.name: p.read_bytes() for p in sorted(out.iterdir())}


def _profile(name: str) -> dict[str, object]:
    return tomllib.loads((TARGETS / f"{name}.toml").read_text(encoding="utf-8"))


def max_ink(pdf: Path, folder: Path) -> float:
    """The most ink (C+M+Y+K, %) any point of any page's bleed box (the piece: the
    marks in the slug are in the registration colour, on every plate) puts down, read
    from Ghostscript's separations at :data:`SEPARATION_DPI`."""
    from PIL import Image

    assert GS is not None
    worst = 0
    for n in (1, 2):
        stem = folder / f"sep{n}"
        subprocess.run([GS, "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-dUseBleedBox",
                        "-sDEVICE=tiffsep",
                        f"-r{SEPARATION_DPI}", f"-dFirstPage={n}", f"-dLastPage={n}",
                        f"-sOutputFile={stem}.tif", str(pdf)], check=True)
        plates = [Image.open(f"{stem}({ink}).tif").tobytes()
                  for ink in ("Cyan", "Magenta", "Yellow", "Black")]
        # A plate is 8-bit grey, 255 where it puts no ink.
        worst = max(worst, max(1020 - (c + m + y + k) for c, m, y, k in zip(*plates,
                                                                          strict=True)))
    return worst / 255 * 100


# --- the profiles --------------------------------------------------------------------

@pytest.mark.parametrize("path", sorted(TARGETS.glob("*.toml")), ids=lambda p: p.stem)
def test_each_profile_names_its_source_and_loads(path):
    from cardgen.api import load_target

    head = path.read_text(encoding="utf-8").split("\n\n")[0]
    assert head.startswith("# ") and "Source:" in head, head
    if path.stem != "shop":  # a service: its spec as understood, to be checked
        assert "as understood" in head and "check them" in head and "http" not in head
    target = load_target(path.stem)
    assert target.key == path.stem and target.name


def test_print_targets_lists_the_bundled_profiles():
    from cardgen.api import print_targets

    assert print_targets() == ("drivethrucards", "shop", "thegamecrafter")


# --- shop: today's files -------------------------------------------------------------

@pytest.mark.slow
def test_shop_is_todays_output(tmp_path):
    today = _make(tmp_path / "a", "--format", "pdf,png")
    assert _make(tmp_path / "b", "--target", "shop", "--format", "pdf,png") == today
    assert sorted(today) == ["card-dieline.pdf", "card-dieline.png", "card-inside.png",
                             "card-outside.png", "card.pdf"]


# --- DriveThruCards: PDF/X-1a:2003, ink within 240 % ---------------------------------

def test_drivethrucards_pdf_keeps_pdfx_1a_2003(tmp_path):
    import pikepdf

    profile = _profile("drivethrucards")
    files = _make(tmp_path, _config(tmp_path), "--target", "drivethrucards")
    assert sorted(files) == ["card.pdf"]  # no dieline, no previews
    data = files["card.pdf"]
    assert data.startswith(b"%PDF-1.4\n")
    with pikepdf.open(io.BytesIO(data)) as pdf:
        assert pdf.pdf_version == "1.4"
        info = pdf.docinfo
        assert str(info["/GTS_PDFXVersion"]) == "PDF/X-1a:2003"
        assert "/GTS_PDFXConformance" not in info  # a 2001 key; 2003 has none
        assert info["/Trapped"] == pikepdf.Name("/False")
        (intent,) = pdf.Root.OutputIntents
        assert intent.S == pikepdf.Name.GTS_PDFX
        pdf_table = profile["pdf"]
        assert isinstance(pdf_table, dict)
        assert str(intent.OutputConditionIdentifier) == pdf_table["output_intent"]
        assert str(intent.RegistryName) == "http://www.color.org"
        assert pdf.trailer.ID[0] == pdf.trailer.ID[1]
        card = profile["card"]
        assert isinstance(card, dict)
        for page in pdf.pages:  # the page is the bleed box: no marks
            media = [float(v) for v in page.MediaBox]
            bleed = [float(v) for v in page.BleedBox]
            trim = [float(v) for v in page.TrimBox]
            assert media == pytest.approx(bleed)
            pt = 72 / 25.4
            assert trim[0] == pytest.approx(card["bleed_mm"] * pt, abs=0.01)
            assert trim[2] - trim[0] == pytest.approx(card["width_mm"] * pt, abs=0.01)
            assert trim[3] - trim[1] == pytest.approx(card["height_mm"] * pt, abs=0.01)


@needs_gs
@pytest.mark.slow
def test_drivethrucards_holds_every_point_to_its_ink_limit(tmp_path):
    """The dark theme's deepest blue is 247 % (a print shop takes it); the service's
    file is held to 240 %, read from the separations."""
    limit = _profile("drivethrucards")["ink"]
    assert isinstance(limit, dict) and limit["over_limit"] == "reduce"
    config = _config(tmp_path)
    ok(cli("card", config, "--target", "drivethrucards", "-o", tmp_path / "dtc", "-q"))
    ok(cli("card", config, "-f", "pdf", "-o", tmp_path / "shop", "-q"))
    shop = max_ink(tmp_path / "shop" / "card.pdf", tmp_path / "shop")
    served = max_ink(tmp_path / "dtc" / "card.pdf", tmp_path / "dtc")
    assert shop > limit["limit"] + INK_TOLERANCE  # the check has something to find
    assert served <= limit["limit"] + INK_TOLERANCE, served


# --- The Game Crafter: a PNG a face at its pixel size --------------------------------

def test_thegamecrafter_makes_a_png_a_face_at_its_pixel_size(tmp_path):
    from PIL import Image

    images = _profile("thegamecrafter")["images"]
    assert isinstance(images, dict)
    files = _make(tmp_path, _config(tmp_path), "--target", "thegamecrafter")
    assert sorted(files) == ["card-inside.png", "card-outside.png"]
    for data in files.values():
        with Image.open(io.BytesIO(data)) as image:
            assert image.format == "PNG" and image.mode == "RGB"
            assert image.size == (images["width_px"], images["height_px"])
            assert image.info["dpi"] == pytest.approx((images["dpi"],) * 2, abs=0.01)


# --- a colour over the limit: reduced, or refused with its key -----------------------

def _refusing_profile(folder: Path) -> Path:
    text = (TARGETS / "drivethrucards.toml").read_text(encoding="utf-8")
    assert 'over_limit = "reduce"' in text
    path = folder / "strict.toml"
    path.write_text(text.replace('over_limit = "reduce"', 'over_limit = "refuse"'),
                    encoding="utf-8")
    return path


def test_a_400_percent_colour_is_refused_naming_its_key(tmp_path):
    config = _config(tmp_path, _heavy_theme(tmp_path).name)
    line = error_line(cli("card", config, "--target", _refusing_profile(tmp_path),
                          "-o", tmp_path / "out"))
    # (Refused at 240 %, the dark theme's deepest blue, 247 %, is named too.)
    assert line.startswith(f"error: theme {tmp_path / 'heavy.toml'}: curves.fill is C100 M100 "
                           "Y100 K100, 400 % ink; DriveThruCards takes at most 240 %. Also: "
                           "curves.fill is C100 M75 K72, 247 % ink;")
    assert not (tmp_path / "out").exists()
    # A print shop refuses it too, at its own limit, as it always has.
    error_line(cli("card", config, "-o", tmp_path / "out"), "curves.fill",
               "a press takes at most 300 %")


@needs_gs
@pytest.mark.slow
def test_a_400_percent_colour_is_reduced_within_the_limit(tmp_path):
    config = _config(tmp_path, _heavy_theme(tmp_path).name)
    ok(cli("card", config, "--target", "drivethrucards", "-o", tmp_path / "out", "-q"))
    assert max_ink(tmp_path / "out" / "card.pdf", tmp_path) <= 240 + INK_TOLERANCE


def test_the_reduction_rule():
    from cardgen.prepress.targets import reduce_ink

    assert reduce_ink(0.2, 0.3, 0.4, 0.5, 2.4) == (0.2, 0.3, 0.4, 0.5)  # within: kept
    # Grey to K first: C, M and Y share 0.8; 0.15 of it moved (each unit moved saves
    # two) takes the total from 270 % to 240 %.
    assert reduce_ink(1.0, 0.8, 0.9, 0.0, 2.4) == pytest.approx((0.85, 0.65, 0.75, 0.15),
                                                                abs=1e-4)
    # K full: C, M and Y scaled together down to what K leaves.
    c, m, y, k = reduce_ink(1.0, 1.0, 1.0, 1.0, 2.4)
    assert (c, m, y, k) == pytest.approx((1.4 / 3, 1.4 / 3, 1.4 / 3, 1.0), abs=1e-4)
    for colour in [(1.0, 1.0, 0.0, 1.0), (0.9, 0.1, 1.0, 0.7), (1.0, 1.0, 1.0, 0.0)]:
        assert sum(reduce_ink(*colour, 2.4)) <= 2.4


# --- errors --------------------------------------------------------------------------

def test_an_unknown_target_is_a_usage_error_listing_the_targets(tmp_path):
    line = error_line(cli("card", "--target", "drivethru", "-o", tmp_path), status=2)
    assert line == ("error: --target must be one of drivethrucards, shop, thegamecrafter, "
                    "not 'drivethru'.")


def test_a_card_the_service_does_not_print_is_refused_in_one_line(tmp_path):
    line = error_line(cli("card", "--target", "thegamecrafter", "-o", tmp_path / "o"))
    assert line == ("error: target thegamecrafter: The Game Crafter prints the card as its "
                    "tarot card, 69.85 × 120.65 mm flat, and this card is 85 × 110 mm flat; "
                    "set card.width_mm = 69.85 and card.height_mm = 60.325 in the config.")


@pytest.mark.parametrize(("args", "clash"), [
    (["--rgb"], "--rgb"),
    (["--dieline", "layer"], "--dieline layer"),
    (["--varnish", "file"], "--varnish"),
    (["--marks"], "--marks (its files have no crop marks)"),
    (["--output-intent", "FOGRA39"], "--output-intent (its files name CGATS21_CRPC5)"),
])
def test_options_a_service_does_not_take_are_refused(tmp_path, args, clash):
    line = error_line(cli("card", _config(tmp_path), "--target", "drivethrucards", *args,
                          "-o", tmp_path / "o"), status=2)
    assert line.startswith(f"error: --target drivethrucards cannot be used with {clash}")


def test_format_must_ask_for_a_file_the_service_takes(tmp_path):
    line = error_line(cli("card", _config(tmp_path), "--target", "drivethrucards", "-f",
                          "svg,png", "-o", tmp_path / "o"), status=2)
    assert line == ("error: --format asks for svg, png, and --target drivethrucards takes "
                    "only pdf; add pdf to --format.")


def test_a_broken_profile_is_named_with_its_keys(tmp_path):
    text = (TARGETS / "thegamecrafter.toml").read_text(encoding="utf-8")
    broken = tmp_path / "broken.toml"
    broken.write_text(text.replace("dpi = 300", 'dpi = "300"').replace(
        "formats =", "fromats =", 1), encoding="utf-8")
    line = error_line(cli("card", _config(tmp_path), "--target", broken, "-o",
                          tmp_path / "o"))
    assert "broken.toml: unknown key fromats; did you mean formats?" in line
    assert "images.dpi must be a number, not text ('300')" in line


def test_the_loader_names_the_file_and_key_of_a_folder_of_profiles(tmp_path):
    from cardgen.api import ConfigError, ParameterError, load_target

    folder = tmp_path / "targets"
    shutil.copytree(TARGETS, folder)
    path = folder / "drivethrucards.toml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('over_limit = "reduce"', 'over_limit = "reduced"'),
                    encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_target("drivethrucards", folder)
    assert str(caught.value) == (f"{path}: ink.over_limit must be one of reduce, refuse, not "
                                 "'reduced'; did you mean reduce?")
    path.write_text(text.replace('version = "1.4"', 'version = "1.5"'), encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_target("drivethrucards", folder)
    assert str(caught.value) == (f"{path}: pdf.version '1.5' is not a version "
                                 "PDF/X-1a:2003 allows (1.3 or 1.4).")
    assert load_target("shop", folder).key == "shop"
    with pytest.raises(ParameterError) as unknown:
        load_target("nope", folder)
    assert unknown.value.parameter == "target"


def test_images_that_do_not_match_the_product_are_refused(tmp_path):
    from cardgen.api import ConfigError, load_target

    path = tmp_path / "tgc.toml"
    path.write_text((TARGETS / "thegamecrafter.toml").read_text(encoding="utf-8").replace(
        "width_px = 900", "width_px = 825"), encoding="utf-8")
    with pytest.raises(ConfigError, match=r"images.width_px = 825 does not match the "
                       r"product: 69.85 mm plus 3.175 mm of bleed on each side at 300 dpi "
                       r"is 900 pixels"):
        load_target(path)


# --- the library -----------------------------------------------------------------------

def test_the_api_makes_the_command_lines_bytes(tmp_path):
    from cardgen.api import load_target, target_files
    from cardgen.card.build import build_card
    from cardgen.card.config import load_config
    from cardgen.render import Format

    config = _config(tmp_path)
    target = load_target("thegamecrafter")
    build = build_card(load_config(config), target=target)
    made = target_files(build.document, target, tmp_path / "card", [Format.PNG, "pdf"])
    files = _make(tmp_path, config, "--target", "thegamecrafter")
    assert {p.name: data for p, data in made.items()} == files
    assert not (tmp_path / "card-outside.png").exists()  # nothing written by the API
    again = build_card(load_config(config), target=target)
    assert target_files(again.document, target, tmp_path / "card", ["png"]) == made


def test_profile_problems_carry_their_codes(tmp_path):
    from cardgen.api import ConfigError, ConfigProblem, load_target

    path = tmp_path / "p.toml"
    path.write_text('fromats = ["pdf"]\n[ink]\nlimit = "240"\n', encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_target(path)
    assert [p.code for p in caught.value.problems] == [
        ConfigProblem.UNKNOWN_KEY, ConfigProblem.WRONG_TYPE, ConfigProblem.MISSING,
        ConfigProblem.MISSING]


def test_pictures_pixels_are_held_to_the_limit_or_named():
    from PIL import Image as PILImage

    from cardgen.draw.geometry import Box
    from cardgen.draw.page import Image, Layer, Page, Raster
    from cardgen.prepress.targets import InkRule, OverLimit, apply_ink

    cmyk = PILImage.new("CMYK", (4, 2), (255, 255, 255, 255))  # 400 %
    cmyk.putpixel((0, 0), (20, 30, 40, 50))  # within: kept
    raster = Raster(cmyk.convert("RGB"), cmyk, key="test")

    def page() -> Page:
        return Page("p", 10, 10, Box(1, 1, 8, 8), Box(0, 0, 10, 10),
                    [Layer("art", [Image(0, 0, 4, 2, raster, name="images.logo")])])

    refused = apply_ink([page()], InkRule(2.4, OverLimit.REFUSE, "DriveThruCards"))
    assert refused == ["the picture images.logo: its pixels reach 400 % ink; "
                       "DriveThruCards takes at most 240 %."]
    reduced = page()
    assert apply_ink([reduced], InkRule(2.4, OverLimit.REDUCE, "DriveThruCards")) == []
    (item,) = reduced.layers[0].items
    assert isinstance(item, Image) and item.raster.cmyk is not None
    data = item.raster.cmyk.tobytes()
    pixels = [tuple(data[at:at + 4]) for at in range(0, len(data), 4)]
    assert pixels[0] == (20, 30, 40, 50)
    assert max(sum(p) for p in pixels) <= 2.4 * 255
    assert pixels[1] == (118, 118, 118, 255)  # K full: C, M and Y scaled to 46 %


def test_make_card_takes_a_target_as_the_command_does(tmp_path):
    """``cardgen.make_card(target=...)`` makes the files ``card --target`` writes, and
    refuses, naming ``target``, a setting the service cannot take."""
    import cardgen
    from tests.helpers import cli as run_cli

    config = tmp_path / "tarot.toml"
    config.write_text('[card]\nwidth_mm = 69.85\nheight_mm = 60.325\n'
                      '[person]\nname = "Ada Quill"\n', encoding="utf-8")
    for target, fmt in (("drivethrucards", "pdf"), ("thegamecrafter", "png")):
        out = tmp_path / target
        assert run_cli("card", config, "--target", target, "-f", fmt,
                       "-o", out).returncode == 0
        made = cardgen.make_card(config, target=target, formats=fmt)
        assert dict(made.files) == {p.name: p.read_bytes() for p in out.iterdir()}
    with pytest.raises(cardgen.ParameterError, match="^target drivethrucards cannot be made "
                       r"with the rgb given \(it takes a CMYK print file\)"):
        cardgen.make_card(config, target="drivethrucards", rgb=True)
