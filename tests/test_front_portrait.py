"""The photo as the business side's main visual (issue 13): its place and treatment, the
contrast of every line of text over it and the QR code's quiet zone in the rendered
preview, the ink limit, the same crop on both sides, ``images.portrait_focus`` and the
warning when the face has no room."""

from __future__ import annotations

import copy
import math
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image as PILImage
from PIL import ImageMath

from cardgen.card.build import CardBuild, build_card
from cardgen.card.config import DEFAULT_FOCUS, config_from_values, load_config
from cardgen.card.layout import card_layout
from cardgen.card.outside import front_visual
from cardgen.card.portrait import (
    front_portrait_raster,
    lightness_map,
    portrait_rasters,
    square_crop,
)
from cardgen.card.themes import load_theme
from cardgen.draw.colors import LUMINANCE_WEIGHTS, linear_channel
from cardgen.draw.geometry import Box
from cardgen.draw.page import Group, Image, MoveTo, Rect, Text, View, page_items
from cardgen.draw.page import Path as PathItem
from cardgen.draw.raster import open_image
from cardgen.errors import ConfigError, ConfigProblem
from cardgen.physical.card import Preset
from cardgen.prepress.ink import MAX_INK, MIN_CONTRAST, page_ink_problems
from cardgen.render.png import rasterize
from cardgen.resources import templates_dir
from cardgen.text.fit import text_box
from tests.helpers import BASE_CONFIG, DATA, cli, examples, ok, write_config

PHOTO = DATA / "portrait.png"
DPI = 300
VARIANTS = [(Preset.EU, "dark"), (Preset.US, "light")]


def _build(preset: Preset = Preset.EU, theme: str = "dark", **changes: object) -> CardBuild:
    config = replace(load_config(None).with_overrides(preset=preset, theme=theme),
                     portrait=PHOTO, **changes)
    return build_card(config)


@pytest.fixture(scope="module")
def builds() -> dict[tuple[Preset, str], CardBuild]:
    return {(preset, theme): _build(preset, theme) for preset, theme in VARIANTS}


def _front_group(build: CardBuild, name: str) -> Group:
    (group,) = [i for i in build.document.pages[0].layer(
        "background" if name == "front-art" else "content").items
        if isinstance(i, Group) and i.name == name]
    return group


def _portrait(build: CardBuild) -> Image:
    (image,) = [i for i in _front_group(build, "front-art").items
                if isinstance(i, Image) and i.name == "front-portrait"]
    return image


def _luminance(rgb: tuple[int, int, int]) -> float:
    return sum(w * linear_channel(v) for w, v in zip(LUMINANCE_WEIGHTS, rgb, strict=True))


