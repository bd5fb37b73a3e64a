"""``cardgen card --watch``: the files made, then made again on every save of the card's
files; a broken save said in one line with the files kept; JSON lines; Ctrl-C.

The loop runs in process with the changes given by the test (deterministic), and with
the real watching ended by a stop event; a few tests start ``cardgen card --watch`` as a
real process, save files as an editor does and wait (without a clock bound) for the
files to change."""

from __future__ import annotations

import json
import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

import pytest

import cardgen.cli.card_watch as card_watch
from tests.helpers import BASE_CONFIG, cli, error_line, ok

WAIT = 120.0  # seconds a test waits for what must come, at most (no clock bound: a hang)
REBUILT = re.compile(r"^\d\d:\d\d:\d\d (?P<what>.+) changed: (?P<done>.+?)"
                     r"(; (?P<ladder>Corporate Ladder: .+))?$")
Step = Callable[[], set[Path] | None]


def _save(path: Path, text: str) -> None:
    """Save as many editors do: write a new file beside it, rename it over the old."""
    temp = path.with_name(f".{path.name}.swp")
    temp.write_text(text, encoding="utf-8")
    os.replace(temp, path)


def _scripted(monkeypatch: pytest.MonkeyPatch, *steps: Step) -> list[set[Path]]:
    """The watch's changes, given by the test: each step edits files and returns the set
    of changed files (None: nothing to build); the watch ends after the last one."""
    seen: list[set[Path]] = []

    def changes(sources: Callable[[], Iterable[Path]],
                stop: threading.Event | None = None) -> Iterator[set[Path]]:
        seen.append(set(sources()))
        yield set()  # the first build
        for step in steps:
            changed = step()
            if changed is not None:
                yield changed
            seen.append(set(sources()))

    monkeypatch.setattr(card_watch, "_changes", changes)
    return seen


def _config(folder: Path, text: str = BASE_CONFIG) -> Path:
    path = folder / "card.toml"
    path.write_text(text, encoding="utf-8")
    return path


def _files(folder: Path) -> dict[str, bytes]:
    """The files in ``folder`` (not a commit's hidden temporary files and backups, which
    a look during a build may see)."""
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())
            if not p.name.startswith(".")}


# --- the loop, in process, with the changes the test gives --------------------------------

def test_it_builds_then_says_each_rebuild_in_one_line(tmp_path, monkeypatch):
    config = _config(tmp_path)

    def retitle() -> set[Path]:
        _save(config, BASE_CONFIG.replace("Puzzle Designer", "Game Writer"))
        return {config.resolve()}

    def rename() -> set[Path]:
        _save(config, BASE_CONFIG.replace("Ada Example", "Bea Example"))
        return {config.resolve()}

    _scripted(monkeypatch, retitle, rename)
    result = ok(cli("card", "card.toml", "--watch", "-f", "svg", "-o", "out", cwd=tmp_path))
    lines = result.stdout.splitlines()
    assert lines[:3] == ["wrote out/card-outside.svg", "wrote out/card-inside.svg",
                         "wrote out/card-dieline.svg"]
    assert lines[3].startswith("Corporate Ladder: ")
    rebuilds = [REBUILT.match(line) for line in lines[4:]]
    assert len(rebuilds) == 2 and all(rebuilds), lines
    for match in rebuilds:
        assert match is not None
        assert match["what"] == "card.toml"
        assert match["done"] == "replaced 3 files in out"
        assert match["ladder"] and match["ladder"].startswith("Corporate Ladder: ")
    assert result.stderr.splitlines() == ["watching card.toml for changes; Ctrl-C stops."]
    # the files are the last save's, byte for byte as cardgen card makes them
    ok(cli("card", "card.toml", "-f", "svg", "-o", "again", cwd=tmp_path))
    assert _files(tmp_path / "out") == _files(tmp_path / "again")
    assert b"Bea Example" in (tmp_path / "out" / "card-outside.svg").read_bytes()


