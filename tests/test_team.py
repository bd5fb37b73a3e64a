"""Team cards from a CSV (issue 10, part 3): `cardgen card --batch` and `cardgen sheet
--batch`: columns named like config keys over a shared config, every row checked before
anything is written, files named from the names, each inside behind its own outside."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pdfplumber
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pypdf import PdfReader

from cardgen.card.batch import BatchError, load_people, stem_of, unique_stems
from cardgen.datafile import parse_csv
from tests.helpers import DATA, cli, error_line, examples, ok

STUDIO = """\
[card]
theme = "dark"
qr = false

[person]
company = "Paper Lantern Games"
web = "paperlantern.example"

[images]
logo = "art/logo.png"
"""
PEOPLE = """\
name,person.title,person.phone,ladder.ability,images.portrait,card.theme
Robin Vale,Game Designer,+44 20 7946 0958,,,
Sam Reed,Producer,555 0100,"Look at the top card of the deck.",faces/sam.png,light
Zoë Ito,CEO,,,,
Robin Vale,Freelance Illustrator,07700 900123,,,
"""


def _studio(tmp_path: Path, people: str = PEOPLE, config: str = STUDIO) -> tuple[Path, Path]:
    """A studio config (its logo beside it) and a people table in another folder (the
    portraits beside it)."""
    (tmp_path / "cfg" / "art").mkdir(parents=True)
    shutil.copy(DATA / "logo.png", tmp_path / "cfg" / "art" / "logo.png")
    (tmp_path / "team" / "faces").mkdir(parents=True)
    shutil.copy(DATA / "portrait.png", tmp_path / "team" / "faces" / "sam.png")
    (tmp_path / "cfg" / "studio.toml").write_text(config, encoding="utf-8")
    (tmp_path / "team" / "people.csv").write_text(people, encoding="utf-8")
    return tmp_path / "team" / "people.csv", tmp_path / "cfg" / "studio.toml"


@pytest.mark.parametrize(("name", "stem"), [
    ("Robin Vale", "robin-vale"), ("  Zoë  O'Brien-Ito ", "zoe-o-brien-ito"),
    ("Dr. J. R. Smith, Jr.", "dr-j-r-smith-jr"), ("山田 太郎", "山田-太郎"),
    ("!!!", "card"), ("a_b", "a-b"), ("x" * 80, "x" * 60), ("../etc/passwd", "etc-passwd"),
])
def test_the_files_are_named_from_the_name(name, stem):
    assert stem_of(name) == stem


def test_names_that_give_one_stem_are_numbered_in_row_order():
    assert unique_stems(["Robin Vale", "robin vale", "Dieline", "Robin  Vale"],
                        reserved=("dieline",)) == ["robin-vale", "robin-vale-2",
                                                   "dieline-2", "robin-vale-3"]


@given(st.lists(st.text(max_size=30), max_size=8))
@settings(max_examples=examples(100), deadline=None)
def test_stems_are_unique_plain_file_names(names):
    from cardgen.output import check_stem

    stems = unique_stems(names)
    assert len(set(stems)) == len(stems)
    for stem in stems:
        assert check_stem(stem) == stem


def test_each_row_over_the_shared_config(tmp_path):
    table, config = _studio(tmp_path)
    people = load_people(table, config)
    assert [(p.line, p.stem) for p in people] == [(2, "robin-vale"), (3, "sam-reed"),
                                                  (4, "zoe-ito"), (5, "robin-vale-2")]
    robin, sam, zoe, _ = (p.config for p in people)
    # An empty cell takes the config's value; a cell overrides it.
    assert robin.person.company == sam.person.company == "Paper Lantern Games"
    assert (robin.theme, sam.theme) == ("dark", "light")
    assert robin.ability == "" and sam.ability == "Look at the top card of the deck."
    # Paths: the config's against the config, the table's against the table.
    assert robin.logo == tmp_path / "cfg" / "art" / "logo.png"
    assert sam.portrait == tmp_path / "team" / "faces" / "sam.png"
    assert robin.portrait is None and zoe.person.phone == ""


@pytest.mark.parametrize(("header", "message"), [
    ("name,person.phnoe", r"people\.csv: line 1: unknown column person\.phnoe; did you mean "
                          r"person\.phone\?"),
    ("person.title,email", r"line 1: there is no person\.name column"),
    ("name,ladder", r"line 1: unknown column ladder; "),
])
def test_a_bad_header_is_named(tmp_path, header, message):
    table, config = _studio(tmp_path, people=f"{header}\nAda,x\n")
    with pytest.raises(BatchError, match=message):
        load_people(table, config)


def test_cells_are_converted_as_the_config_would_hold_them(tmp_path):
    table, config = _studio(tmp_path, people=(
        "name,card.marks,card.qr,card.width_mm,card.height_mm\n"
        "A,no,false,90,55\nB,yes,url,,\nC,1,vcard,,\n"))
    a, b, c = (p.config for p in load_people(table, config))
    assert (a.marks, a.qr, a.size.width) == (False, None, 90)
    assert (b.marks, b.qr.value if b.qr else None) == (True, "url")
    assert c.marks is True


def test_every_bad_row_is_named_with_its_line_and_column_and_nothing_is_written(tmp_path):
    table, config = _studio(tmp_path, people=(
        "name,title,card.marks,images.portrait,card.width_mm,ladder.ability\n"
        ",Writer,,,,\n"                      # 2: no name
        "Ann,Writer,maybe,,,\n"              # 3: not a flag
        "Bo,Writer,,nope.jpg,,\n"            # 4: a missing image (found when drawing)
        "Cy,Writer,,,abc,\n"                 # 5: not a number
        "Di,Writer,,,,\n"                    # 6: fine
        f"Ed,Writer,,,,{'x' * 130}\n"))      # 7: too long
    out = tmp_path / "out"
    line = error_line(cli("card", config, "--batch", table, "-o", out))
    assert line.startswith(f"error: {table}: line 2: person.name is empty")
    for needle in ["line 3: card.marks must be true or false, not text ('maybe')",
                   "line 4 ('Bo'): images.portrait: image file", "nope.jpg does not exist",
                   "line 5: card.width_mm must be a number", "line 7: ladder.ability is 130 "
                   "characters long"]:
        assert needle in line
    assert "line 6" not in line
    assert line.index("line 3") < line.index("line 4") < line.index("line 5")
    assert not out.exists()


def test_a_problem_of_the_config_is_the_configs(tmp_path):
    table, config = _studio(tmp_path, config=STUDIO + '\n[ladder]\nabilty = "x"\n')
    line = error_line(cli("card", config, "--batch", table, "-o", tmp_path / "out"))
    assert f"{config}: unknown key ladder.abilty; did you mean ladder.ability?" in line


def test_batch_writes_a_file_set_per_person_and_a_summary(tmp_path):
    table, config = _studio(tmp_path)
    out = tmp_path / "out"
    # 72 dpi: the PNGs are there as files of the set, their resolution is not the point.
    result = ok(cli("card", config, "--batch", table, "-o", out, "-f", "pdf,png", "--dpi",
                    "72"))
    assert sorted(p.name for p in out.iterdir()) == sorted(
        [f"{stem}{suffix}" for stem in ("robin-vale", "sam-reed", "zoe-ito", "robin-vale-2")
         for suffix in (".pdf", "-outside.png", "-inside.png")]
        + ["dieline.pdf", "dieline.png"])
    written = [line for line in result.stdout.splitlines() if line.startswith("wrote ")]
    assert sorted(written) == sorted(f"wrote {p}" for p in out.iterdir())  # one line a file
    lines = [line for line in result.stdout.splitlines() if not line.startswith("wrote ")]
    assert lines[0].split() == ["line", "name", "type", "strength", "files"]
    assert lines[1].split() == ["2", "Robin", "Vale", "Wordsmith", "4", "robin-vale.pdf", "+2"]
    assert lines[2].split()[:6] == ["3", "Sam", "Reed", "Middle", "Management", "5"]
    assert lines[3].split()[:6] == ["4", "Zoë", "Ito", "Upper", "Management", "0"]
    assert lines[4].split()[:6] == ["5", "Robin", "Vale", "Freelancer", "0", "robin-vale-2.pdf"]
    assert lines[-1] == f"4 cards: 14 files in {out}"
    # Each PDF is its person's card, with what the config shares.
    with pdfplumber.open(out / "sam-reed.pdf") as pdf:
        text = pdf.pages[0].extract_text()
    assert "Sam Reed" in text and "Paper Lantern Games" in text
    assert "CL: Look at the top card of the deck." in text


@pytest.fixture(scope="module")
def batch_json(tmp_path_factory) -> tuple[Path, dict]:
    """The studio's batch as a PDF per person with the JSON report (run once: the two
    tests below only read it): the output folder and the report."""
    folder = tmp_path_factory.mktemp("batch-json")
    table, config = _studio(folder)
    out = folder / "out"
    return out, json.loads(ok(cli("card", config, "--batch", table, "-o", out, "-f", "pdf",
                                  "--json")).stdout)


def test_batch_json(batch_json):
    out, report = batch_json
    assert [c["name"] for c in report["cards"]] == ["Robin Vale", "Sam Reed", "Zoë Ito",
                                                    "Robin Vale"]
    assert report["cards"][1]["ladder"] == {"type": "Middle Management", "strength": 5,
                                            "from": "555 0100"}
    assert report["cards"][3]["files"] == [str(out / "robin-vale-2.pdf")]
    assert sorted(f["path"] for f in report["files"]) == sorted(str(p) for p in out.iterdir())
    assert not any(f["replaced"] for f in report["files"])


def test_name_and_batch_do_not_go_together(tmp_path):
    table, config = _studio(tmp_path)
    error_line(cli("card", config, "--batch", table, "--name", "x", "-o", tmp_path / "o"),
               "--name names one card's files")


@pytest.mark.slow
def test_sheet_batch_puts_each_inside_behind_its_own_outside(tmp_path):
    """Six cards, four to an A4 sheet: two sheets, the last half empty. On the printed
    PDF the names read in the table's order, and the themes (dark, light) on the insides'
    side tabs match their outsides' at the mirrored places."""
    import pypdfium2 as pdfium

    rows = "".join(f"P{i},Artist,,,,{'light' if i % 3 == 0 else 'dark'}\n" for i in range(6))
    table, config = _studio(tmp_path, people=PEOPLE.splitlines()[0] + "\n" + rows)
    out = tmp_path / "out"
    result = ok(cli("sheet", config, "--batch", table, "-o", out, "--no-marks"))
    assert "6 cards on 2 sheets, 4 per sheet (2 × 2)" in result.stdout
    pdf = out / "sheet.pdf"
    assert len(PdfReader(pdf).pages) == 4
    names = []
    with pdfplumber.open(pdf) as doc:
        for page in doc.pages[0::2]:
            words = page.extract_words()
            names += [w["text"] for w in sorted(words, key=lambda w: (round(w["top"]),
                                                                      w["x0"]))
                      if w["text"].startswith("P") and w["text"][1:].isdigit()]
    assert names == [f"P{i}" for i in range(6)]

    from cardgen.card.spread import Spread
    from cardgen.physical.card import PRESETS, Preset
    from cardgen.prepress.impose import Duplex, plan_sheet
    from cardgen.prepress.paper import Paper

    piece = Spread(PRESETS[Preset.EU], marks=False).piece()
    layout = plan_sheet(piece, Duplex(Paper.A4))
    doc = pdfium.PdfDocument(str(pdf))
    dpi = 20  # plenty to tell black from pale
    images = [doc[i].render(scale=dpi / 72).to_pil().convert("L") for i in range(4)]

    def lightness(image, x_mm, y_mm):
        return image.getpixel((int(x_mm / 25.4 * dpi), int(y_mm / 25.4 * dpi)))

    for i in range(6):
        sheet, slot = divmod(i, 4)
        light = i % 3 == 0
        front = layout.fronts[slot]
        # Just inside the trim's corner: the outside's ground; on the back the same card's
        # inside at the place the back placement puts it: its side tab's ground.
        fx, fy = front.apply(piece.trim.x + 1.0, piece.trim.y + 1.0)
        back = layout.back_placement(front, piece)
        bx, by = back.apply(piece.trim.x + 1.0, piece.trim.y + 1.0)
        assert (lightness(images[2 * sheet], fx, fy) > 128) == light, i
        assert (lightness(images[2 * sheet + 1], bx, by) > 128) == light, i
    # The last sheet's two empty places stay paper white on both sides.
    for slot in (2, 3):
        cx, cy = layout.fronts[slot].apply(*piece.trim.center)
        assert lightness(images[2], cx, cy) == 255


