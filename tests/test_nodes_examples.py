"""The Node chapters' worked examples (issue 24 point 4): every picture is the engine's
position after a move of a shipped record, and every mark on it is a fact of the engine's
state or report (cardgen.games.nodes.figures, ``reflector-exchange``,
``deflector-chain``, ``deflector-fired``)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from cardgen.draw.page import Group, Item, Text, walk
from cardgen.games.nodes import engine
from cardgen.games.nodes.figures import (
    EXAMPLE_FIGURES,
    FIGURES,
    ExampleFigure,
    Step,
    legs,
    shipped,
    step_lines,
    worked,
)
from cardgen.games.nodes.game import DEFLECTOR, REFLECTOR
from cardgen.games.nodes.record import Answer, Record, Shot, Spot, spot_name
from cardgen.games.nodes.state import Fact
from cardgen.text.fonts import bundled_fonts

FONTS = bundled_fonts()
WIDTH = 118.0  # the rules book's column, about


def _groups(items: list[Item]) -> dict[str, Group]:
    return {i.name: i for i in items if isinstance(i, Group) and i.name}


def _marks(group: Group) -> set[str]:
    """The names of the marks inside one move's picture (its grids' groups included)."""
    found: set[str] = set()
    for item in group.items:
        if isinstance(item, Group) and item.name:
            if item.name == "table":  # the joins and seats, drawn as in table-4-full
                continue
            if item.name.startswith("grid "):
                found |= {g.name for g in item.items if isinstance(g, Group) and g.name}
            else:
                found.add(item.name)
    return found


def expected(step: Step) -> set[str]:
    """Every mark the engine's state and report call for, worked out here from them."""
    st, r = step.state, step.report

    def n(kind: str, *spots: Spot) -> str:
        return " ".join([kind, *(spot_name(s) for s in spots)])

    out = {n("shade", s) for s, f in st.facts.items() if Fact.COVERED in f}
    out |= {n("symbol", s) for s in st.marks if not st.setup.is_node(s)}
    out |= {n("slash", s) for s in st.used}
    out |= {n("captured" if s in st.marks else "node", s)
            for s, f in st.facts.items() if Fact.NODE in f}
    out |= {n("kept", s) for s in r.kept}
    out |= {n("won", s) for spots in r.won.values() for s in spots}
    out |= {n("territory", s) for s in r.captured}
    out.add(n("shot", r.path[0]))
    if r.reflection is not None:
        out.add(n("reflected", r.reflection.at))
    landings = list(zip(r.path, r.answers, strict=True))
    chain = [(None, *a) for a in landings]
    for fired in r.fired:
        prev = fired.source
        for spot, answer in zip(fired.path, fired.answers, strict=True):
            chain.append((prev, spot, answer))
            prev = spot
    if len(chain) > 1:
        prev = None
        for i, (start, spot, _) in enumerate(chain):
            out.add(n("landing", spot))
            begin = start if start is not None else (prev if i < len(r.path) else None)
            if begin is not None:
                out.add(n("leg", begin, spot))
            prev = spot
    return out


@pytest.mark.parametrize("name", sorted(EXAMPLE_FIGURES))
def test_every_mark_drawn_is_a_fact_of_the_engine(name):
    record_name, moves = EXAMPLE_FIGURES[name]
    steps = worked(shipped(record_name), moves)
    drawn = _groups(FIGURES[name](FONTS).draw(0, 0, WIDTH))
    assert set(drawn) == ({f"move {s.move}" for s in steps}
                          | {f"move {s.move} words" for s in steps} | {"key"})
    for step in steps:
        assert _marks(drawn[f"move {step.move}"]) == expected(step), step.move


def test_the_examples_show_what_the_chapters_say():
    """Reflector's moves 5 and 6: a capture with kept spaces and a reflection each, and a
    revealed Node; move 8 a Node conceded by reflection. Deflector's move 5: a chain of
    three landings won by the original Target; move 6: a capture that fires two
    Deflectors."""
    five, six = worked(shipped("reflector"), (5, 6))
    assert five.report.captured and five.report.kept and five.report.reflection
    assert six.report.revealed and six.report.reflection
    [eight] = worked(shipped("reflector"), (8,))  # the reflection gives a Node away
    assert eight.report.reflection and eight.report.reflection.at in eight.report.captured
    chain, fired = worked(shipped("deflector"), (5, 6))
    assert chain.report.answers == (Answer.DEFLECTOR, Answer.DEFLECTOR, Answer.OWNED)
    assert chain.report.won == {"P3": (("P1", 5, 1),)}
    assert len(fired.report.fired) == 2 and fired.report.kept


def test_the_words_under_a_picture_tell_the_engines_report():
    record = shipped("deflector")
    [chain] = worked(record, (5,))
    lines = step_lines(record, chain)
    assert lines[0] == "Move 5: Ann names Cy’s F1."
    assert [line.split(": ")[1].split(",")[0] for line in lines[1:]] == [
        a.value for a in chain.report.answers]
    assert "won by Cy" in lines[-1]
    drawn = FIGURES["deflector-chain"](FONTS).draw(0, 0, WIDTH)
    texts = " ".join(t.text for t, _ in walk(drawn) if isinstance(t, Text))
    assert all(line in texts for line in lines)


def test_a_changed_record_changes_the_picture():
    """Nothing is placed by hand: move a Node or change a shot, and the picture follows."""
    record = shipped("reflector")
    fig = ExampleFigure(FONTS, "reflector", (5,))
    before = _marks(_groups(fig.draw(0, 0, WIDTH))["move 5"])
    # Bob's B2 is no Node any more: Ann's fifth shot just wins an Owned space.
    bob = record.players[1]
    moved = replace(record, players=(record.players[0],
                                     replace(bob, nodes=((9, 1), *bob.nodes[1:]))))
    after = _marks(_groups(replace(fig, record=moved).draw(0, 0, WIDTH))["move 5"])
    assert "territory P2:B2" in before and "territory P2:B2" not in after
    assert "kept P2:C3" not in after and "won P2:B2" in after
    # Another fifth shot: C1, next to Ann's C2.
    shot = replace(record, moves=(*record.moves[:4], Shot("P1", ("P2", 2, 1))))
    other = _marks(_groups(replace(fig, record=shot).draw(0, 0, WIDTH))["move 5"])
    assert "shot P2:C1" in other and "shot P2:B2" not in other
    assert "reflected P1:C1" in other


def test_a_worked_example_names_moves_its_record_has():
    record = shipped("reflector")
    with pytest.raises(ValueError, match="moves 1 to 9"):
        worked(record, (12,))


def test_legs_follow_the_shot_and_each_fired_deflector():
    [fired] = worked(shipped("deflector"), (6,))
    found = legs(fired.report)
    assert [spot_name(leg.land) for leg in found] == ["P1:B3", "P4:A2", "P4:C4"]
    assert [spot_name(leg.start) if leg.start else None for leg in found] == [
        None, "P1:A2", "P1:C4"]


def test_the_games_list_their_examples_for_the_rules_text():
    assert "reflector-exchange" in REFLECTOR.figures()
    assert {"deflector-chain", "deflector-fired"} <= set(DEFLECTOR.figures())


def test_an_example_plays_through_the_engine_not_beside_it():
    """The position drawn is the engine's: replaying the record to the move gives it."""
    record: Record = shipped("reflector")
    [step] = worked(record, (6,))
    state = engine.start(record)
    for move in record.moves[:6]:
        state, report = engine.push(state, move)
    assert state.marks == step.state.marks and report.won == step.report.won