def test_a_broken_save_is_said_and_the_files_are_kept_until_it_is_mended(tmp_path,
                                                                         monkeypatch):
    config = _config(tmp_path)
    kept: dict[str, dict[str, bytes]] = {}

    def break_it() -> set[Path]:
        kept["before"] = _files(tmp_path / "out")
        _save(config, BASE_CONFIG.replace("[person]", "[person"))
        return {config.resolve()}

    def look() -> None:
        kept["broken"] = _files(tmp_path / "out")
        return None

    def mend() -> set[Path]:
        _save(config, BASE_CONFIG.replace("Ada Example", "Bea Example"))
        return {config.resolve()}

    _scripted(monkeypatch, break_it, look, mend)
    result = ok(cli("card", "card.toml", "--watch", "-f", "svg", "-o", "out", cwd=tmp_path))
    assert kept["broken"] == kept["before"]
    errors = [line for line in result.stderr.splitlines() if line.startswith("error: ")]
    assert errors == ["error: card.toml: invalid TOML: Expected ']' at the end of a table "
                      "declaration (at line 5, column 8)."]
    assert REBUILT.match(result.stdout.splitlines()[-1])
    assert b"Bea Example" in (tmp_path / "out" / "card-outside.svg").read_bytes()
    assert not [p for p in tmp_path.rglob(".*") if p.name != ".card.toml.swp"]


def test_a_config_broken_from_the_start_is_said_and_waited_out(tmp_path, monkeypatch):
    """Like tsc --watch: what is wrong in the config is said, and a save mends it. A
    file the config names that appears later (the logo) is then watched too."""
    config = _config(tmp_path, BASE_CONFIG + '[images]\nlogo = "logo.png"\n')
    logo = tmp_path / "logo.png"

    def draw_the_logo() -> set[Path]:
        from PIL import Image

        Image.new("RGBA", (300, 120), (20, 120, 200, 255)).save(logo)
        return {logo}

    seen = _scripted(monkeypatch, draw_the_logo)
    result = ok(cli("card", "card.toml", "--watch", "-f", "svg", "-o", "out", cwd=tmp_path))
    first, later = result.stderr.splitlines()[0], result.stdout.splitlines()
    assert first == ("error: images.logo: image file logo.png does not exist.")
    assert not any(line.startswith("wrote") for line in later)
    assert REBUILT.match(later[-1]), later
    assert REBUILT.match(later[-1])["what"] == "logo.png"  # type: ignore[index]
    assert seen[0] == {config.resolve(), logo.resolve()}


def test_a_named_file_that_vanishes_is_said_and_its_return_rebuilds(tmp_path, monkeypatch):
    from PIL import Image

    logo = tmp_path / "logo.png"
    Image.new("RGBA", (300, 120), (20, 120, 200, 255)).save(logo)
    _config(tmp_path, BASE_CONFIG + '[images]\nlogo = "logo.png"\n')
    kept: dict[str, dict[str, bytes]] = {}

    def remove() -> set[Path]:
        kept["before"] = _files(tmp_path / "out")
        logo.rename(tmp_path / "aside.png")
        return {logo.resolve()}

    def bring_back() -> set[Path]:
        kept["gone"] = _files(tmp_path / "out")
        (tmp_path / "aside.png").rename(logo)
        return {logo.resolve()}

    _scripted(monkeypatch, remove, bring_back)
    result = ok(cli("card", "card.toml", "--watch", "-f", "svg", "-o", "out", cwd=tmp_path))
    assert kept["gone"] == kept["before"]
    errors = [line for line in result.stderr.splitlines() if line.startswith("error: ")]
    assert errors == ["error: images.logo: image file logo.png does not exist."]
    last = REBUILT.match(result.stdout.splitlines()[-1])
    assert last and last["what"] == "logo.png" and last["done"] == "replaced 3 files in out"


