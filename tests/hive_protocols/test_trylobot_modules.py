"""Trylobot Hive AI modules: our host adapter against our module and scripted fakes, over TCP and stdio."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from hexarena.bots.hiveai_module import HiveAiModule, serve_tcp
from hexarena.core.registry import get_game
from hexarena.core.types import Termination
from hexarena.players.hiveai import HiveAiPlayer
from hexarena.players.inprocess import InProcessPlayer
from hexarena.referee import MatchConfig, Referee
from hexarena.referee.clock import clock_from
from hexarena.wire import trylobot as tw

HERE = Path(__file__).parent
SRC = HERE.parents[1] / "src"
FAKE = f"{sys.executable} {HERE / 'fake_module.py'}"


@pytest.fixture(autouse=True)
def _pythonpath(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYTHONPATH", str(SRC) + os.pathsep + os.environ.get("PYTHONPATH", ""))


async def run(p0, p1, plies=24, seconds=3.0):
    config = MatchConfig(game=get_game("hive"), clock=clock_from("turn", seconds), max_plies=plies)
    return await Referee(config, [p0, p1]).run()


@contextlib.asynccontextmanager
async def our_module(bot: str = "random") -> AsyncIterator[int]:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    ready = asyncio.Event()
    task = asyncio.create_task(serve_tcp(bot, "127.0.0.1", port, ready))
    await asyncio.wait_for(ready.wait(), 5)
    try:
        yield port
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


@contextlib.asynccontextmanager
async def fake_tcp(mode: str) -> AsyncIterator[int]:
    proc = await asyncio.create_subprocess_exec(*FAKE.split(), mode, stdout=asyncio.subprocess.PIPE)
    assert proc.stdout is not None
    port = int((await proc.stdout.readline()).decode())
    try:
        yield port
    finally:
        with contextlib.suppress(ProcessLookupError):  # a module that crashes has exited already
            proc.kill()
        await proc.wait()
        proc._transport.close()  # type: ignore[attr-defined]


async def test_frames_round_trip_and_count_utf16_units() -> None:
    msg = {"name": "caf\u00e9 \U0001f41d"}
    data = tw.frame(msg)
    head, _, _payload = data.partition(b"#")
    assert int(head) == len(json.dumps(msg, separators=(",", ":")).encode("utf-16-le")) // 2
    reader = asyncio.StreamReader()
    reader.feed_data(data)
    reader.feed_eof()
    assert await tw.read_frame(reader) == msg


@pytest.mark.parametrize("bad", [b"abc#{}", b"#{}", b"5#[1,2]", b"9#not json", b"99999999999#"])
async def test_bad_frames_are_violations(bad: bytes) -> None:
    from hexarena.core.errors import HexarenaError

    reader = asyncio.StreamReader()
    reader.feed_data(bad)
    reader.feed_eof()
    with pytest.raises(HexarenaError):
        await tw.read_frame(reader)


@pytest.mark.parametrize("spelling", ["new", "old"])
async def test_our_module_over_tcp_plays_a_builtin(spelling: str) -> None:
    async with our_module() as port:
        module = HiveAiPlayer(f"127.0.0.1:{port}", spelling=spelling)
        result = await run(module, InProcessPlayer.builtin("hive", "random"))
    assert result.outcome.termination in (Termination.TURN_LIMIT, Termination.NORMAL), result.outcome
    assert module.name == "hexarena-random"
    assert len(result.moves) >= 10


async def test_our_module_over_stdio() -> None:
    module = HiveAiPlayer(f"{sys.executable} -m hexarena.cli hiveai serve --bot random --stdio", stdio=True)
    result = await run(InProcessPlayer.builtin("hive", "random"), module)
    assert result.outcome.termination in (Termination.TURN_LIMIT, Termination.NORMAL), result.outcome
    assert module.process is not None and module.process.returncode is not None


async def test_request_shape_has_possible_turns_in_both_places_and_ids() -> None:
    seen: list[dict] = []
    module = HiveAiModule("random")
    original = module.answer

    def spy(request: dict) -> dict:
        seen.append(request)
        return original(request)

    module.answer = spy  # type: ignore[method-assign]
    player = HiveAiPlayer("unused:9")  # never dialled: the exchange is replaced below

    async def exchange(message: dict, timeout: float | None) -> dict:
        return json.loads(json.dumps(spy(json.loads(json.dumps(message)))))

    player._exchange = exchange  # type: ignore[method-assign]
    result = await run(player, InProcessPlayer.builtin("hive", "random"), plies=6)
    assert result.outcome.termination == Termination.TURN_LIMIT
    turn = [r for r in seen if r["request_type"] == "Choose Turn"][1]
    assert turn["possible_turns"] == turn["game_state"]["possible_turns"]
    assert {"request_id", "request_timestamp", "response_deadline", "game_id"} <= set(turn)
    assert turn["game_state"]["turn_history"] and "creation_parameters" in turn["game_state"]
    assert turn["response_deadline"] > turn["request_timestamp"]


async def test_fake_module_with_response_id_plays() -> None:
    async with fake_tcp("good") as port:
        result = await run(HiveAiPlayer(f"127.0.0.1:{port}"), InProcessPlayer.builtin("hive", "random"))
    assert result.outcome.termination in (Termination.TURN_LIMIT, Termination.NORMAL), result.outcome


@pytest.mark.parametrize(
    ("mode", "termination", "words"),
    [
        # garbage from the first answer on (the greeting, at start): the match never started, nobody wins it
        ("garbage", Termination.ABORTED, "not JSON"),
        ("badframe", Termination.ABORTED, "frame header"),
        ("illegal", Termination.ILLEGAL_MOVE, "Queen Bee"),
        ("forfeit", Termination.ILLEGAL_MOVE, "Forfeit"),
        ("wrongid", Termination.PROTOCOL, "nope"),
        ("crash", Termination.DISCONNECT, ""),
        ("silent", Termination.TIME, ""),
    ],
)
async def test_broken_tcp_modules_lose_with_a_reason(mode: str, termination: Termination, words: str) -> None:
    async with fake_tcp(mode) as port:
        result = await run(HiveAiPlayer(f"127.0.0.1:{port}"), InProcessPlayer.builtin("hive", "random"), seconds=1.5)
    winner = None if termination == Termination.ABORTED else 1
    assert result.culprit == 0 and result.outcome.winner == winner, result.outcome
    assert result.outcome.termination == termination, result.outcome
    assert words in result.outcome.reason


@pytest.mark.parametrize(
    ("mode", "termination"),
    [("garbage", Termination.ABORTED), ("crash", Termination.DISCONNECT), ("silent", Termination.TIME)],
)
async def test_broken_stdio_modules_lose(mode: str, termination: Termination) -> None:
    module = HiveAiPlayer(f"{FAKE} {mode} stdio", stdio=True)
    result = await run(module, InProcessPlayer.builtin("hive", "random"), seconds=1.5)
    winner = None if termination == Termination.ABORTED else 1  # garbage at the greeting: it never started
    assert result.outcome.winner == winner and result.outcome.termination == termination, result.outcome
    assert module.process is not None and module.process.returncode is not None


async def test_unreachable_module_aborts_the_match() -> None:
    result = await run(HiveAiPlayer("127.0.0.1:1"), InProcessPlayer.builtin("hive", "random"))
    assert result.outcome.termination == Termination.ABORTED and result.outcome.winner is None
    assert result.culprit == 0 and "cannot reach" in result.outcome.reason


async def test_silent_module_without_a_clock_loses_after_its_default_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    """Trylobot's protocol gives a module 30 s by default; with no match clock that deadline is enforced."""
    from hexarena.players import hiveai

    monkeypatch.setattr(hiveai, "DEFAULT_TIMEOUT", 1.0)
    module = HiveAiPlayer(f"{FAKE} silent stdio", stdio=True)
    config = MatchConfig(game=get_game("hive"), max_plies=10)
    result = await Referee(config, [module, InProcessPlayer.builtin("hive", "random")]).run()
    assert result.outcome.winner == 1 and result.outcome.termination == Termination.TIME, result.outcome


