"""The one-page rules sheets and the puzzle book's captions set through the one frame
filler (cardgen.text.flowable): the structure stated and checked on the source, and the
behaviour that follows from it (a figure that does not fit moves to the next column, the
paragraph keeps its widows and orphans, captions measured by their baseline rule)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import cardgen
from cardgen.draw.colors import INK
from cardgen.draw.geometry import Box
from cardgen.draw.page import Anchor, Item, Rect, Text
from cardgen.prepress.paper import Paper
from cardgen.rules.markup import parse
from cardgen.rules.sheet import STYLE, rules_pages
from cardgen.text.figure import figure_flowable
from cardgen.text.fit import line_height
from cardgen.text.flowable import Baseline, CondBreak, Flowable, Lines, Solid, fill
from cardgen.text.fonts import bundled_fonts

FONTS = bundled_fonts()
PACKAGE = Path(cardgen.__file__).parent
SIZE = 9.0
LH = line_height(SIZE)


def cap(size: float) -> float:
    return FONTS.regular.metrics.cap_height_mm(size)


def _tree(relative: str) -> ast.Module:
    return ast.parse((PACKAGE / relative).read_text(encoding="utf-8"))


def _called(node: ast.AST) -> set[str]:
    """The names of the functions and methods ``node`` calls."""
    out = set()
    for call in ast.walk(node):
        if isinstance(call, ast.Call):
            func = call.func
            out.add(func.id if isinstance(func, ast.Name)
                    else func.attr if isinstance(func, ast.Attribute) else "")
    return out


def _function(tree: ast.Module, name: str) -> ast.FunctionDef:
    [found] = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name]
    return found


# --- the structure ---------------------------------------------------------------------

def test_the_sheet_sets_everything_through_the_one_filler():
    """rules/sheet.py places no text, figure or table itself: paragraphs, figures with
    their captions (figure_flowable, the book's too) and tables (table_flowable) are
    flowables filled into the columns by text.flowable.fill. The old private placing
    (flow() per chunk of text, _captioned, _tabled, the loop looking for a column a figure
    fits) is gone; the page's title and credit are its only Text items, and a figure's
    height is asked only by figure_flowable."""
    tree = _tree("rules/sheet.py")
    defined = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    assert not defined & {"_captioned", "_tabled", "_rest"}
    imported = {alias.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)
                for alias in n.names}
    assert "flow" not in imported
    calls = _called(tree)
    assert "flow" not in calls and "height" not in calls
    assert {"fill", "figure_flowable", "table_flowable"} <= calls
    for function in (n for n in tree.body if isinstance(n, ast.FunctionDef)):
        if function.name != "_heading":
            assert "Text" not in _called(function), function.name
    book = _tree("rules/book.py")
    assert "figure_flowable" in _called(book)  # one captioning for the book and the sheet


def test_the_puzzle_book_sets_its_captions_as_flowables():
    """caption_items sets each caption line as a Lines flowable (aligned: centred under a
    puzzle, at the start for a heading) through the one filler, not Text items of its
    own."""
    caption_items = _function(_tree("prepress/puzzlebook.py"), "caption_items")
    calls = _called(caption_items)
    assert "Text" not in calls
    assert {"Lines", "fill"} <= calls


# --- the behaviour ---------------------------------------------------------------------

class Block:
    """A figure: a rectangle ``tall`` mm high across its width."""

    def __init__(self, tall: float) -> None:
        self.tall = tall

    def height(self, width: float) -> float:
        return self.tall

    def draw(self, x: float, y: float, width: float) -> list[Item]:
        return [Rect(x, y, width, self.tall)]


WORDS = ("Each turn the board turns and what is loose falls one square towards the new "
         "bottom edge; drill through a solid square or step into the air. ")


def test_a_figure_too_tall_for_the_rest_of_a_column_moves_to_the_next_column():
    """Text, then a figure taller than what the text leaves of the first column: the
    figure stands at the top of the second column (no gap there), the text after it
    follows it there, and the rest of the first column stays empty (a figure does not
    float)."""
    text = ("# A game\n\n" + "\n\n".join([WORDS * 3] * 6) + "\n\n@figure tall\n\n"
            "After the figure.\n")
    [page] = rules_pages(parse(text, "test.md"), Paper.A4, FONTS,
                         figures={"tall": Block(150.0)})
    [rect] = [i for i in page.layer("figures").items if isinstance(i, Rect)]
    lines = [i for i in page.layer("text").items if isinstance(i, Text) and i.name is None]
    first, second = sorted({t.x for t in lines})
    width = (210 - 2 * STYLE.margin - 2 * STYLE.column_gap) / 3
    assert second - first == pytest.approx(width + STYLE.column_gap)
    column_top = lines[0].y - cap(STYLE.body_size)
    assert (rect.x, rect.y) == (pytest.approx(second), pytest.approx(column_top))
    assert max(t.y for t in lines if t.x == first) + 150.0 > 297 - STYLE.margin
    [after] = [t for t in lines if t.text == "After the figure."]
    assert after.x == second
    assert after.y == pytest.approx(rect.y + 150.0 + STYLE.figure_gap + cap(STYLE.body_size))
    assert [t for t in lines if t.x == second] == [after]


def test_the_sheet_sets_a_figure_below_its_text_and_the_text_below_its_caption():
    """Where it fits, a figure stands ``figure_gap`` under the line box of the text above
    (the cap rule meeting a box), its caption's capitals ``caption_gap`` under it, and
    the text after it ``figure_gap`` under the caption's descenders."""
    text = "# A game\n\nBefore.\n\n@figure f: A caption.\n\n## After\n\nThe end.\n"
    [page] = rules_pages(parse(text, "test.md"), Paper.A4, FONTS, figures={"f": Block(20.0)})
    texts = {t.text: t for layer in page.layers for t in layer.items if isinstance(t, Text)}
    [rect] = [i for i in page.layer("figures").items if isinstance(i, Rect)]
    body, small = STYLE.body_size, STYLE.caption_size
    before = texts["Before."]
    foot = before.y - cap(body) + line_height(body) + STYLE.paragraph_gap
    assert rect.y == pytest.approx(foot + STYLE.figure_gap)
    caption = texts["A caption."]
    assert caption.y == pytest.approx(rect.y + 20.0 + STYLE.caption_gap + cap(small))
    ink = caption.y + FONTS.regular.metrics.descent_mm(small)
    # The heading after a figure: the figure's gap is all the room above it.
    assert texts["After"].y == pytest.approx(ink + STYLE.figure_gap
                                             + cap(STYLE.section_size))


def _para(n: int, name: str, *, baseline: Baseline = Baseline.CAP) -> Lines:
    lines = tuple(((f"{name}{i}", FONTS.regular),) for i in range(n))
    return Lines(lines, SIZE, INK, 0.0, 1.0, orphans=2, widows=2, baseline=baseline)


def _solid(height: float) -> Solid:
    return Solid(height, lambda x, y: [Rect(x, y, 10.0, height)], "fig", 2.0, 2.0)


def _name(flowable: Flowable) -> str:
    return flowable.lines[0][0][0] if isinstance(flowable, Lines) else flowable.what


def test_the_paragraph_keeps_its_widows_and_orphans_around_a_moved_figure():
    """The filler with the sheets' pieces: a figure that does not fit moves to the next
    frame's top; the paragraph after it, split at that frame's foot, leaves neither a
    lone first line nor a lone last line (its own rule, Lines.split)."""
    height = 22.0 + 5.5 * LH  # under the figure and its gap: room for five lines, not six
    frames = iter([Box(0, 0, 50, height), Box(100, 0, 50, height), Box(200, 0, 50, height)])
    flowables: list[Flowable] = [_para(6, "a"), _solid(20.0), CondBreak(2 * LH),
                                 _para(6, "b")]
    placed = fill(flowables, frames, width=50, chain=False).placed
    where = [(p.frame, _name(p.flowable)) for p in placed]
    assert where == [(0, "a0"), (1, "fig"), (1, "b0"), (2, "b4")]
    assert placed[1].y == 0.0  # at the next frame's top, without its space_before
    # Under the figure, the paragraph's capitals touch the room its gap leaves.
    assert placed[2].y == pytest.approx(20.0 + 2.0 + cap(SIZE))
    # Five lines would fit; a lone last line is not left: four stay, two move on.
    assert [len(p.flowable.lines) for p in placed[2:] if isinstance(p.flowable, Lines)] == [
        4, 2]


def test_a_conditional_break_turns_the_frame_only_when_too_little_is_left():
    frames = [Box(0, 0, 50, 40.0), Box(100, 0, 50, 40.0)]
    for least, frame in ((10.0, 0), (20.0, 1)):
        flowables: list[Flowable] = [_solid(23.0), CondBreak(least), _para(1, "x")]
        placed = fill(flowables, iter(frames), width=50).placed
        assert placed[-1].frame == frame  # 40 - 25 = 15 mm left under the figure
    # At the end of the text it does nothing (and needs no frame).
    placed = fill([_solid(23.0), CondBreak(20.0)], iter(frames[:1]), width=50).placed
    assert len(placed) == 1


def test_a_caption_ends_at_its_descenders_on_either_baseline_rule():
    """figure_flowable measures its caption by the caption's own rule: on the descent rule
    (the book) its line boxes; on the cap rule (the sheets) a cap height, the line
    heights between and the last line's descent."""
    descent = FONTS.regular.metrics.descent_mm(SIZE)
    for baseline, below in ((Baseline.DESCENT, 3 * LH),
                            (Baseline.CAP, cap(SIZE) + 2 * LH + descent)):
        caption = _para(3, "c", baseline=baseline)
        solid = figure_flowable(Block(30.0), 50.0, "f", caption=caption, caption_gap=1.5)
        assert solid.height == pytest.approx(30.0 + 1.5 + below)
        texts = [i for i in solid.draw(0.0, 0.0, 50.0) if isinstance(i, Text)]
        assert texts[-1].y + descent == pytest.approx(solid.height)


def test_lines_align_at_the_start_the_centre_or_the_end():
    one = ((("Centred", FONTS.bold),),)
    two = ((("Bold ", FONTS.bold), ("plain", FONTS.regular)),)
    runs_width = FONTS.bold.width("Bold ", SIZE) + FONTS.regular.width("plain", SIZE)
    for align, at, anchor in ((Anchor.START, 10.0, Anchor.START),
                              (Anchor.MIDDLE, 10.0 + 25.0, Anchor.MIDDLE),
                              (Anchor.END, 60.0, Anchor.END)):
        [text] = Lines(one, SIZE, INK, align=align).draw(10.0, 0.0, 50.0)
        assert (text.x, text.anchor) == (pytest.approx(at), anchor)
        first, second = Lines(two, SIZE, INK, align=align).draw(10.0, 0.0, 50.0)
        spare = {Anchor.START: 0.0, Anchor.MIDDLE: (50.0 - runs_width) / 2,
                 Anchor.END: 50.0 - runs_width}[align]
        assert first.x == pytest.approx(10.0 + spare) and first.anchor is Anchor.START
        assert second.x == pytest.approx(first.x + FONTS.bold.width("Bold ", SIZE))


def test_a_puzzle_caption_is_centred_line_box_under_line_box():
    from cardgen.prepress.puzzlebook import caption_items

    first, second = caption_items(20.0, 100.0, 40.0, ["Puzzle 1 · easy", "R1:ID"], FONTS,
                                  7.0, small=6.0)
    assert isinstance(first, Text) and isinstance(second, Text)
    assert (first.x, first.anchor, first.font) == (40.0, Anchor.MIDDLE, FONTS.bold)
    assert first.y == pytest.approx(100.0 + cap(7.0))
    assert second.y == pytest.approx(100.0 + line_height(7.0) + cap(6.0))
    assert (second.size, second.font) == (6.0, FONTS.regular)
