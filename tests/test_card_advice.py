"""What ``cardgen card`` says and shows about a card, as a user meets it (issue 25,
points 4 and 7).

- Every warning's advice names only fields the card sets: no "leave out the address" on
  a card without one, no "leave out the logo" without a logo (the whole run's warnings,
  over configs with and without an address, a logo, a photo, an ability and long
  fields).
- With a logo and a photo, the face shows on the business side whatever the name's
  length (5-30 characters): measured in the rendered PNG, where the face region holds
  the portrait's own pixels, uncovered; or, where no place works, one plain warning
  says the photo will not appear and why, and it does not appear.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest
from PIL import Image as PILImage

from cardgen.card.build import build_card
from cardgen.card.config import load_config
from cardgen.card.portrait import lightness_map, square_crop
from cardgen.draw.geometry import Box
from cardgen.draw.page import Group, Image
from tests.helpers import DATA, cli, ok, sampled, write_config

DPI = 150
FULL_NAME = "Alexandra Bartholomew Montgomery-Lichtenstein"
FOCUS = (0.5, 0.47)  # the middle of the test picture's face
ABILITY = "Once per game, look at the top card of the deck."
# Fields the advice may tell the user to set (or set otherwise) though the card does not.
SETTABLE = {"card.qr", "card.theme", "card.width_mm", "card.height_mm",
            "images.portrait_focus", "print.cmyk_profile"}
FIELD = re.compile(r"\b(person|images|card|ladder|fonts|print)\.([a-z_]+)")


def _name(length: int) -> str:
    """A name of ``length`` characters, cut from FULL_NAME (no space at its end)."""
    name = FULL_NAME[:length]
    return name if not name.endswith(" ") else name[:-1] + "x"


def _config(folder: Path, *, name: str = "Robin Vale", preset: str = "eu",
            theme: str = "dark", address: bool = False, logo: bool = False,
            photo: bool = False, focus: tuple[float, float] = FOCUS, ability: bool = False,
            long_fields: bool = False) -> tuple[Path, dict[str, dict[str, object]]]:
    """A config in ``folder`` (the test pictures beside it) and what it sets."""
    person: dict[str, object] = {
        "name": name, "title": "Game Designer", "company": "Paper Lantern Games",
        "email": "robin@paperlantern.example", "phone": "+44 20 7946 0958",
        "web": "paperlantern.example", "tagline": "Small games for big tables."}
    if long_fields:  # a vCard long enough for modules under 0.4 mm, without an address
        person |= {"title": "Principal Systems and Narrative Designer",
                   "company": "Lantern & Company Tabletop Games Studio",
                   "email": "maximiliana.featherstone@lantern.example"}
    if address:
        person["address"] = "12 Harbour Street\nLeith, Edinburgh"
    images: dict[str, object] = {}
    if photo:
        (folder / "portrait.png").write_bytes((DATA / "portrait.png").read_bytes())
        images |= {"portrait": "portrait.png", "portrait_focus": list(focus)}
    if logo:
        (folder / "logo.png").write_bytes((DATA / "logo.png").read_bytes())
        images["logo"] = "logo.png"
    values: dict[str, dict[str, object]] = {"card": {"preset": preset, "theme": theme},
                                            "person": person, "images": images}
    if ability:
        values["ladder"] = {"ability": ABILITY}
    lines = []
    for section, table in values.items():
        lines.append(f"[{section}]")
        for key, value in table.items():
            text = (f'"{value}"' if isinstance(value, str) and "\n" not in value
                    else f'"""{value}"""' if isinstance(value, str) else str(value))
            lines.append(f"{key} = {text}")
    return write_config(folder, "\n".join(lines) + "\n"), values


def _warnings(stderr: str) -> list[str]:
    return [line.removeprefix("warning: ") for line in stderr.splitlines()
            if line.startswith("warning: ")]


def _unset_fields_advised(warning: str, values: dict[str, dict[str, object]]) -> list[str]:
    """The fields a warning names that the card does not set (but those one may be told
    to set), and the unset address or logo it speaks of in words."""
    named = {f"{s}.{k}" for s, k in FIELD.findall(warning)} - SETTABLE
    unset = sorted(f for f in named if not values.get(f.split(".")[0], {}).get(
        f.split(".")[1]))
    words = re.sub(r"\bweb address\b", "", warning.lower())
    if "address" in words and not values["person"].get("address"):
        unset.append("the address (in words)")
    if "logo" in words and not values["images"].get("logo"):
        unset.append("the logo (in words)")
    return unset


# --- point 4: warnings advise only about fields that are set ------------------------------

QUICK_ADVICE = [
    # the QR code's modules too fine on a card without an address
    {"long_fields": True},
    # the photo's face with no room, on a card without a logo
    {"photo": True, "focus": (0.02, 0.02)},
    # a logo and a photo beside a long name, with the ability
    {"photo": True, "logo": True, "ability": True, "name": _name(25)},
]
ADVICE = [{"name": _name(length), "address": address, "logo": logo, "photo": photo,
           "focus": focus, "long_fields": long_fields, "ability": ability}
          for length in (5, 23, 30) for address in (False, True) for logo in (False, True)
          for photo, focus in ((False, FOCUS), (True, FOCUS), (True, (0.02, 0.02)))
          for long_fields, ability in ((False, False), (True, False), (False, True))]


@pytest.mark.parametrize("case", sampled(
    [frozenset(c.items()) for c in QUICK_ADVICE + ADVICE],
    *[frozenset(c.items()) for c in QUICK_ADVICE]))
def test_every_warning_advises_only_about_fields_that_are_set(tmp_path, case):
    config, values = _config(tmp_path, **dict(case))
    result = cli("card", config, "-f", "pdf", "-o", tmp_path / "out")
    if result.returncode == 1:  # too much for the front panel: an error, not a warning
        assert result.stderr.startswith("error: ") and "does not fit" in result.stderr
        return
    ok(result)
    for warning in _warnings(result.stderr):
        assert _unset_fields_advised(warning, values) == [], warning


def test_the_qr_advice_follows_the_fields(tmp_path):
    config, _ = _config(tmp_path, long_fields=True)
    (warning,) = [w for w in _warnings(ok(cli("card", config, "-f", "pdf", "-o",
                                               tmp_path / "out")).stderr)
                  if w.startswith("card.qr:")]
    assert warning.endswith('may not scan from print; shorten person.title and '
                            'person.email, or set card.qr = "url" to encode only '
                            'person.web.')
    config, _ = _config(tmp_path, long_fields=True, address=True)
    (warning,) = [w for w in _warnings(ok(cli("card", config, "-f", "pdf", "-o",
                                               tmp_path / "out2")).stderr)
                  if w.startswith("card.qr:")]
    assert "; leave out person.address, shorten person.title and person.email, or " in warning


# --- point 7: the face stays visible beside a logo -----------------------------------------

def _front_portrait(config: Path) -> tuple[Image, Box, Box] | None:
    """The portrait the card's page model draws on the front (None: none), its face
    region and the front panel, in the page's frame."""
    from cardgen.card.layout import card_layout
    from cardgen.card.outside import front_visual

    loaded = load_config(config)
    build = build_card(loaded)
    images = [(i, g.transform) for g in build.document.pages[0].layer("background").items
              if isinstance(g, Group) and g.name == "front-art"
              for i in g.items if isinstance(i, Image) and i.name == "front-portrait"]
    visual = front_visual(loaded, build.geometry, build.theme, build.fonts, card_layout())
    if not images:
        assert visual.face is None
        return None
    ((image, to_page),) = images
    assert visual.face is not None and visual.portrait == Box(image.x, image.y, image.w,
                                                              image.h)
    return image, visual.face.transformed(to_page), build.geometry.front


