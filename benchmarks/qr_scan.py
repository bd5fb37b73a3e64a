"""The smallest QR module that decodes from a 150 dpi image: the measurement behind
``qr_min_module`` in templates/card/layout.toml.

    python benchmarks/qr_scan.py [--dpi 150] [--from 0.30] [--to 0.50] [--step 0.01]

For QR versions 2-12 at level L (random text filling each version, two texts a version),
every module size in the range and six sub-pixel phases, the symbol is drawn with its
quiet zone, black on white, by cardgen's own ``qr_items``, then rendered at ``--dpi``:
by cardgen's PNG renderer, and to PDF by cardgen then to pixels by PDFium and, when
``gs`` is installed, by Ghostscript (anti-aliased, as a scanner or camera sees print:
each pixel the average over its area). Each image is decoded by zxing-cpp and, when
``zbarimg`` is installed, by ZBar. A case passes when the decoded text is exactly the
text encoded.

Prints, for each renderer and decoder, how many cases passed at each size, and the
smallest size at which every case passed and from which no larger size missed more than
two. (Decoders also miss now and then on a sharp image of a large code, at no size in
particular; such a lone miss shows in the table as a dip.) Needs the test extras
(zxing-cpp, pypdfium2).
"""

from __future__ import annotations

import argparse
import random
import shutil
import subprocess
import tempfile
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path

import pypdfium2 as pdfium
import zxingcpp
from PIL import Image as PILImage
from PIL.Image import Image

from cardgen.draw.colors import Color
from cardgen.draw.geometry import Box
from cardgen.draw.page import Document, Page
from cardgen.draw.qr import QUIET_ZONE, ErrorCorrection, qr_items, qr_matrix
from cardgen.render.pdf import render_pdf
from cardgen.render.png import rasterize

CAPACITY_L = {2: 32, 3: 53, 4: 78, 5: 106, 6: 134, 7: 154, 8: 192, 9: 230, 10: 271,
              11: 321, 12: 367}  # bytes a version holds at level L
ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789:;.@ +-"
PHASES = [(0.0, 0.0), (0.5, 0.5), (0.25, 0.75), (0.33, 0.1), (0.8, 0.4), (0.1, 0.9)]
TEXTS_PER_VERSION = 2
LONE_MISSES = 2  # misses at one size that are the decoder's, not the size's
WHITE, BLACK = Color.cmyk(0, 0, 0, 0), Color.cmyk(0, 0, 0, 100)


def text_for(version: int, seed: int) -> str:
    """Random text that needs exactly ``version`` at level L."""
    rng = random.Random(version * 100 + seed)
    return "".join(rng.choice(ALPHABET) for _ in range(CAPACITY_L[version] - rng.randint(0, 5)))


def page_for(text: str, module: float, phase: tuple[float, float], dpi: float) -> Page:
    """The symbol with its quiet zone, offset by ``phase`` pixels from the pixel grid."""
    matrix = qr_matrix(text, ErrorCorrection.L)
    px = 25.4 / dpi
    side = module * (len(matrix) + 2 * QUIET_ZONE)
    size = side + 11 * px
    page = Page("qr", size, size, Box(0, 0, size, size), Box(0, 0, size, size))
    page.layer("content").add(*qr_items(matrix, (5 + phase[0]) * px, (5 + phase[1]) * px,
                                        side, WHITE, BLACK))
    return page


def zbar(images: list[Image], folder: Path) -> list[str | None]:
    """What ZBar reads from each image (None: nothing)."""
    paths = []
    for i, image in enumerate(images):
        paths.append(folder / f"{i}.png")
        image.save(paths[-1])
    found: dict[str, str] = {}
    ns = {"z": "http://zbar.sourceforge.net/2008/barcode"}
    for start in range(0, len(paths), 300):
        out = subprocess.run(["zbarimg", "--xml", "-q", "-Sdisable", "-Sqrcode.enable",
                              *map(str, paths[start:start + 300])],
                             capture_output=True, text=True).stdout
        for source in ET.fromstring(out).findall("z:source", ns):
            data = source.find(".//z:data", ns)
            if data is not None:
                found[source.get("href", "")] = data.text or ""
    return [found.get(str(p)) for p in paths]


def ghostscript(pdf: bytes, dpi: float) -> list[Image]:
    """Every page of ``pdf`` rendered by Ghostscript, anti-aliased."""
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "codes.pdf"
        source.write_bytes(pdf)
        subprocess.run(["gs", "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=png16m",
                        f"-r{dpi:g}", "-dGraphicsAlphaBits=4",
                        f"-sOutputFile={tmp}/page-%05d.png", str(source)], check=True)
        return [PILImage.open(path).convert("RGB")
                for path in sorted(Path(tmp).glob("page-*.png"))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dpi", type=float, default=150)
    parser.add_argument("--from", dest="low", type=float, default=0.30)
    parser.add_argument("--to", dest="high", type=float, default=0.50)
    parser.add_argument("--step", type=float, default=0.01)
    args = parser.parse_args()
    count = round((args.high - args.low) / args.step) + 1
    sizes = [round(args.low + i * args.step, 4) for i in range(count)]
    cases = [(v, s, m, p) for v in CAPACITY_L for s in range(TEXTS_PER_VERSION)
             for m in sizes for p in range(len(PHASES))]
    pages = [page_for(text_for(v, s), m, PHASES[p], args.dpi) for v, s, m, p in cases]
    renders: dict[str, list[Image]] = {"png": [], "pdf": []}
    for page in pages:
        renders["png"].append(rasterize(Document([page]).views()[0], args.dpi))
    for start in range(0, len(pages), 200):
        document = pdfium.PdfDocument(render_pdf(Document(pages[start:start + 200])))
        renders["pdf"] += [document[i].render(scale=args.dpi / 72).to_pil().convert("RGB")
                           for i in range(len(document))]
        document.close()
    if shutil.which("gs"):
        renders["gs"] = ghostscript(render_pdf(Document(pages)), args.dpi)
    texts = [text_for(v, s) for v, s, _, _ in cases]
    passed: dict[str, list[bool]] = {}
    for kind, images in renders.items():
        passed[f"{kind} zxing"] = [any(r.text == t for r in zxingcpp.read_barcodes(im))
                                   for im, t in zip(images, texts, strict=True)]
        if shutil.which("zbarimg"):
            with tempfile.TemporaryDirectory() as tmp:
                passed[f"{kind} zbar"] = [got == t for got, t in
                                          zip(zbar(images, Path(tmp)), texts, strict=True)]
    per_size = len(CAPACITY_L) * TEXTS_PER_VERSION * len(PHASES)
    for name, results in passed.items():
        tally: dict[float, int] = defaultdict(int)
        for (_, _, module, _), ok in zip(cases, results, strict=True):
            tally[module] += ok
        threshold = None
        for module in reversed(sizes):
            if tally[module] < per_size - LONE_MISSES:
                break
            if tally[module] == per_size:
                threshold = module
        print(f"{name} ({args.dpi:g} dpi): decoded of {per_size} at each module size")
        print("  " + "  ".join(f"{m:.3f}:{tally[m]}" for m in sizes))
        print(f"  every case at {threshold} mm, and no more than {LONE_MISSES} missed at "
              "any larger size" if threshold else "  no size passed")


if __name__ == "__main__":
    main()
