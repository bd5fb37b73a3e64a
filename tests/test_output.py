"""All-or-nothing writing of output files."""

from __future__ import annotations

import os

import pytest

from cardgen import output
from cardgen.errors import CardgenError
from cardgen.output import write_files


def test_writes_every_file_with_normal_permissions(tmp_path):
    paths = write_files({tmp_path / "a.txt": b"A", tmp_path / "sub" / "b.txt": b"B"})
    assert [p.read_bytes() for p in paths] == [b"A", b"B"]
    mask = os.umask(0)
    os.umask(mask)
    assert (paths[0].stat().st_mode & 0o777) == 0o666 & ~mask


def test_a_failed_move_puts_the_older_files_back(tmp_path, monkeypatch):
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_bytes(b"old A")
    b.write_bytes(b"old B")
    real_replace = os.replace
    calls = []

    def flaky(src, dst):
        calls.append(dst)
        if str(dst) == str(b) and calls.count(dst) == 1:  # the new b cannot move into place
            raise OSError(28, "No space left on device")
        return real_replace(src, dst)

    monkeypatch.setattr(output.os, "replace", flaky)
    with pytest.raises(CardgenError, match=r"cannot write .*b\.txt: No space left"):
        write_files({a: b"new A", b: b"new B"})
    monkeypatch.setattr(output.os, "replace", real_replace)
    assert a.read_bytes() == b"old A" and b.read_bytes() == b"old B"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt", "b.txt"]
    assert calls  # the failure really happened mid-way
