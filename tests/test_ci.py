"""``.ci/run`` runs exactly the test command README.md shows (after installing what the
tests need from the system: Ghostscript)."""

from __future__ import annotations

from tests.helpers import ROOT


def test_ci_runs_the_readme_test_command():
    readme = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    at = next(n for n, line in enumerate(readme) if "also what CI runs" in line)
    command = next(line.strip() for line in readme[at + 1:] if line.startswith("    "))
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    commands = [line for line in script if line and not line.startswith("#")]
    assert commands[-1] == command
    assert any(line.startswith("command -v gs >/dev/null ||") for line in commands)
