"""Overprint in every PDF cardgen writes (``cardgen.render.pdf``, *Overprint*): only solid
black (100 % K) and spot colours overprint, fill and stroke overprint are set apart, and
no white or light fill overprints, so nothing vanishes on press.

Read back three ways: the content streams (pikepdf: the overprint in force for each fill,
with ``/op`` following ``/OP`` where a graphics state leaves it out, as the PDF
specification says); Ghostscript's separations with overprint simulated and with it off
(they differ only where overprinting solid black leaves the plates beneath it, and in
the spot colours); and the black plate inside the Corporate Ladder signature box. The
Ghostscript checks need ``gs`` (CI installs it, see ``.ci/run``) and are skipped, saying
so, where it is missing.
"""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pikepdf
import pytest
from PIL import Image, ImageChops

from cardgen.draw.colors import Color
from cardgen.draw.geometry import Box
from cardgen.draw.page import Document, Page, Rect, Stroke, Text
from cardgen.render.pdf import render_pdf
from cardgen.text.fonts import bundled_fonts
from tests.every_pdf import COMMANDS, sweep
from tests.helpers import sampled
from tests.pdfops import read_pages
from tests.pdfread import mm_to_px, separation_regions
from tests.printcheck import SIGNED, overprinting_fills

FILLS = {"f", "F", "f*", "B", "B*", "b", "b*"}
SHOWS = {"Tj", "TJ", "'", '"'}
PROCESS_SPACES = ("DeviceCMYK", "DeviceRGB", "DeviceGray")
BLACK = Color.cmyk(0, 0, 0, 100, overprint=True)
WHITE = Color.cmyk(0, 0, 0, 0)


# --- the renderer ---------------------------------------------------------------------------

def _states(pdf: bytes) -> list[pikepdf.Dictionary]:
    with pikepdf.open(io.BytesIO(pdf)) as doc:
        return [dict(state) for page in doc.pages
                for state in page.Resources.get("/ExtGState", {}).values()]


def test_a_white_box_stroked_in_overprinting_black_knocks_out_its_fill():
    """The Ladder signature box's case: ``re B`` with a white fill and an overprinting
    black stroke overprints the stroke only; every graphics state says /OP, /op and
    /OPM; a light fill marked to overprint knocks out; a spot colour overprints."""
    page = Page("p", 50, 50, Box(0, 0, 50, 50), Box(0, 0, 50, 50))
    layer = page.layer("art")
    layer.add(Rect(0, 0, 50, 50, fill=Color.cmyk(0, 0, 0, 100)))
    layer.add(Rect(5, 5, 20, 10, fill=WHITE, stroke=Stroke(BLACK, 0.3)))
    layer.add(Text(6, 12, "Sign", bundled_fonts().regular, 2.5, BLACK))
    layer.add(Rect(5, 20, 20, 10, fill=Color.cmyk(0, 0, 0, 20, overprint=True)))
    layer.add(Rect(5, 35, 20, 10, fill=Color.cmyk(0, 100, 0, 0, spot="Spot",
                                                    overprint=True)))
    pdf = render_pdf(Document([page], title="t"))
    for state in _states(pdf):
        assert {"/OP", "/op", "/OPM"} <= set(state), state
        assert int(state["/OPM"]) == 1
    (ops,) = read_pages(pdf)
    box, grey, spot = (p for p in ops.painted if p.fill and p.state.fill_color != (0, 0, 0, 1))
    assert box.operator in ("B", "B*") and box.state.stroke_overprint
    assert not box.state.fill_overprint
    assert not grey.state.fill_overprint
    assert spot.state.fill_overprint and spot.state.fill_space == "Spot"
    (run,) = ops.texts
    assert run.state.fill_overprint and run.state.opm == 1


def test_an_rgb_pdf_never_overprints():
    page = Page("p", 30, 30, Box(0, 0, 30, 30), Box(0, 0, 30, 30))
    page.layer("art").add(Rect(5, 5, 20, 10, fill=WHITE, stroke=Stroke(BLACK, 0.3)))
    pdf = render_pdf(Document([page], title="t"), cmyk=False)
    assert not any(state.get("/OP") or state.get("/op") for state in _states(pdf))


# --- every PDF: the content streams --------------------------------------------------------

@pytest.mark.parametrize("name", sweep(sorted(COMMANDS)))
def test_no_fill_but_solid_black_overprints(checked, name):
    """In every PDF, no fill other than 100 % K (or a spot colour) is painted while fill
    overprint is on, and every graphics state that sets stroke overprint also sets fill
    overprint (so /op never silently follows /OP). (Each file is read once a run for
    these and the PDF/X and ink checks: ``tests.printcheck``.)"""
    files = checked(name)
    assert files, name
    for label, found in files.items():
        assert not found["overprinting_fills"], (label, found["overprinting_fills"][:10])
        assert not found["unpaired_overprint"], (label, found["unpaired_overprint"][:10])


