"""reportlab's optional C accelerator (the ``rl_accel`` package, cardgen's ``fast`` extra)
changes no byte: golden scenarios give their recorded files in a process where reportlab
uses it and in one where it is hidden (reportlab's pure-Python fallbacks).

``pip install -e ".[test]"`` installs the accelerator, so the golden test itself runs
with it; these tests run golden scenarios once more in a process without it. Without
the accelerator installed, both are the pure path."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests import golden
from tests.helpers import ROOT

# Centred and right-aligned text (reportlab measures it), numbers of every kind, font
# subsets (checksums), images: the quick loop's sample, in one process; every scenario
# that writes files in the full run.
QUICK = ("ladder-mat", "card-us-light", "rotator-print-two-card-size",
         "connector-show-reflector-us")
PDF_SCENARIOS = tuple(sorted(name for name, args in golden.SCENARIOS.items() if "-o" in args))

_HIDDEN = """
import json, sys
from pathlib import Path
sys.modules["_rl_accel"] = None  # as reportlab's own tests hide its accelerator
from reportlab.lib import rl_accel
from tests import golden
assert not rl_accel._c_funcs, rl_accel._c_funcs
folder = Path(sys.argv[1])
print(json.dumps({name: golden.run_scenario(name, folder / name) for name in sys.argv[2:]}))
"""


def _without_accelerator(names, folder) -> dict:
    """The scenarios ``names`` run in one process with the accelerator hidden."""
    done = subprocess.run([sys.executable, "-c", _HIDDEN, str(folder), *names], cwd=ROOT,
                          capture_output=True, text=True, timeout=900)  # only a hang fails
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


@pytest.mark.parametrize("names", [pytest.param(QUICK, id="sample"),
                                   pytest.param(PDF_SCENARIOS, id="all",
                                                marks=pytest.mark.slow)])
def test_the_same_bytes_without_the_accelerator(names, tmp_path):
    recorded = golden.load()
    same_tools = recorded["toolchain"] == golden.toolchain()
    for name, got in _without_accelerator(names, tmp_path).items():
        assert got["exit"] == 0, got["stderr"]
        assert not golden.differences(name, got, recorded["scenarios"][name], same_tools)
    if not same_tools:
        pytest.skip("recorded with another toolchain: file bytes not compared")


def test_the_accelerator_is_used_when_installed():
    """With the ``fast`` extra installed, reportlab's accelerated functions are its C ones
    (so the golden test runs the accelerated path), and cardgen still writes numbers
    and measures text with reportlab's Python fallbacks, which its files were made with."""
    from reportlab.lib import rl_accel

    from cardgen.render import pdf, pdfcodec

    try:
        import _rl_accel  # noqa: F401
    except ImportError:
        pytest.skip("rl_accel (cardgen's fast extra) is not installed")
    assert rl_accel._c_funcs and not rl_accel._py_funcs
    names = set(rl_accel.__all__)
    assert names <= set(pdfcodec.PURE_PYTHON)
    assert all(pdfcodec.PURE_PYTHON[n] is not rl_accel._c_funcs[n] for n in names)
    assert pdf._TaggedTTFont.stringWidth is pdfcodec.PURE_PYTHON["instanceStringWidthTTF"]
