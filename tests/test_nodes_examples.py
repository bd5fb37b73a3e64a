"""SPEC §9.8's two worked records replay to exactly the reports written there: the
records and the expected reports are copied into tests/data/nodes/ as the SPEC gives
them, and every report, key by key (and the order of ``won``'s holders), must match."""

from __future__ import annotations

import pytest

from cardgen.games.nodes.engine import replay
from tests.nodes_records import read_expected, read_record, replay_data

EXAMPLES = ["reflector-example", "deflector-example"]


@pytest.mark.parametrize("name", EXAMPLES)
def test_rule_9_8_the_worked_records_replay_exactly(name):
    got = replay_data(replay(read_record(f"{name}.toml")))
    expected = read_expected(f"{name}.report.toml")
    assert len(got["report"]) == len(expected["report"])
    for mine, theirs in zip(got["report"], expected["report"], strict=True):
        assert mine == theirs
        assert list(mine.get("won", {})) == list(theirs.get("won", {}))  # order of change
    assert got["outcome"] == expected["outcome"]
