"""Frozen copy of ``cardgen sheet --batch``'s making of its PDF before its sheets were
streamed (``cardgen.api.batch.make_sheets`` at the merge of issue 27's batch): every
card laid out and held, then every sheet imposed into one document, then the document
rendered. The baseline of benchmarks/bench_batch.py's sheet row (memory) and of the
tests that hold the streamed sheets to the same bytes (tests/test_api_batch.py). Not
used to make anything for users; do not change it.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from cardgen.api.batch import People, _by_line, _job, _jobs, _Laid, _lay_one
from cardgen.api.common import choice
from cardgen.card.batch import batch_error
from cardgen.card.spread import Spread
from cardgen.errors import CardgenError
from cardgen.games.rotator.workers import ordered_stream
from cardgen.prepress.impose import Duplex, Flip, impose_many, plan_sheet
from cardgen.prepress.paper import Paper
from cardgen.render import Format, render
from cardgen.text.fonts import bundled_fonts
from cardgen.texts import say


def sheets(group: People, *, paper: Any = "a4", flip: Any = "long",
           offset: tuple[float, float] = (0.0, 0.0), margin: float = 5.0,
           marks: bool = True, rgb: bool = False, jobs: int = 1) -> bytes:
    """The sheet PDF of ``make_sheets(group, ...)`` as it was made: all in memory."""
    duplex = Duplex(choice(Paper, paper, "paper"), choice(Flip, flip, "flip"),
                    offset, margin)
    job = _job("pdf", "file", None, None, False, None, None, rgb, None, False)
    laid: list[_Laid] = []
    problems: list[str] = list(group.problems)
    for card in ordered_stream(partial(_lay_one, job, group), range(len(group)),
                               _jobs(jobs), name="cardgen-sheet-worker"):
        if card.problem is not None:
            problems.append(card.problem)
        else:
            laid.append(card)
    if problems:
        raise batch_error(group.label, _by_line(problems))
    first = laid[0]
    size = first.size
    assert size is not None
    if any(card.size != size for card in laid) or len({c.intent for c in laid}) > 1:
        raise CardgenError("rows of different sizes or printing conditions")
    piece = Spread(size, marks=False).piece()
    layout = plan_sheet(piece, duplex)
    document = impose_many([card.sides for card in laid if card.sides is not None], piece,
                           layout, marks=marks, fonts=bundled_fonts(),
                           names=(say("card", "sheet.outside"), say("card", "sheet.inside")),
                           pieces=say("card", "sheet.pieces"),
                           title=say("card", "sheet.team_title", count=len(laid),
                                     paper=duplex.paper.upper()),
                           output_intent=first.intent)
    return render(document, [Format.PDF], cmyk=not rgb)[".pdf"]
