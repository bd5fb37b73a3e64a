"""The jobs an RQ worker runs. Each is a plain function whose arguments RQ pickles into
Redis (a checked person from :func:`cardgen.read_people`, a folder's name), calls the
cardgen library and returns plain values, so any worker on any machine with cardgen
installed can run it, and run it again: cardgen makes the same bytes from the same
arguments in any process, and writes a card's files all at once or not at all.

Start workers with ``rq worker cards`` in a folder from which ``examples.rq.tasks``
can be imported (the repository, or copy this file into your project).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cardgen


def write_cards(people: Any, rows: list[int], output: str,
                formats: str = "pdf,svg,png") -> list[str]:
    """Some people's cards (``rows``: their indexes in ``people``, as
    :func:`cardgen.read_people` gave them), each written into ``output``, a folder the
    workers share, all of a card's files or none; returns the names written. The cards
    are named as the whole batch names them (the second Sam Reed is ``sam-reed-2``). A
    card that cannot be made (a portrait missing on this worker's disk, a name too long
    for the card) raises :class:`cardgen.ProblemsError`, a ``ValueError`` naming the
    row: RQ marks the job failed with that sentence, and a retry would fail the same
    way."""
    names: list[str] = []
    for item in cardgen.make_cards(people, rows=rows, formats=formats):
        item.files.write(Path(output))
        names += item.files
    return names


def write_dielines(people: Any, output: str, formats: str = "pdf,svg,png") -> list[str]:
    """The batch's dielines (one per card size), written once for the whole table."""
    files = cardgen.make_dielines(people, formats=formats)
    files.write(Path(output))
    return list(files)