def test_json_lines_an_object_per_build(tmp_path, monkeypatch):
    config = _config(tmp_path)

    def break_it() -> set[Path]:
        _save(config, BASE_CONFIG.replace("[person]", "[person"))
        return {config.resolve()}

    def mend() -> set[Path]:
        _save(config, BASE_CONFIG)
        return {config.resolve()}

    _scripted(monkeypatch, break_it, mend)
    result = ok(cli("card", "card.toml", "--watch", "--json", "-f", "svg", "-o", "out",
                    cwd=tmp_path))
    objects = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(objects) == 4  # a build's each, then the run's own (it ended: no error)
    first, broken, mended, end = objects
    assert "error" not in end
    assert first["changed"] == [] and first["warnings"] == []
    assert first["files"] == [{"path": f"out/card-{side}.svg", "replaced": False}
                              for side in ("outside", "inside", "dieline")]
    assert first["ladder"]["type"]
    (tmp_path / "b").mkdir()
    _config(tmp_path / "b", BASE_CONFIG.replace("[person]", "[person"))
    said = json.loads(cli("card", "card.toml", "--json", cwd=tmp_path / "b").stdout)
    assert broken == {"changed": ["card.toml"], **said}  # as cardgen card --json says it
    assert broken["error"]["field"] == "card.toml"
    assert mended["changed"] == ["card.toml"]
    assert all(f["replaced"] for f in mended["files"])
    assert mended["ladder"] == first["ladder"]


def test_quiet_says_one_line_a_rebuild_and_no_file(tmp_path, monkeypatch):
    config = _config(tmp_path)
    _scripted(monkeypatch, lambda: {config.resolve()})
    result = ok(cli("card", "card.toml", "--watch", "-q", "-f", "svg", "-o", "out",
                    cwd=tmp_path))
    lines = result.stdout.splitlines()
    assert len(lines) == 2 and lines[0].startswith("Corporate Ladder: ")
    match = REBUILT.match(lines[1])
    assert match and match["done"] == "made again"
    assert result.stderr == ""


def test_the_theme_file_of_the_option_is_watched(tmp_path, monkeypatch):
    config = _config(tmp_path)
    theme = tmp_path / "themes" / "mine.toml"
    theme.parent.mkdir()
    theme.write_text((Path(__file__).parents[1] / "templates" / "themes" / "light.toml")
                     .read_text())
    seen = _scripted(monkeypatch, lambda: {theme.resolve()})
    result = ok(cli("card", "card.toml", "--watch", "--theme", "themes/mine.toml", "-f",
                    "svg", "-o", "out", cwd=tmp_path))
    assert seen[0] == {config.resolve(), theme.resolve()}
    assert "watching card.toml and 1 file it names" in result.stderr
    assert REBUILT.match(result.stdout.splitlines()[-1])["what"] == (  # type: ignore[index]
        "themes/mine.toml")


def test_warnings_come_with_every_build(tmp_path, monkeypatch):
    """A soft logo warns at every build, before the build's line."""
    from PIL import Image

    Image.new("RGB", (40, 16), (20, 120, 200)).save(tmp_path / "logo.png")
    config = _config(tmp_path, BASE_CONFIG + '[images]\nlogo = "logo.png"\n')
    _scripted(monkeypatch, lambda: {config.resolve()})
    result = ok(cli("card", "card.toml", "--watch", "-f", "svg", "-o", "out", cwd=tmp_path))
    warnings = [line for line in result.stderr.splitlines() if line.startswith("warning: ")]
    half = len(warnings) // 2
    assert half and warnings[:half] == warnings[half:], warnings
    assert any("soft" in line for line in warnings[:half])


@pytest.mark.parametrize("args, needle", [
    (["card.toml", "--batch", "people.csv"], "--batch makes a card for every row"),
    ([], "no CONFIG is given"),
    (["-"], "CONFIG - would be standard input"),
])
def test_watch_without_one_config_file_is_a_usage_error(tmp_path, args, needle):
    _config(tmp_path)
    (tmp_path / "people.csv").write_text("person.name\nAda\n")
    line = error_line(cli("card", *args, "--watch", "-o", "out", cwd=tmp_path), needle,
                      "--watch", status=2)
    assert line.startswith("error: --watch ")
    assert not (tmp_path / "out").exists()


