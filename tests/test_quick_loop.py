"""The quick loop's own switches: which runs count as the quick loop, and how many
examples a property test draws there (``tests.helpers.examples``, ``conftest``)."""

from __future__ import annotations

import pytest

from tests import conftest, helpers


class _Config:
    def __init__(self, expression: str) -> None:
        self.expression = expression

    def getoption(self, name: str, default: object = None) -> object:
        assert name == "markexpr"
        return self.expression


@pytest.mark.parametrize(("expression", "quick"), [
    ("", False), ("slow", False), ("not slow", True), ("not slow and not gs", True),
    ("slow or fast", False), ("fast", True), ("not (slow or fast)", True), ("not fast", False),
])
def test_a_run_is_the_quick_loop_when_its_mark_expression_leaves_out_slow(
        monkeypatch, expression, quick):
    monkeypatch.setattr(helpers, "QUICK_LOOP", False)
    conftest._note_the_quick_loop(_Config(expression))
    assert helpers.QUICK_LOOP is quick


@pytest.mark.parametrize(("count", "full", "quick"), [
    (1, 1, 1), (6, 6, 6), (10, 10, 10), (15, 15, 10), (40, 40, 10), (60, 60, 15),
    (300, 300, 75), (1500, 1500, 375),
])
def test_the_quick_loop_draws_a_quarter_of_the_examples_and_at_least_ten(
        monkeypatch, count, full, quick):
    monkeypatch.setattr(helpers, "QUICK_LOOP", False)
    assert helpers.examples(count) == full
    monkeypatch.setattr(helpers, "QUICK_LOOP", True)
    assert helpers.examples(count) == quick


def test_this_run_knows_whether_it_is_the_quick_loop(request):
    """The flag the test modules read was set before they were imported."""
    expression = request.config.getoption("markexpr") or ""
    assert helpers.QUICK_LOOP is ("not slow" in expression and "not (" not in expression)