@pytest.mark.parametrize("stdio", [False, True])
async def test_greetings_answer_lists_the_module_as_active(stdio: bool) -> None:
    """API 0.1.0 Greetings carry active/long_name/description; hive-cli list-ai skips a module without
    ``active: true`` as INACTIVE (docs/protocols/trylobot.md). Asked exactly as hive-cli asks."""
    request = {"request_type": "Greetings", "request_id": "n6Vvi", "system_version": "0.1.0"}
    if stdio:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "hexarena.cli", "hiveai", "serve", "--bot", "greedy", "--stdio",
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        )  # fmt: skip
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write((json.dumps(request) + "\n").encode())
        await proc.stdin.drain()
        reply = json.loads(await asyncio.wait_for(proc.stdout.readline(), 30))
        proc.stdin.close()
        await asyncio.wait_for(proc.wait(), 30)
    else:
        async with our_module("greedy") as port:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(tw.frame(request))
            await writer.drain()
            reply = await asyncio.wait_for(tw.read_frame(reader), 10)
            writer.close()
    assert reply["response_type"] == "Greetings" and reply["response_id"] == "n6Vvi"
    assert reply["active"] is True
    assert reply["name"] == "hexarena-greedy"
    assert isinstance(reply["long_name"], str) and "greedy" in reply["long_name"]
    assert isinstance(reply["description"], str) and reply["description"]
    assert {"version", "author", "project_url", "language"} <= set(reply)


async def test_a_module_that_throws_has_its_own_error_text_recorded() -> None:
    """json-socket answers a throwing module with ``{"success": false, "error": "<text>"}``: that text is the reason."""
    thrown = "TypeError: Cannot read property 'Soldier Ant' of undefined"  # what fake_module.py sends
    async with fake_tcp("throws") as port:
        result = await run(HiveAiPlayer(f"127.0.0.1:{port}"), InProcessPlayer.builtin("hive", "random"))
    assert result.culprit == 0 and result.outcome.winner == 1, result.outcome
    assert result.outcome.termination == Termination.PROTOCOL, result.outcome
    assert thrown in result.outcome.reason, result.outcome.reason
    assert "response_type" not in result.outcome.reason


@pytest.mark.parametrize("address", ["127.0.0.1:99999", "127.0.0.1:-1", "127.0.0.1:http", "127.0.0.1:"])
async def test_a_port_out_of_range_is_the_callers_error_not_a_server_error(address: str) -> None:
    from hexarena.core.errors import ConfigError
    from hexarena.players.spec import make_player

    with pytest.raises(ConfigError, match="port must be") as raised:
        await make_player(f"hiveai:{address}", "hive")
    assert address in str(raised.value)
    with pytest.raises(ConfigError, match="port must be"):  # built directly, as BwsPlayer checks its URL
        HiveAiPlayer(address)
