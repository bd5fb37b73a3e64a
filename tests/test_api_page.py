"""The Python API page's examples run as written (docs/api.md), in order (a later one
may use what an earlier one made, as a reader would run them), in a folder holding the
files they name, so that the page cannot drift from the library."""

from __future__ import annotations

import os
import re
import shutil

import pytest

from tests.helpers import ROOT

PAGE = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"```python\n(.*?)```", PAGE, re.S)


@pytest.mark.slow
def test_every_example_of_the_api_page_runs(tmp_path):
    (tmp_path / "templates").symlink_to(ROOT / "templates")
    (tmp_path / "faces").mkdir()
    shutil.copy(ROOT / "tests" / "data" / "portrait.png", tmp_path / "faces" / "robin.png")
    (tmp_path / "people.csv").write_text(
        "person.name,person.title,images.portrait\nRobin Vale,Game Designer,faces/robin.png\n"
        "Sam Reed,Producer,\n", encoding="utf-8")
    (tmp_path / "studio.toml").write_text('[person]\ncompany = "Paper Lantern Games"\n',
                                          encoding="utf-8")
    (tmp_path / "tarot.toml").write_text('[card]\nwidth_mm = 69.85\nheight_mm = 60.325\n'
                                         '[person]\nname = "Ada Quill"\n', encoding="utf-8")
    before = os.getcwd()
    os.chdir(tmp_path)
    try:
        namespace: dict[str, object] = {}
        for index, block in enumerate(BLOCKS):
            exec(compile(block, f"docs/api.md, example {index + 1}", "exec"), namespace)
    finally:
        os.chdir(before)


def test_the_page_has_its_examples():
    assert len(BLOCKS) >= 4