def _ratio(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def _pixels(box: Box, dpi: float) -> tuple[int, int, int, int]:
    k = dpi / 25.4
    return (math.floor(box.x * k), math.floor(box.y * k), math.ceil(box.right * k),
            math.ceil(box.bottom * k))


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_photo_is_the_front_panels_picture_in_the_themes_tones(builds, variant):
    build = builds[variant]
    image = _portrait(build)
    treatment = build.theme.front_portrait
    assert treatment is not None
    g = build.geometry
    # Hung from the fold, never across it; the face off the fold's safe band.
    assert image.y == pytest.approx(0)
    visual = front_visual(replace(load_config(None).with_overrides(
        preset=variant[0], theme=variant[1]), portrait=PHOTO), g, build.theme, build.fonts,
        card_layout())
    assert visual.portrait == Box(image.x, image.y, image.w, image.h)
    assert visual.face is not None and visual.face.y >= g.size.safe
    assert g.panel_safe().contains_box(visual.face)
    assert image.h >= treatment.min_size * g.size.height
    # Fades to exactly the ground: the row along the fold and the left column are the
    # ground's colour, so no edge shows; it is printed in CMYK with an RGB twin.
    ground = build.theme.outside["background"]
    raster = image.raster
    assert raster.cmyk is not None and raster.cmyk.mode == "CMYK" and raster.mask is None
    w, h = raster.size
    for box in ((0, 0, w, 1), (0, 0, 1, h)):
        assert raster.rgb.crop(box).getcolors() == [(len(range(box[2] * box[3])), ground.rgb)]
        ink = tuple(round(255 * v) for v in ground.cmyk_fractions)
        assert raster.cmyk.crop(box).getcolors() == [(box[2] * box[3], ink)]
    # It runs on into the bleed at the right.
    assert image.x + image.w == pytest.approx(g.size.width + g.size.bleed)
    # In the theme's tones: the face's middle carries the ink (blue over the ground).
    middle = raster.rgb.crop((w // 3, h // 3, 2 * w // 3, 2 * h // 3)).resize((1, 1),
                                                                               PILImage.BOX)
    r, _, b = middle.getpixel((0, 0))
    assert b > r + 20


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_line_of_text_keeps_its_contrast_over_the_picture(builds, variant):
    """The front rendered by cardgen's PNG renderer at 300 dpi without its text: each
    line's box, with 0.3 mm around its glyphs, holds only colours with a WCAG contrast
    of at least 4.5:1 with the line's colour. (What lies under the text is compared,
    rather than the text's own pixels with their anti-aliased edges.)"""
    build = builds[variant]
    page = copy.deepcopy(build.document.pages[0])
    texts: list[Text] = []
    for item in page.layer("content").items:
        if isinstance(item, Group) and item.name == "front-panel":
            texts = [i for i in item.items if isinstance(i, Text)]
            item.items = [i for i in item.items if not isinstance(i, Text)]
            to_page = item.transform
    assert len(texts) >= 5
    under = rasterize(View(page.name, page, tuple(page.layers)), DPI)
    portrait = _portrait(build)
    checked = 0
    for text in texts:
        box = text_box(text).inset(-0.3).transformed(to_page)
        colours = under.crop(_pixels(box, DPI)).getcolors(1 << 16)
        assert colours
        worst = min(_ratio(text.color.rgb, c) for _, c in colours)
        assert worst >= MIN_CONTRAST, (text.text, worst)
        ink = text_box(text)
        checked += ink.y < portrait.y + portrait.h and ink.bottom > portrait.y
    assert checked >= 3  # the name block lies beside the picture


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_qr_codes_quiet_zone_is_clear(builds, variant):
    build = builds[variant]
    front = _front_group(build, "front-panel")
    (square,) = [i for i in front.items if isinstance(i, Rect)
                 and i.fill == build.theme.outside["qr_background"] and i.w == i.h]
    (modules,) = [i for i in front.items if isinstance(i, PathItem)]
    # The symbol's modules begin a quiet zone (4 modules) inside the light square.
    quiet = min(op.x for op in modules.ops if isinstance(op, MoveTo)) - square.x
    # Nothing of the portrait under the QR code: there it is exactly the ground.
    portrait = _portrait(build)
    raster = portrait.raster
    k = raster.size[0] / portrait.w
    qr = Box(square.x, square.y, square.w, square.h)
    inside = Box(max(qr.x, portrait.x), qr.y, min(qr.right, portrait.x + portrait.w)
                 - max(qr.x, portrait.x), min(qr.bottom, portrait.y + portrait.h) - qr.y)
    if inside.w > 0 and inside.h > 0:
        box = ((inside.x - portrait.x) * k, (inside.y - portrait.y) * k,
               (inside.right - portrait.x) * k, (inside.bottom - portrait.y) * k)
        patch = raster.rgb.crop(tuple(round(v) for v in box))
        assert patch.getcolors() == [(patch.width * patch.height,
                                      build.theme.outside["background"].rgb)]
    # In the rendered preview, the quiet zone (4 modules around the symbol) is all the
    # QR code's light colour.
    image = rasterize(build.document.views()[0], DPI)
    to_page = _front_group(build, "front-panel").transform
    page_qr = qr.transformed(to_page)
    light = build.theme.outside["qr_background"].rgb
    one_px = 25.4 / DPI
    for band in (Box(page_qr.x, page_qr.y, page_qr.w, quiet),
                 Box(page_qr.x, page_qr.bottom - quiet, page_qr.w, quiet),
                 Box(page_qr.x, page_qr.y, quiet, page_qr.h),
                 Box(page_qr.right - quiet, page_qr.y, quiet, page_qr.h)):
        patch = image.crop(_pixels(band.inset(1.5 * one_px), DPI))
        assert patch.getcolors() == [(patch.width * patch.height, light)]


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_picture_keeps_the_ink_rule_and_the_ink_limit(builds, variant):
    build = builds[variant]
    for page in build.document.pages:
        assert page_ink_problems(page) == []
    raster = _portrait(build).raster
    assert raster.cmyk is not None
    c, m, y, k = raster.cmyk.split()
    total = ImageMath.lambda_eval(lambda e: e["c"] + e["m"] + e["y"] + e["k"],
                                  c=c.convert("I"), m=m.convert("I"), y=y.convert("I"),
                                  k=k.convert("I"))
    assert total.getextrema()[1] <= MAX_INK * 255


def _correlation(a: PILImage.Image, b: PILImage.Image) -> float:
    pa, pb = list(a.tobytes()), list(b.tobytes())
    ma, mb = sum(pa) / len(pa), sum(pb) / len(pb)
    cov = sum((x - ma) * (y - mb) for x, y in zip(pa, pb, strict=True))
    va = sum((x - ma) ** 2 for x in pa)
    vb = sum((y - mb) ** 2 for y in pb)
    return cov / math.sqrt(va * vb)


def test_both_sides_show_the_same_crop(builds):
    """The front's picture and the portrait behind grid B, brought to one size: in the
    middle of the face, where the front has not faded, their tones follow each other
    closely; against the grid portrait of another crop they do not."""
    build = builds[(Preset.EU, "dark")]
    front = _portrait(build).raster.rgb.convert("L")
    photo = open_image(PHOTO, "images.portrait")
    theme = build.theme
    tints = (theme.inside["tint_a"], theme.inside["tint_b"])

    def grid(focus: tuple[float, float]) -> PILImage.Image:
        _, b, _ = portrait_rasters(photo, 30.0, tints, theme.portrait_strength, focus)
        return b.rgb.convert("L")

    n = 48
    crop = square_crop(photo.size, DEFAULT_FOCUS)
    fx, fy = crop.focus
    box = (fx - 0.14, fy - 0.14, fx + 0.14, fy + 0.14)

    def middle(image: PILImage.Image) -> PILImage.Image:
        w, h = image.size
        return image.resize((n, n), PILImage.BOX, box=(box[0] * w, box[1] * h, box[2] * w,
                                                       box[3] * h))

    same = _correlation(middle(front), middle(grid(DEFAULT_FOCUS)))
    other = _correlation(middle(front), middle(grid((0.5, 0.9))))
    assert same > 0.9
    assert other < 0.6


def test_without_a_photo_the_front_shows_the_curves_alone(example_build):
    assert not [i for i, _ in page_items(example_build.document.pages[0])
                if isinstance(i, Image)]


def test_a_theme_without_front_portrait_prints_no_picture_on_the_front(tmp_path):
    source = (templates_dir() / "themes" / "dark.toml").read_text()
    (tmp_path / "old.toml").write_text(source[:source.index("[front_portrait]")])
    assert load_theme(str(tmp_path / "old.toml")).front_portrait is None
    build = _build(theme=str(tmp_path / "old.toml"))
    assert not [i for i in _front_group(build, "front-art").items if isinstance(i, Image)]
    bad = source.replace("min_size = 0.4", "min_size = 0.9").replace(
        "fade_start = 0.14", "fade_start = 0.6")
    (tmp_path / "bad.toml").write_text(bad)
    with pytest.raises(ConfigError) as caught:
        load_theme(str(tmp_path / "bad.toml"))
    assert caught.value.codes == (ConfigProblem.CONFLICT, ConfigProblem.CONFLICT)
    assert "front_portrait.min_size" in caught.value.problems[0]
    assert "front_portrait.fade_start" in caught.value.problems[1]


def test_a_focus_near_the_photos_edge_warns_that_the_face_has_no_room():
    build = _build(portrait_focus=(0.0, 0.0))
    warned = [w for w in build.warnings if w.startswith("images.portrait_focus:")]
    assert len(warned) == 1 and "[0, 0]" in warned[0]
    assert not [w for w in _build().warnings if "portrait_focus" in w]


def test_beside_a_long_name_and_a_logo_the_face_goes_lower():
    """No room for the face between a long name and the logo, hanging from the fold:
    the picture goes lower, at the first height where its face is clear, below the name
    block and beside the QR code; the curves keep off the face."""
    long_name = "Maximiliana Featherstone"
    config = replace(load_config(None), portrait=PHOTO,
                     logo=DATA / "logo.png",
                     person=replace(load_config(None).person, name=long_name))
    build = build_card(config)
    assert not [w for w in build.warnings if "will not appear" in w]
    image = _portrait(build)
    assert image.y > 0
    visual = front_visual(config, build.geometry, build.theme, build.fonts, card_layout())
    assert visual.face is not None
    assert visual.band is None or visual.band[0] >= visual.face.bottom - 1e-9
    front = _front_group(build, "front-panel")
    name = next(i for i in front.items if isinstance(i, Text) and i.name == "person-name")
    assert visual.face.y > text_box(name).bottom
    step = card_layout().art["portrait_step"]  # heights are tried a step apart
    assert image.y == pytest.approx(round(image.y / step) * step)


def test_with_no_place_for_the_face_the_photo_is_left_off_the_front():
    """A full front (the ability and its signature box, a long name, a logo): no place
    for the face even with the logo at its smallest, so no picture on the business side,
    the logo at its full size, and one warning that says so."""
    values = {"person": {"name": "Alexandra Bartholomew Mo", "title": "Game Designer",
                         "email": "ada@example.org", "phone": "+1 555 0100",
                         "web": "example.org", "tagline": "Games on paper."},
              "images": {"portrait": str(PHOTO), "logo": str(DATA / "logo.png")},
              "ladder": {"ability": "Once per game, look at the top card of the deck."}}
    build = build_card(config_from_values(values, None, "card.toml"))
    assert not [i for i in _front_group(build, "front-art").items if isinstance(i, Image)]
    (warned,) = [w for w in build.warnings if w.startswith("images.portrait:")
                 and "will not appear" in w]
    assert "leave out images.logo" in warned
    logo = next(i for i in _front_group(build, "front-panel").items
                if isinstance(i, Image) and i.name == "logo")
    without = build_card(config_from_values(
        {**values, "images": {"logo": str(DATA / "logo.png")}}, None, "card.toml"))
    logo_alone = next(i for i in _front_group(without, "front-panel").items
                      if isinstance(i, Image) and i.name == "logo")
    assert (logo.w, logo.h) == (logo_alone.w, logo_alone.h)


def test_exif_orientation_is_honoured_on_the_front(tmp_path):
    photo = PILImage.open(PHOTO).convert("RGB")
    stored = photo.transpose(PILImage.Transpose.ROTATE_90)
    exif = PILImage.Exif()
    exif[0x0112] = 6  # the viewer turns the stored pixels 90° clockwise
    stored.save(tmp_path / "turned.png", exif=exif.tobytes())
    theme = load_theme("dark")
    assert theme.front_portrait is not None
    box = Box(50, 0, 30, 30)

    def front(path: Path) -> bytes:
        image = open_image(path, "images.portrait")
        raster, _ = front_portrait_raster(image, DEFAULT_FOCUS, box, (65, 15),
                                          theme.front_portrait,
                                          theme.outside["background"], [], Box(0, 0, 85, 55))
        return raster.rgb.tobytes()

    assert front(tmp_path / "turned.png") == front(PHOTO)


def test_the_focus_chooses_the_crop():
    crop = square_crop((480, 600), (0.5, 0.4))
    assert crop.box == (0, 0, 480, 480) and crop.focus == pytest.approx((0.5, 0.5))
    crop = square_crop((480, 600), (0.5, 0.5))
    assert crop.box == (0, 60, 480, 540) and crop.focus == pytest.approx((0.5, 0.5))
    crop = square_crop((800, 400), (0.9, 0.5))
    assert crop.box == (400, 0, 800, 400) and crop.focus == pytest.approx((0.8, 0.5))
    photo = open_image(PHOTO, "images.portrait")
    assert lightness_map(photo, 40, (0.5, 0.2)).tobytes() != \
        lightness_map(photo, 40, (0.5, 0.8)).tobytes()


def test_the_cards_grid_portraits_follow_the_focus(builds):
    """The card's own grid portraits are cropped on ``images.portrait_focus``, as the
    front is: the raster behind grid B is the one portrait_rasters makes for that focus."""
    focus = (0.5, 0.7)
    build = _build(portrait_focus=focus)
    inside = build.document.pages[1]
    (raster,) = [i.raster for i, _ in page_items(inside) if isinstance(i, Image)
                 and i.name == "portrait-B"]
    theme = build.theme
    photo = open_image(PHOTO, "images.portrait")
    tints = (theme.inside["tint_a"], theme.inside["tint_b"])
    side = build.geometry.grid_size
    _, wanted, _ = portrait_rasters(photo, side, tints, theme.portrait_strength, focus)
    _, default, _ = portrait_rasters(photo, side, tints, theme.portrait_strength)
    assert raster.rgb.tobytes() == wanted.rgb.tobytes() != default.rgb.tobytes()


def _values(focus: object) -> dict[str, object]:
    return {"person": {"name": "Ada"}, "images": {"portrait_focus": focus}}


@pytest.mark.parametrize(("focus", "expected"), [
    ([0.3, 0.25], (0.3, 0.25)), ([0, 1], (0.0, 1.0)), ("0.5 0.45", (0.5, 0.45)),
    ("0.5, 0.45", (0.5, 0.45)),
])
def test_portrait_focus_accepts_a_point(focus, expected):
    assert config_from_values(_values(focus), None, "card.toml").portrait_focus == expected


@pytest.mark.parametrize("focus", [[0.5], [0.5, 0.4, 0.1], [1.5, 0.2], [-0.1, 0.5],
                                   ["a", 0.5], [True, 0.5], 0.5, "middle", [math.nan, 0.5],
                                   {"x": 0.5}])
def test_portrait_focus_refuses_anything_else_in_one_sentence(focus):
    with pytest.raises(ConfigError) as caught:
        config_from_values(_values(focus), None, "card.toml")
    (problem,) = caught.value.problems
    assert problem.startswith("images.portrait_focus must be two numbers from 0 to 1")
    assert problem.endswith(".") and problem.count(". ") == 0


@settings(max_examples=examples(60), deadline=None)
@given(st.one_of(st.lists(st.one_of(st.floats(allow_nan=True), st.integers(), st.text(),
                                    st.booleans(), st.none()), max_size=4),
                 st.text(max_size=30), st.floats(), st.integers()))
def test_portrait_focus_fuzzed(focus):
    values = _values(focus)
    values["images"] = {k: v for k, v in values["images"].items() if v is not None}
    try:
        config = config_from_values(values, None, "card.toml")
    except ConfigError as exc:
        assert len(exc.problems) == 1
        assert exc.problems[0].startswith("images.portrait_focus ")
        return
    x, y = config.portrait_focus
    assert 0 <= x <= 1 and 0 <= y <= 1


def test_the_cli_warns_and_documents_the_focus(tmp_path):
    folder = tmp_path / "card"
    folder.mkdir()
    (folder / "me.png").write_bytes(PHOTO.read_bytes())
    config = write_config(folder, BASE_CONFIG + '[images]\nportrait = "me.png"\n'
                          "portrait_focus = [0.02, 0.02]\n")
    result = ok(cli("card", config, "-f", "pdf", "-o", tmp_path / "out"))
    assert ("images.portrait_focus: the photo will not appear on the business side"
            in result.stderr)


def test_the_pdf_prints_the_picture_in_cmyk_and_previews_it_in_rgb(builds):
    import io

    from pypdf import PdfReader

    from cardgen.render.pdf import render_pdf

    build = builds[(Preset.EU, "dark")]
    size = _portrait(build).raster.size
    for cmyk, space in ((True, "/DeviceCMYK"), (False, "/DeviceRGB")):
        reader = PdfReader(io.BytesIO(render_pdf(build.document, cmyk=cmyk)))
        images = [ref.get_object() for ref in
                  reader.pages[0]["/Resources"]["/XObject"].values()]
        front = [im for im in images if (im["/Width"], im["/Height"]) == size]
        assert len(front) == 1 and front[0]["/ColorSpace"] == space
        assert "/SMask" not in front[0] and "/Mask" not in front[0]


def test_front_visual_gives_the_picture_and_the_curves_as_shapes(builds, example_build):
    """What a spot layer (a varnish) needs: the picture's square, its glow (outside it
    the picture is the ground) and the curves' band; the band alone without a photo."""
    build = builds[(Preset.EU, "dark")]
    config = replace(load_config(None), portrait=PHOTO)
    visual = front_visual(config, build.geometry, build.theme, build.fonts, card_layout())
    assert visual.portrait is not None and visual.face is not None and visual.glow
    cx, cy, radius = visual.glow
    assert visual.face.contains(cx, cy) and radius < visual.portrait.w
    assert visual.band is not None and visual.band[0] >= visual.face.bottom - 1e-9
    assert visual.to_page == build.geometry.front_to_page
    plain = front_visual(load_config(None), example_build.geometry, example_build.theme,
                         example_build.fonts, card_layout())
    assert plain.portrait is None and plain.glow is None and plain.band is not None
