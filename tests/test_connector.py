"""The Connector's model, validator, solver and layout checker.

The geometric facts are re-derived here independently (corners of turned cards, what a
folded tab covers, box subtraction by area), the shipped assemblies validate, every
small disturbance of a multi-card assembly fails for the right reason, and the solver's
minima are pinned: 1, 2, 3 and 6 cards for both card sizes.
"""

from __future__ import annotations

import dataclasses
import re
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.bench_connector import plain_overlaps
from cardgen.connector.assembly import read_assembly, shipped_assembly_path
from cardgen.connector.check import fit_problems, game_problems, placement_problems
from cardgen.connector.layout import bundled_layout, card_shape
from cardgen.connector.model import (
    Assembly,
    Cover,
    Face,
    Fragment,
    Placed,
    Placement,
    Tabs,
    _transformed,
    cover_of,
    overlaps,
    read_text,
    reading_order,
    subtract,
)
from cardgen.connector.solve import solve
from cardgen.connector.validate import TOLERANCE, AssemblyProblem, Report, validate
from cardgen.draw.geometry import Box
from cardgen.games.names import CONNECTOR_GAMES, GameName
from cardgen.physical.card import PRESETS, CardGeometry, Preset, Tab
from cardgen.text.fonts import bundled_fonts
from tests.helpers import examples

PLAYERS = {GameName.ROTATOR: 1, GameName.REFLECTOR: 2, GameName.DEFLECTOR: 3, GameName.DEFECTOR: 6}
CASES = [(g, p) for p in Preset for g in CONNECTOR_GAMES]


def shipped(game: GameName, preset: Preset) -> Assembly:
    return read_assembly(shipped_assembly_path(game, preset))


def with_cards(assembly: Assembly, cards: list[Placement]) -> Assembly:
    return dataclasses.replace(assembly, cards=tuple(cards))


# --- geometry -------------------------------------------------------------------------


@pytest.mark.parametrize("preset", list(Preset))
def test_faces_follow_the_physical_fold(preset: Preset) -> None:
    g = CardGeometry(PRESETS[preset])
    shape = card_shape(g)
    # Folded back about its hinge, a tab lies from the hinge inwards, as wide as it is.
    for tab, footprint in ((Tab.FIVE, shape.tab5), (Tab.SIX, shape.tab6)):
        assert footprint.w == pytest.approx(g.tabs[tab].w)
    assert shape.tab5.x == pytest.approx(g.tabs[Tab.FIVE].w)  # tab 5: the back's left
    assert shape.tab6.right == pytest.approx(g.size.width - g.tabs[Tab.SIX].w)
    assert [f for f, _ in shape.faces(Tabs.OPEN)] == [Face.BACK]
    folded = shape.faces(Tabs.FOLDED)
    assert [f for f, _ in folded] == [Face.STRIP, Face.BACK, Face.TAB5, Face.TAB6]
    back = folded[1][1]
    assert (back.x, back.right) == pytest.approx((shape.hinge5, shape.hinge6))


def test_a_turned_card_lies_where_a_person_would_put_it() -> None:
    shape = bundled_layout(Preset.EU).shape
    w, h = shape.width, shape.height
    for rotation, top_left in ((0, (-w / 2, -h / 2)), (90, (h / 2, -w / 2)),
                               (180, (w / 2, h / 2)), (270, (-h / 2, w / 2))):
        t = Placement(10, 20, rotation).transform(shape)
        assert t.apply(w / 2, h / 2) == pytest.approx((10, 20))
        x, y = t.apply(0, 0)  # the back panel's top-left corner as read
        assert (x - 10, y - 20) == pytest.approx(top_left)