def test_sheet_batch_needs_one_size(tmp_path):
    table, config = _studio(tmp_path, people="name,card.preset\nA,eu\nB,us\n")
    error_line(cli("sheet", config, "--batch", table, "-o", tmp_path / "out"),
               "line 3: a 88.9 × 50.8 mm card cannot share sheets with line 2's 85 × 55 mm "
               "one")


@given(st.text(alphabet=st.sampled_from('name,title\n"é \x00;'), max_size=60))
@settings(max_examples=examples(60), deadline=None)
def test_fuzzed_tables_give_people_or_one_error(tmp_path_factory, text):
    folder = tmp_path_factory.mktemp("fuzz")
    path = folder / "p.csv"
    path.write_text(text, encoding="utf-8")
    try:
        parse_csv(text, "p.csv")
        people = load_people(path, None)
    except BatchError as exc:
        assert "\n" not in str(exc)
    except Exception as exc:  # the CSV reader's own errors are ConfigErrors
        from cardgen.errors import ConfigError

        assert isinstance(exc, ConfigError) and "\n" not in str(exc)
    else:
        assert all(p.config.person.name for p in people)


def test_a_deck_straight_from_the_people_file(tmp_path, batch_json):
    """`cardgen ladder deck people.csv --config studio.toml` checks the cards `card
    --batch` prints: the same Strengths, the config's company for every row."""
    table, config = _studio(tmp_path)
    _, printed = batch_json
    result = cli("ladder", "deck", table, "--config", config, "--json")
    assert result.returncode == 4  # four cards are not a deck: the check found a problem
    report = json.loads(result.stdout)
    assert report["cards"] == 4
    assert report["types"]["Upper Management"] == 1
    assert report["types"]["Freelancer"] == 1
    assert any("at least 20" in p for p in report["problems"])
    # 24 rows from one company: that rule is broken too, with the config's company.
    rows = "".join(f"P{i},Artist,{i % 10},,,\n" for i in range(24))
    table.write_text(PEOPLE.splitlines()[0] + "\n" + rows, encoding="utf-8")
    report = json.loads(cli("ladder", "deck", table, "--config", config, "--json").stdout)
    assert any(p.startswith("24 cards are from Paper Lantern Games") for p in
               report["problems"]), report["problems"]
    strengths = [c["ladder"]["strength"] for c in printed["cards"]]
    assert strengths == [4, 5, 0, 0]


