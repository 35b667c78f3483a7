"""``hexarena serve`` stops promptly on SIGINT whatever is running, a built-in search in a worker thread included."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
from serving import SRC, cpu_seconds, start_serve, stop

from fakes.procs import free_port
from hexarena.players.proctree import ProcInfo, descendants, is_alive
from hexarena.server.serving import FORCED_EXIT_STATUS

#: How long the test waits for the server to exit after SIGINT. The 8 s promise is kept by the server itself: its
#: watchdog (``serving.FORCE_EXIT_AFTER``) ends it by force past 8 s and logs "forcing exit", which each test
#: checks is absent. So this is only a bound for a hang, with room for a stalled machine (a process that gets no
#: CPU for seconds would fail an 8 s wait with nothing wrong).
EXIT_WITHIN = 60.0
BAD_BOT = Path(__file__).resolve().parents[1] / "stdio" / "bots" / "bad_bot.py"


#: CPU the server must have spent after the match began before it counts as thinking: an idle server spends next
#: to none, a search all it is given.
THINKING_CPU = 1.0


def wait_until_thinking(pid: int, within: float = 120.0) -> None:
    """Until the server has spent ``THINKING_CPU`` since the call: a search is running in its worker thread.

    The CPU adds up, rather than being a rate over some interval: on a loaded machine the search gets a small
    share of a core, but it goes on getting it."""
    start = cpu_seconds(pid)
    end = time.monotonic() + within
    while time.monotonic() < end:
        if cpu_seconds(pid) - start >= THINKING_CPU:
            return
        time.sleep(0.1)
    raise AssertionError("the built-in bot never started thinking")


def test_sigint_stops_a_day_long_mcts_search(tmp_path: Path) -> None:
    proc, url = start_serve(tmp_path)
    try:
        body = {
            "game": "hex",
            "params": {"size": 11},
            "players": ["builtin:mcts", "builtin:mcts"],
            "clock": {"type": "turn", "seconds": 86400},
        }
        answer = httpx.post(f"{url}/api/matches", json=body, timeout=10)
        assert answer.status_code == 200, answer.text
        wait_until_thinking(proc.pid)
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(EXIT_WITHIN)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"hexarena serve still running {EXIT_WITHIN} s after SIGINT") from None
        log = (tmp_path / "serve.log").read_text()
        assert "forcing exit" not in log, log  # stopped by cancelling the search, not by the last-resort watchdog
    finally:
        stop(proc)


def test_sigint_ends_open_streams_and_subprocess_bots(tmp_path: Path) -> None:
    """An observer stream that never ends by itself and a silent subprocess bot on a 1-day clock: the server still
    exits within the bound, and no process it started survives."""
    silent = f"uais:{sys.executable} {BAD_BOT} silent"
    proc, url = start_serve(tmp_path, "--engine", f"silent={silent}")
    try:
        created = httpx.post(f"{url}/dots/", json={"rows": 3, "cols": 3}, timeout=10)
        assert created.status_code == 201, created.text
        body = {
            "game": "hex",
            "params": {"size": 5},
            "players": ["engine:silent", "builtin:random"],
            "clock": {"type": "turn", "seconds": 86400},
        }
        answer = httpx.post(f"{url}/api/matches", json=body, timeout=10)
        assert answer.status_code == 200, answer.text
        with httpx.stream("POST", f"{url}{created.headers['location']}/observers", timeout=30) as stream:
            assert stream.status_code == 200
            bots = wait_for_descendants(proc.pid)
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(EXIT_WITHIN)
            except subprocess.TimeoutExpired:
                raise AssertionError(f"hexarena serve still running {EXIT_WITHIN} s after SIGINT") from None
        bots, watchdogs = _split_watchdogs(bots)
        assert not [p.pid for p in bots if is_alive(p.pid, p.start)], "a bot process outlived the server"
        end = time.monotonic() + 60  # the orphan watchdog sweeps once the server is gone, then ends too
        while time.monotonic() < end and any(is_alive(p.pid, p.start) for p in watchdogs):
            time.sleep(0.05)
        assert not [p.pid for p in watchdogs if is_alive(p.pid, p.start)], "the orphan watchdog outlived its sweep"
        assert "forcing exit" not in (tmp_path / "serve.log").read_text()
    finally:
        stop(proc)


def _split_watchdogs(found: list[ProcInfo]) -> tuple[list[ProcInfo], list[ProcInfo]]:
    """(bot processes, the server's orphan watchdog): the watchdog outlives the server by design, for its sweep."""
    watchdogs = [p for p in found if "hexarena.players.orphan_watch" in _command_line(p.pid)]
    return [p for p in found if p not in watchdogs], watchdogs


def _command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def wait_for_descendants(pid: int, within: float = 20.0) -> list[ProcInfo]:
    end = time.monotonic() + within
    while time.monotonic() < end:
        found = descendants(pid)
        if _split_watchdogs(found)[0]:
            return found
        time.sleep(0.05)
    raise AssertionError("the subprocess bot never started")


def test_the_watchdog_ends_a_server_that_cannot_stop(tmp_path: Path) -> None:
    """The last resort: a thread nothing can stop keeps the interpreter alive; the process still ends, saying why."""
    port = free_port()
    env = dict(os.environ, PYTHONPATH=str(SRC))
    script = Path(__file__).parent / "stubborn_server.py"
    proc = subprocess.Popen(
        [sys.executable, str(script), str(port)], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        for _ in range(400):
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"http://127.0.0.1:{port}/", timeout=2).text == "up":
                    break
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=EXIT_WITHIN + 5)
        assert proc.returncode == FORCED_EXIT_STATUS
        assert "forcing exit" in out and "stubborn" in out
        # and where every thread was, the one that would not stop included: what held the shutdown up
        assert "most recent call first" in err and "in _bootstrap_inner" in err, err
    finally:
        stop(proc)
