"""``hexarena check-bot``: hexarena's own bots pass; scripted broken bots fail with the failure named.

The command runs as an operator runs it (its own process, real sockets on loopback); the broken bots are the
tests' scripted ``FakeBot`` servers in the test's event loop, which keeps serving while the command runs.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette
from starlette.responses import JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket

from fakes.servers import (
    AUTO,
    CLOSE,
    SILENCE,
    Act,
    FakeBot,
    cli_bot_server,
    fake_bot,
    move_response,
    send,
    serve_app,
    sleep,
)
from hexarena.core.errors import ConfigError
from hexarena.games.htttx import HTTTX

SRC = str(Path(__file__).resolve().parents[2] / "src")
ENV = dict(os.environ, PYTHONPATH=SRC, COLUMNS="200")


def _cmd(*args: str) -> list[str]:
    return [sys.executable, "-m", "hexarena.cli", "check-bot", *args]


#: What check-bot's probes wait for a scripted bot beyond the move time: for an answer, and for the close a stray
#: heartbeat should bring. Its default (5 s) is a margin for real bots that think; the tests' scripted bots answer
#: at once or never and never close on a heartbeat, so that margin would only be waited out.
SCRIPTED_BOT_ENV = dict(ENV, HEXARENA_CHECKBOT_REACT_SECONDS="0.5")


async def _run(*args: str, react: float | None = None) -> tuple[int, str, str]:
    """``hexarena check-bot ARGS`` against one of the tests' scripted bots (``react``: its probes' margin, s)."""
    env = SCRIPTED_BOT_ENV if react is None else dict(SCRIPTED_BOT_ENV, HEXARENA_CHECKBOT_REACT_SECONDS=str(react))
    proc = await asyncio.create_subprocess_exec(
        *_cmd(*args), env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
    )
    out, err = await asyncio.wait_for(proc.communicate(), 300)
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()


def _checks(out: str) -> dict[str, dict[str, Any]]:
    return {c["check"]: c for c in json.loads(out)["checks"]}


def _wait_up(url: str) -> None:
    for _ in range(600):
        try:
            if httpx.get(f"{url}/capabilities.json", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise AssertionError(f"{url} did not come up")


@pytest.mark.parametrize("transport", ["", "stateless:"])
def test_hexarena_bot_server_passes(transport: str) -> None:
    with cli_bot_server("heuristic") as url:
        _wait_up(url)
        done = subprocess.run(
            _cmd(transport + url, "--games", "1", "--clock", "10", "--json"),
            env=ENV,
            capture_output=True,
            text=True,
            timeout=300,
        )
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout)
    assert report["ok"] is True
    checks = _checks(done.stdout)
    for name in ("capabilities", "starts", "legal-moves", "well-formed", "clock", "stays-up"):
        assert checks[name]["status"] == "pass", checks[name]
    assert checks["free-setup"]["status"] == "pass"  # the built-in server declares free_setup; stateless has it
    if not transport:
        for name in ("heartbeat", "heartbeat.stray", "nope", "game-end", "reconnection"):
            assert checks[name]["status"] == "pass", checks[name]
        assert "from the position it was given" in checks["reconnection"]["detail"]
    else:
        assert checks["reconnection"]["status"] == "skip" and "not applicable" in checks["reconnection"]["detail"]
    assert len(report["games"]) == 3


def test_the_table_names_the_failure_and_the_fix() -> None:
    """Without --json: a rich table, and exit status 1 (the occupied origin, the case authors meet first)."""

    async def main() -> tuple[int, str, str]:
        async with fake_bot(FakeBot([move_response([[0, 0], [1, 0]])])) as url:
            return await _run(url, "--games", "1", "--clock", "10", "--opponent", "random")

    code, out, err = asyncio.run(main())
    assert code == 1, out + err
    assert "legal-moves" in out and "fail" in out
    assert "occupied by X" in out and "origin" in out
    assert "fix:" in out and "FAILED" in out


async def test_occupied_cell_is_named() -> None:
    async with fake_bot(FakeBot([move_response([[0, 0], [1, 0]])])) as url:
        code, out, _ = await _run(url, "--games", "1", "--clock", "10", "--opponent", "random", "--json")
    assert code == 1
    check = _checks(out)["legal-moves"]
    assert check["status"] == "fail"
    assert "(0, 0), which is occupied by X" in check["sent"]
    assert "view_distance" in check["expected"] and "empty cell" in check["fix"]


async def test_malformed_answer_is_named() -> None:
    async with fake_bot(FakeBot([send("{not json")])) as url:
        code, out, _ = await _run(url, "--games", "1", "--clock", "10", "--opponent", "random", "--json")
    assert code == 1
    check = _checks(out)["well-formed"]
    assert check["status"] == "fail"
    assert "{not json" in check["sent"]  # what the bot sent, quoted
    assert "move_response" in check["expected"]


#: The clock of the two tests of a bot that answers late or never, and their probes' margin: short, since the bot
#: under test moves first (X's first stone is placed for it) and its one move ends the game, so no other player's
#: move is timed; every probe after the game waits out clock + margin for an answer that comes late or not at all.
SHORT_CLOCK = 0.2


async def test_late_answer_is_named() -> None:
    bot = FakeBot([[sleep(3 * SHORT_CLOCK), AUTO]])  # three times the clock: late however slow the machine is
    async with fake_bot(bot) as url:
        args = (url, "--games", "1", "--clock", str(SHORT_CLOCK), "--opponent", "random", "--json")
        code, out, _ = await _run(*args, react=SHORT_CLOCK)
    assert code == 1
    check = _checks(out)["clock"]
    assert check["status"] == "fail"
    assert f"within {SHORT_CLOCK} s" in check["expected"]


async def test_silence_is_named() -> None:
    async with fake_bot(FakeBot([SILENCE])) as url:
        args = (url, "--games", "1", "--clock", str(SHORT_CLOCK), "--opponent", "random", "--json")
        code, out, _ = await _run(*args, react=SHORT_CLOCK)
    assert code == 1
    checks = _checks(out)
    assert checks["clock"]["status"] == "fail"
    assert checks["clock"]["sent"].startswith("no answer in time")


async def test_crash_mid_game_is_named() -> None:
    async with fake_bot(FakeBot([AUTO, CLOSE])) as url:
        code, out, _ = await _run(url, "--games", "1", "--clock", "10", "--opponent", "random", "--json")
    assert code == 1
    check = _checks(out)["stays-up"]
    assert check["status"] == "fail"
    assert "closed the connection" in check["detail"]


async def test_unreachable_capabilities_fail_the_handshake() -> None:
    async with fake_bot(FakeBot(caps_status=404)) as url:
        code, out, _ = await _run(url, "--json")
    assert code == 1
    check = _checks(out)["capabilities"]
    assert check["status"] == "fail" and "404" in check["sent"]


async def test_declared_evaluation_must_be_answered_and_on_scale() -> None:
    """A bot declaring ``evaluation`` that never answers eval_request fails; a heuristic of 3 is a warning."""
    caps = {"meta": {"name": "evalbot"}, "basic_websocket": {"versions": {"v1-alpha": {"evaluation": True}}}}
    bot = FakeBot([Act("auto", evaluation={"heuristic": 3.0})] * 60, capabilities=caps)
    async with fake_bot(bot) as url:
        code, out, _ = await _run(url, "--games", "1", "--clock", "10", "--opponent", "random", "--json")
    assert code == 1
    checks = _checks(out)
    assert checks["legal-moves"]["status"] == "pass"
    assert checks["evaluation"]["status"] == "fail"
    assert "eval_response" in checks["evaluation"]["expected"]
    assert checks["evaluation.fields"]["status"] == "warn"
    assert '"heuristic": 3.0' in checks["evaluation.fields"]["sent"]
    # without free_setup a dropped game can't be resumed: a new connection must still get a new game
    assert checks["reconnection"]["status"] == "pass" and "a new game" in checks["reconnection"]["detail"]


async def test_malformed_stateless_answer_is_quoted() -> None:
    """A stateless bot's unreadable answer is quoted: the same board is asked again and its body shown."""

    async def turn(body: dict[str, Any]) -> Response:
        return Response('{"move": {"pieces": [{"q": 1}]}}', media_type="application/json")

    caps = {"meta": {"name": "s"}, "stateless": {"versions": {"v1-alpha": {}}}}
    async with fake_bot(FakeBot(capabilities=caps, turn=turn)) as url:
        code, out, _ = await _run(url, "--games", "1", "--clock", "10", "--opponent", "random", "--json")
    assert code == 1
    assert json.loads(out)["protocol"] == "stateless"
    check = _checks(out)["well-formed"]
    assert check["status"] == "fail"
    assert check["sent"] == 'HTTP 200: {"move": {"pieces": [{"q": 1}]}}'
    assert "docs/protocols/bws.md" in check["fix"]


