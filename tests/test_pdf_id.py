"""Every PDF's trailer /ID is derived from its content (``cardgen.render.pdf``, *File
identity*): files that differ have different IDs, the same inputs give the same bytes,
ID included. Read back with pikepdf from the PDFs of every command line in
``tests.every_pdf`` (card variants: themes, presets, marks, layers, RGB, a batch; sheets;
books; play sheets; the Ladder's mat and rules; Rotator books; Connector pictures)."""

from __future__ import annotations

import hashlib
import io

import pikepdf
import pytest

from cardgen.draw.colors import Color
from cardgen.draw.geometry import Box
from cardgen.draw.page import Document, Page, Rect
from cardgen.render.pdf import render_pdf
from tests.every_pdf import COMMANDS, QUICK, produce
from tests.helpers import sampled


def file_id(data: bytes) -> tuple[bytes, bytes]:
    with pikepdf.open(io.BytesIO(data)) as pdf:
        first, second = pdf.trailer.ID
        return bytes(first), bytes(second)


def _read(made, names) -> dict[str, bytes]:
    return {label: path.read_bytes() for name in names for label, path in made(name).items()}


# The quick loop reads the files of the sample of command lines its other modules read
# (``tests.every_pdf.QUICK``: each command, and each way of writing the card's pieces);
# the full run reads every file of every command line (the whole books included).
SAMPLE, EVERY = "sample", "every"
SCOPES = {SAMPLE: sorted(QUICK), EVERY: sorted(COMMANDS)}
LEAST = {SAMPLE: (20, 5), EVERY: (30, 9)}  # at least this many distinct files, card files


@pytest.fixture(scope="module", params=sampled([SAMPLE, EVERY], SAMPLE))
def once(made, request):
    """The PDFs of the scope's command lines as the other modules read them:
    (scope, {label: bytes})."""
    return request.param, _read(made, SCOPES[request.param])


@pytest.fixture(scope="module")
def twice(made, tmp_path_factory):
    """Every PDF, made twice by the same command lines in two folders (the first run's
    files are those the other modules read too, made maybe by another test process):
    {label: (bytes of the first run, bytes of the second)}."""
    first = _read(made, COMMANDS)
    second = produce(tmp_path_factory.mktemp("second"))
    assert first.keys() == second.keys()
    return {label: (data, second[label].read_bytes()) for label, data in first.items()}


@pytest.mark.slow  # every PDF made a second time (the golden hashes check 32 in the quick loop)
def test_the_same_inputs_give_the_same_bytes(twice):
    assert len(twice) > 30
    changed = [label for label, (a, b) in twice.items() if a != b]
    assert not changed


def test_files_that_differ_have_different_ids(once):
    """Distinct content, distinct /ID; the same content, the same /ID. Each ID is two
    equal 16-byte halves (a file as first written)."""
    scope, files = once
    ids: dict[tuple[bytes, bytes], set[str]] = {}
    contents: dict[str, set[str]] = {}
    for label, data in files.items():
        first, second = file_id(data)
        assert first == second and len(first) == 16, label
        ids.setdefault((first, second), set()).add(label)
        contents.setdefault(hashlib.sha256(data).hexdigest(), set()).add(label)
    assert sorted(map(sorted, ids.values())) == sorted(map(sorted, contents.values()))
    assert len(ids) >= LEAST[scope][0]  # only byte-identical dielines may share one


def test_card_variants_each_have_their_own_id(once):
    """The card.pdf of every variant (themes, presets, marks, layers, RGB, batch) is
    its own file."""
    scope, files = once
    cards = {label: data for label, data in files.items()
             if label.startswith("card") and "dieline" not in label and "varnish.pdf" not in label}
    assert len(cards) >= LEAST[scope][1]
    assert len({file_id(data) for data in cards.values()}) == len(cards)


def test_a_one_item_change_changes_the_id():
    """Two documents with the same title and metadata, one rectangle moved by 0.1 mm."""

    def pdf(x: float) -> bytes:
        page = Page("p", 30, 30, Box(0, 0, 30, 30), Box(0, 0, 30, 30))
        page.layer("art").add(Rect(x, 5, 10, 10, fill=Color.cmyk(0, 0, 0, 100)))
        return render_pdf(Document([page], title="same"))

    assert file_id(pdf(5)) == file_id(pdf(5))
    assert file_id(pdf(5)) != file_id(pdf(5.1))
