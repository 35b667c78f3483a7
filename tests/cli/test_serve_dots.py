"""``hexarena serve`` with the hexagon dots port, as an operator starts it (a real process, real sockets)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
from serving import SRC, start_serve, stop

from fakes.procs import free_port


def _wait_dots(url: str) -> None:
    for _ in range(400):
        try:
            httpx.get(f"{url}/", timeout=2)
            return
        except httpx.HTTPError:
            time.sleep(0.05)
    raise AssertionError(f"nothing answers at {url}")


def test_match_games_take_the_size_and_turn_limit_the_operator_set(tmp_path: Path) -> None:
    """Clients that only join through ``GET /match`` get the board and turn limit of ``hexarena serve
    --dots-rows/--dots-cols/--dots-turn-seconds`` (docs/protocols/hexdots.md)."""
    dots_port = free_port()
    proc, _ = start_serve(
        tmp_path,
        "--dots-port", str(dots_port), "--dots-rows", "7", "--dots-cols", "9", "--dots-turn-seconds", "1.5",
    )  # fmt: skip
    dots = f"http://127.0.0.1:{dots_port}"
    try:
        _wait_dots(dots)
        with httpx.Client(timeout=30) as http:
            first = http.get(f"{dots}/match")
            second = http.get(f"{dots}/match")
            assert first.status_code == second.status_code == 201
            assert first.headers["location"] == second.headers["location"]
            game = http.get(dots + first.headers["location"]).json()
            assert (game["rows"], game["cols"]) == (7, 9)
        # the first to join moves first and stays silent: the turn limit the operator set disqualifies it
        with httpx.Client(timeout=30) as a, httpx.Client(timeout=30) as b:
            answers: dict[str, httpx.Response] = {}
            joined = threading.Thread(
                target=lambda: answers.setdefault(
                    "a", a.post(f"{dots}{first.headers['location']}/players", json={"name": "A"})
                )
            )
            joined.start()
            time.sleep(0.3)
            answers["b"] = b.post(f"{dots}{first.headers['location']}/players", json={"name": "B"})
            joined.join(30)
        assert answers["a"].status_code == 200 and answers["a"].headers.get("x-turn-token")
        final = answers["b"].json()
        assert final["state"] == "completed" and final["players"][0]["score"] == "disqualified", final
        late = httpx.post(
            f"{dots}{first.headers['location']}/moves",
            json=[{"row": 0, "col": 0}, {"row": 0, "col": 1}],
            headers={"X-Turn-Token": answers["a"].headers["x-turn-token"]},
        )
        assert late.status_code == 403 and "1.500 s" in late.json()["error"], late.text
    finally:
        stop(proc)


def test_dots_size_options_are_checked(tmp_path: Path) -> None:
    """A board the protocol can't play is refused before anything starts, naming the option."""
    cmd = [sys.executable, "-m", "hexarena.cli", "serve", "--port", str(free_port()), "--dots-port", str(free_port())]
    env = dict(os.environ, PYTHONPATH=str(SRC), HEXARENA_DATA_DIR=str(tmp_path / "data"))
    out = subprocess.run([*cmd, "--dots-rows", "4"], capture_output=True, text=True, timeout=60, env=env, cwd=tmp_path)
    assert out.returncode == 2 and "--dots-rows" in out.stderr and "odd" in out.stderr, out.stderr


def _serve_on(tmp_path: Path, port: int, dots_port: int) -> subprocess.CompletedProcess[str]:
    cmd = [
        sys.executable, "-m", "hexarena.cli", "serve", "--port", str(port), "--dots-port", str(dots_port),
        "--database-url", f"sqlite+aiosqlite:///{tmp_path / 'arena.sqlite3'}", "--log-level", "warning",
    ]  # fmt: skip
    env = dict(os.environ, PYTHONPATH=str(SRC), HEXARENA_DATA_DIR=str(tmp_path / "data"))
    env.pop("HEXARENA_DATABASE_URL", None)
    return subprocess.run(cmd, capture_output=True, text=True, timeout=60, env=env, cwd=tmp_path)


def test_a_taken_port_ends_serve_with_status_3_with_or_without_the_dots_port(tmp_path: Path) -> None:
    """Without --dots-port a taken port exits 3 (uvicorn's start-up failure); with it, whichever port is taken,
    the same: an operator's supervisor sees the failure instead of a half-started server."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        busy = taken.getsockname()[1]
        main_taken = _serve_on(tmp_path, busy, free_port())
        dots_taken = _serve_on(tmp_path, free_port(), busy)
    for out in (main_taken, dots_taken):
        assert out.returncode == 3, (out.returncode, out.stderr)
        assert "address already in use" in out.stderr and str(busy) in out.stderr, out.stderr
