"""The batch as a library (issue 27, points 1 and 4): ``cardgen.read_people``,
``make_cards``, ``make_dielines`` and ``make_sheets`` give the bytes ``cardgen card
--batch`` and ``cardgen sheet --batch`` write, in the table's order, whatever ``jobs``,
in any process (a ``ProcessPoolExecutor`` too); ``--jobs`` is checked like ``rotator
generate --jobs``; and a streamed batch keeps a few cards in memory, not all of them."""

from __future__ import annotations

import os
import shutil
import tracemalloc
from pathlib import Path

import pytest

import cardgen
from benchmarks import batch_baseline
from cardgen.card.batch import BatchError
from cardgen.errors import ConfigProblem, ParameterError
from cardgen.render import Format
from tests.helpers import DATA, ROOT, cli, error_line, ok

STUDIO = """\
[card]
theme = "dark"
qr = false

[person]
company = "Paper Lantern Games"
web = "paperlantern.example"

[images]
logo = "logo.png"
"""
PEOPLE = """\
name,person.title,ladder.ability,card.theme,card.preset
Robin Vale,Game Designer,,,
Sam Reed,Producer,"Look at the top card of the deck.",light,
Zoë Ito,CEO,,,
Robin Vale,Freelance Illustrator,,,
Dieline,QA Tester,,,us
"""
ALL = "pdf,svg,png"


def _studio(folder: Path, people: str = PEOPLE) -> tuple[Path, Path]:
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(DATA / "logo.png", folder / "logo.png")
    (folder / "studio.toml").write_text(STUDIO, encoding="utf-8")
    (folder / "people.csv").write_text(people, encoding="utf-8")
    return folder / "people.csv", folder / "studio.toml"


def _made(table: Path, config: Path, formats: str, jobs: int) -> list[tuple[str, bytes]]:
    """Every file of the batch by the API, in order: the dielines, then each card's."""
    people = cardgen.read_people(table, config)
    files = list(cardgen.make_dielines(people, formats=formats).items())
    for item in cardgen.make_cards(people, formats=formats, jobs=jobs):
        files += item.files.items()
    return files