def test_a_usage_error_with_json_is_one_object(tmp_path):
    result = cli("card", "--watch", "--json", cwd=tmp_path)
    assert result.returncode == 2
    assert json.loads(result.stdout)["error"]["field"] == "--watch"


def test_a_config_that_is_not_there_ends_it_as_cardgen_card_does(tmp_path, monkeypatch):
    _scripted(monkeypatch)
    error_line(cli("card", "nope.toml", "--watch", cwd=tmp_path),
               "config file nope.toml does not exist.")


def test_an_options_error_ends_it_before_anything_is_watched(tmp_path, monkeypatch):
    _config(tmp_path)
    seen = _scripted(monkeypatch)
    error_line(cli("card", "card.toml", "--watch", "--dpi", "0", cwd=tmp_path), "--dpi")
    assert seen == []


# --- the changes: the library's watching, in a thread -------------------------------------

def test_the_watching_thread_leaves_the_signals_to_the_main_thread(monkeypatch):
    """The watching thread (and the library's threads it starts) block Ctrl-C and
    SIGTERM: the system gives them to the main thread, which holds them back while a
    build's files are renamed into place."""
    masks: list[set[int]] = []

    def watch_files(sources, stop=None, since=None):
        masks.append(set(signal.pthread_sigmask(signal.SIG_BLOCK, set())))
        yield {Path("/x/a")}

    monkeypatch.setattr("cardgen.api.watch.watch_files", watch_files)
    changes = card_watch._changes(lambda: ())
    assert next(changes) == set()
    assert next(changes) == {Path("/x/a")}
    assert masks and {signal.SIGINT, signal.SIGTERM} <= masks[0]
    assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, set())


def test_changes_that_come_during_a_build_are_one_build(monkeypatch):
    """Three saves while a build runs: the next build is one, for all three."""
    a, b, c = Path("/x/a"), Path("/x/b"), Path("/x/c")
    building, yielded = threading.Event(), threading.Event()

    def watch_files(sources, stop=None, since=None):
        yield {a}
        assert building.wait(WAIT)
        yield {b}
        yield {a, c}
        yielded.set()
        while not stop.wait(0.01):
            pass

    monkeypatch.setattr("cardgen.api.watch.watch_files", watch_files)
    stop = threading.Event()
    changes = card_watch._changes(lambda: (), stop)
    assert next(changes) == set()  # the first build
    assert next(changes) == {a}
    building.set()  # the build of {a} runs while the three come
    assert yielded.wait(WAIT)
    assert next(changes) == {a, b, c}
    stop.set()
    assert list(changes) == []


def test_an_error_of_the_watching_reaches_the_command(monkeypatch):
    from cardgen.errors import RuntimeFault

    def watch_files(sources, stop=None, since=None):
        raise RuntimeFault("cannot watch: too many folders watched.")
        yield set()

    monkeypatch.setattr("cardgen.api.watch.watch_files", watch_files)
    changes = card_watch._changes(lambda: ())
    assert next(changes) == set()
    with pytest.raises(RuntimeFault):
        next(changes)


# --- the real watching, in process, ended by a stop event ---------------------------------

def _until(condition: Callable[[], bool]) -> None:
    deadline = time.monotonic() + WAIT
    while not condition():
        assert time.monotonic() < deadline, "what the test waited for never came"
        time.sleep(0.05)


def _outside(folder: Path) -> bytes:
    try:
        return (folder / "card-outside.svg").read_bytes()
    except OSError:
        return b""


