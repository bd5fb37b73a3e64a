"""Corporate Ladder: a card's type from its title (the table in templates/ladder), its
Strength from the first digit printed on its front panel, read like a page; `cardgen
card` says both, and the PDF read back with pdfplumber agrees."""

from __future__ import annotations

import json
from pathlib import Path

import pdfplumber
import pytest

from cardgen.card.physical import PRESETS, Preset
from cardgen.card.spread import Spread
from cardgen.draw.geometry import Box
from cardgen.ladder.cards import LadderType, card_type, strength
from tests.helpers import cli, ok, write_config

U, M, W, A, P, F, OTHER = (LadderType.UPPER, LadderType.MIDDLE, LadderType.WORDSMITH,
                       LadderType.ARTIST, LadderType.PRESS, LadderType.FREELANCER,
                       LadderType.OTHER)


@pytest.mark.parametrize(("title", "expected"), [
    ("CEO", U), ("Founder & CFO", U), ("Chief Technology Officer", U), ("President", U),
    ("Co-Founder", U), ("Owner", U), ("VP of Fun", U), ("Managing Director", U),
    ("Producer", M), ("Art Director", M), ("Senior Art Director", M), ("Line Manager", M),
    ("Artistic Director", M),  # "art" is a whole word only; "director" matches
    ("Game Designer", W), ("Lead Game Designer", W), ("Writer", W), ("Editor", W),
    ("Artist", A), ("Graphic Designer", A), ("Illustrator", A), ("Layout Artist", A),
    ("Journalist", P), ("Reviewer", P), ("Press Officer", P), ("Editor-in-Chief", P),
    ("Freelance Game Designer", F), ("Independent Producer", F), ("freelance CEO", F),
    ("Intern", OTHER), ("QA Tester", OTHER), ("Janitor", OTHER), ("", OTHER),
    ("coo", OTHER),  # acronyms match in capitals only
    ("Chief Illustrator", U),  # as long as "illustrator": the type listed first wins
])
def test_the_type_follows_from_the_title(title: str, expected: LadderType) -> None:
    assert card_type(title) is expected


def test_strength_is_the_first_digit_read_like_a_page() -> None:
    # Listed address first, but the phone line is higher on the card: the phone wins.
    address = (Box(10, 30, 40, 2), "Unit 7, Harbour Road")
    phone = (Box(10, 26, 30, 2), "+44 20 7946 0958")
    name = (Box(10, 5, 30, 4), "Robin Vale")
    assert strength([address, phone, name]).value == 4
    assert strength([address, phone, name]).line == "+44 20 7946 0958"
    # On one line, left before right.
    left, right = (Box(0, 10, 5, 2), "x 3"), (Box(20, 10.5, 5, 2), "9")
    assert strength([right, left]).value == 3
    assert strength([name]).value == 0 and strength([name]).line is None
    assert strength([]).value == 0


CONFIG = """\
[card]
preset = "{preset}"
qr = false

[person]
name = "{name}"
title = "{title}"
company = "Example Games"
email = "ada@example.org"
{extra}
"""
CASES = {
    "phone": dict(name="Ada Example", title="Game Designer",
                  extra='phone = "+44 20 7946 0958"\naddress = "Unit 7, Harbour Road"'),
    "name": dict(name="Agent 47", title="Artist", extra='phone = "555 0100"'),
    "title": dict(name="Ada Example", title="Level 9 Illustrator", extra='phone = "5 0100"'),
    "tagline": dict(name="Ada Example", title="Intern", extra='tagline = "Since 1999"'),
    "none": dict(name="Ada Example", title="Freelance Writer", extra=""),
}
EXPECTED = {"phone": (W, 4), "name": (A, 4), "title": (A, 9), "tagline": (OTHER, 1),
            "none": (F, 0)}


def _first_digit_in_pdf(pdf: Path, preset: Preset) -> int:
    """The first digit on the front panel of card.pdf, read by pdfplumber: words in
    lines by their top, each line left to right."""
    front = Spread(PRESETS[preset]).geometry.front
    pt = 72 / 25.4
    with pdfplumber.open(pdf) as doc:
        page = doc.pages[0]
        words = [w for w in page.extract_words()
                 if front.y * pt < w["top"] < front.bottom * pt
                 and front.x * pt < w["x0"] < front.right * pt]
    words.sort(key=lambda w: (w["top"], w["x0"]))
    lines: list[list[dict[str, float | str]]] = []
    for w in words:
        if lines and abs(float(w["top"]) - float(lines[-1][0]["top"])) < 2:
            lines[-1].append(w)
        else:
            lines.append([w])
    text = " ".join(str(w["text"]) for line in lines
                    for w in sorted(line, key=lambda w: float(w["x0"])))
    return next((int(c) for c in text if c.isdigit()), 0)


@pytest.mark.parametrize("case", list(CASES))
def test_card_reports_the_ladder_card_the_pdf_shows(tmp_path: Path, case: str) -> None:
    preset = Preset.US if case == "title" else Preset.EU
    config = write_config(tmp_path, CONFIG.format(preset=preset.value, **CASES[case]))
    result = ok(cli("card", config, "-o", tmp_path / "out", "-f", "pdf", "--json"))
    ladder = json.loads(result.stdout)["ladder"]
    kind, value = EXPECTED[case]
    assert (ladder["type"], ladder["strength"]) == (kind.value, value)
    assert _first_digit_in_pdf(tmp_path / "out" / "card.pdf", preset) == value
    said = ok(cli("card", config, "-o", tmp_path / "out2", "-f", "pdf")).stdout
    assert f"Corporate Ladder: {kind.value}, Strength {value}" in said
