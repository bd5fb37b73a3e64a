"""All-or-nothing writing of output files."""

from __future__ import annotations

import errno
import os
import random
import re
import signal
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardgen import output
from cardgen.errors import OutputError, RuntimeFault
from cardgen.output import write_files
from tests.helpers import BASE_CONFIG, cli, error_line, examples, ok, sampled, write_config


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

    def flaky(src, dst, **kwargs):
        calls.append(dst)
        if Path(dst).name == b.name and calls.count(dst) == 1:  # the new b cannot move in
            raise OSError(28, "No space left on device")
        return real_replace(src, dst, **kwargs)

    monkeypatch.setattr(output.os, "replace", flaky)
    with pytest.raises(RuntimeFault, match=r"cannot write .*b\.txt: No space left") as caught:
        write_files({a: b"new A", b: b"new B"})
    assert not isinstance(caught.value, ValueError)  # a full disk is not bad input
    monkeypatch.setattr(output.os, "replace", real_replace)
    assert a.read_bytes() == b"old A" and b.read_bytes() == b"old B"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt", "b.txt"]
    assert calls  # the failure really happened mid-way


def test_a_full_disk_is_a_fault_of_the_run_at_the_command_line(tmp_path, monkeypatch):
    """A full disk is not the input's fault: one line, exit status 3, not 1."""
    from cardgen.errors import FAULT_STATUS

    def full(src, dst, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(output.os, "replace", full)
    error_line(cli("init", tmp_path / "card.toml"), "card.toml: No space left on device",
               status=FAULT_STATUS)
    assert not list(tmp_path.iterdir())


# --- every file is always old or new ------------------------------------------------------

FS_CALLS = ("open", "write", "fsync", "fchmod", "chmod", "link", "replace", "unlink", "mkdir",
            "close")


def _old_and_new(folder: Path, count: int = 4) -> tuple[dict[Path, bytes], dict[Path, bytes]]:
    old = {folder / f"f{i}.bin": f"old {i} ".encode() * 500 for i in range(count)}
    new = {path: f"NEW {i} ".encode() * 700 for i, path in enumerate(old)}
    new[folder / "extra.bin"] = b"only in the new set"
    return old, new


def _check_old_or_new(folder: Path, old: dict[Path, bytes], new: dict[Path, bytes]) -> None:
    for path, data in old.items():
        assert path.exists(), f"{path.name} is missing"
        assert path.read_bytes() in (data, new[path]), f"{path.name} is neither old nor new"
    extra = folder / "extra.bin"
    assert not extra.exists() or extra.read_bytes() == new[extra]


def _kill_at(call: int, folder: Path, new: dict[Path, bytes], *, interrupt: bool = False,
             ) -> int:
    """In a forked child, write ``new`` and die (as if SIGKILLed), or with ``interrupt``
    get a Ctrl-C, at the ``call``-th file system operation. Returns the child's exit
    status (0: it finished first; 130: interrupted)."""
    pid = os.fork()
    if pid == 0:  # the child
        status = 0
        try:
            count = 0

            def dying(real):
                def wrapper(*args, **kwargs):
                    nonlocal count
                    count += 1
                    if count == call:
                        if interrupt:
                            raise KeyboardInterrupt
                        os._exit(99)
                    return real(*args, **kwargs)
                return wrapper

            for name in FS_CALLS:
                setattr(os, name, dying(getattr(os, name)))
            write_files(new)
        except KeyboardInterrupt:
            status = 130
        finally:
            os._exit(status)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


@pytest.mark.slow
def test_a_run_killed_at_any_file_operation_leaves_every_file_old_or_new(tmp_path):
    """Every state the write phase can be interrupted in, one after the other."""
    folder = tmp_path / "out"
    old, new = _old_and_new(folder)
    write_files(old)
    killed_at, finished = 0, False
    for call in range(1, 400):
        write_files(old)  # start from the old set (this also clears stale temp files)
        if _kill_at(call, folder, new) == 0:
            finished = True  # the run got past its last file operation
            break
        killed_at += 1
        _check_old_or_new(folder, old, new)
    assert finished and killed_at >= 3 * len(new), killed_at
    assert {p.read_bytes() for p in new if p.exists()} <= set(new.values())
    # The next run cleans up what killed runs left behind.
    leftovers = [p.name for p in folder.iterdir() if p.name.startswith(".")]
    write_files(new)
    assert sorted(p.name for p in folder.iterdir()) == sorted(p.name for p in new)
    assert all(p.read_bytes() == data for p, data in new.items())
    assert leftovers or killed_at  # (killed runs may or may not have left temp files)


@pytest.mark.slow
def test_ctrl_c_at_any_file_operation_puts_everything_back_and_cleans_up(tmp_path):
    folder = tmp_path / "out"
    old, new = _old_and_new(folder)
    write_files(old)
    interrupted, finished = 0, False
    for call in range(1, 400):
        status = _kill_at(call, folder, new, interrupt=True)
        if status == 0:
            finished = True
            break
        assert status == 130
        interrupted += 1
        # Before the commit point everything is put back and nothing is left behind; after
        # it everything is new (and what is left over is removed by the next run).
        files = {p.name: p.read_bytes() for p in folder.iterdir() if not p.name.startswith(".")}
        hidden = [p.name for p in folder.iterdir() if p.name.startswith(".")]
        if files == {p.name: d for p, d in old.items()}:
            assert not hidden, (call, hidden)
        else:
            assert files == {p.name: d for p, d in new.items()}, call
        write_files(old)
        assert not [p for p in folder.iterdir() if p.name.startswith(".")]
    assert finished and interrupted >= 3 * len(new)


_WRITER = """
import signal
import sys
from pathlib import Path
from cardgen.output import write_files

def stop(signum, frame):  # as cardgen's command line does
    raise SystemExit(128 + signum)

signal.signal(signal.SIGTERM, stop)
folder = Path(sys.argv[1])
write_files({folder / f"f{i}.bin": f"NEW {i} ".encode() * 60_000 for i in range(30)})
"""


@pytest.mark.parametrize("signum", sampled([signal.SIGKILL, signal.SIGINT, signal.SIGTERM],
                                            signal.SIGTERM))
def test_real_signals_during_the_write_phase_leave_every_file_old_or_new(tmp_path, signum):
    folder = tmp_path / "out"
    old = {folder / f"f{i}.bin": f"old {i} ".encode() * 60_000 for i in range(30)}
    new = {p: f"NEW {i} ".encode() * 60_000 for i, p in enumerate(old)}
    rng = random.Random(signum)
    for _ in range(2):
        write_files(old)
        process = subprocess.Popen([sys.executable, "-c", _WRITER, str(folder)],
                                   stderr=subprocess.PIPE)
        deadline = time.monotonic() + 120  # wait for the write phase (only a hang fails)
        while not any(p.name.endswith(".tmp") for p in folder.iterdir()):
            assert time.monotonic() < deadline and process.poll() is None
        time.sleep(rng.uniform(0, 0.02))
        process.send_signal(signum)
        _, err = process.communicate(timeout=120)  # only a hang fails
        _check_old_or_new(folder, old, {**new, folder / "extra.bin": b""})
        if signum != signal.SIGKILL:  # a handled signal cleans up after itself
            assert not [p for p in folder.iterdir() if p.name.startswith(".")], err


@pytest.mark.parametrize("nth", [1, 2, 5])
def test_an_interrupt_just_after_a_temp_file_is_created_leaves_nothing(tmp_path, monkeypatch,
                                                                        nth):
    """A signal handler can raise between the system call that creates a temp file and
    the next line of Python. The file's name is noted before it is created, so even then
    the clean-up finds it (found by the real-signal test above, one run in three)."""
    folder = tmp_path / "out"
    old = {folder / f"f{i}.bin": f"old {i}".encode() for i in range(6)}
    write_files(old)
    real_open = os.open
    calls = []

    def interrupted_open(path, flags, mode=0o777, **kwargs):
        fd = real_open(path, flags, mode, **kwargs)
        if str(path).endswith(".tmp"):
            calls.append(path)
            if len(calls) == nth:
                os.close(fd)
                raise KeyboardInterrupt
        return fd

    monkeypatch.setattr(output.os, "open", interrupted_open)
    with pytest.raises(KeyboardInterrupt):
        write_files({p: b"new" for p in old})
    monkeypatch.undo()
    assert sorted(p.name for p in folder.iterdir()) == sorted(p.name for p in old)
    assert all(p.read_bytes() == d for p, d in old.items())


def test_files_keep_their_mode_and_new_files_follow_the_umask(tmp_path):
    path = tmp_path / "card.pdf"
    path.write_bytes(b"old")
    path.chmod(0o600)
    write_files({path: b"new", tmp_path / "fresh.pdf": b"new"})
    assert path.stat().st_mode & 0o777 == 0o600
    mask = os.umask(0)
    os.umask(mask)
    assert (tmp_path / "fresh.pdf").stat().st_mode & 0o777 == 0o666 & ~mask


USERS_HIDDEN = [".notes.20261126.old", ".plan.defaults.tmp", ".thesis.backup_1.old",
                ".card.pdf.k2j4h5g6.tmp", ".notes.tmp", ".card.pdf.cardgen-0123456789ABCDEF.tmp",
                ".card.pdf.cardgen-0123456789abcde.tmp", ".card.pdf.cardgen-0123456789abcdef.bak",
                ".cardgen-0123456789abcdef.tmp", ".x.cardgen-0123456789abcdef.tmp.swp",
                ".x.cardgen-0123456789abcdef.tmp\n", "x.cardgen-0123456789abcdef.tmp"]
KILLED_RUNS = [".card.pdf.cardgen-0123456789abcdef.tmp", ".card.pdf.cardgen-fedcba9876543210.old",
               ".my-card.toml.cardgen-00000000deadbeef.tmp", ".x.pdf.cardgen-0a1b2c3d4e5f6789.old"]


def _plant(folder: Path, names: list[str]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        (folder / name).write_bytes(b"keep " + name.encode())


def _survived(folder: Path, names: list[str]) -> None:
    for name in names:
        assert (folder / name).read_bytes() == b"keep " + name.encode(), name


def test_stale_temp_files_of_killed_runs_are_removed_and_nothing_else(tmp_path):
    """Only cardgen's own temporary names (its marker and 16 hexadecimal digits) are
    cleaned up; the user's hidden files, whatever they look like, stay."""
    _plant(tmp_path, USERS_HIDDEN + KILLED_RUNS)
    write_files({tmp_path / "card.pdf": b"new"})
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([*USERS_HIDDEN, "card.pdf"])
    _survived(tmp_path, USERS_HIDDEN)


def test_a_killed_runs_real_leftovers_are_removed_by_the_next_run(tmp_path):
    old = {tmp_path / "f.bin": b"old"}
    write_files(old)
    assert _kill_at(8, tmp_path, {tmp_path / "f.bin": b"new"}) == 99  # between link and rename
    leftovers = [p.name for p in tmp_path.iterdir() if p.name.startswith(".")]
    assert leftovers and all(CARDGENS_OWN.fullmatch(name) for name in leftovers)
    _plant(tmp_path, USERS_HIDDEN)
    write_files(old)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([*USERS_HIDDEN, "f.bin"])


def test_writing_commands_keep_the_users_hidden_files(tmp_path):
    """init into the current folder, card -o ., rotator print -o . --name x, rules -o ."""
    _plant(tmp_path, USERS_HIDDEN + KILLED_RUNS)
    ok(cli("init", cwd=tmp_path))
    ok(cli("card", "my-card.toml", "-o", ".", "-f", "pdf", cwd=tmp_path))
    ok(cli("rotator", "print", "R1:B2B8E4I2I8-B4E2E8H4I9", "-o", ".", "--name", "x",
           cwd=tmp_path))
    ok(cli("rules", "rotator", "-o", ".", cwd=tmp_path))
    _survived(tmp_path, USERS_HIDDEN)
    assert not [p for p in tmp_path.iterdir() if CARDGENS_OWN.fullmatch(p.name)]
    assert {"my-card.toml", "card.pdf", "x.pdf"} <= {p.name for p in tmp_path.iterdir()}


_HEX = "0123456789abcdef"
# The names cardgen's writing makes, and so the only ones its clean-up may remove.
CARDGENS_OWN = re.compile(r"\..+\.cardgen-[0-9a-f]{16}\.(?:tmp|old)", re.DOTALL)
_hidden_names = st.one_of(
    st.text(st.characters(blacklist_characters="/\x00", blacklist_categories=("Cs",)),
             min_size=1, max_size=40).map(lambda s: "." + s),
    st.tuples(st.text("abcdefghijklmnopqrstuvwxyz0123456789_-.", min_size=1, max_size=12),
              st.one_of(st.text("abcdefghijklmnopqrstuvwxyz0123456789_", min_size=8,
                                max_size=8),  # what cardgen 0.1's names looked like
                        st.text("abcdefghijklmnopqrstuvwxyz0123456789_", min_size=1,
                                max_size=20),
                        st.text(_HEX + "ABCDEFg", min_size=14, max_size=18).map(
                            lambda h: "cardgen-" + h),
                        st.text(_HEX, min_size=16, max_size=16).map(lambda h: "Cardgen-" + h)),
              st.sampled_from(["tmp", "old", "TMP", "tmp.swp", "bak", "old~", ""])
              ).map(lambda parts: f".{parts[0]}.{parts[1]}.{parts[2]}".rstrip(".")),
).filter(lambda name: not CARDGENS_OWN.fullmatch(name)
         and len(name.encode("utf-8", "surrogateescape")) <= 200 and name not in (".", ".."))


@given(names=st.lists(_hidden_names, min_size=1, max_size=6, unique=True))
@settings(max_examples=examples(60), deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_no_hidden_name_without_cardgens_marker_is_ever_removed(tmp_path_factory, names):
    folder = tmp_path_factory.mktemp("hidden")
    _plant(folder, names + KILLED_RUNS[:1])
    write_files({folder / "card.pdf": b"new"})
    assert sorted(p.name for p in folder.iterdir()) == sorted([*names, "card.pdf"])
    _survived(folder, names)


# --- one run per folder -------------------------------------------------------------------

def test_a_run_waits_for_another_run_writing_into_the_same_folder(tmp_path):
    new = {tmp_path / "a.txt": b"A", tmp_path / "b.txt": b"B"}
    with output._locked([tmp_path]):
        writer = threading.Thread(target=write_files, args=(new,))
        writer.start()
        time.sleep(0.3)
        assert not (tmp_path / "a.txt").exists()  # waiting for the lock
    writer.join(timeout=120)  # only a hang fails
    assert not writer.is_alive() and (tmp_path / "a.txt").read_bytes() == b"A"


def test_a_folder_held_too_long_is_named(tmp_path, monkeypatch):
    monkeypatch.setattr(output, "LOCK_WAIT", 0.2)
    with output._locked([tmp_path]), pytest.raises(
            OutputError, match=r"output folder .* is being written by another cardgen run"):
        write_files({tmp_path / "a.txt": b"A"})
    assert not (tmp_path / "a.txt").exists()


def test_concurrent_runs_never_mix_their_files(tmp_path, monkeypatch):
    """Run A pauses after its first rename; run B writes meanwhile. B must wait for A,
    so that the folder ends up holding one run's set, not a mix."""
    real_replace = os.replace
    paused, release = threading.Event(), threading.Event()

    def replace(src, dst, **kwargs):
        real_replace(src, dst, **kwargs)
        if threading.current_thread().name == "A" and not paused.is_set():
            paused.set()
            release.wait(timeout=120)  # only a hang fails

    monkeypatch.setattr(output.os, "replace", replace)

    def run() -> None:
        tag = threading.current_thread().name
        write_files({tmp_path / f"f{i}.txt": f"{tag}{i}".encode() for i in range(6)})

    a = threading.Thread(target=run, name="A")
    a.start()
    assert paused.wait(timeout=120)
    b = threading.Thread(target=run, name="B")
    b.start()
    time.sleep(0.3)  # B would write now, were it not held back
    release.set()
    a.join(timeout=120)
    b.join(timeout=120)
    assert not a.is_alive() and not b.is_alive()
    tags = {(tmp_path / f"f{i}.txt").read_text()[0] for i in range(6)}
    assert tags == {"B"}  # A's whole set, then B's whole set


def test_a_rollback_never_removes_a_file_another_writer_put_there(tmp_path):
    mine = tmp_path / "a.txt"
    move = output._Move(mine, ".a.txt.cardgen-0000000000000000.tmp",
                        output._Folder(tmp_path), inode=(0, 0), done=True)
    mine.write_bytes(b"someone else's")
    output._roll_back([move])
    assert mine.read_bytes() == b"someone else's"


# --- only regular files, only in the folder asked for --------------------------------------

def test_devices_pipes_links_and_folders_are_never_replaced(tmp_path):
    fifo = tmp_path / "pipe.pdf"
    os.mkfifo(fifo)
    link = tmp_path / "link.pdf"
    link.symlink_to(tmp_path / "target.pdf")
    (tmp_path / "dir.pdf").mkdir()
    for path, kind in ((fifo, "a pipe"), (link, "a symbolic link"),
                       (tmp_path / "dir.pdf", "a folder"), (Path("/dev/full"), "a device")):
        with pytest.raises(OutputError, match=f"{kind} of that name is in the way"):
            write_files({tmp_path / "ok.pdf": b"x", path: b"x"})
    assert not (tmp_path / "ok.pdf").exists() and not (tmp_path / "target.pdf").exists()
    assert stat.S_ISFIFO(fifo.lstat().st_mode) and stat.S_ISCHR(os.stat("/dev/full").st_mode)


def test_init_refuses_a_device_even_with_force(tmp_path):
    error_line(cli("init", "/dev/full", "--force"), "/dev/full", "a device")
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)


def test_a_failed_run_creates_no_folder(tmp_path):
    """The run fails while the card is built (the config itself is valid)."""
    config = write_config(tmp_path, BASE_CONFIG.replace('name = "Ada Example"',
                                                        'name = "' + "Ada " * 40 + '"'))
    error_line(cli("card", config, "-o", tmp_path / "new" / "deeper"), "person.name")
    assert not (tmp_path / "new").exists()
    ok(cli("card", write_config(tmp_path, name="good.toml"), "-o", tmp_path / "new" / "deeper",
           "-f", "pdf"))
    assert (tmp_path / "new" / "deeper" / "card.pdf").is_file()


@pytest.mark.parametrize("name", ["../escape", "a/b", "..", ".hidden", "x" * 300, "tab\there", ""])
def test_output_names_stay_inside_the_folder_asked_for(tmp_path, name):
    line = error_line(cli("card", "-o", tmp_path / "out", "-f", "pdf", "--name", name), "--name")
    assert "Traceback" not in line
    assert not (tmp_path / "escape.pdf").exists() and not (tmp_path / "out").exists()


def test_a_file_name_too_long_for_the_file_system_is_one_line(tmp_path):
    error_line(cli("rotator", "print", "R1:B2B8E4I2I8-B4E2E8H4I9", "-o", tmp_path,
                   "--name", "b" * 300), "--name is too long")


@pytest.mark.parametrize("target", ["/dev/null", "pipe"])
@pytest.mark.parametrize("fmt", ["pdf", "svg", "pdf,png"])
def test_a_device_or_pipe_as_the_output_folder_is_refused(tmp_path, target, fmt):
    """rotator print's -o is a folder, as every command's: /dev/null once meant
    /dev/null.pdf; now it is not a folder, and nothing is written beside it."""
    if target == "pipe":
        os.mkfifo(tmp_path / "pipe")
        target = str(tmp_path / "pipe")
    before = sorted(os.listdir(Path(target).parent))
    line = error_line(cli("rotator", "print", "R1:B2B8E4I2I8-B4E2E8H4I9", "-o", target,
                          "-f", fmt), "output folder", target, "not a folder")
    assert "\n" not in line
    assert sorted(os.listdir(Path(target).parent)) == before
    assert not Path(target + ".pdf").exists()


# --- the output folder is held from the lock on ---------------------------------------------

def _swap_for_a_link(folder: Path, elsewhere: Path) -> None:
    folder.rename(folder.with_name("moved"))
    folder.symlink_to(elsewhere, target_is_directory=True)


@pytest.mark.parametrize("when", ["locked", "temps written"])
def test_a_folder_swapped_for_a_link_during_the_write_is_not_followed(tmp_path, monkeypatch,
                                                                      when):
    """The folder is swapped for a symbolic link to another folder after the checks and
    the lock, or just before the renames: nothing is written through the link, and the
    files land, all new, in the folder that was checked and locked."""
    folder, elsewhere = tmp_path / "out", tmp_path / "elsewhere"
    elsewhere.mkdir()
    old = {folder / f"f{i}.bin": f"old {i}".encode() for i in range(3)}
    write_files(old)
    new = {path: f"new {i}".encode() for i, path in enumerate(old)}
    new[folder / "extra.bin"] = b"extra"
    if when == "locked":
        real_remove = output._remove_stale

        def remove_then_swap(open_folder):
            real_remove(open_folder)
            _swap_for_a_link(folder, elsewhere)

        monkeypatch.setattr(output, "_remove_stale", remove_then_swap)
    else:
        real_write, written = output._write_temp, []

        def write_then_swap(*args):
            real_write(*args)
            written.append(args)
            if len(written) == len(new):
                _swap_for_a_link(folder, elsewhere)

        monkeypatch.setattr(output, "_write_temp", write_then_swap)
    write_files(new)
    monkeypatch.undo()
    assert folder.is_symlink()
    assert os.listdir(elsewhere) == []
    moved = tmp_path / "moved"
    assert {p.name: p.read_bytes() for p in moved.iterdir()} == {
        p.name: data for p, data in new.items()}


def test_names_that_differ_only_in_case_are_one_file_and_refused(tmp_path):
    with pytest.raises(OutputError, match="would be one file"):
        write_files({tmp_path / "Card.pdf": b"a", tmp_path / "card.pdf": b"b"})
    assert os.listdir(tmp_path) == []
    (tmp_path / "sub").mkdir()
    (tmp_path / "alias").symlink_to(tmp_path / "sub")
    with pytest.raises(OutputError, match="would be one file"):
        write_files({tmp_path / "sub" / "a.pdf": b"a", tmp_path / "alias" / "a.pdf": b"b"})
    assert os.listdir(tmp_path / "sub") == []


@pytest.mark.parametrize("command", [["card", "-f", "pdf"], ["rules", "rotator"],
                                     ["connector", "show"]])
def test_a_device_as_the_output_folder_is_named_a_device(command):
    error_line(cli(*command, "-o", "/dev/null"), "output folder /dev/null is a device, not "
               "a folder")
    assert sorted(p.name for p in Path("/dev").glob("null*")) == ["null"]