def _cells(image: PILImage.Image, n: int = 12) -> list[float]:
    return list(image.convert("L").resize((n, n), PILImage.Resampling.BOX).tobytes())


def _correlation(a: list[float], b: list[float]) -> float:
    ma, mb = sum(a) / len(a), sum(b) / len(b)
    cov = sum((x - ma) * (y - mb) for x, y in zip(a, b, strict=True))
    return cov / math.sqrt(sum((x - ma) ** 2 for x in a) * sum((y - mb) ** 2 for y in b))


def face_shown(tmp_path: Path, name: str, preset: str = "eu", theme: str = "dark",
               ability: bool = False) -> tuple[list[str], dict[str, float]]:
    """Run ``cardgen card`` for a card with a logo and a photo; the run's warnings, and
    what the rendered outside PNG shows where the page model puts the face: how far its
    pixels stray from the portrait's own (the mean difference over a 12 × 12 grid of
    cells, 0-255: text, a QR code, a logo or curves over the face make it large), how
    closely they follow the photo's face (the correlation with the same cells of the
    photo's crop), and how much they vary (a face shows, not a plain ground). Empty
    figures when the card draws no portrait on the front."""
    config, _ = _config(tmp_path, name=name, preset=preset, theme=theme, ability=ability,
                        logo=True, photo=True)
    result = ok(cli("card", config, "-f", "png", "--dpi", str(DPI), "-o", tmp_path / "out"))
    warnings = _warnings(result.stderr)
    drawn = _front_portrait(config)
    if drawn is None:
        return warnings, {}
    image, face, front = drawn
    # The face region lies on the trimmed front panel, inside its safe area.
    assert front.contains_box(face)
    k = DPI / 25.4
    png = PILImage.open(tmp_path / "out" / "card-outside.png").convert("RGB")
    shown = png.crop((round(face.x * k), round(face.y * k), round(face.right * k),
                      round(face.bottom * k)))
    # The same region of the portrait's raster (the portrait is drawn unrotated on the
    # front panel, whose frame is a translation of the page's).
    raster = image.raster.rgb
    s = raster.width / image.w
    x0 = face.x - front.x - image.x
    y0 = face.y - front.y - image.y
    own = raster.crop((round(x0 * s), round(y0 * s), round((x0 + face.w) * s),
                       round((y0 + face.h) * s)))
    photo = PILImage.open(DATA / "portrait.png")
    crop = square_crop(photo.size, FOCUS)
    side = 400
    share = face.w / image.w  # the face region's share of the portrait's side
    fx, fy = crop.focus
    source = lightness_map(photo, side, FOCUS).crop(
        (round((fx - share / 2) * side), round((fy - share / 2) * side),
         round((fx + share / 2) * side), round((fy + share / 2) * side)))
    a, b, c = _cells(shown), _cells(own), _cells(source)
    mean = sum(a) / len(a)
    return warnings, {
        "stray": sum(abs(x - y) for x, y in zip(a, b, strict=True)) / len(a),
        "follows": _correlation(a, c),
        "spread": math.sqrt(sum((x - mean) ** 2 for x in a) / len(a)),
    }


