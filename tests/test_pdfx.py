"""The print files are PDF/X-1a:2001 (README "Print shop checklist"), checked on the
produced files by a preflight (``tests.pdfread.pdfx_problems``) that reads every object
and content stream with pikepdf; and the preflight itself finds each kind of problem
it looks for, so a clean report means something."""

from __future__ import annotations

import io
import re

import pikepdf
import pytest

from tests.every_pdf import (
    COMMANDS,
    NO_CMYK_PDF,
    NO_PDF,
    PRINT,
    command_of,
    is_cmyk,
    sweep,
)
from tests.helpers import BASE_CONFIG, DATA, cli, error_line, ok
from tests.pdfread import ink_rule_problems, pdfx_problems

WITH_IMAGES = BASE_CONFIG + f"""
[images]
portrait = "{DATA / 'portrait.png'}"
logo = "{DATA / 'logo.png'}"
"""


def _intent(pdf: pikepdf.Pdf) -> str:
    (intent,) = pdf.Root.OutputIntents
    return str(intent.OutputConditionIdentifier)


@pytest.mark.parametrize(("args", "condition"), [
    (("card", "-f", "pdf"), "FOGRA39"),
    (("card", "-f", "pdf", "--preset", "us", "--theme", "light"), "CGATS21_CRPC6"),
    (("card", "-f", "pdf", "--output-intent", "fogra52"), "FOGRA52"),
    (("card", "-f", "pdf", "--no-marks"), "FOGRA39"),
    (("sheet", "--paper", "letter", "--preset", "us"), "CGATS21_CRPC6"),
])
def test_print_files_are_pdfx_1a(produced, args, condition):
    folder = produced(*args)
    files = ["sheet.pdf"] if args[0] == "sheet" else ["card.pdf", "card-dieline.pdf"]
    for name in files:  # the dieline file too: a shop's preflight reads it as well
        assert pdfx_problems(folder / name) == [], name
        with pikepdf.open(folder / name) as pdf:
            assert _intent(pdf) == condition


@pytest.mark.parametrize("name", sweep([name for name in COMMANDS if is_cmyk(name)]))
def test_every_cmyk_pdf_is_pdfx_1a_and_keeps_the_ink_rule(checked, name):
    """One print standard for every CMYK PDF (README "Print shop checklist"): the PDF/X-1a
    preflight and the ink rule, both read from every file the command line writes (each
    file read once a run for these and the overprint checks: ``tests.printcheck``)."""
    condition, _ = PRINT[name]
    files = checked(name)
    assert files, name
    for label, found in files.items():
        assert found["pdfx"] == [], label
        assert found["intent"] == condition, label
        assert found["ink_problems"] == [], label
        # Something to check: small type or thin lines on every piece but the dieline
        # and the varnish mask (shapes of a spot colour, no type) as files of their own.
        assert found["ink_fine"] > 0 or label.endswith(("dieline.pdf", "varnish.pdf")), label


def test_the_command_lines_cover_every_command_that_writes_a_pdf():
    """A command added later has to join ``tests.every_pdf.COMMANDS`` (or say that it
    writes no PDF, or no CMYK PDF, and what it writes instead); every CMYK command line
    names what its print files must say."""
    import typer.main

    from cardgen.cli import app

    def leaves(command, path):
        subcommands = getattr(command, "commands", None)
        if not subcommands:
            yield " ".join(path)
            return
        for name, sub in subcommands.items():
            yield from leaves(sub, [*path, name])

    every = set(leaves(typer.main.get_command(app), []))
    checked = {command_of(name) for name in COMMANDS}
    assert checked | NO_PDF == every
    assert not checked & NO_PDF
    cmyk = {name for name in COMMANDS if is_cmyk(name)}
    assert {command_of(name) for name in cmyk} | set(NO_CMYK_PDF) == every
    assert set(NO_CMYK_PDF) >= NO_PDF
    assert set(PRINT) == cmyk