def test_the_overprint_check_finds_a_light_fill_type_and_an_image_that_overprint():
    """What the check above looks for, it finds: a grey fill, a run of grey type and an
    image painted with fill overprint on; solid black and a spot colour may overprint."""
    page = Page("p", 50, 50, Box(0, 0, 50, 50), Box(0, 0, 50, 50))
    layer = page.layer("art")
    layer.add(Rect(5, 5, 20, 10, fill=Color.cmyk(0, 0, 0, 100, overprint=True)))
    layer.add(Rect(5, 20, 20, 10, fill=Color.cmyk(0, 100, 0, 0, spot="Spot", overprint=True)))
    layer.add(Text(6, 40, "Sign", bundled_fonts().regular, 2.5, BLACK))
    clean = render_pdf(Document([page], title="t"))
    assert overprinting_fills(read_pages(clean)) == []

    def doctored(content: bytes) -> list[str]:
        with pikepdf.open(io.BytesIO(clean)) as pdf:
            resources = pdf.pages[0].Resources
            resources.ExtGState["/Over"] = pikepdf.Dictionary(OP=True, op=True, OPM=1)
            font = str(next(iter(resources.Font.keys()))).encode()
            pdf.pages[0].contents_add(pikepdf.Stream(pdf, b"q /Over gs " + content.replace(
                b"/F", font) + b" Q"))
            out = io.BytesIO()
            pdf.save(out)
        return overprinting_fills(read_pages(out.getvalue()))

    assert doctored(b"0 0 0 1 k 0 0 9 9 re f BT /F 9 Tf (S) Tj ET") == []
    assert doctored(b"0 0 0 0.2 k 0 0 9 9 re f") == ["page 1: f in DeviceCMYK (0.0, 0.0, 0.0, 0.2)"]
    assert doctored(b"0 0 0 0.2 k BT /F 9 Tf (S) Tj ET")[0].startswith("page 1: text 'S'")
    assert doctored(b"/Whatever Do")[0].startswith("page 1: Do in")


# --- the Ladder signature box ----------------------------------------------------------------

def _ink_in(plate: Image.Image, area: tuple[float, float, float, float], dpi: float) -> int:
    """The most ink (0 = none, 255 = solid) in ``area`` (mm) of a plate image."""
    x0, y0, x1, y1 = (mm_to_px(v, dpi) for v in area)
    return plate.crop((x0, y0, x1, y1)).getextrema()[1]


def _art(label: str) -> bool:
    """Whether a file holds the card's art (not a dieline or a varnish plate alone)."""
    return not any(word in label.split("/")[-1] for word in ("dieline", "varnish"))




# The quick loop: a card with its dieline and varnish as layers, and a sheet (both on the
# dark theme's 100 % K ground, where a knockout is needed).
@pytest.mark.parametrize("name", sampled(SIGNED, "card-layers", "sheet"))
def test_the_black_plate_is_empty_inside_the_signature_box(made, checked, name):
    """The signature box is paper white on every plate, also on the dark theme's 100 % K
    ground (read from the separations as a RIP makes them, overprint included)."""
    found = 0
    for label, pdf in made(name).items():
        if not _art(label):
            continue
        boxes = [(index, tuple(area)) for index, area in checked(name)[label]["signature_boxes"]]
        found += len(boxes)
        for index in sorted({index for index, _ in boxes}):
            areas = [area for at, area in boxes if at == index]
            # Only the areas are rendered (the page's plates are made as for the whole
            # page): a tenth of a card's pixels, fewer of a sheet's.
            for plate, images in separation_regions(pdf, index, areas, dpi=150).items():
                for area, image in zip(areas, images, strict=True):
                    ink = image.getextrema()[1]
                    assert ink == 0, (label, index, plate, area, ink)
    assert found, f"{name}: no signature box found"


# --- every PDF: Ghostscript, overprint simulated and not ------------------------------------

GS = shutil.which("gs")
needs_gs = pytest.mark.skipif(GS is None, reason="Ghostscript (gs) is not installed: "
                              "`.ci/run` installs it; the content-stream checks still ran")
GS_DPI = 50
TOLERANCE_PX = 10
PROCESS_PLATES = ("Cyan", "Magenta", "Yellow", "Black")


# The command lines whose files Ghostscript separates: all of them but two of the three
# rules books. The Letter booklet holds every page of the Letter book, imposed; the A4
# book and booklet differ from it only in where the pages break (their overprint is read
# from their content streams above, as every file's is). Each page costs Ghostscript the
# same whichever file holds it; these two were 40 % of all the pages.
SEPARATED = sorted(set(COMMANDS) - {"rules-book", "rules-booklet"})


