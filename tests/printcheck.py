"""The checks on the printed files of ``tests.every_pdf`` that read their content streams
(``tests/test_overprint.py``, ``tests/test_pdfx.py``), made on each file once a test run.

Each module used to read every file itself: the overprint check interpreted every page,
the PDF/X preflight parsed them again, the ink rule interpreted them a third time, the
signature box checks a fourth and a fifth. :func:`check_files` opens a file, interprets
its pages once (``tests.pdfops.read_pages``) and runs every check on what it read, each
the same function on the same content as before; the ``checked`` fixture (conftest)
keeps the findings, as plain values, once a run for every test process. The tests only
read them.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from tests.pdfops import SOLID_BLACK, PageOps, Painted, pdf_bytes, read_pages
from tests.pdfread import every_page_boxes, ink_rule_report, pdfx_problems

FILLS = {"f", "F", "f*", "B", "B*", "b", "b*"}
# The command lines whose files hold the Corporate Ladder's signature box.
SIGNED = ["card-ability", "card-light", "card-layers", "card-varnish-file", "card-batch",
          "sheet", "sheet-batch"]
PROCESS_SPACES = ("DeviceCMYK", "DeviceRGB", "DeviceGray")


def may_overprint(space: str, color: tuple[float, ...]) -> bool:
    """Solid black, or a spot colour (a Separation: a plate of its own)."""
    return (space, tuple(round(v, 6) for v in color)) == SOLID_BLACK or (
        space not in PROCESS_SPACES)


def overprinting_fills(pages: list[PageOps]) -> list[str]:
    """Every fill (paths, type, images) painted while fill overprint is on in a colour
    other than solid black or a spot colour: page, operator, colour."""
    found = []
    for number, ops in enumerate(pages, 1):
        for p in ops.painted:
            state = p.state
            if (p.operator in FILLS and state.fill_overprint
                    and not may_overprint(state.fill_space, state.fill_color)):
                found.append(f"page {number}: {p.operator} in {state.fill_space} "
                             f"{state.fill_color}")
        for run in ops.texts:
            state = run.state
            if state.fill_overprint and not may_overprint(state.fill_space, state.fill_color):
                found.append(f"page {number}: text {run.chars[:12]!r} in {state.fill_space} "
                             f"{state.fill_color}")
        found += [f"page {number}: Do in {state.fill_space} {state.fill_color}"
                  for state in ops.images if state.fill_overprint]
    return found


def signature_boxes(pages: list[PageOps]) -> list[tuple[int, tuple[float, float, float,
                                                                      float]]]:
    """(page index, area to sign in: x0, y0, x1, y1 in mm) of every signature box: a
    paper-white fill stroked in solid black, the area between its top and the line to
    sign on (the next solid black stroke), 0.8 mm in from the outline."""
    boxes = []
    for index, ops in enumerate(pages):
        painted: list[Painted] = ops.painted
        for n, p in enumerate(painted):
            if not (p.fill and p.stroke and p.state.fill_color == (0, 0, 0, 0)
                    and p.state.stroke_color == (0, 0, 0, 1)):
                continue
            xs = [x for sub in p.subpaths for x, _ in sub.points]
            ys = [y for sub in p.subpaths for _, y in sub.points]
            line = painted[n + 1]
            line_y = min(y for sub in line.subpaths for _, y in sub.points)
            boxes.append((index, (min(xs) + 0.8, min(ys) + 0.8, max(xs) - 0.8, line_y - 0.8)))
    return boxes


def check_file(source: bytes | Path, *, cmyk: bool, tinted_lines: bool,
               signed: bool) -> dict[str, Any]:
    """What every check finds in one file, as plain values: fills that overprint
    (``overprinting_fills``), graphics states that set one of /OP and /op without the
    other (``unpaired_overprint``), the ``signature_boxes`` (of a file that holds them:
    ``signed``); for a print file (``cmyk``)
    also the PDF/X-1a preflight's ``pdfx`` problems, the output ``intent``'s condition,
    and the ink rule's ``ink_problems`` and ``ink_fine`` (see
    ``tests.pdfread.ink_rule_problems``)."""
    import pikepdf

    data = pdf_bytes(source)
    pages = read_pages(data)
    unpaired = []
    with pikepdf.open(io.BytesIO(data)) as pdf:
        for number, page in enumerate(pdf.pages, 1):
            for name, state in page.Resources.get("/ExtGState", {}).items():
                if ("/OP" in state) != ("/op" in state):
                    unpaired.append(f"page {number}: {name} {dict(state)}")
        intents = list(pdf.Root.get("/OutputIntents", []))
        intent = str(intents[0].OutputConditionIdentifier) if len(intents) == 1 else None
    found: dict[str, Any] = {"overprinting_fills": overprinting_fills(pages),
                             "unpaired_overprint": unpaired,
                             "signature_boxes": signature_boxes(pages) if signed else []}
    if cmyk:
        report = ink_rule_report(pages, every_page_boxes(data), tinted_lines=tinted_lines)
        found |= {"pdfx": pdfx_problems(data), "intent": intent,
                  "ink_problems": report.problems, "ink_fine": report.fine}
    return found


def check_files(files: dict[str, Path], name: str) -> dict[str, dict[str, Any]]:
    """:func:`check_file` of each file of one command line of ``tests.every_pdf``
    ({label: findings})."""
    from tests.every_pdf import PRINT, is_cmyk

    cmyk = is_cmyk(name)
    tinted = PRINT[name][1] if cmyk else False
    return {label: check_file(path, cmyk=cmyk, tinted_lines=tinted, signed=name in SIGNED)
            for label, path in files.items()}