def test_the_ink_check_finds_tinted_and_thin_lines(good_pdf):
    """The content-stream ink check finds what it looks for: a grid line in a tint of
    black, a hairline, small type that knocks out, a colour over 300 %."""
    def lines(pdf: pikepdf.Pdf) -> None:  # first, in points: well inside the bleed
        pdf.pages[0].contents_add(pikepdf.Stream(pdf, b"q 0 0 0 0.65 K 2 w 100 100 m "
                                                      b"150 150 l S 0 0 0 1 K 0.1 w 100 100 m "
                                                      b"150 120 l S 1 1 1 0.5 k 100 100 20 20 "
                                                      b"re f Q"), prepend=True)

    report = ink_rule_problems(_doctored(good_pdf, lines))
    found = " | ".join(report.problems)
    for needle in ("2.00 pt line in K65 is a tint of black", "0.10 pt line in K100 is thinner",
                   "fill of C100 M100 Y100 K50, over 300 %"):
        assert needle in found, found
    assert "tint of black" not in " | ".join(ink_rule_problems(
        _doctored(good_pdf, lines), tinted_lines=True).problems)


def test_a_card_with_a_photo_and_a_logo_is_pdfx_too(produced):
    folder = produced("card", "-f", "pdf", config=WITH_IMAGES)
    assert pdfx_problems(folder / "card.pdf") == []


def test_the_config_names_the_printing_condition(tmp_path):
    config = tmp_path / "card.toml"
    config.write_text(BASE_CONFIG.replace('theme = "dark"',
                                          'theme = "dark"\noutput_intent = "FOGRA51"'))
    ok(cli("card", config, "-f", "pdf", "-o", tmp_path / "out"))
    with pikepdf.open(tmp_path / "out" / "card.pdf") as pdf:
        assert _intent(pdf) == "FOGRA51"
        (intent,) = pdf.Root.OutputIntents
        assert str(intent.RegistryName) == "http://www.color.org"
        assert "ISO 12647-2:2013" in str(intent.OutputCondition)


def test_unknown_conditions_are_refused_with_the_nearest(tmp_path):
    error_line(cli("card", "-f", "pdf", "--output-intent", "fogra93", "-o", tmp_path),
               "--output-intent", "did you mean FOGRA39?")
    config = tmp_path / "card.toml"
    config.write_text(BASE_CONFIG.replace('theme = "dark"',
                                          'theme = "dark"\noutput_intent = "SWOP"'))
    error_line(cli("card", config, "-o", tmp_path / "out"), "card.output_intent",
               "valid: FOGRA39")


@pytest.mark.parametrize(("args", "name"), [
    (("card", "-f", "pdf", "--rgb"), "card.pdf"),
    (("ladder", "rules", "--rgb"), "ladder-rules.pdf"),
    (("playsheet", "reflector", "--rgb"), "playsheet-reflector.pdf"),
])
def test_rgb_files_do_not_claim_pdfx(produced, args, name):
    pdf_file = produced(*args) / name
    with pikepdf.open(pdf_file) as pdf:
        assert "/OutputIntents" not in pdf.Root
        assert "/GTS_PDFXVersion" not in pdf.docinfo
    assert "an RGB colour operator (rg)" in " ".join(pdfx_problems(pdf_file))


# --- the preflight finds what it looks for ----------------------------------------------

def _doctored(good: bytes, change) -> bytes:
    with pikepdf.open(io.BytesIO(good)) as pdf:
        change(pdf)
        out = io.BytesIO()
        pdf.save(out, force_version="1.3", deterministic_id=True)
    return out.getvalue()


def _add_extgstate(pdf: pikepdf.Pdf, **entries) -> None:
    page = pdf.pages[0]
    page.Resources.ExtGState["/Doctored"] = pikepdf.Dictionary(
        {f"/{k}": v for k, v in entries.items()})


def _append_content(pdf: pikepdf.Pdf, text: bytes) -> None:
    pdf.pages[0].contents_add(pikepdf.Stream(pdf, text))


def _set_font_unembedded(pdf: pikepdf.Pdf) -> None:
    for obj in pdf.objects:
        if isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == "/FontDescriptor":
            del obj["/FontFile2"]
            return


