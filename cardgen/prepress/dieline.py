"""The dieline: where a die cuts and scores, on its own non-printing layer.

Cuts are solid lines in the spot colour ``CutContour``, scores (folds) dashed lines in
the spot colour ``Score``, both hairlines that overprint: the convention print shops'
RIPs and cutting tables read. The layer never reaches the printed pages; it becomes its
own PDF page and its own SVG/PNG file.
"""

from __future__ import annotations

from collections.abc import Sequence

from cardgen.draw.colors import Color
from cardgen.draw.geometry import Segment
from cardgen.draw.page import Item, Line, Stroke

CUT_CONTOUR = Color.cmyk(0, 100, 0, 0, spot="CutContour", overprint=True)
SCORE_LINE = Color.cmyk(100, 0, 0, 0, spot="Score", overprint=True)
CUT_STROKE = Stroke(CUT_CONTOUR, 0.1)
SCORE_STROKE = Stroke(SCORE_LINE, 0.1, dash=(1.5, 1.0))
DIELINE_LAYER = "dieline"


def dieline_items(cuts: Sequence[Segment], scores: Sequence[Segment]) -> list[Item]:
    """The cut lines, then the score lines."""
    items: list[Item] = [Line(*p1, *p2, CUT_STROKE) for p1, p2 in cuts]
    items += [Line(*p1, *p2, SCORE_STROKE) for p1, p2 in scores]
    return items
