"""The flowable protocol and the one frame filler (cardgen.text.flowable): the composition
laws of the module's docstring, re-derived on generated paragraphs, headings and solids."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardgen.draw.colors import INK
from cardgen.draw.geometry import Box
from cardgen.draw.page import Item, Rect
from cardgen.errors import FitError
from cardgen.text.fit import line_height
from cardgen.text.flowable import Baseline, Flowable, Lines, Solid, fill
from cardgen.text.fonts import bundled_fonts
from tests.helpers import examples

FONTS = bundled_fonts()
FUZZ = settings(derandomize=True, deadline=None, max_examples=examples(150))
SIZE = 9.0
LH = line_height(SIZE)


def para(n: int, *, name: str = "p", baseline: Baseline = Baseline.DESCENT,
         orphans: int = 2, widows: int = 2, before: float = 0.0, after: float = 1.5,
         keep: bool = False) -> Lines:
    lines = tuple(((f"{name}{i}", FONTS.regular),) for i in range(n))
    return Lines(lines, SIZE, INK, before, after, keep_with_next=keep, orphans=orphans,
                 widows=widows, baseline=baseline)


def solid(height: float, *, floats: bool = True, name: str = "fig") -> Solid:
    def paint(x: float, y: float) -> list[Item]:
        return [Rect(x, y, 10.0, height)]
    return Solid(height, paint, name, 2.0, 2.0, floats=floats)


def frames(height: float, x: float = 0.0) -> Iterator[Box]:
    k = 0
    while True:
        yield Box(x + 100 * k, 10.0, 50.0, height)
        k += 1


def texts(part: Flowable) -> list[str]:
    return [line[0][0] for line in part.lines] if isinstance(part, Lines) else [part.what]


def test_lines_and_solids_are_flowables():
    pieces: list[Flowable] = [para(3), solid(5.0)]  # checked by mypy as well
    assert [p.measure(50) for p in pieces] == [pytest.approx(3 * LH), 5.0]


@FUZZ
@given(n=st.integers(1, 12), room=st.floats(0, 15 * LH), orphans=st.integers(1, 3),
       widows=st.integers(1, 3), force=st.booleans(),
       baseline=st.sampled_from(list(Baseline)))
def test_splitting_adds_nothing_and_keeps_widows_and_orphans(n, room, orphans, widows,
                                                              force, baseline):
    whole = para(n, orphans=orphans, widows=widows, before=3.0, after=1.5,
                 baseline=baseline)
    parts = whole.split(50, room, force=force)
    if parts is None:
        return
    head, tail = parts
    assert head.measure(50) + tail.measure(50) == pytest.approx(whole.measure(50))
    assert head.measure(50) <= room + 1e-6
    assert texts(head) + texts(tail) == texts(whole)
    assert (tail.space_before, tail.space_after, head.space_after) == (0.0, 1.5, 0.0)
    assert (head.first, tail.first) == (True, False)
    if not force:  # the paragraph's own rule, not the page filler's
        assert len(head.lines) >= orphans and len(tail.lines) >= widows
    # a tail splits on without an orphan rule: it is no longer the paragraph's start
    assert tail.split(50, LH) is None or len(tail.lines) > widows


def test_a_paragraph_that_cannot_leave_enough_lines_moves_whole():
    assert para(3).split(50, 2 * LH) is None  # 2 + 1 would leave a widow
    assert para(4).split(50, LH) is None  # one line would be an orphan
    head, tail = para(4).split(50, 2 * LH) or (None, None)
    assert head is not None and tail is not None
    assert (len(head.lines), len(tail.lines)) == (2, 2)
    assert para(4).least(50) == pytest.approx(2 * LH)
    assert para(3).least(50) == pytest.approx(3 * LH)  # three lines never split


piece = st.one_of(
    st.builds(lambda n: ("p", n), st.integers(1, 9)),
    st.builds(lambda n: ("h", n), st.integers(1, 2)),
    st.builds(lambda h: ("s", h), st.floats(3, 30)),
)


def build(spec: list[tuple[str, float]]) -> list[Flowable]:
    out: list[Flowable] = []
    for i, (kind, n) in enumerate(spec):
        if kind == "p":
            out.append(para(int(n), name=f"p{i}."))
        elif kind == "h":
            out.append(para(int(n), name=f"h{i}.", before=3.0, after=1.0, keep=True))
        else:
            out.append(solid(n, name=f"s{i}"))
    return out


@FUZZ
@given(spec=st.lists(piece, max_size=14), height=st.floats(45, 90))
def test_the_filler_stacks_keeps_and_floats_by_the_laws(spec, height):
    flowables = build(spec)
    filled = fill(flowables, frames(height), width=50)
    placed = filled.placed
    # Every line and every solid is set exactly once; text stays in order.
    got = [t for p in placed for t in texts(p.flowable)]
    want = [t for f in flowables for t in texts(f)]
    assert sorted(got) == sorted(want)
    assert [t for t in got if t[0] != "s"] == [t for t in want if t[0] != "s"]
    by_frame: dict[int, list] = {}
    for p in placed:
        by_frame.setdefault(p.frame, []).append(p)
    for k, parts in by_frame.items():
        top = 10.0
        bottom = top + height
        # Stacking: the first part at the frame's top, each next one under the one
        # above plus the spaces between them; all within the frame.
        assert parts[0].y == top
        for a, b in itertools.pairwise(parts):
            assert b.y == pytest.approx(a.flowable.end(a.y, 50) + b.flowable.space_before)
        for p in parts:
            assert p.y + p.flowable.measure(50) <= bottom + 1e-6
            assert p.x == 100 * k
        # Keep with next: a heading is last in a frame only when it ends the text, or
        # when it and the headings before it stand at the frame's top (too many for it).
        last = parts[-1].flowable
        if last.keep_with_next and texts(last)[-1] != want[-1]:
            assert all(p.flowable.keep_with_next for p in parts)
    # Widows and orphans: no part of a paragraph is a lone line of a longer one.
    for p in placed:
        f = p.flowable
        if isinstance(f, Lines) and not f.keep_with_next:
            whole = next(w for w in flowables
                         if isinstance(w, Lines) and texts(f)[0] in texts(w))
            assert len(f.lines) >= min(2, len(whole.lines))


def test_a_heading_moves_to_the_next_frame_with_the_least_head_of_what_follows():
    # Room for a paragraph of 4 lines and the heading, but not for two more lines.
    first = para(4)
    heading = para(1, name="h", before=3.0, after=1.0, keep=True)
    body = para(5, name="b")
    height = 4 * LH + 1.5 + 3.0 + LH + 1.0 + LH  # one line of the body, not two
    filled = fill([first, heading, body], frames(height), width=50)
    frame_of = {texts(p.flowable)[0]: p.frame for p in filled.placed}
    assert frame_of["p0"] == 0 and frame_of["h0"] == 1 and frame_of["b0"] == 1
    plain = para(1, name="h", before=3.0, after=1.0)
    filled = fill([first, plain, body], frames(height), width=50)
    frame_of = {texts(p.flowable)[0]: p.frame for p in filled.placed}
    assert frame_of["h0"] == 0 and frame_of["b0"] == 1  # the body moves whole (orphan)


def test_a_solid_that_does_not_fit_floats_and_the_text_after_it_fills_the_frame():
    text, figure, after = para(6), solid(25.0), para(2, name="a")
    filled = fill([text, figure, after], frames(6 * LH + 20), width=50)
    order = [(texts(p.flowable)[0], p.frame) for p in filled.placed]
    assert order == [("p0", 0), ("a0", 0), ("fig", 1)]
    assert filled.placed[-1].y == 10.0  # at the top of the next frame
    # After a heading it does not float: the heading keeps it.
    heading = para(1, name="h", keep=True)
    filled = fill([text, heading, figure, after], frames(6 * LH + 20), width=50)
    order = [(texts(p.flowable)[0], p.frame) for p in filled.placed]
    assert order == [("p0", 0), ("h0", 1), ("fig", 1), ("a0", 1)]


def test_the_cap_rule_sets_the_first_baseline_a_cap_height_below_the_top():
    cap = FONTS.regular.metrics.cap_height_mm(SIZE)
    sheet = para(2, baseline=Baseline.CAP)
    book = para(2)
    [a] = fill([sheet], frames(50), width=50).placed
    [b] = fill([book], frames(50), width=50).placed
    assert a.flowable.draw(a.x, a.y, 50)[0].y == pytest.approx(10 + cap)
    descent = FONTS.regular.metrics.descent_mm(SIZE)
    assert b.flowable.draw(b.x, b.y, 50)[0].y == pytest.approx(10 + LH - descent)


def test_too_tall_and_out_of_frames_are_fit_errors():
    with pytest.raises(FitError, match=r"the key: .* is taller than its frame"):
        fill([solid(80.0)], frames(50), width=50, where="the key")
    with pytest.raises(FitError, match=r"the key does not fit: .*2 frames; it runs out at"):
        fill([para(9)], iter([Box(0, 0, 50, 3 * LH), Box(0, 0, 50, 3 * LH)]), width=50,
             where="the key")
    with pytest.raises(FitError, match="no frame"):
        fill([para(1)], iter([]), width=50, where="the key")


def test_a_rules_sheet_sets_a_table_where_the_text_has_it():
    """The sheet sets tables now (the book always did): the table's cells between the
    paragraphs around it, its rules across the column."""
    from cardgen.draw.page import Line, Text
    from cardgen.prepress.paper import Paper
    from cardgen.rules.markup import parse
    from cardgen.rules.sheet import rules_pages

    text = ("# A game\n\nBefore the table.\n\n| Game | Cards |\n| --- | --- |\n"
            "| Rotator | 1 |\n| Reflector | 2 |\n\nAfter the table.\n")
    [page] = rules_pages(parse(text, "test.md"), Paper.A4, FONTS)
    items = [i for layer in page.layers for i in layer.items]
    words = {i.text: i.y for i in items if isinstance(i, Text)}
    assert words["Before the table."] < words["Game"] < words["Reflector"] < words[
        "After the table."]
    rules = [i for i in page.layer("figures").items if isinstance(i, Line)]
    assert len(rules) == 4  # over, under the header, between the rows, under


def test_one_definition_of_book_style_and_page_size():
    """The rules book and the puzzle book had a BookStyle each, the book and the booklet
    a page_size each: now one definition per name (the puzzle book's is
    PuzzleBookStyle, the book takes the booklet's page_size)."""
    import ast
    from pathlib import Path

    import cardgen
    from tests.helpers import syntax_nodes

    found: dict[str, list[str]] = {"BookStyle": [], "page_size": []}
    for path in Path(cardgen.__file__).parent.rglob("*.py"):
        for node in syntax_nodes(path):
            if isinstance(node, ast.ClassDef | ast.FunctionDef) and node.name in found:
                found[node.name].append(path.name)
    assert found == {"BookStyle": ["book.py"], "page_size": ["booklet.py"]}