@pytest.mark.slow
def test_real_saves_rebuild_until_stopped(tmp_path, monkeypatch):
    """The loop with the library's watching: a rename-save of the config, a portrait
    that appears (named by that save), a portrait replaced; then the stop event."""
    from PIL import Image

    config = _config(tmp_path)
    out = tmp_path / "out"
    stop = threading.Event()
    real = card_watch._changes
    monkeypatch.setattr(card_watch, "_changes", lambda sources, _=None: real(sources, stop))
    problems: list[BaseException] = []

    def edit() -> None:
        try:
            _until(lambda: b"Ada Example" in _outside(out))
            _save(config, BASE_CONFIG.replace("Ada Example", "Bea Example")
                  + '[images]\nportrait = "me.png"\n')
            # the portrait does not exist yet: an error, then it appears
            Image.new("RGB", (200, 200), (180, 120, 90)).save(tmp_path / "me.png")
            _until(lambda: b"Bea Example" in _outside(out))
            before = _outside(out)
            Image.new("RGB", (200, 200), (40, 60, 200)).save(tmp_path / "me2.png")
            os.replace(tmp_path / "me2.png", tmp_path / "me.png")
            _until(lambda: _outside(out) not in (before, b""))
        except BaseException as exc:
            problems.append(exc)
        finally:
            stop.set()

    editor = threading.Thread(target=edit)
    editor.start()
    result = cli("card", "card.toml", "--watch", "-f", "svg", "-o", "out", cwd=tmp_path)
    editor.join()
    assert not problems, (problems, result.stdout, result.stderr)
    ok(result)
    ok(cli("card", "card.toml", "-f", "svg", "-o", "again", cwd=tmp_path))
    assert _files(out) == _files(tmp_path / "again")


@pytest.mark.slow
def test_quick_saves_are_one_build(tmp_path, monkeypatch):
    """Five saves in a row, as fast as Python writes them: one build (two at most, when
    the first save's build starts before the others come; they are joined into one)."""
    config = _config(tmp_path)
    out = tmp_path / "out"
    stop = threading.Event()
    real = card_watch._changes
    monkeypatch.setattr(card_watch, "_changes", lambda sources, _=None: real(sources, stop))
    problems: list[BaseException] = []

    def edit() -> None:
        try:
            _until(lambda: b"Ada Example" in _outside(out))
            for n in range(5):
                _save(config, BASE_CONFIG.replace("Ada Example", f"Ada Nr{n}"))
            _until(lambda: b"Ada Nr4" in _outside(out))
        except BaseException as exc:
            problems.append(exc)
        finally:
            stop.set()

    editor = threading.Thread(target=edit)
    editor.start()
    result = ok(cli("card", "card.toml", "--watch", "-f", "svg", "-o", "out", cwd=tmp_path))
    editor.join()
    assert not problems, problems
    rebuilds = [line for line in result.stdout.splitlines() if REBUILT.match(line)]
    assert 1 <= len(rebuilds) <= 2, rebuilds


# --- as a real process --------------------------------------------------------------------

class _Watching:
    """``cardgen card --watch`` as a real process, its stderr lines read as they come."""

    def __init__(self, folder: Path, *args: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "cardgen", "card", *args, "--watch"], cwd=folder,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.lines: queue.SimpleQueue[str] = queue.SimpleQueue()
        self.stderr: list[str] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.lines.put(line.rstrip("\n"))

    def line(self) -> str:
        """The next stderr line (warnings aside)."""
        while True:
            line = self.lines.get(timeout=WAIT)
            self.stderr.append(line)
            if not line.startswith("warning: "):
                return line

    def stop(self) -> tuple[int, str, list[str]]:
        """Ctrl-C; the exit status, stdout and every stderr line."""
        self.process.send_signal(signal.SIGINT)
        self.process.wait(timeout=WAIT)
        assert self.process.stdout is not None
        out = self.process.stdout.read()
        self.reader.join(timeout=WAIT)
        while True:
            try:
                self.stderr.append(self.lines.get_nowait())
            except queue.Empty:
                return self.process.returncode, out, self.stderr