@pytest.mark.slow
def test_a_warning_shared_by_many_rows_is_said_once(tmp_path):
    """A soft shared logo warns once for every row it concerns, with their lines."""
    rows = "".join(f"P{i},Artist,,,,\n" for i in range(5))
    table, config = _studio(tmp_path, people=PEOPLE.splitlines()[0] + "\n" + rows
                            + "Q,Artist,,,faces/sam.png,\n")
    result = ok(cli("card", config, "--batch", table, "-o", tmp_path / "out", "-f", "pdf"))
    warnings = [line for line in result.stderr.splitlines() if line.startswith("warning:")]
    soft = [w for w in warnings if "logo.png is only" in w]
    assert len(soft) == 1 and soft[0].startswith("warning: lines 2-7 (6 cards): images.logo")


@pytest.mark.parametrize(("lines", "shown"), [([2], "2"), ([2, 3, 4, 7], "2-4, 7"),
                                              ([2, 4, 5, 9, 10, 11], "2, 4-5, 9-11")])
def test_line_ranges(lines, shown):
    from cardgen.api.batch import _ranges

    assert _ranges(lines) == shown


@pytest.mark.slow
def test_a_person_named_like_a_dieline_keeps_their_card(tmp_path):
    """Rows of two sizes make dieline-85x55 and dieline-88.9x50.8; a person whose name
    gives one of those stems is numbered instead of having their card replaced."""
    table, config = _studio(tmp_path, people="name,card.preset\nRobin Vale,eu\nSam Reed,us\n"
                                             "Dieline 85x55,eu\nDIELINE 88.9x50.8,us\n")
    out = tmp_path / "out"
    result = ok(cli("card", config, "--batch", table, "-o", out, "-f", "pdf,png", "--dpi",
                    "36"))
    cards = ("robin-vale", "sam-reed", "dieline-85x55-2", "dieline-88-9x50-8")
    assert sorted(p.name for p in out.iterdir()) == sorted(
        [f"{stem}{end}" for stem in cards for end in (".pdf", "-outside.png", "-inside.png")]
        + [f"dieline-{size}{end}" for size in ("85x55", "88.9x50.8") for end in (".pdf", ".png")])
    assert result.stdout.splitlines()[-1] == f"4 cards: 16 files in {out}"
    for stem, name in (("dieline-85x55-2", "Dieline 85x55"),
                       ("dieline-88-9x50-8", "DIELINE 88.9x50.8")):
        with pdfplumber.open(out / f"{stem}.pdf") as pdf:
            assert len(pdf.pages) == 2 and name in pdf.pages[0].extract_text()
    for size in ("85x55", "88.9x50.8"):
        reader = PdfReader(out / f"dieline-{size}.pdf")
        assert len(reader.pages) == 1 and "Dieline" not in reader.pages[0].extract_text()


