"""The Corporate Ladder rules on one page: ``templates/rules/ladder.md`` set in columns
with the figure of the attackable rule (:mod:`cardgen.ladder.figures`).
"""

from __future__ import annotations

from cardgen.draw.page import Document
from cardgen.ladder.figures import AttackFigure
from cardgen.prepress.intents import paper_intent
from cardgen.prepress.paper import Paper
from cardgen.resources import templates_dir
from cardgen.rules.markup import load
from cardgen.rules.sheet import rules_pages
from cardgen.text.fonts import FontSet
from cardgen.texts import say


def rules_document(paper: Paper, fonts: FontSet) -> Document:
    """The Corporate Ladder rules on one page of ``paper``."""
    blocks = load(templates_dir() / "rules" / "ladder.md")
    pages = rules_pages(blocks, paper, fonts, credit=say("ladder_print", "rules.credit"),
                        figures={"ladder-attack": AttackFigure(fonts)},
                        where="the Corporate Ladder rules (templates/rules/ladder.md)")
    return Document(pages, title=say("ladder_print", "rules.title"),
                    subject=say("ladder_print", "rules.subject"),
                    output_intent=paper_intent(paper))
