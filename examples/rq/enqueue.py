"""Queue a card for every person of a table:

    python -m examples.rq.enqueue people.csv studio.toml out

with Redis at ``REDIS_URL`` (default ``redis://localhost:6379``), then run
``rq worker cards`` on as many machines as you like, each seeing ``out`` and the
table's images at the same paths.

Every row is checked here, before anything is queued, so a bad table stops with every
bad row named (as ``cardgen card --batch`` does) and no job runs."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from examples.rq.tasks import write_cards, write_dielines

CHUNK = 25  # people a job: each job carries the checked table, so not one a person


def enqueue(queue: object, table: Path, config: Path | None, output: Path,
            formats: str = "pdf,svg,png") -> list[object]:
    """The jobs of one batch, queued on ``queue`` (an ``rq.Queue``): the dielines, then
    the cards, ``CHUNK`` people a job, in the table's order. A job's ID names its rows,
    so a batch queued twice replaces its jobs instead of doubling them."""
    import cardgen

    people = cardgen.read_people(table, config)  # every row checked first
    jobs = [queue.enqueue(write_dielines, people, str(output), formats,  # type: ignore[attr-defined]
                          job_id="dielines")]
    for start in range(0, len(people), CHUNK):
        rows = list(range(start, min(start + CHUNK, len(people))))
        jobs.append(queue.enqueue(write_cards, people, rows, str(output), formats,  # type: ignore[attr-defined]
                                  job_id=f"cards-{rows[0]}-{rows[-1]}"))
    return jobs


def main(argv: list[str]) -> int:
    from redis import Redis
    from rq import Queue

    table, config, output = Path(argv[0]), Path(argv[1]), Path(argv[2])
    queue = Queue("cards", connection=Redis.from_url(
        os.environ.get("REDIS_URL", "redis://localhost:6379")))
    jobs = enqueue(queue, table, config, output)
    print(f"queued {len(jobs) - 1} jobs of cards and the dielines on {queue.name!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
