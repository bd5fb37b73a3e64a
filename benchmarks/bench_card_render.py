"""Rendering and card building: each fast path against the plain way, in this process.

    python benchmarks/bench_card_render.py [--runs N]

For each row both ways run here, on the same input, and must give the same answer; the
table shows the median CPU seconds (``time.process_time``) of each and the ratio
plain / fast (above 1: the fast way is faster). The rows:

- reportlab's number formatter and ASCII85 encoder against ``cardgen.render.pdfcodec``
  over the numbers and page streams of the example card;
- QR codes of vCards with reportlab's choice of mask and with ``draw.qr.best_mask``;
- curves flattened for PNG (``render.png._bezier_plain`` and ``_bezier``), and a logo's
  colours through the simple CMYK formula (``draw.icc.formula_cmyk_plain`` and
  ``formula_cmyk``);
- whole PDFs (the example card, a sheet of them) written the old way (reportlab's own
  encoders and path methods) and with the fast ones (``render.pdf.render_pdf``).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


from cardgen.card.build import build_card
from cardgen.card.config import load_config
from cardgen.render import pdf, pdfcodec
from cardgen.render.pdf import _render_pdf


class _ReportlabPath:
    """The PDF path builder as it was: reportlab's own path methods."""

    def __init__(self, path: Any) -> None:
        self.p = path

    def move_to(self, x: float, y: float) -> None:
        self.p.moveTo(x, y)

    def line_to(self, x: float, y: float) -> None:
        self.p.lineTo(x, y)

    def curve_to(self, x1: float, y1: float, x2: float, y2: float, x: float, y: float) -> None:
        self.p.curveTo(x1, y1, x2, y2, x, y)

    def close(self) -> None:
        self.p.close()


def _plain_pdf(document: Any) -> bytes:
    """A PDF written the old way: reportlab's encoders and path methods."""
    fast_builder = pdf._PathBuilder
    setattr(pdf, "_PathBuilder", _ReportlabPath)  # noqa: B010 - swapped for the old way
    try:
        return _render_pdf(document, True)
    finally:
        setattr(pdf, "_PathBuilder", fast_builder)  # noqa: B010


def _cpu(function: Callable[[], Any], runs: int) -> tuple[float, Any]:
    times, result = [], None
    for _ in range(runs):
        start = time.process_time()
        result = function()
        times.append(time.process_time() - start)
    return statistics.median(times), result


def _row(name: str, plain: Callable[[], Any], fast: Callable[[], Any], runs: int) -> None:
    fast()  # warm caches the fast way keeps (it is measured warm, as in a long process)
    old, want = _cpu(plain, runs)
    new, got = _cpu(fast, runs)
    if got != want:
        raise AssertionError(f"{name}: the fast way gives another answer")
    print(f"{name:<44} {old:9.4f} {new:9.4f} {old / new:7.2f}")


def _sheet_document() -> Any:
    from cardgen.card.spread import Spread
    from cardgen.prepress.impose import Duplex, Flip, impose, plan_sheet
    from cardgen.prepress.paper import Paper
    from cardgen.text.fonts import bundled_fonts

    settings = load_config(None).with_overrides(marks=False)
    build = build_card(settings)
    duplex = Duplex(Paper.A4, Flip.LONG)
    layout = plan_sheet(Spread(settings.size, marks=False).piece(), duplex)
    outside, inside = build.document.pages
    return impose(outside, inside, build.spread.piece(), layout, marks=False,
                  fonts=bundled_fonts(), names=("outside", "inside"), pieces="pieces",
                  title="sheet", output_intent=settings.print_condition)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    build = build_card(load_config(None))
    card = build.document

    numbers: list[float] = []
    plain_fp = pdfcodec.PURE_PYTHON["fp_str"]  # (reportlab's, also beside its C accelerator)

    def record(*values: Any) -> str:
        numbers.extend(values[0] if len(values) == 1 and isinstance(values[0], (list, tuple))
                       else values)
        return str(plain_fp(*values))

    pdfcodec._PATCHED["fp_str"] = (pdfcodec._bound_fp_str, record)
    with pdfcodec.fast_reportlab():
        _plain_pdf(card)
    pdfcodec._PATCHED["fp_str"] = (pdfcodec._bound_fp_str, pdfcodec.fp_str)
    import zlib

    stream = zlib.compress(random.Random(9).randbytes(200_000))
    plain_a85 = pdfcodec.PURE_PYTHON["asciiBase85Encode"]

    print(f"{'what':<44} {'plain s':>9} {'fast s':>9} {'ratio':>7}   (median of {runs})")
    _row(f"fp_str, the card's {len(numbers)} numbers",
         lambda: [plain_fp(v) for v in numbers], lambda: [pdfcodec.fp_str(v) for v in numbers],
         runs)
    _row(f"ASCII85, {len(stream) // 1000} kB", lambda: plain_a85(stream),
         lambda: pdfcodec.ascii85(stream), runs)

    def fast_pdf(document: Any) -> Callable[[], bytes]:
        def make() -> bytes:
            with pdfcodec.fast_reportlab():
                return _render_pdf(document, True)
        return make

    from reportlab.graphics.barcode import qrencoder

    from cardgen.draw.qr import ErrorCorrection, _encoded

    vcards = [f"BEGIN:VCARD\nVERSION:3.0\nFN:Ada Example {n}\nEMAIL:ada{n}@example.org\n"
              f"TEL:+1 555 01{n:02d}\nURL:https://example.org/{n}\nEND:VCARD" for n in range(8)]

    def plain_qr() -> list[Any]:
        made = []
        for text in vcards:
            code = qrencoder.QRCode(None, qrencoder.QRErrorCorrectLevel.L)
            code.addData(qrencoder.QR8bitByte(text.encode()))
            code.make()
            made.append(tuple(tuple(row) for row in code.modules))
        return made

    _row(f"QR codes of {len(vcards)} vCards (reportlab's, cardgen's)", plain_qr,
         lambda: [_encoded.__wrapped__(text, ErrorCorrection.L) for text in vcards], runs)
    from cardgen.render.png import _bezier, _bezier_plain

    curves = [((r * 7.0, 3.0), (r * 11.0, 900.0), (2000.0 - r, 40.0), (1500.0, r * 5.0))
              for r in range(300)]
    _row(f"PNG: {len(curves)} curves flattened", lambda: [_bezier_plain(*c) for c in curves],
         lambda: [_bezier(*c) for c in curves], runs)
    from PIL import Image

    from cardgen.draw.icc import formula_cmyk, formula_cmyk_plain

    logo = Image.frombytes("RGB", (400, 300), random.Random(3).randbytes(400 * 300 * 3)
                           .translate(bytes(b // 16 * 17 for b in range(256))))
    _row("CMYK formula of a 400 x 300 logo", lambda: formula_cmyk_plain(logo).tobytes(),
         lambda: formula_cmyk(logo).tobytes(), runs)
    _row("PDF of the card", lambda: _plain_pdf(card), fast_pdf(card), runs)
    sheet = _sheet_document()
    _row("PDF of a sheet of cards", lambda: _plain_pdf(sheet), fast_pdf(sheet), runs)


if __name__ == "__main__":
    main()
