"""Where hexarena builds on a dependency's private parts, a release without them must still serve: each case is
run in a subprocess whose import of the missing part fails, as it does on such an install (or whose check of the
parts finds one missing).

- websockets built without its C module (``websockets.speedups``): the frame readers unmask in Python.
- uvicorn without the sans-I/O WebSocket protocol (before 0.35): ``hexarena serve`` and the SDK bot server serve
  with uvicorn's websockets protocol as it is.
- SQLAlchemy or aiosqlite without what the store's one-call SQLite cursor builds on: the store runs on
  SQLAlchemy's own aiosqlite cursor.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


#: the inner pytest runs leave out schemathesis's plugin: none of their files fuzzes, and loading it (with
#: Hypothesis's engine) is much of what a pytest start costs
def run_without(module: str, code: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a fresh interpreter where ``import module`` raises ImportError."""
    prelude = f"import sys; sys.modules[{module!r}] = None\n"
    return subprocess.run(
        [sys.executable, "-c", prelude + code], cwd=ROOT, capture_output=True, text=True, timeout=timeout
    )


def test_bws_frames_are_read_and_written_without_websockets_c_module() -> None:
    code = """
import pytest
status = pytest.main(["-q", "-p", "no:cacheprovider", "-p", "no:schemathesis", "tests/players/test_bws_frames.py",
                      "tests/bots/sdk/test_ws_protocol.py", "tests/bots/sdk/test_end_to_end.py"])
from websockets.utils import apply_mask
from hexarena_sdk.wire import ws_frames
assert ws_frames.apply_mask is apply_mask, ws_frames.apply_mask
sys.exit(status)
"""
    done = run_without("websockets.speedups", code)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert " passed" in done.stdout


def test_servers_fall_back_to_uvicorn_websockets_protocol_without_its_sans_io_one() -> None:
    code = """
import asyncio
import uvicorn
from websockets.asyncio.client import connect
from hexarena_sdk.ws_protocol import ws_protocol
from hexarena.server.serving import ArenaServer, server_config
import sys
sys.path.insert(0, "tests/bots/sdk")  # the cwd is the checkout
from sdk_wire_helpers import echo

async def round_trip(server):
    task = asyncio.create_task(server.serve())
    for _ in range(3000):
        if server.started or task.done():
            break
        await asyncio.sleep(0.01)
    assert server.started, "uvicorn did not start"
    port = server.servers[0].sockets[0].getsockname()[1]
    async with connect(f"ws://127.0.0.1:{port}/") as ws:
        await ws.send("hi")
        reply = await asyncio.wait_for(ws.recv(), 30)
    server.should_exit = True
    await asyncio.wait_for(task, 30)
    return reply

assert ws_protocol("auto") == "websockets", ws_protocol("auto")
serve_config = server_config(echo, "127.0.0.1", 0, log_level="warning")
assert serve_config.ws == "websockets", serve_config.ws
sdk_config = uvicorn.Config(echo, host="127.0.0.1", port=0, log_level="warning", ws=ws_protocol("auto"))
print(asyncio.run(round_trip(ArenaServer(serve_config))), asyncio.run(round_trip(uvicorn.Server(sdk_config))))
"""
    done = run_without("uvicorn.protocols.websockets.websockets_sansio_impl", code)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert done.stdout.split() == ["echo:hi", "echo:hi"]


@pytest.mark.slow
def test_the_store_keeps_sqlalchemys_sqlite_cursor_without_what_its_own_builds_on() -> None:
    """The store's one-call SQLite cursor (``hexarena.store.sqlite_cursor``) checks the private parts of SQLAlchemy
    and aiosqlite it builds on; here the check finds one missing, so the store's tests run on SQLAlchemy's cursor,
    BEGIN and pool reset as they are (and using the one-call cursor anyway would fail them)."""
    code = """
import pytest

class CheckFails:  # applied once pytest runs (importing the store earlier imports plugins pytest must rewrite)
    @staticmethod
    def pytest_sessionstart():
        from hexarena.store import sqlite_cursor

        def unusable(*_):
            raise AssertionError("the one-call cursor was used although its check failed")

        sqlite_cursor.missing = lambda: ["aiosqlite Connection._execute (removed by the test)"]
        sqlite_cursor.use_one_call_cursors = sqlite_cursor.defer_begin = sqlite_cursor.reset = unusable

# test_cli_runs_as_a_module asks the store CLI of a process of its own (which this plugin never reaches) for --help
status = pytest.main(["-q", "-p", "no:cacheprovider", "-p", "no:schemathesis",
                      "-k", "not postgresql and not test_cli_runs_as_a_module",
                      "tests/store/test_store_games.py", "tests/store/test_store_schema.py",
                      "tests/store/test_recorder.py"], plugins=[CheckFails])
from hexarena.store.engine import one_call_cursors
assert one_call_cursors() is False
sys.exit(status)
"""
    done = run_without("hexarena_no_such_module", code, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert " passed" in done.stdout
