"""Every output of a set of command lines still matches its golden hashes (see
tests/golden.py; after an intended change: ``python -m tests.golden --update``)."""

from __future__ import annotations

import pytest

from tests import golden
from tests.helpers import sampled

# The quick loop (-m "not slow") compares the scenarios that take under 0.2 s each: a card of
# each preset, each kind of sheet, the Rotator's generate, print and solve, every playsheet,
# Connector picture and Ladder file. The whole books, the portrait cards and the default
# card with all its formats (0.25-0.55 s each) are compared in the full run.
HEAVY = {"rules-booklet-letter-creep", "rules-book", "rules-reflector-svg",
         "connector-show-defector", "card-default", "card-portrait-logo",
         "rotator-generate-easy", "card-portrait-varnish", "sheet-portrait-nomarks-rgb"}


@pytest.fixture(scope="module")
def recorded():
    return golden.load()


def test_every_scenario_is_recorded(recorded):
    assert set(recorded["scenarios"]) == set(golden.SCENARIOS)


@pytest.mark.parametrize("name", sampled(sorted(golden.SCENARIOS),
                                         *sorted(set(golden.SCENARIOS) - HEAVY)))
def test_outputs_match_the_golden_hashes(name, recorded, tmp_path):
    got = golden.run_scenario(name, tmp_path)
    assert got["exit"] == 0, got["stderr"]
    assert bool(got["model"]) == bool(got["files"]), "files written without a rendered model"
    same_tools = recorded["toolchain"] == golden.toolchain()
    problems = golden.differences(name, got, recorded["scenarios"][name], same_tools)
    assert not problems, "\n".join(problems) + (
        "\nIf the change is intended, look at the output, then run "
        "`python -m tests.golden --update`.")
    if not same_tools:
        pytest.skip(f"model, text output and exit matched; file bytes not compared: recorded "
                    f"with {recorded['toolchain']}, this is {golden.toolchain()}")


def test_the_model_digest_sees_a_one_micron_move():
    """The canonical form behind ``model`` notices the smallest change that matters."""
    from cardgen.draw.geometry import Box
    from cardgen.draw.page import Document, Page, Rect

    def doc(x: float) -> str:
        page = Page("p", 10, 10, Box(0, 0, 10, 10), Box(0, 0, 10, 10))
        page.layer("a").add(Rect(x, 1, 2, 2))
        return "\n".join(golden.canonical(Document([page])))

    assert doc(1.0) == doc(1.0 + 1e-9)
    assert doc(1.0) != doc(1.001)