def test_box_subtraction_and_cover() -> None:
    a = Box(0, 0, 10, 4)
    assert subtract(a, Box(20, 0, 1, 1)) == [a]
    assert subtract(a, Box(-1, -1, 12, 6)) == []
    assert cover_of(a, [(0, Box(5, 0, 10, 10))]) == (Cover.PARTLY, [0])
    assert cover_of(a, [(0, Box(0, 0, 5, 4)), (1, Box(5, 0, 5, 4))]) == (Cover.COVERED,
                                                                           [0, 1])
    assert cover_of(a, [(2, Box(10, 0, 5, 4))]) == (Cover.VISIBLE, [])  # touching edges


@settings(max_examples=examples(150), deadline=None)
@given(st.tuples(*[st.integers(-20, 20)] * 4), st.tuples(*[st.integers(-20, 20)] * 4))
def test_subtraction_keeps_exactly_the_uncovered_area(a4: tuple[int, ...],
                                                      b4: tuple[int, ...]) -> None:
    a = Box(a4[0], a4[1], abs(a4[2]) + 1, abs(a4[3]) + 1)
    b = Box(b4[0], b4[1], abs(b4[2]) + 1, abs(b4[3]) + 1)
    pieces = subtract(a, b)
    overlap_w = max(0.0, min(a.right, b.right) - max(a.x, b.x))
    overlap_h = max(0.0, min(a.bottom, b.bottom) - max(a.y, b.y))
    assert sum(p.w * p.h for p in pieces) == pytest.approx(a.w * a.h - overlap_w * overlap_h)
    for p, q in combinations(pieces, 2):
        assert not p.intersects(q)
    for p in pieces:
        assert a.contains_box(p) and not p.intersects(b)


# Coordinates in tenths of a millimetre and sizes down to nothing: boxes that touch, share
# an edge, nest, lie apart or overlap by less than AREA_EPS.
COORD = st.integers(-200, 200).map(lambda n: n / 10)
SIZE = st.integers(0, 200).map(lambda n: n / 10) | st.sampled_from([0.0, 1e-7, 1e-3])


@settings(max_examples=examples(300), deadline=None, derandomize=True)
@given(st.tuples(COORD, COORD, SIZE, SIZE), st.tuples(COORD, COORD, SIZE, SIZE))
def test_overlaps_written_out_is_overlaps_on_the_properties(a4: tuple[float, ...],
                                                            b4: tuple[float, ...]) -> None:
    a, b = Box(*a4), Box(*b4)
    assert overlaps(a, b) is plain_overlaps(a, b)
    assert overlaps(b, a) is plain_overlaps(b, a)


@settings(max_examples=examples(200), deadline=None, derandomize=True)
@given(st.tuples(COORD, COORD, SIZE, SIZE), COORD, COORD,
       st.sampled_from([0, 90, 180, 270]))
def test_a_scene_places_boxes_as_box_transformed_does(box4: tuple[float, ...], x: float,
                                                      y: float, rotation: int) -> None:
    shape = bundled_layout(Preset.EU).shape
    t = Placement(x, y, rotation).transform(shape)
    box = Box(*box4)
    assert _transformed(box, t) == box.transformed(t)  # the same floats, bit for bit


def test_what_a_card_shows_is_found_once_and_is_what_it_shows() -> None:
    layout = bundled_layout(Preset.US)
    for tabs in Tabs:
        first = layout.present(tabs)
        assert first == layout._find_present(tabs)  # the remembered answer is the answer
        first[0].clear()  # a caller's list is its own
        assert layout.present(tabs) == layout._find_present(tabs)


def _placed(text: str, x: float, y: float, h: float = 2.0) -> Placed:
    frag = Fragment(text, GameName.REFLECTOR, Face.BACK, Box(x, y, 10, h))
    return Placed(0, 0, frag, frag.box)


def test_reading_order_is_lines_from_the_top_each_left_to_right() -> None:
    parts = [_placed("d", 0, 10), _placed("b", 20, 0.5), _placed("a", 5, 0),
             _placed("c", 40, 0.9)]
    assert read_text(parts) == "a b c d"
    # A box more than half a line lower starts a new line, wherever it lies across.
    assert [p.item.text for p in reading_order([_placed("x", 50, 0), _placed("y", 0, 1.2)])
            ] == ["x", "y"]


