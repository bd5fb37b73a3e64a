"""The library's root and its ``Files``: names load lazily, files are a read-only mapping
by name in the order made, and ``write`` writes all of them or none."""

from __future__ import annotations

import subprocess
import sys

import pytest

import cardgen
from cardgen.api import Files
from cardgen.errors import CardgenError, OutputError


def test_importing_the_root_loads_no_library_until_a_name_is_asked_for():
    code = ("import sys, cardgen; a = 'cardgen.api' in sys.modules; "
            "from cardgen import output; b = 'cardgen.api' in sys.modules; "
            "cardgen.Files; print(a, b, 'cardgen.api' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["False", "False", "True"]


def test_every_name_of_the_library_is_an_attribute_of_the_root():
    import cardgen.api as api

    for name in api.__all__:
        assert getattr(cardgen, name) is getattr(api, name)
    assert set(api.__all__) <= set(dir(cardgen))
    with pytest.raises(AttributeError):
        cardgen.no_such_name  # noqa: B018


def test_files_keep_their_order_and_refuse_a_name_twice():
    files = Files([("b.pdf", b"1"), ("a.svg", b"2")])
    assert list(files) == ["b.pdf", "a.svg"] and files["a.svg"] == b"2" and len(files) == 2
    assert list(files | {"c.png": b"3"}) == ["b.pdf", "a.svg", "c.png"]
    with pytest.raises(CardgenError, match=r"two files are named 'b\.pdf'"):
        files | {"b.pdf": b"x"}


@pytest.mark.parametrize("name", ["", "/etc/passwd", "../up.pdf", "a/../../b", "a\\b",
                                  "dir/", "nul\0.pdf", "./a.pdf"])
def test_a_name_outside_the_folder_is_refused(name):
    with pytest.raises(CardgenError, match="relative path inside the output folder"):
        Files({name: b""})


def test_contents_are_bytes():
    with pytest.raises(TypeError, match="bytes"):
        Files({"a.txt": "text"})  # type: ignore[dict-item]


def test_write_puts_every_file_in_the_folder(tmp_path):
    files = Files({"card.pdf": b"%PDF", "sub/card.svg": b"<svg/>"})
    written = files.write(tmp_path / "out")
    assert [w.path for w in written] == [tmp_path / "out" / "card.pdf",
                                         tmp_path / "out" / "sub" / "card.svg"]
    assert (tmp_path / "out" / "sub" / "card.svg").read_bytes() == b"<svg/>"
    assert not any(w.replaced for w in written)
    assert all(w.replaced for w in files.write(tmp_path / "out"))


def test_write_writes_nothing_when_one_file_cannot_be_written(tmp_path):
    (tmp_path / "card.pdf").write_bytes(b"old")
    (tmp_path / "blocked").mkdir()  # a folder where a file should go
    with pytest.raises(OutputError):
        Files({"card.pdf": b"new", "blocked": b"x"}).write(tmp_path)
    assert (tmp_path / "card.pdf").read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["blocked", "card.pdf"]
