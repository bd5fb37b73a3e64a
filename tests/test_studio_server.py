"""The studio's server is safe by default: the token on every request, the Host and
Origin checked, only the package's own files, bodies capped and JSON only, one log line
for each refusal, files written only into the output folder, and Ctrl-C ends it with
status 130 and no file left behind. Requests go over real sockets (``http.client``,
paths sent exactly as written)."""

from __future__ import annotations

import http.client
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardgen.studio.http import MAX_BODY
from tests.helpers import ROOT
from tests.studio_browser import running_studio

FUZZ = settings(max_examples=60, derandomize=True, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture])


def request(studio, method: str, path: str, *, body: bytes | None = None,
            headers: dict[str, str] | None = None, host: str | None = None
            ) -> tuple[int, dict[str, str], bytes]:
    """``method path`` sent as written (no normalising), with the server's Host unless
    ``host`` is given."""
    port = studio.server.port
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        connection.putheader("Host", host if host is not None else f"127.0.0.1:{port}")
        for key, value in (headers or {}).items():
            connection.putheader(key, value)
        if body is not None and "Content-Length" not in (headers or {}):
            connection.putheader("Content-Length", str(len(body)))
        connection.endheaders(body)
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


def post_json(studio, path: str, value: object, *, origin: str | None = None
              ) -> tuple[int, dict[str, str], bytes]:
    headers = {"Content-Type": "application/json"}
    if origin is not None:
        headers["Origin"] = origin
    return request(studio, "POST", f"/{studio.token}{path}", body=json.dumps(value).encode(),
                   headers=headers)


@pytest.fixture
def studio(tmp_path):
    config = tmp_path / "card.toml"
    config.write_text('[person]\nname = "Ada Lovelace"\n', encoding="utf-8")
    with running_studio(config, tmp_path / "output") as running:
        yield running


def test_the_page_and_its_files_are_served_under_the_token(studio):
    status, headers, body = request(studio, "GET", f"/{studio.token}/")
    assert status == 200 and body.startswith(b"<!doctype html>")
    assert "default-src 'self'" in headers["Content-Security-Policy"]
    assert headers["Referrer-Policy"] == "no-referrer"
    status, headers, body = request(studio, "GET", f"/{studio.token}/static/card.js")
    assert status == 200 and headers["Content-Type"].startswith("text/javascript")
    status, _, body = request(studio, "GET", f"/{studio.token}/api/card")
    card = json.loads(body)
    assert status == 200 and card["error"] is None and "<svg" in card["outside"]
    assert studio.log == []  # served requests are not logged


@pytest.mark.parametrize("path", [
    "/", "/static/card.js", "/api/card", "/favicon.ico", "/{bad}/", "/{bad}/api/card",
    "/{short}/", "/{token}x/", "/../{token}/", "/%2F{token}/",
])
def test_a_request_without_the_right_token_is_404_and_one_log_line(studio, path):
    path = path.format(bad="A" * len(studio.token), short=studio.token[:-1],
                       token=studio.token)
    status, _, body = request(studio, "GET", path)
    assert status in (400, 404), (path, status)
    assert b"<svg" not in body and b"import" not in body
    assert len(studio.log) == 1 and studio.log[0].startswith(str(status))
    assert studio.token not in studio.log[0]  # the log never shows the token


@pytest.mark.parametrize("rest", [
    "static/../app.py", "static/%2e%2e/server.py", "static/..%2fserver.py",
    "static/%2E%2E%2Fserver.py", "static/server.py", "static/card.js%00.png",
    "static/..\\server.py", "static/./card.js", "static//card.js", "static/", "static",
    "static/CARD.JS", "static/card.js/", "static/%63ard.js.map", "../../../etc/passwd",
    "static/../../pyproject.toml", "static/%252e%252e/server.py", "api/../static/card.js",
])
def test_path_traversal_and_unknown_files_are_refused(studio, rest):
    status, _, body = request(studio, "GET", f"/{studio.token}/{rest}")
    assert 400 <= status < 500, (rest, status)
    assert b"import" not in body and b"def " not in body
    assert len(studio.log) == 1


def test_another_host_or_origin_is_refused(studio):
    token = studio.token
    assert request(studio, "GET", f"/{token}/api/card", host="evil.example")[0] == 400
    assert request(studio, "GET", f"/{token}/api/card", host="127.0.0.1")[0] == 400
    port = studio.server.port
    assert request(studio, "GET", f"/{token}/api/card", host=f"localhost:{port}")[0] == 200
    status, _, _ = post_json(studio, "/api/card/write", {}, origin="http://evil.example")
    assert status == 403
    status, _, _ = post_json(studio, "/api/card/write", {"formats": "gif"},
                             origin=f"http://127.0.0.1:{port}")
    assert status == 422  # the page's own origin is let through (to the handler)
    assert not (studio.studio.output).exists()
    assert len(studio.log) == 4