# --- the shipped layout and assemblies ----------------------------------------------------


@pytest.mark.parametrize("preset", list(Preset))
def test_the_shipped_layout_keeps_clear_of_cuts_and_scores_and_fits(preset: Preset) -> None:
    layout = bundled_layout(preset)
    assert placement_problems(layout) == []
    assert fit_problems(layout, bundled_fonts().regular.width) == []
    assert all(f.size >= 6 for f in layout.fragments)
    # The layout's descriptions are the product's own words, one per game.
    assert set(layout.descriptions) == set(CONNECTOR_GAMES)
    assert layout.players == PLAYERS


@pytest.mark.parametrize(("game", "preset"), CASES)
def test_every_shipped_assembly_spells_its_description(game: GameName, preset: Preset) -> None:
    assembly = shipped(game, preset)
    assert assembly.game is game and assembly.preset == preset.value
    report = validate(bundled_layout(preset), assembly)
    assert report.problems == []
    assert report.valid and report.cards == PLAYERS[game]
    assert report.text == " ".join(bundled_layout(preset).descriptions[game].split())
    assert len(report.connections) >= report.cards - 1


def _moves(assembly: Assembly) -> list[tuple[str, int, Assembly]]:
    """Every disturbance the issue names: each card moved 2 mm in x or y either way,
    turned 90°, dropped, or (if folded) unfolded."""
    cards = list(assembly.cards)
    out = []
    for i, c in enumerate(cards):
        for dx, dy in ((2, 0), (-2, 0), (0, 2), (0, -2)):
            moved = cards.copy()
            moved[i] = dataclasses.replace(c, x=c.x + dx, y=c.y + dy)
            out.append(("move", i, with_cards(assembly, moved)))
        turned = cards.copy()
        turned[i] = dataclasses.replace(c, rotation=(c.rotation + 90) % 360)
        out.append(("turn", i, with_cards(assembly, turned)))
        out.append(("drop", i, with_cards(assembly, cards[:i] + cards[i + 1:])))
        if c.tabs is Tabs.FOLDED:
            opened = cards.copy()
            opened[i] = dataclasses.replace(c, tabs=Tabs.OPEN)
            out.append(("unfold", i, with_cards(assembly, opened)))
    return out


@pytest.mark.parametrize(("game", "preset"),
                         [(g, p) for g, p in CASES if g is not GameName.ROTATOR])
def test_every_disturbance_fails_for_the_right_reason(game: GameName, preset: Preset) -> None:
    layout = bundled_layout(preset)
    colour = layout.colour_names[game]
    for kind, i, assembly in _moves(shipped(game, preset)):
        report = validate(layout, assembly)
        assert not report.valid, (kind, i)
        said = " ".join(report.problems)
        card = f"card {i + 1}"
        if kind == "move":
            # Its connections are now near misses: the offset is named, with the card.
            assert re.search(rf"{card}\b.*2\.0 mm|2\.0 mm.*{card}\b", said), (kind, i, said)
        elif kind == "drop":
            assert f"the visible upright {colour} text reads" in said, (kind, i, said)
        else:
            # Turned or unfolded: its corner numbers are elsewhere or gone, so it is no
            # longer joined (or no longer joins the others), or its text changed.
            assert card in said or f"{colour} text reads" in said, (kind, i, said)
            assert any(card in p or "not connected" in p or "text reads" in p
                       for p in report.problems)


def _what_counts(report: Report, renumber: dict[int, int]) -> tuple[frozenset[object], ...]:
    """What the stacking decides and the game depends on: which upright fragments of the
    game's colour are read, and which connections hold (cards numbered by place)."""
    read = frozenset((renumber.get(p.card, p.card), getattr(p.item, "index", -1))
                     for p in report.read)
    links = frozenset((renumber.get(c.upper, c.upper), renumber.get(c.lower, c.lower),
                       c.number) for c in report.connections)
    return read, links


