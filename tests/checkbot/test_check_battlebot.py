"""``hexarena check-bot battlebot:BOT_ID``: check-bot hosts a battlebot lobby on loopback and checks the client
that logs in to it. The reference client (examples/battlebot_client.py) passes; scripted broken clients, real
WebSocket clients in the test's event loop, fail with the failure named.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import websockets

from hexarena.checkbot.battlebot import Credentials
from hexarena.checkbot.games import Settings
from hexarena.checkbot.report import Report
from hexarena.checkbot.run import ClientOptions, check_bot
from hexarena.referee.clock import clock_from

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
sys.path.insert(0, str(EXAMPLES))

import battlebot_client as reference  # noqa: E402  (examples/ is not a package)

SRC = str(Path(__file__).resolve().parents[2] / "src")
ENV = dict(os.environ, PYTHONPATH=SRC, COLUMNS="200")

Client = Callable[[dict[str, Any]], Awaitable[Any]]


def _settings(seconds: float = 3.0) -> Settings:
    return Settings(clock=clock_from("turn", seconds), max_plies=40)


async def _check(client: Client, *, wait: float = 30.0, seconds: float = 3.0, spec: str = "battlebot:tester") -> Report:
    """check_bot on a lobby of its own; ``client`` is started with the auth.json data once it listens."""
    tasks: list[asyncio.Task[Any]] = []

    def ready(url: str, creds: Credentials, _auth: Path | None) -> None:
        auth = {"game": creds.game, "bot_id": creds.bot_id, "pass_hash": creds.pass_hash}
        auth.update(hostname=url.removeprefix("ws://"))
        tasks.append(asyncio.create_task(client(auth)))

    try:
        return await check_bot(
            spec,
            games=1,
            settings=_settings(seconds),
            game="noughtsandcrosses",
            opponents=["random"],
            client=ClientOptions(wait=wait, ready=ready),
        )
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def _command(*args: str) -> subprocess.CompletedProcess[str]:
    """``hexarena check-bot ARGS`` in its own process, as an operator runs it."""
    cmd = [sys.executable, "-m", "hexarena.cli", "check-bot", *args]
    return subprocess.run(cmd, env=ENV, capture_output=True, text=True, timeout=120)


def _rows(report: Report) -> dict[str, Any]:
    return {name: check.to_json() for name, check in report.checks.items()}


@contextlib.asynccontextmanager
async def _logged_in(auth: dict[str, Any], hash_of: Callable[[str, str], str] | None = None) -> AsyncIterator[Any]:
    async with websockets.connect(f"ws://{auth['hostname']}") as ws:
        salt = json.loads(await ws.recv())["salt"]
        digest = (hash_of or (lambda p, s: hashlib.sha256((p + s).encode()).hexdigest()))(auth["pass_hash"], salt)
        await ws.send(json.dumps({"bot_id": auth["bot_id"], "game": auth["game"], "login_hash": digest}))
        yield ws


async def _forever(one_game: Client) -> None:
    while True:
        with contextlib.suppress(OSError, websockets.ConnectionClosed):
            await one_game()  # type: ignore[call-arg]
        await asyncio.sleep(0.1)


async def test_the_reference_client_passes() -> None:
    report = await _check(reference.play_forever)
    rows = _rows(report)
    assert not report.failed, rows
    for name in (
        "login",
        "starts",
        "legal-moves",
        "well-formed",
        "clock",
        "stays-up",
        "game-end",
        "invalid-turn",
        "reconnection",
    ):
        assert rows[name]["status"] == "pass", rows[name]
    assert len(report.games) == 3  # from the start, from a varied position, after the drop (probes have their own)
    assert report.game == "tictactoe"


async def test_a_wrong_login_hash_fails_login_and_says_which_mistake() -> None:
    async def backwards(auth: dict[str, Any]) -> None:
        async with _logged_in(auth, lambda p, s: hashlib.sha256((s + p).encode()).hexdigest()) as ws:
            await ws.recv()
            await asyncio.sleep(30)

    report = await _check(backwards)
    rows = _rows(report)
    assert report.failed
    assert rows["login"]["status"] == "fail"
    assert "wrong way round" in rows["login"]["detail"], rows["login"]
    assert "sha256_hex(pass_hash + salt)" in rows["login"]["expected"]
    assert rows["starts"]["status"] == "skip" and report.games == []


async def test_an_illegal_move_fails_legal_moves() -> None:
    """It always plays the centre: once taken, its turn is refused three times and it loses the game."""

    def centre(state: dict[str, Any], me: str) -> dict[str, Any]:
        return {"mark": "X" if state["marks"]["X"] == me else "O", "space": [1, 1]}

    report = await _check(lambda auth: reference.play_forever(auth, centre))
    rows = _rows(report)
    assert report.failed
    failed = rows["legal-moves"]
    assert failed["status"] == "fail", failed
    assert "3 invalid turns" in failed["detail"] and '"space": [1, 1]' in failed["sent"], failed
    assert "well-formed" not in rows or rows["well-formed"]["status"] != "fail"


async def test_a_turn_that_is_not_json_fails_well_formed() -> None:
    async def garbage(auth: dict[str, Any]) -> None:
        async def one() -> None:
            async with _logged_in(auth) as ws:
                async for text in ws:
                    state = json.loads(text).get("state", {})
                    if state.get("nextPlayer") == auth["bot_id"] and not state.get("complete"):
                        await ws.send("b2 please")

        await _forever(one)  # type: ignore[arg-type]

    report = await _check(garbage)
    rows = _rows(report)
    assert rows["well-formed"]["status"] == "fail", rows
    assert "b2 please" in rows["well-formed"]["sent"] and "not JSON" in rows["well-formed"]["sent"]


async def test_silence_fails_the_clock() -> None:
    async def silent(auth: dict[str, Any]) -> None:
        async def one() -> None:
            async with _logged_in(auth) as ws:
                async for _ in ws:
                    pass

        await _forever(one)  # type: ignore[arg-type]

    report = await _check(silent, seconds=0.5)
    rows = _rows(report)
    assert report.failed
    assert rows["clock"]["status"] == "fail", rows
    assert "nextPlayer" in rows["clock"]["fix"]


async def test_a_disconnect_that_never_comes_back_fails_stays_up() -> None:
    """It plays one turn, hangs up mid-game and is never seen again."""

    async def quitter(auth: dict[str, Any]) -> None:
        async with _logged_in(auth) as ws:
            async for text in ws:
                state = json.loads(text).get("state", {})
                if state.get("nextPlayer") == auth["bot_id"] and not state.get("complete"):
                    free = [[r, c] for r in range(3) for c in range(3) if state["board"][r][c] == ""]
                    mark = "X" if state["marks"]["X"] == auth["bot_id"] else "O"
                    await ws.send(json.dumps({"mark": mark, "space": free[0]}))
                    await asyncio.sleep(0.2)
                    return

    report = await _check(quitter, wait=5.0)
    rows = _rows(report)
    assert report.failed
    assert rows["stays-up"]["status"] == "fail", rows
    assert "disconnected" in rows["stays-up"]["detail"]
    assert rows["game-end"]["status"] == "warn" and "log in again" in rows["game-end"]["detail"]
    assert rows["reconnection"]["status"] == "skip"


async def test_a_client_that_does_not_come_back_after_a_drop_is_warned() -> None:
    """Game after game, but a lost connection ends it: every check passes, the reconnection row warns."""

    async def fragile(auth: dict[str, Any]) -> None:
        while True:
            final = await reference.play(auth)  # a dropped connection raises out of the loop: never back
            assert final.get("complete")

    report = await _check(fragile, wait=3.0)
    rows = _rows(report)
    assert not report.failed, rows
    assert rows["reconnection"]["status"] == "warn", rows["reconnection"]
    assert rows["invalid-turn"]["status"] == "pass"


async def test_a_client_that_ignores_an_invalid_turn_answer_fails_invalid_turn() -> None:
    """It sends a turn only when the update carries none (the opponent's echo or a new game): after its own turn
    comes back valid:false it waits for ever."""

    async def deaf(auth: dict[str, Any]) -> None:
        async def one() -> None:
            async with _logged_in(auth) as ws:
                await ws.recv()
                async for text in ws:
                    update = json.loads(text)
                    state, turn = update["state"], update.get("turn")
                    mine = turn is not None and turn.get("player") == auth["bot_id"]
                    if state.get("nextPlayer") == auth["bot_id"] and not state.get("complete") and not mine:
                        await ws.send(json.dumps(reference.choose_noughts(state, auth["bot_id"])))

        await _forever(one)  # type: ignore[arg-type]

    report = await _check(deaf, seconds=1.0)
    rows = _rows(report)
    assert rows["invalid-turn"]["status"] == "fail", rows
    assert "valid:false" in rows["invalid-turn"]["detail"]


async def test_a_bot_that_never_connects_is_told_where_to_connect() -> None:
    async def absent(auth: dict[str, Any]) -> None:
        await asyncio.sleep(60)

    report = await _check(absent, wait=0.5, spec="battlebot:nobody")
    rows = _rows(report)
    assert report.failed
    starts = rows["starts"]
    assert starts["status"] == "fail" and "within 0.5 s" in starts["detail"]
    assert "127.0.0.1:" in starts["fix"] and "'nobody'" in starts["fix"]


def test_the_command_writes_auth_json_and_the_reference_client_passes(tmp_path: Path) -> None:
    """The operator's way: check-bot writes the bot's auth.json; the reference client runs with it (its own
    process, --forever); --json on stdout, the lobby's address on stderr, exit status 0."""
    auth = tmp_path / "auth.json"
    args = ["battlebot:IdiotBot", "--game", "noughtsandcrosses", "--games", "1", "--opponent", "random"]
    args += ["--auth", str(auth), "--wait", "120", "--json"]
    check = subprocess.Popen(
        [sys.executable, "-m", "hexarena.cli", "check-bot", *args],
        env=ENV,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    bot = None
    try:
        for _ in range(1200):
            if auth.exists() or check.poll() is not None:
                break
            subprocess.run(["sleep", "0.1"], check=True)
        assert auth.exists(), check.communicate()
        written = json.loads(auth.read_text())
        assert written["bot_id"] == "IdiotBot" and written["game"] == "noughtsandcrosses"
        bot = subprocess.Popen(
            [sys.executable, str(EXAMPLES / "battlebot_client.py"), "--auth", str(auth), "--forever"],
            env=ENV,
            stdout=subprocess.DEVNULL,
        )
        out, err = check.communicate(timeout=300)
    finally:
        for proc in (check, bot):
            if proc is not None and proc.poll() is None:
                proc.kill()
                proc.wait()
    assert check.returncode == 0, out + err
    assert "ws://127.0.0.1:" in err and "IdiotBot" in err
    report = json.loads(out)
    assert report["ok"] is True and report["protocol"] == "battlebot"
    assert {c["check"]: c["status"] for c in report["checks"]}["reconnection"] == "pass"


def test_the_command_exits_1_when_no_bot_connects(tmp_path: Path) -> None:
    done = _command("battlebot", "--wait", "0.5", "--json")
    assert done.returncode == 1, done.stdout + done.stderr
    rows = {c["check"]: c for c in json.loads(done.stdout)["checks"]}
    assert rows["starts"]["status"] == "fail" and "'mybot'" in rows["starts"]["fix"]


def test_the_bots_own_auth_json_is_read_and_its_pass_hash_never_printed(tmp_path: Path) -> None:
    auth = tmp_path / "auth.json"
    own = {"game": "noughtsandcrosses", "bot_id": "Mine", "pass_hash": "ab" * 32, "hostname": "example.org"}
    auth.write_text(json.dumps(own))
    done = _command("battlebot", "--auth", str(auth), "--wait", "0.5")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "'Mine'" in done.stderr and f"its own pass_hash (from {auth})" in done.stderr
    assert own["pass_hash"] not in done.stdout + done.stderr
    assert json.loads(auth.read_text()) == own  # the bot's file is left as it was
    clash = _command("battlebot:Other", "--auth", str(auth), "--wait", "0.5")
    assert clash.returncode == 2 and "'Other'" in clash.stderr and "'Mine'" in clash.stderr, clash.stderr


async def test_the_lobby_keeps_a_bounded_number_of_sockets_open() -> None:
    """A bot reconnecting in a tight loop can't pile sockets up: past MAX_SOCKETS the lobby turns them away."""
    from hexarena.checkbot.battlebot import MAX_SOCKETS, CheckLobby, credentials
    from hexarena.wire.battlebot import shape_for

    shape = shape_for("noughtsandcrosses")
    lobby = CheckLobby(Report("battlebot", "battlebot", "tictactoe"), credentials("x", shape, None))
    url = await lobby.start("127.0.0.1", 0)
    held = []
    try:
        for _ in range(MAX_SOCKETS):
            ws = await websockets.connect(url)
            assert "salt" in json.loads(await ws.recv())
            held.append(ws)
        async with websockets.connect(url) as extra:
            try:
                await asyncio.wait_for(extra.recv(), 5)
            except websockets.ConnectionClosed as exc:
                assert exc.rcvd is not None and exc.rcvd.code == 1013
            else:
                raise AssertionError("the socket past the bound was served")
    finally:
        for ws in held:
            await ws.close()
        await lobby.close()
