"""The studio's HTTP server: the standard library's, made safe for a page on one's own
machine.

Why the standard library (``http.server``) and not an ASGI stack: one person's browser
talks to it, a request at a time and a few a second; every request is a short
computation through :mod:`cardgen.api` (a card's SVG in 25–60 ms), so threads suffice and
an event loop buys nothing; the live reload is a server-sent event stream, which is a
response that keeps writing. Starlette + Uvicorn would add five packages (anyio, h11,
click, sniffio, starlette) and their start-up time to do what 300 lines here do, and the
rules that make it safe below would still be ours to write.

What makes it safe:

* **Loopback only.** It binds to 127.0.0.1 unless the user names another address
  (``--host``), which the command line warns about.
* **A token on every URL.** Every URL is ``/<token>/...``, the token 32 random bytes of
  :mod:`secrets`; a request without it gets 404, whatever it asks for. Pages use
  relative URLs, so the token travels with every asset and API call, and a page never
  links outside (``Referrer-Policy: no-referrer``).
* **The Host header is checked** (against DNS rebinding: a site whose name points at
  127.0.0.1 cannot read the answers) unless another address was asked for, and a
  request whose ``Origin`` is another site's is refused (403).
* **Only known files.** Static files are the names in the package's ``static`` folder,
  listed when the server starts; a path that is not exactly one of them, or that
  holds ``..``, a backslash, a NUL or an encoded slash, is 404 or 400.
* **Bodies**: only for POST, only JSON (``Content-Type: application/json``, else 415),
  with a ``Content-Length`` (else 411) of at most :data:`~cardgen.studio.http.MAX_BODY`
  (else 413, unread), read within :data:`READ_TIMEOUT` seconds.
* **One log line** for each refused request (status, method, the path without its
  token, and why); nothing is logged for the requests it serves.
* It writes only through :mod:`cardgen.api`'s all-or-nothing writer, into the output
  folder (the pages' handlers do; the server writes no file).
"""

from __future__ import annotations

import hmac
import importlib
import json
import re
import secrets
import threading
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

from cardgen.errors import CardgenError
from cardgen.studio.app import Studio
from cardgen.studio.http import (
    MAX_BODY,
    HttpError,
    Request,
    Response,
    Route,
    Stream,
    error_body,
    json_response,
)
from cardgen.studio.pages import PAGES