@pytest.mark.parametrize(("game", "preset"),
                         [(g, p) for g, p in CASES if PLAYERS[g] > 1])
def test_swapping_overlapping_cards_is_caught_where_it_changes_what_shows(
        game: GameName, preset: Preset) -> None:
    layout = bundled_layout(preset)
    assembly = shipped(game, preset)
    base = validate(layout, assembly)
    assert base.scene is not None
    before = _what_counts(base, {})
    swaps = 0
    for i, j in combinations(range(len(assembly.cards)), 2):
        if not any(a.intersects(b) for a in base.scene.faces[i] for b in base.scene.faces[j]):
            continue
        cards = list(assembly.cards)
        cards[i], cards[j] = cards[j], cards[i]
        # The same cards in the same places, stacked the other way round: renumber the
        # visible state by place, not by stack index.
        swapped = validate(layout, with_cards(assembly, cards))
        if _what_counts(swapped, {i: j, j: i}) != before:
            swaps += 1
            assert not swapped.valid, (i, j)
    assert swaps >= 1


def test_messages_say_which_card_which_number_and_how_far() -> None:
    layout = bundled_layout(Preset.EU)
    assembly = shipped(GameName.DEFLECTOR, Preset.EU)
    cards = list(assembly.cards)
    # Move the card whose corner lies on another's purple number 4.2 mm right.
    report = validate(layout, assembly)
    link = report.connections[0]
    upper = cards[link.upper]
    cards[link.upper] = dataclasses.replace(upper, x=upper.x + 4.2)
    problems = validate(layout, with_cards(assembly, cards)).problems
    expected = (f"card {link.upper + 1}: its corner {link.number} is 4.2 mm right of card "
                f"{link.lower + 1}'s purple {link.number}")
    assert any(p.startswith(expected) for p in problems), problems
    assert AssemblyProblem.CORNER_OFF in validate(layout, with_cards(assembly, cards)).codes

    # Lay the folded Reflector card squarely over the open one: it covers the yellow
    # text, and the problems say which.
    reflector = shipped(GameName.REFLECTOR, Preset.EU)
    a, b = reflector.cards
    over = with_cards(reflector, [a, dataclasses.replace(b, x=a.x, y=a.y)])
    report = validate(layout, over)
    problems = report.problems
    first = next(f for f in layout.fragments if f.game is GameName.REFLECTOR)
    assert AssemblyProblem.TEXT in report.codes
    assert "card 2 covers the yellow" in " ".join(problems) or any(
        first.text in p for p in problems)
    assert AssemblyProblem.NOT_CONNECTED in report.codes
    assert len(report.codes) == len(problems) == len(report.hints)


def test_the_validator_reads_the_layout_not_a_list_of_answers() -> None:
    layout = bundled_layout(Preset.EU)
    assembly = shipped(GameName.REFLECTOR, Preset.EU)
    frags = list(layout.fragments)
    i = next(n for n, f in enumerate(frags) if f.game is GameName.REFLECTOR)
    frags[i] = dataclasses.replace(frags[i], text="Seize")
    changed = dataclasses.replace(layout, fragments=tuple(frags))
    report = validate(changed, assembly)
    assert not report.valid
    assert "Seize" in report.text


def test_a_partly_covered_fragment_of_the_game_is_a_problem() -> None:
    layout = bundled_layout(Preset.EU)
    assembly = shipped(GameName.REFLECTOR, Preset.EU)
    a, b = assembly.cards
    # Slide the folded card (card 2) up over the first line of card 1's yellow text.
    partly = with_cards(assembly, [a, dataclasses.replace(b, y=b.y - 6.0)])
    report = validate(layout, partly)
    assert AssemblyProblem.PART_COVERED in report.codes
    assert any("covers part of the yellow" in p and "cover it wholly" in p
               for p in report.problems)  # the sentence says which text, and the fix


