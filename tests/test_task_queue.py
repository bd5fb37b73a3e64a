"""The guide's worked example of cardgen under a task system (docs/scale.md,
``examples/rq``): a batch queued on RQ, one job per card, run by RQ's own worker, writes
the same files, byte for byte, as ``cardgen card --batch``; running the jobs again
rewrites the same bytes; and a bad table queues nothing.

Redis is played by fakeredis (the same commands, in this process), so the test needs
no server; the worker is RQ's ``SimpleWorker``, which runs each job in the worker's
process instead of a forked child (fakeredis's data would not cross a fork)."""

from __future__ import annotations

import shutil
from pathlib import Path

import fakeredis
import pytest
from rq import Queue, SimpleWorker

from cardgen.errors import CardgenError
from examples.rq.enqueue import enqueue
from tests.helpers import ROOT, cli

STUDIO = '[person]\ncompany = "Paper Lantern Games"\nweb = "paperlantern.example"\n'
PEOPLE = ("person.name,person.title,person.phone,images.portrait\n"
          "Robin Vale,Game Designer,+44 20 7946 0958,faces/robin.png\n"
          "Sam Reed,Producer,+44 20 7946 0111,\n"
          "Sam Reed,Artist,+44 20 7946 0112,\n")


@pytest.fixture
def batch(tmp_path: Path) -> tuple[Path, Path]:
    (tmp_path / "faces").mkdir()
    shutil.copy(ROOT / "tests" / "data" / "portrait.png", tmp_path / "faces" / "robin.png")
    (tmp_path / "people.csv").write_text(PEOPLE, encoding="utf-8")
    (tmp_path / "studio.toml").write_text(STUDIO, encoding="utf-8")
    return tmp_path / "people.csv", tmp_path / "studio.toml"


def files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def run_queue(table: Path, config: Path, output: Path) -> list[object]:
    connection = fakeredis.FakeRedis()
    queue = Queue("cards", connection=connection)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("examples.rq.enqueue.CHUNK", 2)  # two jobs of cards: rows 0-1, 2
        jobs = enqueue(queue, table, config, output, formats="pdf,png")
    SimpleWorker([queue], connection=connection).work(burst=True)
    return jobs


def test_the_queued_batch_writes_what_card_batch_writes(batch, tmp_path):
    table, config = batch
    ok = cli("card", "--batch", table, config, "-f", "pdf,png", "-o", tmp_path / "cli")
    assert ok.returncode == 0, ok.stderr
    jobs = run_queue(table, config, tmp_path / "queued")
    assert [job.get_status() for job in jobs] == ["finished"] * 3  # type: ignore[attr-defined]
    assert files(tmp_path / "queued") == files(tmp_path / "cli")
    assert {"sam-reed.pdf", "sam-reed-2.pdf", "dieline.pdf"} <= set(files(tmp_path / "cli"))


def test_running_the_jobs_again_writes_the_same_bytes(batch, tmp_path):
    table, config = batch
    run_queue(table, config, tmp_path / "out")
    first = files(tmp_path / "out")
    run_queue(table, config, tmp_path / "out")
    assert files(tmp_path / "out") == first


def test_a_bad_table_queues_nothing(batch, tmp_path):
    table, config = batch
    table.write_text(PEOPLE + ",No Name,,\n", encoding="utf-8")
    connection = fakeredis.FakeRedis()
    queue = Queue("cards", connection=connection)
    with pytest.raises(CardgenError, match="line 5"):
        enqueue(queue, table, config, tmp_path / "out")
    assert queue.count == 0 and not (tmp_path / "out").exists()
