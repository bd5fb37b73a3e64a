"""cardgen.api.watch: the files a card is made from, and their saves as they happen,
with the real watching (watchfiles). Each test waits for events, with a generous bound
that only a broken watcher reaches."""

from __future__ import annotations

import os
import queue
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from cardgen.api.watch import card_sources, file_states, watch_files
from tests.helpers import ROOT

WAIT = 30.0


class Watching:
    """watch_files in a thread; its sets arrive on a queue."""

    def __init__(self, sources, since=None) -> None:
        self.stop = threading.Event()
        self.sets: queue.Queue[set[Path]] = queue.Queue()
        self.ready = threading.Event()

        def run() -> None:
            for changed in watch_files(sources, self.stop, since=since):
                self.sets.put(changed)

        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()

    def next(self) -> set[Path]:
        return self.sets.get(timeout=WAIT)

    def close(self) -> None:
        self.stop.set()
        self.thread.join(WAIT)
        assert not self.thread.is_alive()


@pytest.fixture
def watching() -> Iterator[list[Watching]]:
    made: list[Watching] = []
    yield made
    for each in made:
        each.close()


def rename_save(path: Path, text: str) -> None:
    temporary = path.with_name(f".{path.name}.tmp")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, path)


def settle(watch: Watching, path: Path) -> None:
    """Save ``path`` until the watcher reports it: the watcher runs from then on."""
    while True:
        path.write_text(path.read_text(encoding="utf-8") + "#\n", encoding="utf-8")
        try:
            if path in watch.sets.get(timeout=0.5):
                break
        except queue.Empty:
            continue
    while not watch.sets.empty():
        watch.sets.get_nowait()


def test_card_sources_name_the_config_and_the_files_it_names(tmp_path):
    import shutil

    shutil.copy(ROOT / "templates" / "themes" / "light.toml", tmp_path / "mine.toml")
    config = tmp_path / "card.toml"
    config.write_text('[person]\nname = "Ada"\n[card]\ntheme = "mine.toml"\n'
                      '[images]\nportrait = "me.png"\n', encoding="utf-8")
    sources = card_sources(config)
    assert sources[0] == config and tmp_path / "mine.toml" in sources
    assert card_sources(None) == ()
    config.write_text("[card\n", encoding="utf-8")
    assert card_sources(config) == (config,)  # a broken config: itself, to see it fixed
    assert card_sources(tmp_path / "nope.toml") == (tmp_path / "nope.toml",)


def test_a_rename_save_a_new_file_and_a_deleted_file_are_seen(tmp_path, watching):
    config, logo = tmp_path / "card.toml", tmp_path / "logo.png"
    config.write_text("a\n", encoding="utf-8")
    watch = Watching(lambda: [config, logo])
    watching.append(watch)
    settle(watch, config)
    rename_save(config, "b\n")
    assert watch.next() == {config}
    logo.write_bytes(b"x")  # a file named before it existed
    assert watch.next() == {logo}
    logo.unlink()
    assert watch.next() == {logo}
    (tmp_path / "other.txt").write_text("not watched", encoding="utf-8")
    rename_save(config, "c\n")
    assert watch.next() == {config}  # the other file was never reported


def test_a_save_between_reading_and_watching_is_the_first_change(tmp_path, watching):
    config = tmp_path / "card.toml"
    config.write_text("read\n", encoding="utf-8")
    since = file_states([config])  # the caller reads the file now...
    rename_save(config, "saved before the watching ran\n")  # ...and it is saved
    watch = Watching(lambda: [config], since=since)
    watching.append(watch)
    assert watch.next() == {config}


def test_files_in_another_folder_are_watched_once_named_and_no_save_is_lost(tmp_path,
                                                                            watching):
    config = tmp_path / "card.toml"
    config.write_text("a\n", encoding="utf-8")
    (tmp_path / "images").mkdir()
    portrait = tmp_path / "images" / "me.png"
    named = [config]
    watch = Watching(lambda: list(named))
    watching.append(watch)
    settle(watch, config)
    named.append(portrait)
    rename_save(config, "b\n")  # the config now names a portrait in another folder
    assert watch.next() == {config}
    portrait.write_bytes(b"x")  # saved at once, maybe while the watching starts again
    assert watch.next() == {portrait}


def test_the_stop_event_ends_the_watching(tmp_path):
    config = tmp_path / "card.toml"
    config.write_text("a\n", encoding="utf-8")
    watch = Watching(lambda: [config])
    watch.close()
    assert watch.sets.empty()
