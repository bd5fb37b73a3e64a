"""Corporate Ladder: a card's type from its title (the table in templates/ladder), its
Strength from the first digit printed on its front panel, read like a page; `cardgen
card` says both, and the PDF read back with pdfplumber agrees."""

from __future__ import annotations

import json
from pathlib import Path

import pdfplumber
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from cardgen.card.spread import Spread
from cardgen.draw.geometry import Box
from cardgen.ladder.cards import LadderType, card_type, strength
from cardgen.physical.card import PRESETS, Preset
from tests.helpers import BASE_CONFIG, cli, examples, ok, sampled, write_config

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
    # The executives' acronyms are Upper Management: the rules name DIS among them.
    ("DIS", U), ("CEO", U), ("CFO", U), ("COO", U), ("CTO", U), ("CIO", U), ("CMO", U),
    ("CDO", U), ("CPO", U), ("CSO", U), ("EVP", U), ("SVP", U), ("VP", U), ("MD", U),
    ("DIS, Quillmoor Games", U), ("Co-CEO", U), ("CEO/Founder", U), ("C.E.O.", U),
    ("EVP Marketing", U), ("CTO & Lead Artist", U),
    # ...but only a listed acronym, as a whole word in capitals: not any three capitals.
    ("VFX Artist", A), ("QA Tester", OTHER), ("UX Designer", W), ("PR Officer", OTHER),
    ("UI Artist", A), ("SFX Designer", W), ("RPG Writer", W), ("Head of VFX", OTHER),
    ("CEOS", OTHER), ("Ceo", OTHER), ("dis", OTHER), ("Display Artist", A),
    ("DISTRIBUTOR", OTHER), ("Discord Moderator", OTHER), ("CEO2", OTHER),
])
def test_the_type_follows_from_the_title(title: str, expected: LadderType) -> None:
    assert card_type(title) is expected


TITLE_WORDS = st.sampled_from([
    "CEO", "DIS", "VFX", "C.E.O.", "Co-", "-", "/", "&", " ", " ", "Artist", "Writer",
    "Producer", "Freelance", "Journalist", "Intern", "Chief", "vp", "VP", "ceo", "é", "\t",
    "\u200b", "\x00", "?", "*", "(", "]", "\\"])


@settings(max_examples=examples(300), deadline=None)
@given(st.one_of(st.text(max_size=60), st.lists(TITLE_WORDS, max_size=12).map("".join)))
def test_fuzz_the_type_of_any_title(title: str) -> None:
    # Every title has a type and none raises, whatever its characters.
    assert card_type(title) in set(LadderType)


@settings(max_examples=examples(200), deadline=None)
@given(st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZ", min_size=2, max_size=4),
       st.sampled_from([("Artist", A), ("Writer", W), ("Tester", OTHER),
                        ("Producer", M)]))
def test_only_the_listed_acronyms_make_a_manager(letters: str, job: tuple[str, LadderType]
                                                ) -> None:
    # Capitals before a one-word job title make Upper Management exactly when they are a
    # listed executive acronym (C?O, DIS, VP, SVP, EVP, AVP, MD; a tie of one word each
    # goes to the type listed first); otherwise the job decides.
    executive = (len(letters) == 3 and letters[0] == "C" and letters[2] == "O") or letters in {
        "DIS", "VP", "SVP", "EVP", "AVP", "MD"}
    assume(card_type(letters.lower()) is OTHER)  # not a word of the table ("ART")
    title, kind = job
    assert card_type(f"{letters} {title}") is (U if executive else kind)
    assert card_type(letters) is (U if executive else OTHER)


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
    # The ability's line is printed above the contact lines, so its digit is read first.
    "ability": dict(name="Ada Example", title="Lead Writer",
                    extra='phone = "555 0100"\n[ladder]\nability = "Draw 2 cards."'),
}
EXPECTED = {"phone": (W, 4), "name": (A, 4), "title": (A, 9), "tagline": (OTHER, 1),
            "none": (F, 0), "ability": (W, 2)}


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


@pytest.mark.parametrize("case", sampled(list(CASES), "none", "ability"))
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


# --- the ability line and its signature box ----------------------------------------------

ABILITY = BASE_CONFIG + """tagline = "Small games for big tables."

[ladder]
ability = "{ability}"
"""


def _front(build):
    """The front panel's items (in the panel's frame) and its safe area."""
    from cardgen.draw.page import Group

    page = build.document.pages[0]
    group = next(i for i in page.layer("content").items
                 if isinstance(i, Group) and i.name == "front-panel")
    return group.items, build.geometry.panel_safe()


def _card(tmp_path: Path, ability: str, preset: str = "eu", theme: str = "dark",
          qr: str = '"vcard"'):
    from cardgen.card.build import build_card
    from cardgen.card.config import load_config

    text = ABILITY.format(ability=ability).replace('preset = "eu"', f'preset = "{preset}"')
    text = text.replace('theme = "dark"', f'theme = "{theme}"\nqr = {qr}')
    return build_card(load_config(write_config(tmp_path, text)))