NOT_SHOWN = "the photo will not appear on the business side"


def _check_face(warnings: list[str], figures: dict[str, float]) -> None:
    """Measured (issue 25): a shown face strays 0.2-3.4 from the portrait's pixels and
    follows the photo at 0.90-1.00 (spread 11-26: the light theme's pale face is the
    least); before, a 20-30-character name beside the logo gave a stray of 99-117 and a
    correlation of -0.09 (the logo over the face)."""
    plain = [w for w in warnings if NOT_SHOWN in w]
    if not figures:  # not shown: one warning says so, and why
        assert len(plain) == 1, warnings
        assert "has no room clear of the " in plain[0] and "; " in plain[0]
        return
    assert plain == [] and not [w for w in warnings if "partly covered" in w]
    assert figures["stray"] < 10, figures
    assert figures["follows"] > 0.8, figures
    assert figures["spread"] > 8, figures


@pytest.mark.parametrize(("length", "preset", "theme"), sampled(
    [(n, p, t) for n in (5, 8, 10, 13, 16, 19, 21, 23, 26, 30)
     for p, t in (("eu", "dark"), ("us", "light"), ("eu", "light"))],
    (10, "eu", "dark"), (23, "eu", "dark"), (30, "us", "light")))
def test_with_a_logo_the_face_shows_whatever_the_names_length(tmp_path, length, preset,
                                                               theme):
    warnings, figures = face_shown(tmp_path, name=_name(length), preset=preset, theme=theme)
    _check_face(warnings, figures)
    assert figures, f"no face on the front for a {length}-character name"


@pytest.mark.parametrize(("length", "preset"), sampled(
    [(n, p) for n in (5, 12, 17, 20, 21, 25, 30) for p in ("eu", "us")],
    (20, "eu"), (25, "eu")))
def test_with_an_ability_the_face_shows_or_one_warning_says_why_not(tmp_path, length,
                                                                    preset):
    """With the ability and its signature box the front is full: the logo shrinks to
    make room for the face; where even that leaves none, the photo is left off the
    front and one warning says so, why, and what would make room."""
    warnings, figures = face_shown(tmp_path, name=_name(length), preset=preset,
                                   ability=True)
    _check_face(warnings, figures)


def test_the_plain_warning_names_what_leaves_no_room(tmp_path):
    warnings, figures = face_shown(tmp_path, name=_name(25), ability=True)
    assert figures == {}
    (plain,) = [w for w in warnings if NOT_SHOWN in w]
    assert plain == (
        "images.portrait: the photo will not appear on the business side (only behind "
        "the grids inside): its face, around [0.5, 0.47] of the photo, has no room clear "
        "of the name, the contact lines, the QR code and the logo; shorten person.name, "
        "use fewer contact lines (person.email, person.phone, person.web, person.tagline, "
        "ladder.ability), set card.qr = false, or leave out images.logo.")