@pytest.mark.slow
def test_as_a_process_build_break_mend_and_ctrl_c(tmp_path):
    config = _config(tmp_path)
    out = tmp_path / "out"
    watching = _Watching(tmp_path, "card.toml", "-f", "svg,pdf", "-o", "out")
    try:
        assert watching.line() == "watching card.toml for changes; Ctrl-C stops."
        first = _files(out)
        assert b"Ada Example" in first["card-outside.svg"]
        _save(config, BASE_CONFIG.replace("Ada Example", "Bea Example"))
        _until(lambda: b"Bea Example" in _outside(out))
        _until(lambda: _files(out)["card.pdf"] != first["card.pdf"])  # (the set, all of it)
        good = _files(out)
        config.write_text(BASE_CONFIG.replace("[person]", "[person"), encoding="utf-8")
        assert watching.line().startswith("error: card.toml: invalid TOML: ")
        assert _files(out) == good
        _save(config, BASE_CONFIG.replace("Ada Example", "Cyd Example"))
        _until(lambda: b"Cyd Example" in _outside(out))
    finally:
        status, stdout, stderr = watching.stop()
    assert status == 130, (stdout, stderr)
    assert stderr[-1] == "interrupted"
    assert "Traceback" not in "\n".join(stderr)
    lines = stdout.splitlines()
    assert [REBUILT.match(line) is not None for line in lines].count(True) >= 2, lines
    assert sorted(p.name for p in tmp_path.rglob("*") if p.is_file()) == [
        "card-dieline.pdf", "card-dieline.svg", "card-inside.svg", "card-outside.svg",
        "card.pdf", "card.toml"]  # no temporary file, no backup


@pytest.mark.slow
def test_as_a_process_json_lines_and_ctrl_c_while_waiting(tmp_path):
    config = _config(tmp_path)
    watching = _Watching(tmp_path, "card.toml", "--json", "-f", "svg", "-o", "out")
    try:
        assert watching.line().startswith("watching card.toml")
        _save(config, BASE_CONFIG.replace("Ada Example", "Bea Example"))
        _until(lambda: b"Bea Example" in _outside(tmp_path / "out"))
    finally:
        status, stdout, stderr = watching.stop()
    assert status == 130 and stderr[-1] == "interrupted"
    *objects, end = [json.loads(line) for line in stdout.splitlines()]
    assert len(objects) >= 2 and all("files" in o for o in objects), objects
    assert objects[0]["changed"] == [] and objects[-1]["changed"] == ["card.toml"]
    assert end == {"error": {"code": "general.interrupted", "field": None,
                             "message": "interrupted"}}


# --- the signals of a run that goes on ----------------------------------------------------

@pytest.mark.parametrize("signum, status", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_during_a_builds_commit_ends_the_watch_after_it(tmp_path, monkeypatch,
                                                                 signum, status):
    """A commit does not end a watch (the first build's did, and every later Ctrl-C was
    ignored); a signal that comes during a later build's renames waits for the set to be
    whole, then ends the watch: the new files, no temporary file, no backup."""
    from cardgen import output

    config = _config(tmp_path)
    renames = output._Folder.replace

    def signalled(self, *args):
        monkeypatch.setattr(output._Folder, "replace", renames)
        # (to the main thread, which holds it back until the set is committed; the
        # watch's own threads block it, the test runner's may not)
        signal.pthread_kill(threading.main_thread().ident or 0, signum)
        return renames(self, *args)

    def rename() -> set[Path]:
        _save(config, BASE_CONFIG.replace("Ada Example", "Bea Example"))
        monkeypatch.setattr(output._Folder, "replace", signalled)
        return {config.resolve()}

    def never() -> set[Path]:
        raise AssertionError("the watch went on after the signal")

    _scripted(monkeypatch, rename, never)
    result = cli("card", "card.toml", "--watch", "-f", "svg", "-o", "out", cwd=tmp_path)
    assert result.returncode == status, result
    assert result.stderr.splitlines()[-1] == ("interrupted" if status == 130 else
                                              "terminated")
    ok(cli("card", "card.toml", "-f", "svg", "-o", "again", cwd=tmp_path))
    assert _files(tmp_path / "out") == _files(tmp_path / "again")
    assert sorted(os.listdir(tmp_path / "out")) == sorted(_files(tmp_path / "out"))
