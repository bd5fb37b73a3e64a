"""The card page: the card as ``cardgen card`` draws it, drawn again on every save.

The page shows the outside and the inside spread (the SVG files ``cardgen card -f svg``
writes, the same drawing), the Corporate Ladder line and every warning. A thread
watches the config and every file it names (:func:`cardgen.api.watch.watch_files`);
each save builds the card again and pushes it to every open page as a server-sent
event. A config that no longer reads keeps the last good picture and sends its error
(one sentence, its field, each problem's code) beside it.

Routes (under the token):

* ``GET /`` the page; ``GET /api/card`` the card now (JSON);
* ``GET /api/events`` the stream: an ``event: card`` with the card's JSON now and after
  every build (a comment line every :data:`KEEPALIVE` seconds in between);
* ``POST /api/card/write`` ``{"formats": "pdf,svg,png"}`` writes the print files into the
  output folder, all or none, as ``cardgen card`` does (409 while the config has an
  error: the files would not be what the page shows).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from cardgen.api import CardgenError, card_config, ladder_line, make_card
from cardgen.api.watch import card_sources, file_states, watch_files
from cardgen.studio.app import Studio, asset
from cardgen.studio.http import (
    HttpError,
    Request,
    Response,
    Route,
    Stream,
    error_body,
    json_response,
)

KEEPALIVE = 15.0  # seconds between the stream's comment lines (proxies, sleeping tabs)
PRINT_FORMATS = "pdf,svg,png"


class CardPage:
    """The card now, built again whenever one of its files is saved."""

    def __init__(self, studio: Studio) -> None:
        self.studio = studio
        self.changed = threading.Condition()
        self.generation = 0
        self.state: dict[str, Any] = {}
        self.builds = 0
        studio.wakers.append(self.wake)
        self.since = file_states(self.sources())  # a save while it builds is a change
        self.build(())

    def wake(self) -> None:
        with self.changed:
            self.changed.notify_all()

    # --- building -----------------------------------------------------------------

    def build(self, changed: tuple[str, ...]) -> None:
        """Build the card from its files now; keep the last good picture on an error."""
        started = time.perf_counter()
        studio = self.studio
        try:
            config = card_config(studio.config)
            result = make_card(config, formats="svg", name=studio.name)
        except CardgenError as error:
            problem: dict[str, Any] | None = error_body(error)
            result = None
        else:
            problem = None
            studio.remember(config)
        with self.changed:
            previous = self.state
            self.generation += 1
            self.builds += 1
            state: dict[str, Any] = {
                "generation": self.generation,
                "config": str(studio.config) if studio.config else None,
                "output": str(studio.output),
                "changed": list(changed),
                "error": problem,
                "build_ms": round((time.perf_counter() - started) * 1000, 1),
            }
            if result is not None:
                files = result.files
                state.update({
                    "outside": files[f"{studio.name}-outside.svg"].decode("utf-8"),
                    "inside": files[f"{studio.name}-inside.svg"].decode("utf-8"),
                    "ladder": ladder_line(result.ladder),
                    "warnings": list(result.warnings),
                    "shown": self.generation,
                })
            else:  # the last good picture stays, marked as older than the error
                state.update({key: previous.get(key) for key in
                              ("outside", "inside", "ladder", "warnings", "shown")})
            self.state = state
            self.changed.notify_all()

    def sources(self) -> tuple[Path, ...]:
        """What to watch: the config and the files it names (the config alone while it
        does not read: only a save of it can mend it)."""
        return card_sources(self.studio.config)

    def watch(self) -> None:
        """Build again on every save, until the studio stops."""
        for changed in watch_files(self.sources, self.studio.stopping, since=self.since):
            self.build(tuple(sorted(path.name for path in changed)))

    def start(self) -> threading.Thread | None:
        """Watch in a background thread (the built-in example has no file to watch)."""
        if self.studio.config is None:
            return None
        thread = threading.Thread(target=self.watch, name="cardgen-studio-watch",
                                  daemon=True)
        thread.start()
        return thread

    # --- serving ------------------------------------------------------------------

    def now(self) -> tuple[int, dict[str, Any]]:
        with self.changed:
            return self.generation, self.state

    def events(self, after: int = 0) -> Iterator[bytes]:
        """The stream: the card now, then again after every build."""
        stopping = self.studio.stopping
        seen = after
        while not stopping.is_set():
            with self.changed:
                if self.generation == seen and not stopping.is_set():
                    self.changed.wait(KEEPALIVE)  # woken by a build or by the stop
                generation, state = self.generation, self.state
            if stopping.is_set():
                return
            if generation == seen:
                yield b": still here\n\n"
                continue
            seen = generation
            data = json.dumps(state, ensure_ascii=False, separators=(",", ":"))
            yield f"id: {generation}\nevent: card\ndata: {data}\n\n".encode()

    def write(self, request: Request) -> Response:
        body = request.json()
        formats = body.get("formats", PRINT_FORMATS)
        if not isinstance(formats, str):
            raise HttpError(400, "formats must be text such as \"pdf,svg,png\"")
        _, state = self.now()
        if state.get("error") is not None:
            raise HttpError(409, "the config has an error; fix it, then write the files")
        config = self.studio.last_good_config()
        result = make_card(config, formats=formats, name=self.studio.name)
        written = self.studio.write(result.files)
        self.studio.log(f"wrote {len(written)} files into {self.studio.output}")
        return json_response({
            "written": [{"name": w.path.name, "replaced": w.replaced} for w in written],
            "folder": str(self.studio.output),
            "ladder": ladder_line(result.ladder),
            "warnings": list(result.warnings),
        })


def routes(studio: Studio) -> list[Route]:
    """The card page's routes; starts watching the card's files."""
    page = CardPage(studio)
    page.start()

    def index(request: Request) -> Response:
        return Response(asset("card.html"), "text/html; charset=utf-8")

    def card(request: Request) -> Response:
        return json_response(page.now()[1])

    def events(request: Request) -> Stream:
        return Stream(page.events())

    return [
        Route("GET", "/", index),
        Route("GET", "/api/card", card),
        Route("GET", "/api/events", events),
        Route("POST", "/api/card/write", page.write),
    ]
