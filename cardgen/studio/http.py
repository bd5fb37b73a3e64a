"""What the studio's handlers see and return: a request, a response, an HTTP error.

A handler is a plain function ``handler(request) -> Response``; it never touches the
socket. The server (:mod:`cardgen.studio.server`) reads the request (token, host and
size already checked), calls the handler its route names, and writes what comes back.
A handler that refuses a request raises :class:`HttpError`: the client gets its status
and a JSON body ``{"error": message}``, and the server's log gets one line.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from cardgen.errors import CardgenError, ProblemsError

MAX_BODY = 256 * 1024  # bytes: the largest body a handler is given (a layout is < 4 KB)
JSON = "application/json"


class HttpError(Exception):
    """A request the studio refuses: ``status`` (4xx) and one sentence saying why."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass(frozen=True)
class Request:
    """One request, after the token prefix: ``path`` starts with ``/`` (``/`` is the
    card page, ``/api/card`` an API call), ``query`` holds the query's last values."""

    method: str
    path: str
    query: Mapping[str, str] = field(default_factory=dict)
    body: bytes = b""

    def json(self) -> dict[str, Any]:
        """The body as a JSON object; anything else is a 400 (415 for no JSON at all)."""
        if not self.body:
            raise HttpError(400, "the request has no body: send a JSON object.")
        try:
            value = json.loads(self.body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            raise HttpError(400, "the request body is not JSON: send a JSON object.") from None
        if not isinstance(value, dict):
            raise HttpError(400, f"the request body is a JSON {type(value).__name__}, "
                            "not an object: send a JSON object.")
        return value


@dataclass(frozen=True)
class Response:
    """What a handler returns: a status, a body and its media type."""

    body: bytes
    content_type: str = JSON
    status: int = 200
    headers: tuple[tuple[str, str], ...] = ()


def json_response(value: object, status: int = 200) -> Response:
    """``value`` as a JSON response (keys in the order given, UTF-8, no NaN)."""
    text = json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    return Response(text.encode("utf-8"), JSON, status)


@dataclass(frozen=True)
class Stream:
    """A response that keeps writing: server-sent events, each item of ``events`` one
    event's bytes (``data: ...\\n\\n``); it ends when ``events`` ends, when the client
    goes away, or when the studio stops."""

    events: Iterator[bytes]


Handler = Callable[[Request], Response | Stream]


@dataclass(frozen=True)
class Route:
    """``method`` (GET or POST) and an exact ``path`` (after the token), to a handler."""

    method: str
    path: str
    handler: Handler


def error_body(error: CardgenError) -> dict[str, Any]:
    """A refused input as the pages show it: its first sentence (``error``), the field it
    names, and for a config's problems each one with its code, field and line."""
    text = str(error).strip()
    body: dict[str, Any] = {"error": text.splitlines()[0] if text else type(error).__name__,
                            "field": getattr(error, "field", None)}
    if isinstance(error, ProblemsError):
        body["problems"] = [{"code": str(p.code), "message": p.message, "field": p.field,
                             "line": p.line} for p in error.problems]
    return body
