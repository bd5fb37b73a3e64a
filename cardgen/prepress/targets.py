"""Print targets: what a print shop or a print-on-demand card service takes, as data.

A target is a profile in ``templates/print/targets/NAME.toml`` (or any ``.toml`` file of
the same form), checked against :data:`PROFILE` like every other data file: which files
it takes (a PDF, one PNG per face), the PDF/X standard and PDF version of its PDF, the
printing condition the PDF names, the most ink a colour may put down and what happens
to a colour over it (``reduce``: :func:`reduce_ink`; ``refuse``: the key or colour is
named), the product the card is printed as (its flat size, bleed and safe zone), the
images' pixel size and resolution, and whether the files carry marks, a dieline or a
varnish plate. ``shop`` is what cardgen has always made, and the default.

This module only reads profiles and transforms the page model: :func:`apply_ink` reduces
or reports every over-limit colour of a laid-out document (its vector colours and its
pictures' CMYK pixels). The card applies the size and the renderers write the standard
(``Document.standard``); nothing here knows about the card or renders anything.
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from cardgen.datafile import read_toml
from cardgen.draw.colors import Color
from cardgen.draw.page import (
    Group,
    Image,
    Item,
    Line,
    OutputIntent,
    Page,
    PdfStandard,
    Raster,
    Rect,
    Stroke,
    Text,
)
from cardgen.draw.page import (
    Path as PathItem,
)
from cardgen.errors import ConfigError, ConfigProblem, ParameterError, Problem, quoted
from cardgen.prepress.ink import MAX_INK, describe, total_ink
from cardgen.prepress.intents import intent_named
from cardgen.resources import templates_dir
from cardgen.schema import Choice, Custom, Flag, ListOf, Number, Table, check
from cardgen.schema import Text as TextField
from cardgen.units import MM_PER_INCH

DEFAULT = "shop"  # the target when none is named: today's print-shop files
_EPS = 1e-6
SIZE_TOLERANCE = 0.5  # mm: how far a card's flat trim may be from a product's and still fit


class Standard(enum.StrEnum):
    """The PDF/X standards cardgen writes."""

    X1A_2001 = "PDF/X-1a:2001"
    X1A_2003 = "PDF/X-1a:2003"


# Each standard's identification keys (ISO 15930-1 and -4) and the PDF versions it
# allows: facts of the standards, not of a service (a profile names its standard and
# the version it wants among these).
_KEYS: dict[Standard, tuple[str, str | None, tuple[str, ...]]] = {
    Standard.X1A_2001: ("PDF/X-1:2001", "PDF/X-1a:2001", ("1.3",)),
    Standard.X1A_2003: ("PDF/X-1a:2003", None, ("1.3", "1.4")),
}


class OverLimit(enum.StrEnum):
    """What happens to a colour over a target's ink limit."""

    REDUCE = "reduce"  # brought down to the limit by reduce_ink
    REFUSE = "refuse"  # the card is refused, the theme key or the colour named


class Output(enum.StrEnum):
    """The kinds of file a target may take (the renderers' formats)."""

    PDF = "pdf"
    SVG = "svg"
    PNG = "png"


class ImageColor(enum.StrEnum):
    """The colour of a target's images (a service converts them for its press)."""

    RGB = "rgb"


def _intent(value: Any) -> OutputIntent | None:
    """``"card"`` (the card's own condition) or a registered condition's identifier."""
    if value == "card":
        return None
    return intent_named(value)