def test_a_person_named_like_anothers_varnish_file_keeps_their_card(tmp_path):
    """Robin's --varnish file is robin-varnish.pdf; Robin Varnish's card is numbered."""
    table, config = _studio(tmp_path, people="name\nRobin\nRobin Varnish\n")
    out = tmp_path / "out"
    ok(cli("card", config, "--batch", table, "-o", out, "-f", "pdf", "--varnish", "file"))
    assert sorted(p.name for p in out.iterdir()) == [
        "dieline.pdf", "robin-varnish-2-varnish.pdf", "robin-varnish-2.pdf",
        "robin-varnish.pdf", "robin.pdf"]
    with pdfplumber.open(out / "robin-varnish-2.pdf") as pdf:
        assert "Robin Varnish" in pdf.pages[0].extract_text()
    assert len(PdfReader(out / "robin-varnish.pdf").pages) == 1  # Robin's varnish plate


def test_stems_and_file_names_that_differ_only_in_case_are_one():
    from cardgen.card.batch import assign_stems

    assert assign_stems(["Robin", "robin", "Dieline"], [[".pdf"], [".pdf"], [".pdf"]],
                        ["DIELINE", "ROBIN.PDF"]) == ["robin-2", "robin-3", "dieline-2"]
    assert assign_stems(["Robin", "Robin Varnish"], [[".pdf", "-varnish.pdf"]] * 2) == [
        "robin", "robin-varnish-2"]


@given(st.lists(st.text(max_size=20), min_size=1, max_size=8),
       st.lists(st.sampled_from([".pdf", "-outside.png", "-inside.svg", "-varnish.pdf",
                                 "-85x55.pdf", ".PDF", "-2.pdf"]), max_size=4,
                unique_by=str.casefold))
@settings(max_examples=examples(100), deadline=None, derandomize=True)
def test_no_two_files_of_a_batch_share_a_name_in_any_case(names, ends):
    from cardgen.card.batch import assign_stems

    generated = ["dieline", "dieline.pdf", "dieline-85x55", "dieline-85x55.pdf"]
    stems = assign_stems(names, [ends] * len(names), generated)
    files = [f"{stem}{end}".casefold() for stem in stems for end in ("", *ends)]
    assert len(set(files)) == len(files)
    assert not set(files) & {g.casefold() for g in generated}