@pytest.mark.parametrize(("preset", "theme", "ability"), [
    ("eu", "dark", "Look at the top card of the deck."),
    ("us", "light", "Look at the top card of the deck."),
    ("us", "dark", "Look at the top card of the deck."),
    ("eu", "light", "Once per game, when this card is attacked, swap it with a card from "
                    "your hand."),
])
def test_the_ability_is_printed_over_a_box_big_enough_to_sign(tmp_path, preset, theme,
                                                               ability):
    from cardgen.draw.page import Rect, Text
    from cardgen.text.fit import text_box

    build = _card(tmp_path, ability, preset, theme)
    items, safe = _front(build)
    texts = [i for i in items if isinstance(i, Text)]
    lines = [t for t in texts if t.name and t.name.startswith("ladder-ability")]
    printed = " ".join(t.text for t in lines)
    assert printed == f"CL: {ability}"
    assert len(lines) == (1 if len(ability) < 40 else 2)  # a long one breaks in two
    boxes = [i for i in items if isinstance(i, Rect) and i.stroke is not None]
    assert len(boxes) == 1
    box = Box(boxes[0].x, boxes[0].y, boxes[0].w, boxes[0].h)
    assert box.w >= 28 - 0.2 and box.h >= 9 - 0.2  # room for a pen
    # Inside the safe zone, under the ability, above the contact lines, clear of all text.
    assert safe.x - 1e-6 <= box.x and box.right <= safe.right + 1e-6
    assert safe.y <= box.y and box.bottom <= safe.bottom
    for t in texts:
        b = text_box(t)
        assert safe.x - 1e-6 <= b.x and b.right <= safe.right + 1e-6
        if t.name and t.name.startswith("ladder-signature"):
            assert box.x <= b.x and b.bottom <= box.bottom
            continue
        assert b.bottom <= box.y or b.y >= box.bottom, t.text
        if t in lines:
            assert b.bottom <= box.y
        elif t.name and t.name.startswith("person-email"):
            assert b.y >= box.bottom
    assert build.ladder is not None and build.ladder.strength.value == 1  # +1 555…


def test_a_cl_the_user_wrote_is_not_doubled(tmp_path):
    from cardgen.draw.page import Text

    items, _ = _front(_card(tmp_path, "cl: Draw a card."))
    assert [i.text for i in items if isinstance(i, Text)
            and i.name == "ladder-ability"] == ["CL: Draw a card."]


def test_without_an_ability_there_is_no_box(tmp_path):
    from cardgen.card.build import build_card
    from cardgen.card.config import load_config
    from cardgen.draw.page import Text

    build = build_card(load_config(write_config(tmp_path)))
    items, _ = _front(build)
    assert not [i for i in items if isinstance(i, Text) and "signature" in (i.name or "")]


@pytest.mark.parametrize(("ability", "message"), [
    ("x" * 121, r"card\.toml: ladder\.ability is 121 characters long: .*; at most 120 fit"),
    ("Supercalifragilisticexpialidociousness" * 3,
     r"^ladder\.ability \('Supercal.*'\) does not fit: it needs"),
    ("Draw\\u0007 a card", r"ladder\.ability must not contain control characters"),
    # Two lines and the box do not fit the us card's height beside the other lines.
    ("Once per game, when this card is attacked, swap it with a card from your hand.",
     r"^ladder\.ability does not fit on the front panel: .* shorten the ability \(it "
     r"takes two lines\), or leave out the tagline or a contact line\.$"),
])
def test_an_ability_that_cannot_be_printed_is_named(tmp_path, ability, message):
    from cardgen.errors import CardgenError

    with pytest.raises(CardgenError, match=message):
        _card(tmp_path, ability, preset="us")


def test_the_box_needs_room_beside_the_qr_code(tmp_path):
    """A custom size so narrow that the box no longer fits beside the QR code is
    refused with the fix; without the QR code it fits."""
    from cardgen.errors import CardgenError

    narrow = ABILITY.format(ability="Draw.").replace(
        'preset = "eu"', "width_mm = 61\nheight_mm = 60")
    from cardgen.card.build import build_card
    from cardgen.card.config import load_config

    with pytest.raises(CardgenError, match=r"^ladder\.ability: the box to sign it in needs "
                                           r"28 mm of width .*set card\.qr = false"):
        build_card(load_config(write_config(tmp_path, narrow)))
    build_card(load_config(write_config(tmp_path, narrow.replace(
        'theme = "dark"', 'theme = "dark"\nqr = false'))))


def test_the_signature_colours_keep_the_ink_rule(tmp_path):
    """The box's outline and label are fine lines and small type: a tint is refused."""
    from cardgen.card.themes import load_theme, theme_path
    from cardgen.errors import ConfigError

    text = theme_path("light").read_text(encoding="utf-8").replace(
        "qr_modules = [0, 0, 0, 100]", "qr_modules = [0, 0, 0, 100]\n"
                                       "signature_line = [0, 0, 0, 60]")
    (tmp_path / "t.toml").write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match=r"outside\.signature_line"):
        load_theme(str(tmp_path / "t.toml"))