async def test_socket_not_where_capabilities_say_fails_starts() -> None:
    caps = {"meta": {"name": "lost"}, "basic_websocket": {"versions": {"v1-alpha": {"api_root": "elsewhere"}}}}
    async with fake_bot(FakeBot(capabilities=caps)) as url:
        code, out, _ = await _run(url, "--games", "1", "--opponent", "random", "--json")
    assert code == 1
    checks = _checks(out)
    assert checks["starts"]["status"] == "fail"
    assert "/elsewhere/game" in checks["starts"]["sent"]
    assert "api_root" in checks["starts"]["fix"]
    assert checks["probes"]["status"] == "skip"


class _StuckAfterADrop:
    """A bws bot server with one game at a time that frees it only when the connection is closed properly: a
    connection cut without a close frame leaves it busy, and it turns every later connection away (1013)."""

    def __init__(self) -> None:
        self.busy = False
        caps = {"meta": {"name": "stuck"}, "basic_websocket": {"versions": {"v1-alpha": {"free_setup": True}}}}
        self.app = Starlette(
            routes=[
                Route("/capabilities.json", lambda _r: JSONResponse(caps)),
                WebSocketRoute("/bws/v1-alpha/game", self.socket),
            ]
        )

    async def socket(self, ws: WebSocket) -> None:
        await ws.accept()
        if self.busy:
            await ws.close(code=1013)
            return
        self.busy = True
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                if message.get("code") in (1000, 1001):
                    self.busy = False
                return
            packet = json.loads(message["text"])
            if packet.get("type") == "move_request":
                cells = [(c["q"], c["r"], 0 if c["p"] == "x" else 1) for c in packet["board"]["cells"]]
                state = HTTTX.from_cells(cells, 0 if packet["side"] == "x" else 1, turns=0)
                pieces = HTTTX.random_move(state, random.Random(len(cells)))
                out = {"type": "move_response", "move": {"pieces": [{"q": q, "r": r} for q, r in pieces]}}
                await ws.send_text(json.dumps(out))