def _pattern(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError(f'must be text in quotes such as "{{stem}}-{{face}}", not '
                         f"{quoted(value)}")
    try:
        shown = value.format(stem="s", face="f")
    except (KeyError, IndexError, ValueError):
        raise ValueError(f"{quoted(value)} may hold only {{stem}} (the files' name) and {{face}} "
                         "(outside, inside)") from None
    if "{face}" not in value or "/" in shown or "\\" in shown or not shown.strip():
        raise ValueError(f"{quoted(value)} must name each face: put {{face}} in it, and no "
                         "folder")
    return value


PROFILE = Table({
    "name": TextField("The service, as messages name it.", nonempty=True),
    "description": TextField("One line about the target.", default=""),
    "formats": ListOf(Choice(Output, "a kind of file"), "The files the service takes: "
                      "pdf, svg, png (those of the formats asked for).", min_items=1,
                      missing="is missing: the files the service takes (pdf, svg, png)."),
    "marks": Flag("Crop and fold marks around the art (absent: as the config says).",
                  default=None),
    "dieline": Flag("Whether the service takes the dieline (cuts and scores).",
                    default=True),
    "varnish": Flag("Whether the service takes a spot varnish plate.", default=True),
    "pdf": Table({
        "standard": Choice(Standard, "The PDF/X standard of the PDF.",
                           default=Standard.X1A_2001),
        "version": TextField("The PDF version its header states, e.g. \"1.4\".",
                             nonempty=True, default="1.3"),
        "output_intent": Custom(_intent, "text in quotes", "The printing condition the "
                                "PDF names: a registered identifier such as \"FOGRA39\", "
                                "or \"card\" for the card's own.", default=None),
    }, "The print file (absent: PDF/X-1a:2001, the card's own printing condition)."),
    "ink": Table({
        "limit": Number("The most ink a colour may put down, in % (C+M+Y+K).", low=100,
                        high=400, default=MAX_INK * 100),
        "over_limit": Choice(OverLimit, "What happens to a colour over it: reduce or "
                             "refuse.", default=OverLimit.REFUSE),
    }, "The ink limit (absent: cardgen's own, 300 %, refused)."),
    "card": Table({
        "product": TextField("What the service prints the card as.", nonempty=True),
        "width_mm": Number("The product's flat trim width (mm).", low=20, high=400),
        "height_mm": Number("The product's flat trim height (mm).", low=20, high=400),
        "bleed_mm": Number("The bleed the service asks for on every edge (mm).", low=0,
                           high=10),
        "safe_mm": Number("How far inside the trim text must keep (mm).", low=0, high=10),
    }, "The product (absent: any size, with the card's own bleed and safe zone)."),
    "images": Table({
        "dpi": Number("Their resolution (pixels per inch).", low=36, high=1200),
        "width_px": Number("A face's width in pixels, bleed included.", low=1, high=20000,
                           integer=True),
        "height_px": Number("A face's height in pixels, bleed included.", low=1,
                            high=20000, integer=True),
        "color": Choice(ImageColor, "Their colour: rgb."),
        "name": Custom(_pattern, "text in quotes", "The file name of a face without its "
                       "extension: {stem} and {face}.", default="{stem}-{face}"),
    }, "The images, one per face (with png among the formats)."),
})


@dataclass(frozen=True)
class InkRule:
    """The most ink a colour may put down (1.0 = 100 %), what happens to a colour over
    it, and who sets it (for messages)."""

    limit: float
    over_limit: OverLimit
    by: str

    @property
    def default(self) -> bool:
        """cardgen's own rule (``prepress.ink``): 300 %, refused."""
        return abs(self.limit - MAX_INK) < _EPS and self.over_limit is OverLimit.REFUSE

    def words(self) -> str:
        """The rule as the end of a sentence: "a press takes at most 300 %."."""
        if self.default:
            return f"a press takes at most {MAX_INK * 100:g} %."
        return f"{self.by} takes at most {self.limit * 100:g} %."


@dataclass(frozen=True)
class Product:
    """What a service prints the card as: its flat trim (mm), bleed and safe zone."""

    name: str
    width: float
    height: float
    bleed: float
    safe: float


@dataclass(frozen=True)
class Images:
    """One image per face: its resolution, its pixel size (bleed included), how a
    face's file is named (``{stem}``, ``{face}``)."""

    dpi: float
    width_px: int
    height_px: int
    name: str

    def file_name(self, stem: str, face: str) -> str:
        return self.name.format(stem=stem, face=face) + ".png"


@dataclass(frozen=True)
class Target:
    """A print target, as its profile gives it (see :data:`PROFILE`)."""

    key: str  # the file's stem: what --target names
    name: str
    description: str
    formats: tuple[Output, ...]
    marks: bool | None
    dieline: bool
    varnish: bool
    standard: PdfStandard
    output_intent: OutputIntent | None
    ink: InkRule
    product: Product | None
    images: Images | None
    source: str  # the file it was read from


def targets_dir() -> Path:
    return templates_dir() / "print" / "targets"


def target_names(folder: Path | None = None) -> tuple[str, ...]:
    """The targets of ``folder`` (the bundled ones by default), by name, sorted."""
    return tuple(sorted(p.stem for p in (folder or targets_dir()).glob("*.toml")))


def load_target(name: str | Path = DEFAULT, folder: Path | None = None) -> Target:
    """The target called ``name`` in ``folder`` (the bundled profiles by default), or the
    profile file ``name`` when it is a path ending in ``.toml``. An unknown name raises a
    :class:`ParameterError` naming ``target`` and the choices; a profile that breaks
    :data:`PROFILE` a :class:`ConfigError` naming the file and every key at fault."""
    if isinstance(name, Path) or str(name).lower().endswith(".toml"):
        return _load(Path(name))
    names = target_names(folder)
    key = str(name).strip().lower()
    if key not in names:
        raise ParameterError("target", f"must be one of {', '.join(names)}, not "
                             f"{quoted(name)}.", value=name)
    return _load((folder or targets_dir()) / f"{key}.toml")


def _load(path: Path) -> Target:
    """A profile file read and checked (profiles are small: read whole each time)."""
    return _target(path, read_toml(path, "print target file"))


def _target(path: Path, data: dict[str, Any]) -> Target:
    label = str(path)
    # [card] and [images] are all or nothing: an absent one is not checked for its keys.
    schema = Table({key: field for key, field in PROFILE.fields.items()
                    if key not in ("card", "images") or key in data})
    values = check(schema, data, label)
    problems: list[str] = []
    pdf, ink = values["pdf"], values["ink"]
    standard = pdf["standard"]
    pdfx_version, conformance, versions = _KEYS[standard]
    if pdf["version"] not in versions:
        problems.append(Problem(f"pdf.version {quoted(pdf['version'])} is not a version "
                                f"{standard} allows ({' or '.join(versions)}).",
                                ConfigProblem.CONFLICT))
        pdf["version"] = versions[-1]  # (refused below; a version to go on with)
    major, _, minor = pdf["version"].partition(".")
    formats = tuple(dict.fromkeys(values["formats"]))
    card = values.get("card")
    product = (Product(card["product"], card["width_mm"], card["height_mm"],
                       card["bleed_mm"], card["safe_mm"]) if card else None)
    shot = values.get("images")
    images = None
    if shot:
        images = Images(shot["dpi"], shot["width_px"], shot["height_px"], shot["name"])
        if product is not None:
            for axis, px, mm in (("width_px", images.width_px, product.width),
                                 ("height_px", images.height_px, product.height)):
                want = round((mm + 2 * product.bleed) / MM_PER_INCH * images.dpi)
                if px != want:
                    problems.append(Problem(
                        f"images.{axis} = {px} does not match the product: "
                        f"{mm:g} mm plus {product.bleed:g} mm of bleed on each side at "
                        f"{images.dpi:g} dpi is {want} pixels.", ConfigProblem.CONFLICT))
    if Output.PNG in formats and images is None and product is not None:
        problems.append(Problem("formats takes png for a product: give its [images] "
                                "table (dpi, width_px, height_px).", ConfigProblem.MISSING))
    if problems:
        raise ConfigError(label, problems, value=path)
    return Target(
        key=path.stem, name=values["name"], description=values["description"],
        formats=formats, marks=values["marks"], dieline=values["dieline"],
        varnish=values["varnish"],
        standard=PdfStandard((int(major), int(minor)), pdfx_version, conformance),
        output_intent=pdf["output_intent"],
        ink=InkRule(ink["limit"] / 100, ink["over_limit"], values["name"]),
        product=product, images=images, source=label)


# --- the ink rule of a target -----------------------------------------------------------

def reduce_ink(c: float, m: float, y: float, k: float,
               limit: float) -> tuple[float, float, float, float]:
    """A CMYK colour (fractions) brought within ``limit`` (1.0 = 100 %), changed as
    little as it takes, by the rule the guide states (P decision "ink over a target's
    limit"):

    1. grey-component replacement: the grey that C, M and Y share is moved to K, as
       much as brings the total to the limit (each unit moved takes 3 of C+M+Y and adds
       1 of K, so saves 2), no more than they share and no further than 100 % K;
    2. if that is not enough, C, M and Y are scaled down together (their balance, so
       the hue, kept) until the total is the limit; K is left as it is.

    A colour within the limit is returned unchanged."""
    total = c + m + y + k
    if total <= limit + _EPS:
        return c, m, y, k
    moved = max(0.0, min(min(c, m, y), 1 - k, (total - limit) / 2))
    c, m, y, k = c - moved, m - moved, y - moved, k + moved
    if c + m + y + k > limit + _EPS:
        cmy = c + m + y
        scale = max(limit - k, 0.0) / cmy if cmy > 0 else 0.0
        c, m, y = c * scale, m * scale, y * scale
    # Rounded down a little, so that no sum of floats lands above the limit.
    return _down(c), _down(m), _down(y), _down(k)


def _down(v: float) -> float:
    return math.floor(v * 1e5) / 1e5


def reduce_color(color: Color, limit: float) -> Color:
    """``color`` within ``limit`` (:func:`reduce_ink`); a spot colour, and a colour
    within the limit, unchanged. Its screen colour stays what the theme gave."""
    if color.spot is not None or total_ink(color) <= limit + _EPS:
        return color
    c, m, y, k = reduce_ink(*color.cmyk_fractions, limit)
    return Color(c, m, y, k, color.rgb, color.spot, color.overprint)


def reduce_pixels(image: Any, limit: float) -> Any:
    """A CMYK Pillow image with every pixel within ``limit`` (:func:`reduce_ink` on the
    pixel's 8-bit values, rounded down), or the image itself when none is over."""
    cap = int(limit * 255 + _EPS)
    if _most(image) <= cap:
        return image
    data = image.tobytes()
    out = bytearray(data)
    memo: dict[bytes, bytes] = {}
    changed = False
    for at in range(0, len(data), 4):
        pixel = data[at:at + 4]
        if pixel[0] + pixel[1] + pixel[2] + pixel[3] <= cap:
            continue
        new = memo.get(pixel)
        if new is None:
            c, m, y, k = reduce_ink(pixel[0] / 255, pixel[1] / 255, pixel[2] / 255,
                                    pixel[3] / 255, limit)
            new = bytes(math.floor(v * 255 + _EPS) for v in (c, m, y, k))
            memo[pixel] = new
        out[at:at + 4] = new
        changed = True
    if not changed:
        return image
    reduced = image.copy()
    reduced.frombytes(bytes(out))
    return reduced


def _most(image: Any) -> int:
    """The sum of each plate's largest value: no pixel of the image puts down more (a
    quick bound, read by Pillow without a pass in Python)."""
    return sum(high for _, high in image.getextrema())


def pixels_over(image: Any, limit: float) -> float:
    """The most ink any pixel of a CMYK Pillow image puts down (1.0 = 100 %), when it is
    over ``limit``; else 0."""
    cap = int(limit * 255 + _EPS)
    if _most(image) <= cap:
        return 0.0
    colors = image.getcolors(1 << 16)  # each colour once, when there are not too many
    if colors is not None:
        worst = max(sum(pixel) for _, pixel in colors)
    else:
        data = image.tobytes()
        worst = max((sum(data[at:at + 4]) for at in range(0, len(data), 4)), default=0)
    return worst / 255 if worst > cap else 0.0


def apply_ink(pages: list[Page], rule: InkRule) -> list[str]:
    """Hold every page to ``rule``. With ``reduce`` every CMYK colour over the limit, of
    the vector items and of the pictures' CMYK pixels (a picture without CMYK pixels
    gets them, converted as the PDF would), is brought within it in place (the items are
    replaced), and nothing is returned. With ``refuse`` nothing is changed and what is
    over the limit is returned, each thing once: "the picture images.logo: its pixels
    reach 320 % ink"; the vector colours are left to
    :func:`cardgen.prepress.ink.page_ink_problems`, which names them."""
    if rule.over_limit is OverLimit.REFUSE:
        problems: list[str] = []
        for page in pages:
            for layer in page.layers:
                for item in _images(layer.items):
                    cmyk = item.raster.cmyk or item.raster.rgb.convert("CMYK")
                    worst = pixels_over(cmyk, rule.limit)
                    if worst:
                        problems.append(f"the picture {item.name or item.raster.key}: its "
                                        f"pixels reach {math.floor(worst * 100)} % ink; "
                                        f"{rule.words()}")
        return list(dict.fromkeys(problems))
    rasters: dict[int, Raster] = {}
    for page in pages:
        for layer in page.layers:
            layer.items = [_reduced(item, rule.limit, rasters) for item in layer.items]
    return []


def _images(items: list[Item]) -> list[Image]:
    found: list[Image] = []
    for item in items:
        if isinstance(item, Group):
            found += _images(item.items)
        elif isinstance(item, Image):
            found.append(item)
    return found


def _stroke(stroke: Stroke | None, limit: float) -> Stroke | None:
    if stroke is None:
        return None
    return replace(stroke, color=reduce_color(stroke.color, limit))


def _fill(fill: Color | None, limit: float) -> Color | None:
    return None if fill is None else reduce_color(fill, limit)


def _reduced(item: Item, limit: float, rasters: dict[int, Raster]) -> Item:
    """``item`` with its colours within ``limit`` (a group's items replaced in place)."""
    if isinstance(item, Group):
        item.items = [_reduced(child, limit, rasters) for child in item.items]
        return item
    if isinstance(item, Rect | PathItem):
        return replace(item, fill=_fill(item.fill, limit), stroke=_stroke(item.stroke, limit))
    if isinstance(item, Line):
        return replace(item, stroke=replace(item.stroke, color=reduce_color(
            item.stroke.color, limit)))
    if isinstance(item, Text):
        return replace(item, color=reduce_color(item.color, limit))
    if isinstance(item, Image):
        raster = item.raster
        if id(raster) not in rasters:
            cmyk = raster.cmyk if raster.cmyk is not None else raster.rgb.convert("CMYK")
            rasters[id(raster)] = Raster(raster.rgb, reduce_pixels(cmyk, limit), raster.mask,
                                         raster.key)
        return replace(item, raster=rasters[id(raster)])
    raise TypeError(f"not a page item: {type(item).__name__}")


def ink_problem(color: Color, rule: InkRule) -> str | None:
    """Why a colour breaks ``rule`` when it is refused (its ink, the limit), or None."""
    if rule.over_limit is OverLimit.REDUCE or color.spot is not None:
        return None
    if total_ink(color) > rule.limit + _EPS:
        return (f"{describe(color)}, {total_ink(color) * 100:.0f} % ink; {rule.words()}")
    return None
