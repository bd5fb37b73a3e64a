"""``cardgen studio [CONFIG]``: a local web page that shows the card while its files are
edited, and plays the Connector and Rotator in a browser (:mod:`cardgen.studio`).

It prints the address (with the studio's token) and opens it in the default browser
(``--no-open``: only print it), then serves until Ctrl-C, which ends it with status 130.
With ``--json`` the address comes as a JSON line ``{"url", "host", "port", "config",
"output"}`` as soon as it serves, and the run's JSON object (its interruption) when it
ends.
Each request it refuses is one line on stderr. It binds to 127.0.0.1; another address
(``--host``) is served with a warning, since anyone who reaches it with the address can
then use the studio and write into the output folder.
"""

from __future__ import annotations

import sys
import threading
from typing import Annotated

import typer

from cardgen.api import card_config
from cardgen.api.common import check_output_folder, file_stem
from cardgen.cli.common import (
    DEFAULT_OUTPUT,
    ConfigArg,
    JsonOpt,
    OutputOpt,
    QuietOpt,
    UsageError,
    check_range,
    emit_now,
    warn,
)
from cardgen.errors import InputFileError, one_line
from cardgen.interrupt import serving

LOOPBACK_NAMES = {"127.0.0.1", "localhost"}


def _host(value: str) -> str:
    import ipaddress

    text = value.strip()
    if text in LOOPBACK_NAMES:
        return "127.0.0.1"
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        raise UsageError(f"--host must be an IPv4 address such as 0.0.0.0 or 192.168.1.20, "
                         f"not {one_line(text)[:60]!r}.", field="--host", value=value) from None
    if address.version != 4:
        raise UsageError("--host must be an IPv4 address (the studio does not serve IPv6).",
                         field="--host", value=value)
    return str(address)


def studio(
    config: ConfigArg = None,
    output: OutputOpt = DEFAULT_OUTPUT,
    name: Annotated[str, typer.Option(
        "--name", metavar="STEM",
        help="File name stem of the print files the page writes.")] = "card",
    host: Annotated[str | None, typer.Option(
        "--host", metavar="ADDRESS",
        help="Serve on this IPv4 address instead of 127.0.0.1 (with a warning: anyone who "
        "reaches it with the address can use the studio).", show_default=False)] = None,
    port: Annotated[int, typer.Option(
        "--port", help="The port (0: any free one).")] = 0,
    no_open: Annotated[bool, typer.Option(
        "--no-open", help="Only print the address; do not open a browser.")] = False,
    json_out: JsonOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """See the card as you edit it; try the Connector and Rotator.

    Serves a local page that shows the card's outside and inside as cardgen card draws
    them, redrawn each time the config, its theme or an image is saved (a config with an
    error keeps the last good picture and shows the error); its buttons write the print
    files into the output folder. Its other pages are a Connector sandbox with copies of
    your card and a Rotator game. Ctrl-C stops it."""
    from cardgen.studio.app import Studio
    from cardgen.studio.server import LOOPBACK, StudioServer, serve

    stem = file_stem(name)
    check_range(port, "--port", 0, 65535)
    if config is not None and not config.is_file():
        card_config(config)  # the reader's own sentence: missing, a folder, a device
    check_output_folder(output, f"{stem}.pdf")
    bind = _host(host) if host is not None else LOOPBACK
    if bind != LOOPBACK:
        warn([f"the studio serves on {bind}, not only this machine: anyone who can reach "
              f"it and has the address can use it and write into {output}."])

    def log(line: str) -> None:
        if not quiet:
            print(f"studio: {one_line(line)}", file=sys.stderr, flush=True)

    place = Studio(config=config.resolve() if config else None, output=output.resolve(),
                   name=stem, log=log)
    try:
        server = StudioServer(place, host=bind, port=port)
    except OSError as error:
        raise InputFileError(f"--port {port}: cannot serve on {bind}:{port} "
                             f"({error.strerror or error}); choose another port, or 0 for "
                             "any free one.") from None

    def ready(url: str) -> None:
        if json_out:
            emit_now({"url": url, "host": bind, "port": server.port,
                      "config": str(config) if config else None, "output": str(output)})
        else:
            print(f"cardgen studio: {url}", flush=True)
        if not quiet:
            print("Stop it with Ctrl-C.", file=sys.stderr, flush=True)
        if not no_open:
            import webbrowser

            threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()

    with serving():  # each set of files written ends nothing; Ctrl-C does
        serve(server, ready)
