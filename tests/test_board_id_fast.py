"""The board-ID reader takes cells that follow one another in one go
(``cardgen.games.rotator.board._CELLS``); it reads, and refuses, exactly what its
character-by-character loop (``runs=False``) does."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from cardgen.errors import BoardError
from cardgen.games.rotator.board import _read_id
from tests.helpers import examples


def _read(raw: str, runs: bool) -> object:
    try:
        return _read_id(raw, "board ID", raw, runs=runs)
    except BoardError as exc:
        return str(exc)


# IDs made of the pieces an ID has (cells, rows 10 and 0, dashes, spaces, the version)
# and of any character, so that both good IDs and every way of breaking one are drawn.
PIECES = st.one_of(
    st.sampled_from(["B2", "b8", "E4", "I10", "J1", "A0", "A1", "10", "0", "1", "K3", "-",
                     "\u2013", " ", "\u00a0", "\t", "R1:", "R", "r2", ":", "A", "j"]),
    st.characters(), st.text(max_size=3))
IDS = st.lists(PIECES, max_size=24).map("".join)


@settings(max_examples=examples(1500), derandomize=True, deadline=None)
@given(IDS)
def test_reading_cells_in_runs_reads_what_the_loop_reads(raw):
    assert _read(raw, True) == _read(raw, False)


def test_a_megabyte_id_is_read_in_runs_as_the_loop_reads_it():
    for raw in ("R1:" + "B2" * 450_000, "B2E4 " * 2_000 + "-" + "I10" * 3_000 + "A0",
                "R1:B2B8E4I2I8-B4E2E8H4I9", "b2 b8 e4 i2 i8 b4 e2 e8 h4 i9"):
        assert _read(raw, True) == _read(raw, False)
