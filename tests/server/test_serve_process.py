"""The fault tests' ``ServeProcess`` starts the server it says it started.

``free_port`` finds a port free a moment before the server binds it; on a busy machine another test's server can
bind it first. Whatever answers ``/healthz`` on the port is then not necessarily the server just started, which
exits for the taken port: a test would talk to a server that is not its own and may go away at any time.
"""

from __future__ import annotations

import http.server
import os
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from procs import ServeProcess, bot_serve, listens


class _Healthy(http.server.BaseHTTPRequestHandler):
    """Another server on the port: answers every GET with a healthy-looking 200."""

    def do_GET(self) -> None:
        body = b'{"ok": true}'
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def other_server() -> Iterator[int]:
    """Another process's (here: thread's) HTTP server holding a port; yields the port."""
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Healthy)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield httpd.server_address[1]
    finally:
        httpd.shutdown()
        httpd.server_close()


async def test_a_port_taken_by_another_server_is_not_taken_for_this_ones(
    migrated_sqlite_url: str, tmp_path: Path, other_server: int
) -> None:
    server = ServeProcess(migrated_sqlite_url, tmp_path / "data", tmp_path / "serve.log")
    server.port = other_server  # as if another test's server had bound the port free_port found
    await server.start()
    try:
        assert server.port != other_server
        assert server.proc is not None and listens(server.proc.pid, server.port)
        health = (await server.get("/healthz")).json()
        assert "store" in health, health  # hexarena's answer, not the other server's
        assert "address already in use" in server.log.read_text().lower()
    finally:
        server.stop()


def test_listens_tells_whose_socket_a_port_is() -> None:
    import socket

    if not os.path.isdir("/proc/self/fd"):
        pytest.skip("no /proc here")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
        assert listens(os.getpid(), port) is False  # bound, not listening
        s.listen()
        assert listens(os.getpid(), port) is True
        assert listens(1, port) is False


def test_a_bot_server_whose_port_was_taken_is_started_on_another(
    tmp_path: Path, other_server: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``fakes.procs.serving`` (every bot server the tests start): the same race as above, for a bot server."""
    from fakes import procs

    ports = iter([other_server])
    real = procs.free_port
    monkeypatch.setattr(procs, "free_port", lambda: next(ports, None) or real())
    with procs.serving(bot_serve("random"), tmp_path / "bot.log") as port:
        assert port != other_server
        caps = httpx.get(f"http://127.0.0.1:{port}/capabilities.json", timeout=30)
        assert caps.status_code == 200 and "hexarena-random" in caps.text, (
            caps.text
        )  # the bot's answer, not the other's
    assert "address already in use" in (tmp_path / "bot.log").read_text().lower()


def test_a_server_that_exits_fails_the_test_with_what_it_said(tmp_path: Path) -> None:
    from fakes.procs import start_serving

    command = [sys.executable, "-c", "import sys; print('no such bot'); sys.exit(2)"]
    with pytest.raises(AssertionError, match=r"exited with 2:\n.*no such bot"):
        start_serving(lambda port: command, tmp_path / "bot.log")


def test_listens_sees_a_listening_child_of_a_process_group(tmp_path: Path) -> None:
    """A starter's ``serve`` script builds, then runs the server as its child: that child's socket counts."""
    from fakes.procs import serving

    if not os.path.isdir("/proc/self/fd"):
        pytest.skip("no /proc here")
    server = f"{sys.executable} -m http.server --bind 127.0.0.1"
    command = lambda port: ["sh", "-c", f"{server} {port}; true"]  # noqa: E731 (sh waits on its child)
    with serving(command, tmp_path / "log", start_new_session=True) as port:
        assert httpx.get(f"http://127.0.0.1:{port}/", timeout=30).status_code == 200