CHANGES = {
    "Info /Trapped is": lambda pdf: pdf.docinfo.__setitem__("/Trapped", pikepdf.Name.Unknown),
    "Info /GTS_PDFXVersion": lambda pdf: pdf.docinfo.__delitem__("/GTS_PDFXVersion"),
    "GTS_PDFX output intents, not 1": lambda pdf: pdf.Root.__delitem__("/OutputIntents"),
    "no TrimBox": lambda pdf: pdf.pages[0].obj.__delitem__("/TrimBox"),
    "both a TrimBox and an ArtBox": lambda pdf: pdf.pages[1].obj.__setitem__(
        "/ArtBox", pdf.pages[1].obj.TrimBox),
    "the TrimBox reaches outside the BleedBox": lambda pdf: pdf.pages[0].obj.__setitem__(
        "/TrimBox", pdf.pages[0].obj.MediaBox),
    "opacity /ca": lambda pdf: _add_extgstate(pdf, ca=0.5),
    "blend mode": lambda pdf: _add_extgstate(pdf, BM=pikepdf.Name.Multiply),
    "a soft mask": lambda pdf: _add_extgstate(pdf, SMask=pikepdf.Dictionary()),
    "a transfer function": lambda pdf: _add_extgstate(pdf, TR=pikepdf.Name.Identity),
    "an RGB colour operator": lambda pdf: _append_content(pdf, b"1 0 0 rg 0 0 9 9 re f"),
    "colour space /DeviceRGB": lambda pdf: _append_content(pdf, b"/DeviceRGB cs 1 0 0 sc"),
    "is not embedded": _set_font_unembedded,
    "annotations": lambda pdf: pdf.pages[0].obj.__setitem__("/Annots", pikepdf.Array()),
    "an inline image": lambda pdf: _append_content(pdf, b"BI /W 1 /H 1 /CS /G /BPC 8 ID \x00 EI"),
    "colour space /Doctored is /ICCBased": lambda pdf: pdf.pages[0].Resources.ColorSpace
    .__setitem__("/Doctored", pikepdf.Array([pikepdf.Name.ICCBased, pikepdf.Dictionary()])),
}


@pytest.fixture(scope="module")
def good_pdf(made) -> bytes:
    return made("card")["card/card.pdf"].read_bytes()


@pytest.fixture(scope="module")
def good_report(good_pdf) -> list[str]:
    """The preflight's report on the good file, made once for the cases below."""
    return pdfx_problems(good_pdf)


@pytest.mark.parametrize("problem", sorted(CHANGES))
def test_the_preflight_finds_each_problem(good_pdf, good_report, problem):
    assert good_report == []
    found = pdfx_problems(_doctored(good_pdf, CHANGES[problem]))
    assert any(problem in p for p in found), found


def test_the_preflight_reads_the_header_version(good_pdf):
    assert "not %PDF-1.3" in pdfx_problems(good_pdf.replace(b"%PDF-1.3", b"%PDF-1.4", 1))[0]


# --- font subset names ------------------------------------------------------------------

def _subset_names(pdf_file) -> dict[str, str]:
    """Base font name -> subset tag, for every font in the file."""
    names = {}
    with pikepdf.open(pdf_file) as pdf:
        for obj in pdf.objects:
            if isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == "/Font":
                tag, _, base = str(obj.BaseFont)[1:].partition("+")
                names[base] = tag
    return names


def test_font_subsets_are_tagged_by_their_content(produced, tmp_path):
    first = _subset_names(produced("card", "-f", "pdf") / "card.pdf")
    assert first and all(re.fullmatch("[A-Z]{6}", tag) for tag in first.values())
    assert len(set(first.values())) == len(first)  # three faces, three tags
    again = tmp_path / "again"
    ok(cli("card", "-f", "pdf", "-o", again))
    assert _subset_names(again / "card.pdf") == first  # deterministic
    # reportlab's first subset holds all of ASCII; letters beyond it extend the subset.
    tags = []
    for name in ("Zoë Quux", "Zoé Quux"):
        config = tmp_path / "card.toml"
        config.write_text(BASE_CONFIG.replace("Ada Example", name), encoding="utf-8")
        ok(cli("card", config, "-f", "pdf", "-o", tmp_path / name))
        tags.append(_subset_names(tmp_path / name / "card.pdf"))
    # Another letter in the name (bold) gives another bold subset and another tag: two
    # files ganged in one RIP job never share a name for different subsets; the faces
    # whose subsets are alike keep theirs.
    assert tags[0]["SourceSans3-Bold"] != tags[1]["SourceSans3-Bold"]
    assert tags[0]["SourceSans3-Regular"] == tags[1]["SourceSans3-Regular"]


def test_subset_tags_follow_the_glyphs_not_the_position():
    from cardgen.render.pdf import subset_tag

    assert subset_tag(b"font", [65, 66]) == subset_tag(b"font", [65, 66])
    assert subset_tag(b"font", [65, 66]) != subset_tag(b"font", [65, 67])
    assert subset_tag(b"font", [65, 66]) != subset_tag(b"other", [65, 66])

