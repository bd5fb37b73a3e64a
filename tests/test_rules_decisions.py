"""docs/rules-decisions.md, the page of rules decisions (issue 21, point 9): it restates
every Node-game decision of SPEC §9.7 under its number, and each seed passage it quotes
is really in the seed it names. SPEC and the seeds are looked for in ``shared/`` beside
the repository, as the other tests do; without them those checks are skipped."""

from __future__ import annotations

import re
from functools import cache

import pytest

from tests.helpers import ROOT

PAGE = ROOT / "docs" / "rules-decisions.md"
SHARED = ROOT.parent / "shared"
SPEC = SHARED / "SPEC.md"
SEEDS = SHARED / "seeds"

# An attributed quote: `Seed 001: "…"`, `seed 000: "…"` or `Seeds 000 and 002: "…"`.
ATTRIBUTED = re.compile(r'[Ss]eeds? (\d{3}(?: and \d{3})*): "([^"]+)"')
# Words in quotation marks that are not seed passages: the page's own terms.
NOT_SEED = {"adjacent", "single, unified grid", "two left", "two or fewer", "Target",
            "no card twice", "fewer than four", "first move", "another player",
            "immediately", "always the same way",
            # README's sections, named where the page points to them
            "Deck check and attack referee", "Print geometry", "Connector"}


def _words(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9']+", text.lower().replace("’", "'")))


@cache
def _seeds() -> dict[str, str]:
    """Each seed's words, keyed by its number ("000"), spaced at both ends."""
    return {p.name[:3]: f" {_words(p.read_text(encoding='utf-8', errors='replace'))} "
            for p in sorted(SEEDS.glob("*.txt"))}


def _in(quote: str, seed: str) -> bool:
    """Whether every part of ``quote`` (parts split at an ellipsis) is in ``seed``."""
    return all(f" {_words(part)} " in seed for part in quote.split("…") if _words(part))


def _section(text: str, title: str) -> str:
    start = text.index(f"\n## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start:end if end >= 0 else len(text)]


def test_the_page_exists_and_readme_links_it():
    text = PAGE.read_text(encoding="utf-8")
    assert text.startswith("# Rules decisions\n")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "(docs/rules-decisions.md)" in readme


def test_the_node_games_decisions_are_numbered_1_to_55_in_order():
    node = _section(PAGE.read_text(encoding="utf-8"), "Reflector, Deflector and Defector")
    numbers = [int(n) for n in re.findall(r"^\*\*(\d+)\. ", node, flags=re.M)]
    assert numbers == list(range(1, 56))


def test_every_entry_gives_a_decision_and_a_reason():
    text = PAGE.read_text(encoding="utf-8")
    entries = re.split(r"\n\n(?=\*\*[A-Z]?\d+\. )", text)[1:]
    assert len(entries) >= 55 + 1 + 6 + 7
    for entry in entries:
        head = entry.split("\n", 1)[0]
        assert "\n- Decision: " in entry, head
        assert "\n- Why: " in entry, head
        quoted = re.search(r"[Ss]eeds? \d{3}", entry.split("\n- Decision: ")[0])
        assert quoted or "Silent." in entry, head


def test_the_ladder_rotator_and_connector_sections_hold_their_entries():
    text = PAGE.read_text(encoding="utf-8")
    assert re.findall(r"^\*\*(R\d+)\. ", _section(text, "Rotator"), re.M) == [
        "R1", "R2", "R3", "R4", "R5"]
    assert re.findall(r"^\*\*(L\d+)\. ", _section(text, "Corporate Ladder"), re.M) == [
        f"L{n}" for n in range(1, 9)]
    assert re.findall(r"^\*\*(C\d+)\. ", _section(text, "Connector"), re.M) == [
        "C1", "C2", "C3", "C4"]
    assert "Place for new entries" not in text and "<!--" not in text


@pytest.mark.skipif(not SPEC.is_file(), reason="SPEC.md is not next to the repo")
def test_every_decision_of_spec_9_7_is_on_the_page_with_its_seed_quotes():
    """Each row of SPEC §9.7 has an entry with the same number, and every seed passage
    the row quotes is quoted in that entry (or the entry says the seeds are silent)."""
    spec = SPEC.read_text(encoding="utf-8")
    table = spec[spec.index("### 9.7"):spec.index("### 9.8")]
    rows = {int(m[1]): m[2] for m in re.finditer(r"^\| (\d+) \| (.*?) \| ", table, re.M)}
    assert sorted(rows) == list(range(1, 56))
    node = _section(PAGE.read_text(encoding="utf-8"), "Reflector, Deflector and Defector")
    entries = dict(re.findall(r"^\*\*(\d+)\. (.*?)(?=^\*\*\d+\. |^### |\Z)", node,
                              flags=re.M | re.S))
    assert sorted(int(n) for n in entries) == list(range(1, 56))
    for number, seed_cell in rows.items():
        entry = " ".join(entries[str(number)].split())
        quotes = re.findall(r'"([^"]+)"', seed_cell)
        if not quotes:
            assert "Silent." in entry, number
        for quote in quotes:
            assert f'"{quote}' in entry or f'"{quote}"' in entry, (number, quote)


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the seed documents are not next to the repo")
def test_every_quote_occurs_in_the_seed_it_names():
    seeds = _seeds()
    text = " ".join(PAGE.read_text(encoding="utf-8").split())
    found = ATTRIBUTED.findall(text)
    assert len(found) >= 60
    for names, quote in found:
        for name in names.split(" and "):
            assert _in(quote, seeds[name]), f"seed {name} does not say {quote!r}"


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the seed documents are not next to the repo")
def test_every_other_quoted_passage_is_a_seeds_too():
    """Words quoted in a reason are seed words as well, unless they are the page's own
    terms (NOT_SEED)."""
    seeds = _seeds()
    text = " ".join(PAGE.read_text(encoding="utf-8").split())
    text = ATTRIBUTED.sub("", text)
    for quote in re.findall(r'"([^"]+)"', text):
        if quote in NOT_SEED or not _words(quote):
            continue
        assert any(_in(quote, s) for s in seeds.values()), quote


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the seed documents are not next to the repo")
def test_the_quote_check_can_fail():
    assert not _in("the Target keeps every square forever", _seeds()["000"])
    assert _in("selects a location … any territory he owns", _seeds()["000"])
