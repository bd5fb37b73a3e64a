"""The Connector sandbox: copies of the user's own card on a table, to drag, turn, fold
and stack until a game's description reads.

The page (``static/connector.html`` and ``.js``) holds the layout, which is an assembly
file's content as JSON (``{"game", "preset", "card": [{"x", "y", "rotation", "tabs"}]}``,
bottom card first), and sends it here after every change; everything it shows comes
back from :mod:`cardgen.api.sandbox` and :mod:`cardgen.api.connector`, the same
functions as ``cardgen connector validate``'s, so no rule of the puzzle lives in
JavaScript:

=====================================  ================================================
``GET  /connector``                    the page
``GET  /api/connector/setup``          the user's card size, the games, the card's size
``GET  /api/connector/card.svg``       a card's back, ``?preset=eu&tabs=open|folded``: the
                                       user's own card (``cardgen.api.card_back``) when
                                       the preset is its size, else (or ``&plain=1``) the
                                       Connector's picture of a card
``POST /api/connector/verdict``        ``{"layout"}``: the verdict and where its parts lie
``POST /api/connector/snap``           ``{"layout", "card"}``: the card snapped, and the
                                       verdict of the layout with it snapped
``POST /api/connector/hint``           ``{"layout"}``: the next step towards the answer
``POST /api/connector/toml``           ``{"layout"}``: the assembly file's text and name
``POST /api/connector/save``           ``{"layout", "name"?}``: that file written into
                                       the output folder (all or nothing)
``POST /api/connector/load``           ``{"text"}``: an assembly file read, as a layout
=====================================  ================================================

A layout that breaks the assembly schema, a card that is not one of the layout's, a
file that does not read: the library's error (a 422 with its one sentence); a body
that is not what a route takes: a 400.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

from cardgen.studio.app import asset
from cardgen.studio.http import HttpError, Request, Response, Route, json_response

if TYPE_CHECKING:
    from cardgen.api import Files
    from cardgen.studio.app import Studio

SVG = "image/svg+xml"
PRESETS = ("eu", "us")
MAX_TEXT = 64 * 1024  # characters of an assembly file the page may send to be read


def _field(body: dict[str, Any], name: str, kind: type, what: str) -> Any:
    if name not in body:
        raise HttpError(400, f"the request has no {name!r}: send {what}.")
    value = body[name]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise HttpError(400, f"{name!r} must be {what}, not a JSON "
                        f"{_json_type(value)}.")
    return value


def _json_type(value: object) -> str:
    return {dict: "object", list: "array", str: "string", int: "number", float: "number",
            bool: "boolean", type(None): "null"}.get(type(value), type(value).__name__)


def _layout(body: dict[str, Any]) -> dict[str, Any]:
    layout: dict[str, Any] = _field(body, "layout", dict,
                                    "the layout as an object (an assembly file's content)")
    return layout


def layout_json(assembly: Any) -> dict[str, object]:
    """An assembly as the page holds it (an assembly file's content)."""
    return {"game": assembly.game.value, "preset": assembly.preset,
            "card": [{"x": c.x, "y": c.y, "rotation": c.rotation, "tabs": c.tabs.value}
                     for c in assembly.cards]}


def routes(studio: Studio) -> list[Route]:
    """The Connector page's routes (see the module's docstring)."""
    cards: dict[tuple[str, str], Any] = {}  # ConnectorCard by (preset, tabs): at most 4
    lock = threading.Lock()

    def page(request: Request) -> Response:
        return Response(asset("connector.html"), "text/html; charset=utf-8")

    def card(preset: str, tabs: str) -> Any:
        from cardgen.api.sandbox import connector_card

        with lock:
            made = cards.get((preset, tabs))
        if made is None:
            made = connector_card(preset, tabs)
            with lock:
                cards[preset, tabs] = made
        return made

    def setup(request: Request) -> Response:
        from cardgen.api.sandbox import sandbox_games

        size = studio.last_good_config().size.preset
        if size is None:
            raise HttpError(409, "your card has a custom size, which has no Connector "
                            "layout: set its preset to eu or us to try the puzzle.")
        sizes = {p: [card(p, "open").width, card(p, "open").height] for p in PRESETS}
        games = [{"game": g.game, "colour": g.colour, "rgb": g.rgb, "shape": g.shape,
                  "players": g.players} for g in sandbox_games(size)]
        return json_response({"preset": size.value, "width": sizes[size.value][0],
                              "height": sizes[size.value][1], "sizes": sizes,
                              "games": games})

    # The user's card by tabs, for one config (held, so that it is compared by identity
    # and a config read later, even at the same address, is never taken for it).
    own: dict[str, bytes] = {}
    own_for: list[Any] = [None]

    def own_card(tabs: str) -> bytes | None:
        """The user's own card from the back (its theme, its art), for the last config
        that read: None for a custom size (no Connector layout)."""
        from cardgen.api import card_back

        config = studio.last_good_config()
        if config.size.preset is None:
            return None
        with lock:
            svg = own.get(tabs) if own_for[0] is config else None
        if svg is None:
            back = card_back(config, tabs=tabs, name=studio.name)
            svg = next(iter(back.files.values()))
            with lock:
                if own_for[0] is not config:  # another config: forget the old pictures
                    own.clear()
                    own_for[0] = config
                own[tabs] = svg
        return svg

    def card_svg(request: Request) -> Response:
        preset = request.query.get("preset", "eu")
        tabs = request.query.get("tabs", "open")
        if preset not in PRESETS or tabs not in ("open", "folded"):
            raise HttpError(404, "there is a card picture for preset eu or us and tabs "
                            "open or folded only.")
        size = studio.last_good_config().size.preset
        if request.query.get("plain") != "1" and size is not None and size.value == preset:
            svg = own_card(tabs)  # copies of the user's own card, as it prints
            if svg is not None:
                return Response(svg, SVG)
        # Another size than the user's card (a loaded assembly), or asked plain: the
        # Connector's own picture of a card, every game in its colour.
        return Response(card(preset, tabs).svg, SVG)

    def verdict(request: Request) -> Response:
        from cardgen.api.sandbox import sandbox_verdict

        return json_response(sandbox_verdict(_layout(request.json())).as_json())

    def snap(request: Request) -> Response:
        from cardgen.api.sandbox import sandbox_verdict, snap_card

        body = request.json()
        layout = _layout(body)
        card = _field(body, "card", int, "a card's number (1 is the bottom card)")
        moved = snap_card(layout, card)
        return json_response({
            "layout": layout_json(moved.assembly), "card": moved.card,
            "snapped": moved.snapped, "upper": moved.upper, "lower": moved.lower,
            "number": moved.number, "moved_mm": moved.moved_mm,
            "verdict": sandbox_verdict(moved.assembly).as_json()})

    def hint(request: Request) -> Response:
        from cardgen.api.sandbox import connector_hint

        return json_response(connector_hint(_layout(request.json())).as_json())

    def _file(layout: dict[str, Any], name: object) -> tuple[str, bytes]:
        from cardgen.api.common import file_stem
        from cardgen.api.sandbox import assembly_file

        text = assembly_file(layout, comment="laid out in the cardgen studio's Connector "
                             "page; check it with `cardgen connector validate FILE`")
        if name is None:
            name = f"assembly-{_load(layout).game.value}"
        if not isinstance(name, str):
            raise HttpError(400, f"'name' must be a file name without its suffix, not a "
                            f"JSON {_json_type(name)}.")
        return f"{file_stem(name)}.toml", text.encode("utf-8")

    def toml(request: Request) -> Response:
        body = request.json()
        name, data = _file(_layout(body), body.get("name"))
        return json_response({"name": name, "text": data.decode("utf-8")})

    def save(request: Request) -> Response:
        from cardgen.api import Files

        body = request.json()
        name, data = _file(_layout(body), body.get("name"))
        files: Files = Files({name: data})
        written = studio.write(files)
        studio.log(f"connector: wrote {', '.join(str(w.path) for w in written)}")
        return json_response({"written": [{"path": str(w.path), "replaced": w.replaced}
                                          for w in written]})

    def load(request: Request) -> Response:
        body = request.json()
        text = _field(body, "text", str, "the assembly file's text")
        if len(text) > MAX_TEXT:
            raise HttpError(413, f"the file is {len(text):,} characters long; an assembly "
                            f"file is far shorter (at most {MAX_TEXT:,}).")
        name = body.get("name", "the file")
        label = name if isinstance(name, str) and 0 < len(name) <= 120 and \
            name.isprintable() else "the file"
        return json_response({"layout": layout_json(_load(text, label))})

    return [
        Route("GET", "/connector", page),
        Route("GET", "/api/connector/setup", setup),
        Route("GET", "/api/connector/card.svg", card_svg),
        Route("POST", "/api/connector/verdict", verdict),
        Route("POST", "/api/connector/snap", snap),
        Route("POST", "/api/connector/hint", hint),
        Route("POST", "/api/connector/toml", toml),
        Route("POST", "/api/connector/save", save),
        Route("POST", "/api/connector/load", load),
    ]


def _load(assembly: Any, label: str = "layout") -> Any:
    from cardgen.api import load_assembly

    return load_assembly(assembly, label=label)