@pytest.fixture(scope="module")
def studio(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    """The studio, and the files ``cardgen card --batch`` wrote for it (all formats)."""
    folder = tmp_path_factory.mktemp("studio")
    table, config = _studio(folder)
    ok(cli("card", config, "--batch", table, "-o", folder / "out", "-f", ALL))
    return table, config, folder / "out"


@pytest.mark.parametrize("jobs", [1, 2, 3])
def test_the_bytes_and_the_order_do_not_depend_on_jobs_and_are_the_commands(studio, jobs):
    table, config, out = studio
    made = _made(table, config, ALL, jobs)
    written = {path.name: path.read_bytes() for path in out.iterdir()}
    assert [name for name, _ in made] == [
        "dieline-85x55.pdf", "dieline-85x55.svg", "dieline-85x55.png",
        "dieline-88.9x50.8.pdf", "dieline-88.9x50.8.svg", "dieline-88.9x50.8.png",
        *(f"{stem}{end}" for stem in ("robin-vale", "sam-reed", "zoe-ito", "robin-vale-2",
                                      "dieline-2")
          for end in (".pdf", "-outside.svg", "-outside.png", "-inside.svg",
                      "-inside.png"))]
    assert dict(made) == written


def test_the_streamed_batch_writes_the_bytes_of_the_in_memory_batch_it_replaces(
        studio, tmp_path):
    """benchmarks/batch_baseline.py is the batch as it was: every file in memory."""
    table, config, out = studio
    before = batch_baseline.batch(table, config, tmp_path, [Format.PDF, Format.SVG,
                                                            Format.PNG])
    assert [path.name for path in before] == [name for name, _ in _made(table, config, ALL, 1)]
    assert {path.name: data for path, data in before.items()} == {
        path.name: path.read_bytes() for path in out.iterdir()}


def test_the_command_writes_the_same_files_with_jobs(studio, tmp_path):
    table, config, out = studio
    result = ok(cli("card", config, "--batch", table, "-o", tmp_path, "-f", ALL,
                    "--jobs", "2"))
    assert "5 cards: 31 files" in result.stdout
    assert sorted(os.listdir(tmp_path)) == sorted(os.listdir(out))
    for path in out.iterdir():
        assert (tmp_path / path.name).read_bytes() == path.read_bytes(), path.name


POOL = """
import hashlib, json, sys
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path

import cardgen


def one_card(table, config, index):
    # A task queue's task: one person's card, from the files, in a fresh worker.
    people = cardgen.read_people(Path(table), Path(config))
    (item,) = cardgen.make_cards([people[index]], formats="pdf,svg")
    return {name: hashlib.sha256(data).hexdigest() for name, data in item.files.items()}


if __name__ == "__main__":
    table, config = sys.argv[1:3]
    count = len(cardgen.read_people(Path(table), Path(config)))
    with ProcessPoolExecutor(2, mp_context=get_context("spawn")) as pool:
        cards = list(pool.map(one_card, [table] * count, [config] * count, range(count)))
    print(json.dumps(cards))
"""


def test_a_process_pool_calling_the_api_per_person_makes_the_commands_bytes(tmp_path):
    """Issue 27, point 1: the API is pure per item; a ProcessPoolExecutor (spawned
    workers: nothing inherited) gives the bytes the command line writes. (The pool runs
    in a process of its own, which takes its helper processes with it when it ends.)"""
    import hashlib
    import json
    import subprocess
    import sys

    from tests.helpers import ROOT

    table, config = _studio(tmp_path, PEOPLE.replace("Robin Vale,Freelance", "Ann Lee,Free"))
    ok(cli("card", config, "--batch", table, "-o", tmp_path / "out", "-f", "pdf,svg"))
    (tmp_path / "pool.py").write_text(POOL, encoding="utf-8")
    done = subprocess.run([sys.executable, tmp_path / "pool.py", table, config],
                          capture_output=True, text=True, cwd=ROOT, timeout=600, check=True)
    cards = json.loads(done.stdout)
    made = {name: digest for files in cards for name, digest in files.items()}
    assert len(made) == 5 * 3
    for name, digest in made.items():
        assert hashlib.sha256((tmp_path / "out" / name).read_bytes()).hexdigest() == digest
    shared = cardgen.make_dielines(cardgen.read_people(table, config), formats="pdf,svg")
    assert sorted([*made, *shared]) == sorted(p.name for p in (tmp_path / "out").iterdir())


def test_the_items_carry_each_cards_report(studio):
    table, config, _ = studio
    items = list(cardgen.make_cards(cardgen.read_people(table, config), formats="pdf"))
    assert [(i.line, i.name, i.stem) for i in items] == [
        (2, "Robin Vale", "robin-vale"), (3, "Sam Reed", "sam-reed"), (4, "Zoë Ito", "zoe-ito"),
        (5, "Robin Vale", "robin-vale-2"), (6, "Dieline", "dieline-2")]
    assert all(i.ladder is not None for i in items)
    assert items[2].ladder is not None and items[2].ladder.type.value == "Upper Management"


def test_people_from_rows_text_and_a_mapping(tmp_path):
    rows = [{"person.name": "Robin Vale", "title": "Artist"}, {"person.name": "Sam Reed"}]
    people = cardgen.read_people(rows, {"card": {"theme": "light"}})
    assert [(p.line, p.config.person.name, p.stem) for p in people] == [
        (2, "Robin Vale", "robin-vale"), (3, "Sam Reed", "sam-reed")]
    assert people[0].config.theme == "light" and people[0].config.person.title == "Artist"
    from_text = cardgen.read_people("person.name,title\nRobin Vale,Artist\nSam Reed,\n",
                                    '[card]\ntheme = "light"\n')
    first = [item.files for item in cardgen.make_cards(people, formats="pdf")]
    assert first == [item.files for item in cardgen.make_cards(from_text, formats="pdf")]
    assert not list(tmp_path.iterdir())  # nothing written


def test_bad_rows_are_all_named_with_their_codes_and_nothing_is_written(tmp_path):
    table, config = _studio(tmp_path, "name,card.marks,images.portrait\nA,maybe,\n"
                            "Bo,,nope.png\nCy,,\n")
    with pytest.raises(BatchError) as caught:
        cardgen.read_people(table, config)
    assert [str(p)[:6] for p in caught.value.problems] == ["line 2"]
    assert all(isinstance(p.code, ConfigProblem) for p in caught.value.problems)
    people = cardgen.read_people(table, config, partial=True)
    assert [p.line for p in people] == [3, 4] and people.problems
    with pytest.raises(BatchError) as caught:
        list(cardgen.make_cards(people, formats="pdf"))
    lines = [str(p) for p in caught.value.problems]
    assert lines[0].startswith("line 2: card.marks") and lines[1].startswith("line 3 ('Bo')")
    assert sorted(os.listdir(tmp_path)) == ["logo.png", "people.csv", "studio.toml"]


@pytest.mark.parametrize(("kwargs", "parameter"), [
    ({"formats": "pdf,tiff"}, "formats"), ({"formats": []}, "formats"),
    ({"dieline": "glue"}, "dieline"), ({"jobs": 0}, "jobs"), ({"jobs": 1.5}, "jobs"),
    ({"dpi": 5}, "dpi"), ({"varnish": "gloss"}, "varnish"), ({"preset": "a7"}, "preset")])
def test_a_bad_argument_is_a_parameter_error_naming_it_at_once(kwargs, parameter):
    people = cardgen.read_people([{"person.name": "Robin Vale"}])
    with pytest.raises(ParameterError) as caught:
        cardgen.make_cards(people, **kwargs)  # (raised by the call, before any card)
    assert caught.value.parameter == parameter


@pytest.mark.parametrize("command", ["card", "sheet"])
def test_jobs_is_checked_like_rotator_generates(tmp_path, command):
    table, config = _studio(tmp_path, PEOPLE.replace(",us\n", ",\n"))
    error_line(cli(command, config, "--batch", table, "-o", tmp_path / "o", "--jobs", "0"),
               "--jobs must be at least 1.")
    error_line(cli(command, config, "-o", tmp_path / "o", "--jobs", "2"), "--jobs", "--batch")
    result = ok(cli(command, config, "--batch", table, "-o", tmp_path / "o",
                    "--jobs", "10000"))
    assert "is more than the" in result.stderr and "CPUs this run may use" in result.stderr


def test_sheets_are_the_same_bytes_whatever_jobs(tmp_path):
    table, config = _studio(tmp_path, PEOPLE.replace(",us\n", ",\n"))
    ok(cli("sheet", config, "--batch", table, "-o", tmp_path / "out", "--jobs", "2"))
    people = cardgen.read_people(table, config)
    one = cardgen.make_sheets(people, jobs=1)
    assert one.files == cardgen.make_sheets(people, jobs=2).files
    assert one.files["sheet.pdf"] == (tmp_path / "out" / "sheet.pdf").read_bytes()
    assert (one.cards, one.sheets, one.per_sheet) == (5, 2, 4)


def test_closing_the_stream_early_stops_its_workers(studio):
    from tests.helpers import children

    table, config, _ = studio
    stream = cardgen.make_cards(cardgen.read_people(table, config), formats="pdf", jobs=2)
    before = set(children(os.getpid()))
    next(stream)
    assert len(set(children(os.getpid())) - before) == 2
    stream.close()
    assert not set(children(os.getpid())) - before


# --- bounded memory -----------------------------------------------------------------------


def _peak(folder: Path, people: int, *, baseline: bool = False, jobs: int = 1) -> int:
    """The peak of Python's allocations (tracemalloc) while ``card --batch -f pdf``
    makes ``people`` cards in this process: streamed (the command) or all in memory
    (the frozen baseline)."""
    rows = "".join(f"Person {i:03d},Game Designer\n" for i in range(people))
    table, config = _studio(folder, "person.name,person.title\n" + rows)
    cardgen.read_people(table, config)  # (caches warm: fonts, the layout, the logo)
    tracemalloc.start()
    try:
        if baseline:
            batch_baseline.batch(table, config, folder / "out", [Format.PDF])
        else:
            ok(cli("card", config, "--batch", table, "-o", folder / "out", "-f", "pdf",
                   "-q", "--jobs", str(jobs)))
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.slow
@pytest.mark.parametrize("jobs", [1, 2])
def test_a_streamed_batch_holds_a_few_cards_in_memory_not_all_of_them(tmp_path, jobs):
    """Ten times the people: the streamed batch's peak (in the process that stages the
    files: with workers, at most about twice as many cards as workers wait there) grows
    by far less than one card's files per extra person (the names of the files written
    aside), where the batch it replaced grew by all of them."""
    _peak(tmp_path / "warm", 2)
    small, large = _peak(tmp_path / "a", 8, jobs=jobs), _peak(tmp_path / "b", 80, jobs=jobs)
    old_small, old_large = (_peak(tmp_path / "c", 8, baseline=True),
                            _peak(tmp_path / "d", 80, baseline=True))
    card = len((tmp_path / "b" / "out" / "person-000.pdf").read_bytes())
    assert large - small < 72 * card / 4, (small, large, card)
    assert old_large - old_small > 72 * card, (old_small, old_large, card)


def test_after_a_bad_row_the_other_cards_are_only_laid_out(tmp_path, monkeypatch):
    """The batch will raise: the cards after the first bad row are laid out (to name
    every bad row) but not drawn."""
    import cardgen.render

    table, config = _studio(tmp_path, "name,images.portrait\nA,\nBo,nope.png\nCy,\nDi,\n")
    drawn = []
    real = cardgen.render.render

    def counted(document, *args, **kwargs):
        drawn.append(document.title)
        return real(document, *args, **kwargs)

    monkeypatch.setattr(cardgen.render, "render", counted)
    with pytest.raises(BatchError, match="line 3"):
        list(cardgen.make_cards(cardgen.read_people(table, config), formats="pdf"))
    assert len(drawn) == 1  # A's card only


def test_a_worker_that_dies_is_a_fault_of_the_run_named_in_one_sentence(tmp_path):
    import signal

    from cardgen.games.rotator.workers import WorkerError
    from tests.helpers import children

    rows = "".join(f"Person {i:02d},Artist\n" for i in range(12))
    table, config = _studio(tmp_path, "person.name,person.title\n" + rows)
    before = set(children(os.getpid()))
    stream = cardgen.make_cards(cardgen.read_people(table, config), formats="pdf", jobs=2)
    next(stream)
    worker = sorted(set(children(os.getpid())) - before)[0]
    os.kill(worker[0], signal.SIGKILL)
    with pytest.raises(WorkerError, match=r"a worker process stopped while making line "
                                          r"\d+'s card \(exit code -9\)\."):
        list(stream)
    assert not set(children(os.getpid())) - before


def test_some_rows_are_named_as_the_whole_batch_names_them(tmp_path):
    """``rows=`` makes only those people's cards, with the bytes and names the whole
    batch gives them (the second of two namesakes keeps its ``-2``), in the table's
    order, whatever order the rows are asked in; a row that is not there is named."""
    import cardgen

    people = cardgen.read_people([{"person.name": "Sam Reed", "title": "Producer"},
                                  {"person.name": "Robin Vale"},
                                  {"person.name": "Sam Reed", "title": "Artist"}])
    whole = list(cardgen.make_cards(people, formats="pdf"))
    some = list(cardgen.make_cards(people, formats="pdf", rows=[2, 0]))
    assert [item.stem for item in some] == ["sam-reed", "sam-reed-2"]
    assert [dict(item.files) for item in some] == [dict(whole[0].files), dict(whole[2].files)]
    for rows in ([3], [-1], [True], ["0"], [0.0], [0, "a"], "01", 5):
        with pytest.raises(cardgen.ParameterError, match=r"^rows must be indexes"):
            list(cardgen.make_cards(people, rows=rows))


# --- sheets, a sheet at a time ---------------------------------------------------------


def _renamed_font(path: Path, name: str) -> None:
    """The bundled regular face under another PostScript name (one that comes first)."""
    from fontTools.ttLib import TTFont

    font = TTFont(ROOT / "fonts" / "SourceSans3-Regular.ttf")
    for record in font["name"].names:
        if record.nameID in (1, 3, 4, 6):
            record.string = name
    font.save(str(path))


@pytest.mark.parametrize("rgb", [False, True], ids=["cmyk", "rgb"])
def test_streamed_sheets_are_the_bytes_of_the_sheets_made_all_at_once(tmp_path, monkeypatch,
                                                                       rgb):
    """benchmarks/sheet_baseline.py holds every card and imposes them at once. The
    streamed sheets choose the file's first font from the first sheet; when a later
    sheet uses a font that comes before it (rows 6 and 7 here, on sheet 2), they are
    made again knowing every font, to the same bytes."""
    from benchmarks import sheet_baseline
    from cardgen.api import batch

    _renamed_font(tmp_path / "aaa.ttf", "AAAFirst-Regular")
    rows = "".join(f"Person {i},Designer,{'aaa.ttf' if i >= 5 else ''}\n" for i in range(7))
    table, config = _studio(tmp_path, "name,person.title,fonts.regular\n" + rows)
    people = cardgen.read_people(table, config)
    passes = []
    real = batch._Sheets.make

    def counted(self, faces=None):
        passes.append(faces is not None)
        return real(self, faces)

    monkeypatch.setattr(batch._Sheets, "make", counted)
    made = cardgen.make_sheets(people, rgb=rgb)
    assert passes == [False, True]  # (the first font was not the first sheet's)
    assert made.files["sheet.pdf"] == sheet_baseline.sheets(people, rgb=rgb)
    assert (made.cards, made.sheets) == (7, 2)
    passes.clear()  # one pass when the first sheet's first font is the file's
    few = batch.People(people.persons[:4], people.label)
    assert cardgen.make_sheets(few, rgb=rgb).files["sheet.pdf"] == sheet_baseline.sheets(
        few, rgb=rgb)
    assert passes == [False]


def _sheet_peak(folder: Path, people: int, *, baseline: bool = False) -> tuple[int, int]:
    """The peak of Python's allocations (tracemalloc) while the sheets of ``people``
    cards are made in this process, streamed or all at once, and the PDF's size."""
    from benchmarks import sheet_baseline

    rows = "".join(f"Person {i:03d},Game Designer\n" for i in range(people))
    table, config = _studio(folder, "person.name,person.title\n" + rows)
    group = cardgen.read_people(table, config)
    tracemalloc.start()
    try:
        pdf = (sheet_baseline.sheets(group) if baseline
               else cardgen.make_sheets(group).files["sheet.pdf"])
        return tracemalloc.get_traced_memory()[1], len(pdf)
    finally:
        tracemalloc.stop()


@pytest.mark.slow
def test_streamed_sheets_hold_a_sheets_cards_in_memory_not_all_of_them(tmp_path):
    """Ten times the people: the streamed sheets' peak grows by about the PDF's own
    growth (the file is made in memory), where the sheets made all at once grew by
    every card's pages, many times that."""
    _sheet_peak(tmp_path / "warm", 2)
    (small, pdf_small), (large, pdf_large) = (_sheet_peak(tmp_path / "a", 8),
                                              _sheet_peak(tmp_path / "b", 80))
    old_small, _ = _sheet_peak(tmp_path / "c", 8, baseline=True)
    old_large, _ = _sheet_peak(tmp_path / "d", 80, baseline=True)
    grown = pdf_large - pdf_small
    assert large - small < 2 * grown, (small, large, grown)
    assert old_large - old_small > 5 * grown, (old_small, old_large, grown)