LOOPBACK = "127.0.0.1"
READ_TIMEOUT = 10.0  # seconds a client has to send its request (a stalled one is dropped)
STATIC_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*\.(html|css|js|svg|png)")
CONTENT_TYPES = {
    "html": "text/html; charset=utf-8",
    "css": "text/css; charset=utf-8",
    "js": "text/javascript; charset=utf-8",
    "svg": "image/svg+xml",
    "png": "image/png",
}
# The pages' own scripts and styles only; inline SVG brings its own <style> and data:
# fonts (the card's, as cardgen card writes them).
SECURITY_HEADERS = (
    ("Content-Security-Policy",
     "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
     "img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; "
     "object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "no-referrer"),
    ("Cache-Control", "no-store"),
    ("Cross-Origin-Resource-Policy", "same-origin"),
)


def static_names() -> frozenset[str]:
    """The files the server serves at ``/static/NAME``: the package's static folder."""
    folder = resources.files("cardgen.studio") / "static"
    return frozenset(item.name for item in folder.iterdir()
                     if item.is_file() and STATIC_NAME.fullmatch(item.name))


def page_routes(studio: Studio, pages: tuple[str, ...] = PAGES) -> list[Route]:
    """Every page's routes, in the order of ``pages``; a path given twice is an error
    of the program."""
    routes: list[Route] = []
    for page in pages:
        module = importlib.import_module(f"cardgen.studio.{page}")
        routes.extend(module.routes(studio))
    seen = [(r.method, r.path) for r in routes]
    if len(seen) != len(set(seen)):
        raise RuntimeError(f"a route is given twice: {sorted(seen)}")
    return routes


class StudioServer(ThreadingHTTPServer):
    """The studio's server: ``url`` is the address to open (the token in it)."""

    daemon_threads = True
    block_on_close = False

    def __init__(self, studio: Studio, *, host: str = LOOPBACK, port: int = 0,
                 token: str | None = None, pages: tuple[str, ...] = PAGES) -> None:
        self.studio = studio
        self.token = token if token is not None else secrets.token_urlsafe(32)
        self.routes = {(r.method, r.path): r.handler for r in page_routes(studio, pages)}
        self.paths = {path for _, path in self.routes}
        self.static = static_names()
        self.loopback = host == LOOPBACK
        super().__init__((host, port), _Handler)
        self.host = host
        self.port = self.server_address[1]

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A connection that failed outside a handler (the client went away while its
        request was read): one log line, no traceback."""
        import sys

        error = sys.exc_info()[1]
        if not isinstance(error, ConnectionError | TimeoutError):
            self.studio.log(f"a connection failed: {type(error).__name__}: {error}")

    @property
    def url(self) -> str:
        """The page's address, token included."""
        return f"http://{self.host}:{self.port}/{self.token}/"

    def allowed_hosts(self) -> frozenset[str]:
        """The Host headers a request may carry (all, when bound to another address)."""
        return frozenset({f"{LOOPBACK}:{self.port}", f"localhost:{self.port}"})

    def stop(self) -> None:
        """Stop serving: event streams end, then the listening socket closes."""
        self.studio.stopping.set()
        self.studio.wake()
        self.shutdown()
        self.server_close()
        self.studio.finish_writing()

    def start(self) -> threading.Thread:
        """Serve in a background thread (tests, and the command line's main thread
        waiting for Ctrl-C)."""
        thread = threading.Thread(target=self.serve_forever, kwargs={"poll_interval": 0.1},
                                  name="cardgen-studio", daemon=True)
        thread.start()
        return thread


class _Handler(BaseHTTPRequestHandler):
    server: StudioServer
    protocol_version = "HTTP/1.1"
    timeout = READ_TIMEOUT
    server_version = "cardgen-studio"
    sys_version = ""

    # --- what the standard library calls ---------------------------------------------

    def do_GET(self) -> None:
        self._serve("GET")

    def do_POST(self) -> None:
        self._serve("POST")

    def do_HEAD(self) -> None:
        self._refuse(HTTPStatus.METHOD_NOT_ALLOWED, "only GET and POST are served")

    do_PUT = do_DELETE = do_PATCH = do_OPTIONS = do_HEAD

    def log_message(self, format: str, *args: Any) -> None:
        pass  # served requests are not logged; refused ones are, by _refuse

    def log_error(self, format: str, *args: Any) -> None:
        # The standard library's own refusals (a malformed request line, a timeout).
        self.server.studio.log(f"refused: {format % args}")

    # --- the studio's ---------------------------------------------------------------

    def _serve(self, method: str) -> None:
        try:
            path, query = self._checked_path()
            self._check_origin()
            if path.startswith("/static/"):
                if method != "GET":
                    raise HttpError(405, "static files are read with GET")
                self._send(self._static(path[len("/static/"):]))
                return
            handler = self.server.routes.get((method, path))
            if handler is None:
                if path in self.server.paths:
                    raise HttpError(405, f"{path} is not served with {method}")
                raise HttpError(404, "no such page or call")
            body = self._body() if method == "POST" else b""
            request = Request(method, path, query, body)
            try:
                response = handler(request)
            except CardgenError as error:
                self.server.studio.log(f"422 {method} {path}: {error_body(error)['error']}")
                response = json_response(error_body(error), 422)
            if isinstance(response, Stream):
                self._stream(response)
            else:
                self._send(response)
        except HttpError as error:
            self._refuse(error.status, error.message)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True
        except Exception as error:  # a fault of cardgen's: one line, the page says so
            if not self.wfile.closed:
                try:
                    self._refuse(500, f"cardgen failed: {type(error).__name__}: {error}")
                except OSError:
                    self.close_connection = True

    def _shown_path(self) -> str:
        """The request's path for the log, the token hidden."""
        path = urlsplit(self.path).path
        token = self.server.token
        return path.replace(token, "<token>") if token else path

    def _checked_path(self) -> tuple[str, dict[str, str]]:
        """The path after the token, and the query; refuses a wrong host or token and
        any path that is not plain."""
        if self.server.loopback:
            host = self.headers.get("Host", "")
            if host not in self.server.allowed_hosts():
                raise HttpError(400, f"the Host header {host[:80]!r} is not this server's")
        raw = urlsplit(self.path)
        parts = raw.path.split("/", 2)
        if len(parts) < 3 or not hmac.compare_digest(parts[1].encode(), self.server.token.encode()):
            raise HttpError(404, "no such page (the address needs the studio's token)")
        rest = "/" + parts[2]
        decoded = unquote(rest, errors="strict") if "%" in rest else rest
        segments = decoded.split("/")
        if ("\\" in decoded or "\x00" in decoded or ".." in segments or "." in segments
                or "%2f" in rest.lower() or "//" in decoded):
            raise HttpError(400, "the path is not a plain one")
        query = dict(parse_qsl(raw.query, keep_blank_values=True, max_num_fields=20))
        return decoded, query

    def _check_origin(self) -> None:
        origin = self.headers.get("Origin")
        if origin is None:
            return
        if self.server.loopback and origin not in {
                f"http://{host}" for host in self.server.allowed_hosts()}:
            raise HttpError(403, f"a request from {origin[:80]!r} is not this page's")

    def _body(self) -> bytes:
        if self.headers.get("Transfer-Encoding"):
            raise HttpError(411, "send the body with a Content-Length, not in chunks")
        length_text = self.headers.get("Content-Length")
        if length_text is None:
            raise HttpError(411, "a POST needs a Content-Length")
        if not length_text.isdigit():
            raise HttpError(400, "the Content-Length is not a number")
        length = int(length_text)
        if length > MAX_BODY:
            raise HttpError(413, f"the body is {length} bytes; the most is {MAX_BODY}")
        kind = self.headers.get("Content-Type", "").split(";")[0].strip().lower()
        if kind != "application/json":
            raise HttpError(415, f"the body is {kind or 'untyped'}, not application/json")
        body = self.rfile.read(length)
        if len(body) != length:
            raise HttpError(400, "the body ended early")
        return body

    def _static(self, name: str) -> Response:
        if name not in self.server.static:
            raise HttpError(404, "no such file")
        data = (resources.files("cardgen.studio") / "static" / name).read_bytes()
        return Response(data, CONTENT_TYPES[name.rsplit(".", 1)[1]])

    def _headers(self, status: int, content_type: str,
                 extra: tuple[tuple[str, str], ...] = ()) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        for key, value in SECURITY_HEADERS + extra:
            self.send_header(key, value)

    def _send(self, response: Response) -> None:
        self._headers(response.status, response.content_type, response.headers)
        self.send_header("Content-Length", str(len(response.body)))
        self.end_headers()
        self.wfile.write(response.body)

    def _refuse(self, status: int, message: str) -> None:
        self.server.studio.log(f"{int(status)} {self.command} {self._shown_path()[:200]}: "
                               f"{message}")
        body = json.dumps({"error": message}).encode()
        self._headers(status, "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Connection", "close")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)
        self.close_connection = True

    def _stream(self, stream: Stream) -> None:
        self._headers(200, "text/event-stream")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        try:
            for event in stream.events:
                if self.server.studio.stopping.is_set():
                    break
                self.wfile.write(event)
                self.wfile.flush()
        finally:
            close = getattr(stream.events, "close", None)
            if close is not None:
                close()


def serve(server: StudioServer, ready: Callable[[str], None]) -> None:
    """Serve until Ctrl-C (``KeyboardInterrupt``, raised again once the server has
    stopped), after telling ``ready`` the address."""
    thread = server.start()
    ready(server.url)
    try:
        while thread.is_alive():
            thread.join(0.25)
    finally:
        server.stop()
