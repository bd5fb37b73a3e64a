"""Issue 21, point 11: every shipped Connector answer (eu and us, all four games) stays
valid and reads the same text when its cards lie anywhere within the connection
tolerance, as cards laid by hand do.

Each card hangs on the card it is joined to (card 1 on the table): moving a card moves
the cards laid on it. The systematic shakes of :mod:`cardgen.connector.tolerance` (one
connection off in eight directions, one card off alone, and every pair of cards drawn
apart along the connections between them) are all judged, and hypothesis draws every
connection's offset at once, anywhere in the tolerance's disc."""

from __future__ import annotations

import math

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from cardgen.connector.assembly import read_assembly, shipped_assembly_path
from cardgen.connector.layout import bundled_layout
from cardgen.connector.model import Assembly, Placement, Tabs
from cardgen.connector.tolerance import (
    REACH,
    connection_offsets,
    connection_tree,
    fragile,
    shaken,
    shakes,
)
from cardgen.connector.validate import TOLERANCE, Report, validate
from cardgen.games.names import CONNECTOR_GAMES, GameName
from cardgen.physical.card import Preset
from tests.helpers import examples, sampled

SHIPPED = [(game, preset) for preset in Preset for game in CONNECTOR_GAMES]
# Each game's EU answer in the quick loop; the US answers (the same model, other card
# sizes) in the full run.
QUICK = [(game, Preset.EU) for game in CONNECTOR_GAMES]


def _shipped(game: GameName, preset: Preset) -> tuple[Assembly, Report]:
    assembly = read_assembly(shipped_assembly_path(game, preset))
    report = validate(bundled_layout(preset), assembly)
    assert report.valid, report.problems
    return assembly, report


@pytest.mark.parametrize(("game", "preset"), sampled(SHIPPED, *QUICK))
def test_every_shake_within_the_tolerance_reads_the_same(game: GameName, preset: Preset) -> None:
    assembly, report = _shipped(game, preset)
    layout = bundled_layout(preset)
    names = []
    for name, shift in shakes(report):
        moved = validate(layout, shaken(assembly, shift))
        assert moved.valid, (name, moved.problems)
        assert moved.text == report.text == report.description, name
        assert len(moved.connections) >= len(report.connections), name
        names.append(name)
    if report.cards > 1:  # the connections were really moved to the tolerance's edge
        assert len(names) >= 16 * (report.cards - 1)
        assert any(f"drawn {TOLERANCE:g} mm apart" in n for n in names)


def _disc() -> st.SearchStrategy[tuple[float, float]]:
    return st.tuples(st.floats(0, REACH), st.floats(0, 2 * math.pi)).map(
        lambda ra: (ra[0] * math.cos(ra[1]), ra[0] * math.sin(ra[1])))


@pytest.mark.parametrize(("game", "preset"), sampled(
    [(g, p) for g, p in SHIPPED if g is not GameName.ROTATOR], *QUICK))
@settings(max_examples=examples(60), deadline=None)
@given(data=st.data())
def test_any_offsets_at_every_connection_at_once_read_the_same(
        game: GameName, preset: Preset, data: st.DataObject) -> None:
    """Each card lands anywhere within the tolerance of where the card it is joined to
    puts it, all at once (drifts add up along a chain of connections)."""
    assembly, report = _shipped(game, preset)
    parent = connection_tree(report)
    offsets = {card: data.draw(_disc(), label=f"card {card + 1}") for card in sorted(parent)}

    def moved(card: int) -> tuple[float, float]:
        if card not in parent:
            return (0.0, 0.0)
        px, py = moved(parent[card])
        return px + offsets[card][0], py + offsets[card][1]

    cards = tuple(Placement(c.x + moved(i)[0], c.y + moved(i)[1], c.rotation, c.tabs)
                  for i, c in enumerate(assembly.cards))
    # A card joined by two connections is held by both: an attempt keeps every one of
    # them within the tolerance.
    for (upper, lower, _), (ox, oy) in connection_offsets(report).items():
        (ux, uy), (lx, ly) = moved(upper), moved(lower)
        assume(math.hypot(ox + ux - lx, oy + uy - ly) <= REACH)
    result = validate(bundled_layout(preset), Assembly(game, assembly.preset, cards))
    assert result.valid, (offsets, result.problems)
    assert result.text == report.description, offsets


def test_the_old_defector_answer_was_fragile() -> None:
    """The eu Defector answer shipped before: two of its fragments 8 cm apart with tops
    4 mm apart changed places with each connection between their cards 1.5 mm off."""
    old = Assembly(GameName.DEFECTOR, "eu", (
        Placement(0.0, 0.0, 270, Tabs.FOLDED), Placement(-17.4, 42.9, 90, Tabs.OPEN),
        Placement(9.0, 81.8, 180, Tabs.OPEN), Placement(-102.7, 46.9, 90, Tabs.FOLDED),
        Placement(-70.3, 64.8, 0, Tabs.OPEN), Placement(-29.9, 108.2, 270, Tabs.OPEN)))
    layout = bundled_layout(Preset.EU)
    report = validate(layout, old)
    assert report.valid
    why = fragile(layout, old, report)
    assert why is not None and "drawn 1.5 mm apart" in why and "the description is" in why
