"""A set staged on disk as it is made (``cardgen.output.staged_set``: ``card --batch``'s
writer), held to ``write_set``'s guarantee: every file is always old or new, nothing of
the new set appears before the commit, an old file is never lost, a run stopped by
Ctrl-C or SIGTERM leaves nothing behind, and what a killed run leaves is removed by the
next run."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cardgen import output
from cardgen.errors import OutputError
from cardgen.output import staged_set, write_files
from tests.helpers import DATA, children, cli, error_line, ok, proc_stat, sampled

FS_CALLS = ("open", "write", "fsync", "fchmod", "chmod", "link", "replace", "unlink", "mkdir",
            "rmdir", "close")


def _sets(folder: Path) -> tuple[dict[Path, bytes], dict[Path, bytes]]:
    old = {folder / f"f{i}.bin": f"old {i} ".encode() * 500 for i in range(4)}
    new = {path: f"NEW {i} ".encode() * 700 for i, path in enumerate(old)}
    new[folder / "extra.bin"] = b"only in the new set"
    return old, new


def _visible(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.iterdir() if not p.name.startswith(".")}


def _hidden(folder: Path) -> list[str]:
    return [p.name for p in folder.iterdir() if p.name.startswith(".")]


def _stage(folder: Path, new: dict[Path, bytes]) -> None:
    with staged_set(folder) as staged:
        for path, data in new.items():
            staged.add(path.name, data)
        staged.commit()


def _stop_at(call: int, folder: Path, new: dict[Path, bytes], *, interrupt: bool) -> int:
    """In a forked child, stage ``new`` and commit it, and die at the ``call``-th file
    system operation (as if SIGKILLed: exit status 98 while staging, 99 once the
    commit's renames began), or with ``interrupt`` get a Ctrl-C there (130). Returns the
    child's exit status (0: it finished first)."""
    pid = os.fork()
    if pid == 0:  # the child
        status = 0
        try:
            count, committing = 0, False

            def dying(real):
                def wrapper(*args, **kwargs):
                    nonlocal count, committing
                    count += 1
                    committing = committing or real.__name__ in ("link", "replace")
                    if count == call:
                        if interrupt:
                            raise KeyboardInterrupt
                        os._exit(99 if committing else 98)
                    return real(*args, **kwargs)
                return wrapper

            for name in FS_CALLS:
                setattr(os, name, dying(getattr(os, name)))
            _stage(folder, new)
        except KeyboardInterrupt:
            status = 130
        finally:
            os._exit(status)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


def test_nothing_appears_before_the_commit_and_the_set_comes_whole(tmp_path):
    folder = tmp_path / "out"
    old, new = _sets(folder)
    write_files(old)
    with staged_set(folder) as staged:
        for path, data in new.items():
            staged.add(path.name, data)
            assert _visible(folder) == {p.name: d for p, d in old.items()}
        assert len(_hidden(folder)) == len(new)
        written = staged.commit()
    assert [(w.path.name, w.replaced) for w in written] == [
        *((p.name, True) for p in old), ("extra.bin", False)]
    assert _visible(folder) == {p.name: d for p, d in new.items()} and not _hidden(folder)


def test_a_killed_staged_run_leaves_every_file_old_or_new_and_the_next_run_cleans_up(
        tmp_path):
    """Killed at every file operation in turn: before the commit every file is old (no
    half set, no old file lost); during the renames each file is old or new; the next
    run removes the killed run's temporary files and backups."""
    folder = tmp_path / "out"
    old, new = _sets(folder)
    write_files(old)
    killed, finished = 0, False
    staging = 0
    for call in range(1, 400):
        status = _stop_at(call, folder, new, interrupt=False)
        if status == 0:
            finished = True
            break
        killed += 1
        seen = _visible(folder)
        for path, data in old.items():
            assert seen[path.name] in (data, new[path]), (call, path.name)
        if status == 98:  # killed while staging: nothing of the new set, nothing lost
            staging += 1
            assert seen == {p.name: d for p, d in old.items()}, call
        _stage(folder, old)  # the next run
        assert not _hidden(folder), call
        assert _visible(folder) == {p.name: d for p, d in old.items()} | (
            {"extra.bin": new[folder / "extra.bin"]} if "extra.bin" in seen else {})
        (folder / "extra.bin").unlink(missing_ok=True)
    assert finished and killed >= 3 * len(new) and staging >= 2 * len(new)


def test_ctrl_c_at_any_file_operation_puts_everything_back_and_leaves_nothing(tmp_path):
    folder = tmp_path / "out"
    old, new = _sets(folder)
    write_files(old)
    interrupted, finished = 0, False
    for call in range(1, 400):
        status = _stop_at(call, folder, new, interrupt=True)
        if status == 0:
            finished = True
            break
        assert status == 130
        interrupted += 1
        files = _visible(folder)
        if files == {p.name: d for p, d in old.items()}:
            assert not _hidden(folder), (call, _hidden(folder))
        else:  # stopped after the commit point: all new
            assert files == {p.name: d for p, d in new.items()}, call
            write_files(old)
            (folder / "extra.bin").unlink()
    assert finished and interrupted >= 3 * len(new)


def test_an_error_while_staging_writes_nothing_and_removes_the_folder_it_made(tmp_path):
    folder = tmp_path / "a" / "b"
    with pytest.raises(ValueError), staged_set(folder) as staged:
        staged.add("one.pdf", b"1")
        raise ValueError("a card that cannot be made")
    assert not (tmp_path / "a").exists()
    with staged_set(folder) as staged:  # left without a commit: nothing either
        staged.add("one.pdf", b"1")
    assert not (tmp_path / "a").exists()


def test_two_files_of_one_name_or_one_case_blind_name_are_refused(tmp_path):
    with pytest.raises(OutputError, match="they would be one file"), \
            staged_set(tmp_path) as staged:
        staged.add("Robin.pdf", b"1")
        staged.add("robin.pdf", b"2")
    with pytest.raises(OutputError, match="directly into the output folder"), \
            staged_set(tmp_path) as staged:
        staged.add("sub/robin.pdf", b"1")
    assert not list(tmp_path.iterdir())


def test_the_folder_is_held_while_staging(tmp_path, monkeypatch):
    """Another run cannot commit into the folder (nor remove the staged files as a
    killed run's) before this one is done."""
    monkeypatch.setattr(output, "LOCK_WAIT", 0.2)
    with staged_set(tmp_path) as staged:
        staged.add("one.pdf", b"1")
        with pytest.raises(OutputError, match="being written by another cardgen run"):
            write_files({tmp_path / "two.pdf": b"2"})
        assert len(_hidden(tmp_path)) == 1
        staged.commit()
    assert _visible(tmp_path) == {"one.pdf": b"1"}


# --- the command, killed for real ----------------------------------------------------------

STUDIO = '[card]\ntheme = "{theme}"\nqr = false\n\n[images]\nlogo = "logo.png"\n'


def _team(folder: Path, people: int, theme: str) -> tuple[Path, Path]:
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(DATA / "logo.png", folder / "logo.png")
    (folder / "studio.toml").write_text(STUDIO.format(theme=theme), encoding="utf-8")
    (folder / "people.csv").write_text("person.name,person.title\n" + "".join(
        f"Person {i:02d},Artist\n" for i in range(people)), encoding="utf-8")
    return folder / "people.csv", folder / "studio.toml"


def _wait_for(check, process: subprocess.Popen[bytes], *, done: bool = False) -> None:
    deadline = time.monotonic() + 300  # only a hang fails
    while not check():
        assert time.monotonic() < deadline and (done or process.poll() is None)
        time.sleep(0.01)


def _alive(proc: tuple[int, int]) -> bool:
    stat = proc_stat(proc[0])
    return stat is not None and stat[0] not in "ZX" and stat[2] == proc[1]


@pytest.mark.slow
@pytest.mark.parametrize(("signum", "jobs"), sampled(
    [(signal.SIGKILL, 1), (signal.SIGKILL, 2), (signal.SIGTERM, 2), (signal.SIGINT, 1)],
    (signal.SIGKILL, 2)))
def test_a_batch_stopped_mid_way_loses_no_old_file_and_writes_no_half_set(tmp_path, signum,
                                                                        jobs):
    """``card --batch`` over an older batch, stopped while its cards are staged: every
    file is the older batch's; SIGTERM and Ctrl-C leave nothing behind, SIGKILL leaves
    hidden temporary files that the next run removes; the workers die with it."""
    table, config = _team(tmp_path / "team", 8, "dark")
    out = tmp_path / "out"
    ok(cli("card", config, "--batch", table, "-o", out, "-f", "pdf"))
    old = _visible(out)
    config.write_text(STUDIO.format(theme="light"), encoding="utf-8")  # other bytes
    process = subprocess.Popen(
        [sys.executable, "-m", "cardgen", "card", str(config), "--batch", str(table),
         "-o", str(out), "-f", "pdf", "--jobs", str(jobs)], stderr=subprocess.PIPE)
    _wait_for(lambda: len(_hidden(out)) >= 3, process)  # three files staged
    workers = children(process.pid)
    process.send_signal(signum)
    _, err = process.communicate(timeout=300)  # only a hang fails
    assert _visible(out) == old, err
    if signum == signal.SIGKILL:
        assert _hidden(out)  # the staged files, left behind
        _wait_for(lambda: not [w for w in workers if _alive(w)], process, done=True)
    else:
        assert process.returncode == (143 if signum == signal.SIGTERM else 130)
        assert not _hidden(out), err
    result = ok(cli("card", config, "--batch", table, "-o", out, "-f", "pdf"))
    assert "8 cards: 9 files" in result.stdout
    assert not _hidden(out) and _visible(out).keys() == old.keys()
    assert all(_visible(out)[name] != data for name, data in old.items() if name
               != "dieline.pdf")


@pytest.mark.slow
def test_a_batch_that_fails_at_its_last_card_writes_nothing(tmp_path):
    table, config = _team(tmp_path / "team", 4, "dark")
    with table.open("a", encoding="utf-8") as handle:
        handle.write("Bo,Artist\n")
    table.write_text(table.read_text(encoding="utf-8").replace(
        "person.name,person.title", "person.name,person.title,images.portrait").replace(
        "Bo,Artist", "Bo,Artist,missing.png"), encoding="utf-8")
    out = tmp_path / "out"
    error_line(cli("card", config, "--batch", table, "-o", out, "-f", "pdf"),
               "line 6 ('Bo'): images.portrait")
    assert not out.exists()