def test_bodies_must_be_small_json_objects_with_a_length(studio):
    path = f"/{studio.token}/api/card/write"
    json_type = {"Content-Type": "application/json"}
    cases = [
        ({"Content-Type": "application/json", "Content-Length": str(MAX_BODY + 1)}, b"", 413),
        ({"Content-Type": "text/plain"}, b"{}", 415),
        ({}, b"{}", 415),
        (json_type, b"not json", 400),
        (json_type, b"[1, 2]", 400),
        (json_type, b"\xff\xfe", 400),
        (json_type, b"", 400),
        ({"Content-Type": "application/json", "Content-Length": "-1"}, b"", 400),
        ({"Content-Type": "application/json", "Content-Length": "1e3"}, b"", 400),
        ({"Content-Type": "application/json", "Transfer-Encoding": "chunked"}, b"0\r\n\r\n",
         411),
    ]
    for number, (headers, body, want) in enumerate(cases, 1):
        status, reply_headers, reply = request(studio, "POST", path, body=body,
                                               headers=headers)
        assert status == want, (headers, body, status)
        assert reply_headers["Content-Type"] == "application/json"
        assert json.loads(reply)["error"]
        assert len(studio.log) == number  # one line each
    # An oversized body is refused before it is read: the connection closes at once.
    with socket.create_connection(("127.0.0.1", studio.server.port), timeout=30) as sock:
        sock.sendall(f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{studio.server.port}\r\n"
                     f"Content-Type: application/json\r\nContent-Length: {10**9}\r\n\r\n"
                     .encode())
        reply = sock.recv(4096)
    assert reply.startswith(b"HTTP/1.1 413")
    assert not studio.studio.output.exists()


def test_other_methods_and_unknown_calls_are_refused(studio):
    token = studio.token
    for method in ("PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"):
        assert request(studio, method, f"/{token}/api/card")[0] == 405
    assert request(studio, "POST", f"/{token}/api/card", body=b"{}",
                   headers={"Content-Type": "application/json"})[0] == 405
    assert request(studio, "GET", f"/{token}/api/card/write")[0] == 405
    assert request(studio, "GET", f"/{token}/api/nothing")[0] == 404
    assert len(studio.log) == 8


def test_writing_goes_only_into_the_output_folder_and_whatever_the_body_says(studio, tmp_path):
    before = sorted(p.name for p in tmp_path.iterdir())
    status, _, body = post_json(studio, "/api/card/write",
                                {"formats": "pdf", "name": "../../escape", "output": "/tmp",
                                 "folder": str(tmp_path)})
    assert status == 200, body
    assert [w["name"] for w in json.loads(body)["written"]] == ["card.pdf", "card-dieline.pdf"]
    assert sorted(p.name for p in studio.studio.output.iterdir()) == [
        "card-dieline.pdf", "card.pdf"]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted({*before, "output"})
    status, _, body = post_json(studio, "/api/card/write", {"formats": "gif"})
    assert status == 422 and "gif" in json.loads(body)["error"]
    status, _, body = post_json(studio, "/api/card/write", {"formats": ["pdf"]})
    assert status == 400


def test_a_broken_config_keeps_the_last_good_card_and_refuses_to_write(studio):
    config = studio.studio.config
    config.write_text('[person]\nname = 5\n', encoding="utf-8")
    deadline = time.monotonic() + 30
    card = {}
    while time.monotonic() < deadline:
        card = json.loads(request(studio, "GET", f"/{studio.token}/api/card")[2])
        if card["error"]:
            break
        time.sleep(0.02)
    assert "person.name" in card["error"]["error"] and card["outside"]
    assert card["error"]["problems"][0]["code"].startswith("config.")
    status, _, _ = post_json(studio, "/api/card/write", {})
    assert status == 409 and not studio.studio.output.exists()