def _ghostscript(files: list[Path], folder: Path, mode: str) -> list[dict[str, Path]]:
    """Every page of ``files``, in order, separated by one Ghostscript ``tiffsep`` run
    with overprint ``mode`` (``simulate`` or ``disable``): each page's plates as
    {colourant: file}. (One process for all the files: starting Ghostscript costs more
    than separating a card at 50 dpi.)"""
    folder.mkdir()
    subprocess.run([GS, "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-sDEVICE=tiffsep",
                    f"-r{GS_DPI}", f"-dOverprint=/{mode}", "-sCompression=none",
                    "-o", str(folder / "p%05d.tif"), *map(str, files)],
                   check=True, capture_output=True)
    pages: dict[int, dict[str, Path]] = {}
    for path in folder.glob("p*(*).tif"):
        match = re.fullmatch(r"p(\d{5})\((.*)\)\.tif", path.name)
        assert match, path
        pages.setdefault(int(match[1]), {})[match[2]] = path
    return [pages[n] for n in sorted(pages)]


@pytest.fixture(scope="session")
def separated(made, shared_folder):
    """``separated(label)``: the plates of each page of one file of ``SEPARATED`` as
    Ghostscript makes them, ``{"simulate": [...], "disable": [...]}`` (a list of
    {colourant: file} a page), made once a test run for all the files together."""
    from tests.pdfread import page_count

    def make(folder: Path) -> dict:
        files = {label: path for name in SEPARATED for label, path in made(name).items()}
        out: dict[str, dict] = {label: {} for label in files}
        with ThreadPoolExecutor(2) as pool:  # the two processes side by side
            modes = {mode: pool.submit(_ghostscript, list(files.values()), folder / mode, mode)
                     for mode in ("simulate", "disable")}
        for mode, done in modes.items():
            pages = iter(done.result())
            for label, path in files.items():
                out[label][mode] = {str(n): next(pages) for n in range(page_count(path))}
            assert next(pages, None) is None, f"{mode}: more pages than the files have"
        return out

    def get(label: str) -> dict[str, list[dict[str, Image.Image]]]:
        plates = shared_folder(f"overprint separations {GS_DPI} dpi {SEPARATED}", make)
        return {mode: [{name: _ink(path) for name, path in page.items()}
                       for _, page in sorted(pages.items(), key=lambda item: int(item[0]))]
                for mode, pages in plates[label].items()}

    return get


def _ink(path: Path) -> Image.Image:
    """A ``tiffsep`` plate as ink (0 = none, 255 = solid): it writes each plate as film,
    0 solid ink and 255 none."""
    return ImageChops.invert(Image.open(path).convert("L"))


def overprint_difference(simulated: dict[str, Image.Image],
                         knocked_out: dict[str, Image.Image]) -> Image.Image:
    """Pixels (255) where the process plates differ between the two renderings, except
    where both have solid black (what overprinting solid black is for: the plates
    beneath it stay) and wherever a spot colour prints in either."""
    size = simulated["Black"].size
    diff = Image.new("L", size, 0)
    for plate in PROCESS_PLATES:
        changed = ImageChops.difference(simulated[plate], knocked_out[plate])
        diff = ImageChops.lighter(diff, changed.point(lambda v: 255 if v > 2 else 0))
    solid = ImageChops.multiply(simulated["Black"].point(lambda v: 255 if v == 255 else 0),
                                knocked_out["Black"].point(lambda v: 255 if v == 255 else 0))
    diff = ImageChops.subtract(diff, solid)
    for plates in (simulated, knocked_out):
        for name, ink in plates.items():
            if name not in PROCESS_PLATES:
                diff = ImageChops.subtract(diff, ink.point(lambda v: 255 if v else 0))
    return diff


@pytest.mark.slow  # Ghostscript renders every page twice
@needs_gs
@pytest.mark.parametrize("name", SEPARATED)
def test_overprint_simulation_changes_nothing_but_black_overprint(made, checked, separated,
                                                                    name):
    """Ghostscript's separations of every page with overprint simulated and with it off
    differ in at most 10 pixels (at 50 dpi) outside the spot colours and the solid black
    that overprints; and the signature box stays paper white on the black plate."""
    for label in made(name):
        plates = separated(label)
        simulated, knocked_out = plates["simulate"], plates["disable"]
        assert len(simulated) == len(knocked_out) > 0
        counts = {number: overprint_difference(a, b).histogram()[255]
                  for number, (a, b) in enumerate(zip(simulated, knocked_out, strict=True), 1)}
        assert all(n <= TOLERANCE_PX for n in counts.values()), (
            label, {page: n for page, n in counts.items() if n > TOLERANCE_PX})
        if name in SIGNED and _art(label):
            for index, area in checked(name)[label]["signature_boxes"]:
                assert _ink_in(simulated[index]["Black"], area, GS_DPI) == 0, (label, index)