def test_connection_tolerance_is_below_two_millimetres() -> None:
    assert 0 < TOLERANCE < 2


# --- the solver ------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "preset"),
                         [(g, p) for g, p in CASES if g is not GameName.DEFECTOR])
def test_the_solver_finds_the_player_count(game: GameName, preset: Preset) -> None:
    result = solve(bundled_layout(preset), game, preset.value)
    assert result.assembly is not None and result.report is not None
    assert result.cards == PLAYERS[game] and result.minimal
    assert validate(bundled_layout(preset), result.assembly).valid
    assert sorted(result.searched) == list(range(1, PLAYERS[game] + 1))


@pytest.mark.parametrize("preset", list(Preset))
def test_no_five_cards_spell_defector_and_six_do(preset: Preset) -> None:
    layout = bundled_layout(preset)
    result = solve(layout, GameName.DEFECTOR, preset.value, max_cards=5)
    assert result.assembly is None and sorted(result.searched) == [1, 2, 3, 4, 5]
    # ... and six do: the shipped six-card assembly validates (the solver finds one
    # too; the benchmark and `cardgen connector check` run that search).
    assert validate(layout, shipped(GameName.DEFECTOR, preset)).valid


def test_the_cut_never_changes_the_answer() -> None:
    layout = bundled_layout(Preset.EU)
    for game in (GameName.ROTATOR, GameName.REFLECTOR, GameName.DEFLECTOR):
        fast = solve(layout, game, "eu", cut=True)
        full = solve(layout, game, "eu", cut=False)
        assert fast.cards == full.cards == PLAYERS[game]
        # Without the cut, every smaller assembly was actually judged.
        assert all(full.searched[k] > 0 for k in range(1, PLAYERS[game]))