def wait_for_build(studio, after: int) -> dict:
    """The card's state once a build after ``after`` is done (30 s at most)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        card = json.loads(request(studio, "GET", f"/{studio.token}/api/card")[2])
        if card["generation"] > after:
            return card
        time.sleep(0.02)
    raise AssertionError(f"no build after {after}")


def test_saving_the_theme_or_an_image_redraws_the_card(tmp_path):
    from PIL import Image

    shutil.copy(ROOT / "templates" / "themes" / "light.toml", tmp_path / "mine.toml")
    Image.new("RGB", (600, 600), (200, 120, 40)).save(tmp_path / "me.png")
    config = tmp_path / "card.toml"
    config.write_text('[person]\nname = "Ada"\n[card]\ntheme = "mine.toml"\n'
                      '[images]\nportrait = "me.png"\n', encoding="utf-8")
    with running_studio(config, tmp_path / "out") as studio:
        card = wait_for_build(studio, 0)
        assert card["error"] is None, card["error"]
        first = card["outside"]
        Image.new("RGB", (600, 600), (20, 60, 200)).save(tmp_path / "me.png")
        card = wait_for_build(studio, card["generation"])
        assert card["changed"] == ["me.png"] and card["outside"] != first
        theme = (tmp_path / "mine.toml").read_text(encoding="utf-8")
        (tmp_path / "mine.toml").write_text(theme + "\n", encoding="utf-8")
        card = wait_for_build(studio, card["generation"])
        assert card["changed"] == ["mine.toml"] and card["error"] is None
        (tmp_path / "mine.toml").write_text("[colors\n", encoding="utf-8")
        card = wait_for_build(studio, card["generation"])
        assert card["error"] and "mine.toml" in card["error"]["error"]
        assert card["outside"]  # the last good picture


@FUZZ
@given(path=st.text(min_size=0, max_size=40), body=st.binary(max_size=300),
       method=st.sampled_from(["GET", "POST"]))
def test_fuzzed_requests_get_a_status_below_500_and_one_log_line_each(studio, path, body,
                                                                     method):
    from urllib.parse import quote

    raw = f"/{studio.token}/{quote(path, safe='/%.:@!$&()*+,;=~-_')}"
    before = len(studio.log)
    status, _, _ = request(studio, method, raw, body=body if method == "POST" else None,
                           headers={"Content-Type": "application/json"})
    assert status < 500
    assert len(studio.log) - before == (0 if status < 400 else 1)


# --- the command, in a real process -----------------------------------------------------


def start(tmp_path: Path, *args: str) -> tuple[subprocess.Popen[str], str]:
    process = subprocess.Popen(
        [sys.executable, "-m", "cardgen", "studio", "--no-open", *args],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "NO_COLOR": "1"})
    assert process.stdout is not None
    line = process.stdout.readline()
    assert line.startswith("cardgen studio: http://"), line
    return process, line.split(": ", 1)[1].strip()


def test_ctrl_c_stops_the_studio_with_status_130_and_no_file_left(tmp_path):
    (tmp_path / "card.toml").write_text('[person]\nname = "Ada"\n', encoding="utf-8")
    process, url = start(tmp_path, "card.toml", "-o", "out")
    assert url.startswith("http://127.0.0.1:")
    before = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*"))
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert err.strip().splitlines()[-1].startswith(("error: interrupted", "interrupted"))
    assert sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*")) == before


def test_ctrl_c_still_stops_the_studio_after_it_wrote_files(tmp_path):
    """Writing a set of files does not end a studio's run (as it ends a command's):
    the next Ctrl-C stops it, and the files written stay."""
    import urllib.request

    process, url = start(tmp_path, "-o", "out")
    for _ in range(2):
        call = urllib.request.Request(f"{url}api/card/write", data=b'{"formats": "pdf"}',
                                      headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(call, timeout=60) as reply:
            assert json.loads(reply.read())["written"][0]["name"] == "card.pdf"
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["card-dieline.pdf",
                                                                   "card.pdf"]


def test_json_says_the_address_as_a_line_when_ready_and_the_stop_at_the_end(tmp_path):
    process = subprocess.Popen([sys.executable, "-m", "cardgen", "studio", "--no-open",
                                "--json", "-o", "out"], cwd=tmp_path, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    assert process.stdout is not None
    ready = json.loads(process.stdout.readline())
    assert ready["url"].startswith(f"http://127.0.0.1:{ready['port']}/")
    assert ready["config"] is None and ready["output"] == "out"
    process.send_signal(signal.SIGINT)
    out, _ = process.communicate(timeout=60)
    assert process.returncode == 130
    assert json.loads(out)["error"]["code"] == "general.interrupted"


def test_another_address_is_served_only_when_asked_and_with_a_warning(tmp_path):
    process, url = start(tmp_path, "--host", "0.0.0.0")
    try:
        assert url.startswith("http://0.0.0.0:")
    finally:
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=60)
    assert "warning: the studio serves on 0.0.0.0" in err


@pytest.mark.parametrize(("args", "status", "words"), [
    (["--host", "example.com"], 2, "--host must be an IPv4 address"),
    (["--host", "::1"], 2, "--host must be an IPv4 address"),
    (["missing.toml"], 1, "error: config file missing.toml does not exist."),
    (["--port", "70000"], 1, "error: --port must be from 0 to 65535, not 70000."),
    (["--name", "../x"], 1, "name"),
])
def test_bad_options_are_one_line_and_nothing_served(tmp_path, args, status, words):
    from tests.helpers import cli

    result = cli("studio", "--no-open", *args)
    assert result.returncode == status, result.stderr
    assert words in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert result.stdout == ""