async def test_a_bot_server_that_stays_busy_after_a_dropped_connection_fails_reconnection() -> None:
    async with serve_app(_StuckAfterADrop().app) as url:
        code, out, _ = await _run(url, "--games", "1", "--clock", "10", "--opponent", "random", "--json")
    assert code == 1, out
    checks = _checks(out)
    for name in ("starts", "legal-moves", "nope", "game-end"):
        assert checks[name]["status"] == "pass", checks[name]
    check = checks["reconnection"]
    assert check["status"] == "fail", check
    assert "dropped mid-game" in check["detail"] and "1013" in check["sent"]


def test_a_bad_react_setting_is_refused_clearly() -> None:
    from hexarena.checkbot.htttx import REACT, react

    with pytest.MonkeyPatch.context() as mp:
        mp.delenv("HEXARENA_CHECKBOT_REACT_SECONDS", raising=False)
        assert react() == REACT
        mp.setenv("HEXARENA_CHECKBOT_REACT_SECONDS", "0.25")
        assert react() == 0.25
        for bad in ("soon", "0", "-1", "nan", "inf", "601"):
            mp.setenv("HEXARENA_CHECKBOT_REACT_SECONDS", bad)
            with pytest.raises(ConfigError, match="HEXARENA_CHECKBOT_REACT_SECONDS must be a number of seconds"):
                react()