def test_the_depth_first_search_judges_what_a_level_search_would(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The search holds one path and compact keys instead of whole levels; it judges the
    same assemblies in the same order as the level-by-level search it replaced (here
    without the cut, every assembly of up to 3 Deflector cards)."""
    import cardgen.connector.solve as solver

    layout = bundled_layout(Preset.EU)
    looks = [solver._Look(c, GameName.DEFLECTOR, i)
             for i, c in enumerate(solver.configs(layout).values())]

    def key(state: solver._State) -> tuple[object, ...]:  # the old key: a tuple of floats
        ox, oy = state.cards[0][1], state.cards[0][2]
        return tuple((look.key, round(x - ox, 3), round(y - oy, 3))
                     for look, x, y in state.cards)

    expected: list[tuple[object, ...]] = []
    for count in (1, 2, 3):
        level = [solver._start(look) for look in looks]
        for _ in range(1, count):
            seen: set[tuple[object, ...]] = set()
            following = []
            for state in level:
                for child in solver._children(state, looks, None, 0, [0]):
                    if key(child) not in seen:
                        seen.add(key(child))
                        following.append(child)
            level = following
        expected += [key(s) for s in level]
    judged: list[tuple[object, ...]] = []
    reads = solver._reads
    monkeypatch.setattr(solver, "_reads",
                        lambda state, text: judged.append(key(state)) or reads(state, text))
    result = solve(layout, GameName.DEFLECTOR, "eu", cut=False)
    assert result.cards == 3 and judged == expected and len(expected) == 8 + 64 + 1536
    assert result.visited == 8 + (8 + 64) + (8 + 64 + 1536)


@pytest.mark.slow
def test_the_search_stops_at_its_budget_of_assemblies() -> None:
    """The budget counts assemblies visited (each size, once per count searched): the
    Deflector search without the cut visits exactly 1,688 and stops one short of that."""
    layout = bundled_layout(Preset.EU)
    enough = solve(layout, GameName.DEFLECTOR, "eu", cut=False, budget=1688)
    assert enough.cards == 3 and enough.decided and enough.visited == 1688
    short = solve(layout, GameName.DEFLECTOR, "eu", cut=False, budget=1687)
    assert short.assembly is None and not short.decided and short.exhausted == 3
    assert short.visited == 1687 and short.searched == {1: 8, 2: 64}
    # Defector without the cut would grow for ever; it stops at the budget, saying so as
    # it goes.
    told: list[tuple[int, int]] = []
    stopped = solve(layout, GameName.DEFECTOR, "eu", cut=False, budget=25_000,
                    progress=lambda cards, visited: told.append((cards, visited)))
    assert stopped.assembly is None and stopped.exhausted == 4 and stopped.visited == 25_000
    assert stopped.searched == {1: 8, 2: 64, 3: 2432}
    assert told[:3] == [(1, 8), (2, 80), (3, 2584)] and told[3:] == [(4, 10_000), (4, 20_000)]


def test_the_checker_says_when_the_search_gave_up(monkeypatch: pytest.MonkeyPatch) -> None:
    import functools

    import cardgen.connector.check as check_module

    monkeypatch.setattr(check_module, "solve", functools.partial(solve, budget=1000))
    problems = game_problems(bundled_layout(Preset.EU), "eu", games=[GameName.DEFECTOR])
    assert len(problems) == 1 and problems[0].startswith(
        "the search for an assembly of up to 6 cards that spells the defector description "
        "gave up after 1,000 assemblies (its budget)")


def test_the_solver_never_reads_the_shipped_assemblies(monkeypatch: pytest.MonkeyPatch) -> None:
    import cardgen.connector.assembly as assembly_module

    def refuse(*args: object) -> None:
        raise AssertionError("the solver read an assembly file")

    monkeypatch.setattr(assembly_module, "read_assembly", refuse)
    monkeypatch.setattr(assembly_module, "shipped_assembly_path", refuse)
    assert solve(bundled_layout(Preset.US), GameName.DEFLECTOR, "us").cards == 3


# --- the layout checker ------------------------------------------------------------------


def test_the_checker_names_what_a_designer_broke() -> None:
    layout = bundled_layout(Preset.EU)
    frags = list(layout.fragments)
    s = layout.shape
    across = dataclasses.replace(frags[0], box=Box(s.hinge5 - 2, 20, 10, 2.3))
    onto = dataclasses.replace(frags[2], box=frags[1].box)
    frags[0], frags[2] = across, onto
    broken = dataclasses.replace(layout, fragments=tuple(frags))
    problems = placement_problems(broken)
    assert any(p.startswith("fragment 1 (") and "printable area" in p for p in problems)
    assert any("fragment 2 (" in p and "fragment 3 (" in p and "overlap" in p
               for p in problems)
    long = dataclasses.replace(layout, fragments=(dataclasses.replace(
        frags[1], text=frags[1].text + " and then some more words"),))
    assert fit_problems(long, bundled_fonts().regular.width)[0].startswith("fragment 2 (")


def test_the_checker_runs_the_solver_on_each_game() -> None:
    layout = bundled_layout(Preset.EU)
    games = [GameName.ROTATOR, GameName.REFLECTOR]
    assert game_problems(layout, "eu", games=games) == []
    more = dataclasses.replace(layout, players={**layout.players, GameName.REFLECTOR: 3})
    assert game_problems(more, "eu", games=[GameName.REFLECTOR]) == [
        "reflector needs 3 players, but 2 cards already spell its description."]
    desc = {**layout.descriptions, GameName.REFLECTOR: "Words that are nowhere on the card."}
    nowhere = dataclasses.replace(layout, descriptions=desc)
    [problem] = game_problems(nowhere, "eu", games=[GameName.REFLECTOR])
    assert problem.startswith("no assembly of up to 2 cards spells the reflector description")
