"""SPEC §9.8's two worked records replay to exactly the reports written there: the
records and the expected reports are copied into tests/data/nodes/ as the SPEC gives
them, read with the referee's own reader (``recordfile``), and every report, key by key
(and the order of ``won``'s holders), must match."""

from __future__ import annotations

import tomllib

import pytest

from cardgen.games.nodes.engine import replay
from cardgen.games.nodes.recordfile import read_record, read_report, report_data
from tests.nodes_records import DATA

EXAMPLES = ["reflector-example", "deflector-example"]


@pytest.mark.parametrize("name", EXAMPLES)
def test_rule_9_8_the_worked_records_replay_exactly(name):
    found = replay(read_record(DATA / f"{name}.toml"))
    assert found == read_report(DATA / f"{name}.report.toml")
    got = report_data(found)
    expected = tomllib.loads((DATA / f"{name}.report.toml").read_text())
    assert len(got["report"]) == len(expected["report"])
    for mine, theirs in zip(got["report"], expected["report"], strict=True):
        assert mine == theirs
        assert list(mine.get("won", {})) == list(theirs.get("won", {}))  # order of change
    assert got["outcome"] == expected["outcome"]
