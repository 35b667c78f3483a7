"""The starter bots (starters/<language>/): each builds with its toolchain, serves, speaks its protocol as the
Python SDK does, and beats the random bot in real matches run by hexarena's referee.

A test skips only when its language's toolchain is missing (the reason names the packages to install).
"""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starter_procs import BWS_LANGUAGES, STARTERS, StarterServer, need_toolchain
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from hexarena.core.registry import get_game
from hexarena.core.types import Termination
from hexarena.play import play_one
from hexarena.referee.clock import clock_from
from hexarena_sdk.connection import CROSSING_WINDOW

#: each language's server builds into its starter's own build/ folder in the checkout: one worker builds them all
pytestmark = pytest.mark.xdist_group("starters")

GAMES = 6  # per language, seats alternating: X three times, O three times
WAIT = 60.0  # seconds for any one packet
DIRECTIONS = [(1, 0), (0, 1), (1, -1), (-1, 0), (0, -1), (-1, 1)]


@pytest.fixture(scope="module", params=BWS_LANGUAGES)
def starter(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[StarterServer]:
    """A running starter bot server (built first if needed), one per language for the whole module."""
    language: str = request.param
    need_toolchain(language)
    server = StarterServer(STARTERS / language, tmp_path_factory.mktemp(language) / "serve.log")
    try:
        server.wait_ready()
        yield server
    finally:
        server.stop()


async def _play(specs: list[str], game_name: str) -> Any:
    game = get_game(game_name)
    return await play_one(game, specs, game.validate_params({}), clock_from("turn", 120))


async def test_starter_beats_random_at_htttx_without_a_protocol_error(starter: StarterServer) -> None:
    wins = 0
    for i in range(GAMES):
        specs = [starter.url, "builtin:random"] if i % 2 == 0 else ["builtin:random", starter.url]
        result = await _play(specs, "htttx")
        assert result.outcome.termination == Termination.NORMAL, result.outcome.reason
        wins += result.outcome.winner == specs.index(starter.url)
    assert wins >= GAMES - 1, f"the starter won {wins} of {GAMES} against random"


#: What every starter declares (and the tests below hold it to).
CAPABILITIES = {
    "config": {"dynamic": True},
    "free_setup": True,
    "resettable_state": True,
    "dual_sided": True,
    "free_move_order": True,
}


def test_capabilities_declare_what_the_starter_does(starter: StarterServer) -> None:
    caps = starter.wait_ready()
    assert caps["basic_websocket"] == {"versions": {"v1-alpha": CAPABILITIES}}
    assert isinstance(caps["meta"], dict) and caps["meta"]["name"]


async def test_any_setup_at_any_time_and_either_side(starter: StarterServer) -> None:
    """free_setup, resettable_state, dual_sided: a second setup replaces the board, and x or o may be asked."""
    async with connect(f"ws://127.0.0.1:{starter.port}/bws/v1-alpha/game") as ws:
        await ws.send(json.dumps({"type": "setup", "board": _board([(0, 0)], [])}))
        _pieces(await _ask(ws, {"type": "move_request", "side": "o", "previous": []}))
        # a new position: x has four in a row on the q axis at r = 5, far from everything said before
        x = [(q, 5) for q in range(4)] + [(0, 0)]
        o = [(2, 2), (-3, 0), (5, -5), (-5, 5)]
        await ws.send(json.dumps({"type": "setup", "board": _board(x, o)}))
        pieces = _pieces(await _ask(ws, {"type": "move_request", "side": "x", "previous": []}))
    line = {(q, 5) for q in range(4)} | pieces
    assert any({(q, 5) for q in range(start, start + 6)} <= line for start in range(-2, 1)), pieces


def _board(x: list[tuple[int, int]], o: list[tuple[int, int]]) -> dict[str, Any]:
    cells = [{"q": q, "r": r, "p": "x"} for q, r in x] + [{"q": q, "r": r, "p": "o"} for q, r in o]
    return {"cells": cells}


async def _ask(ws: Any, packet: dict[str, Any]) -> dict[str, Any]:
    await ws.send(json.dumps(packet))
    reply: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), WAIT))
    return reply


def _pieces(reply: dict[str, Any]) -> set[tuple[int, int]]:
    assert reply["type"] == "move_response", reply
    return {(p["q"], p["r"]) for p in reply["move"]["pieces"]}


async def test_wins_when_two_stones_finish_a_line(starter: StarterServer) -> None:
    # o has four in a row on the r axis with both ends open; x's stones are scattered
    x = [(0, 0), (3, 0), (-3, 2), (4, -3), (-2, -2)]
    o = [(1, 1), (1, 2), (1, 3), (1, 4)]
    async with connect(f"ws://127.0.0.1:{starter.port}/bws/v1-alpha/game") as ws:
        await ws.send(json.dumps({"type": "setup", "board": _board([(0, 0)], [])}))
        reply = await _ask(ws, {"type": "move_request", "side": "o", "previous": [], "board": _board(x, o)})
    pieces = _pieces(reply)
    line = set(o) | pieces
    assert any({(1, r) for r in range(start, start + 6)} <= line for start in range(-1, 2)), pieces


async def test_blocks_an_open_four(starter: StarterServer) -> None:
    # x threatens to finish (-1..4, 0) or (0..5, 0) and more next turn: o must take both ends of the four
    x = [(0, 0), (1, 0), (2, 0), (3, 0), (0, 3)]
    o = [(-3, 3), (5, -4), (-1, -3), (2, 3)]
    async with connect(f"ws://127.0.0.1:{starter.port}/bws/v1-alpha/game") as ws:
        await ws.send(json.dumps({"type": "setup", "board": _board([(0, 0)], [])}))
        reply = await _ask(ws, {"type": "move_request", "side": "o", "previous": [], "board": _board(x, o)})
    assert _pieces(reply) == {(-1, 0), (4, 0)}


async def test_follows_previous_without_a_board_and_applies_config(starter: StarterServer) -> None:
    async with connect(f"ws://127.0.0.1:{starter.port}/bws/v1-alpha/game/game") as ws:  # Hivemaker's path too
        await ws.send(json.dumps({"type": "config", "x-win_distance": 5, "x-unknown": True, "depth": 3}))
        await ws.send(json.dumps({"type": "setup", "board": _board([(0, 0)], [])}))
        first = await _ask(ws, {"type": "move_request", "side": "o", "previous": [], "request_id": 7})
        assert first["request_id"] == 7
        mine = _pieces(first)
        assert len(mine) == 2 and (0, 0) not in mine
        # x answers with two stones in a line with its first, on a line o has no stone on: three of five
        dq, dr = next(d for d in DIRECTIONS if not mine & {(k * d[0], k * d[1]) for k in range(-2, 5)})
        x_move = {"side": "x", "pieces": [{"q": dq, "r": dr}, {"q": 2 * dq, "r": 2 * dr}]}
        reply = await _ask(
            ws, {"type": "move_request", "side": "o", "previous": [first["move"] | {"side": "o"}, x_move]}
        )
    assert "request_id" not in reply
    # with win_distance 5 (not the default 6), three in a row with open ends is a threat to block
    assert _pieces(reply) & {(-dq, -dr), (3 * dq, 3 * dr)}, (dq, dr, reply)


async def test_waiting_heartbeats_sent_before_the_reply_was_read_are_tolerated(starter: StarterServer) -> None:
    """The game server says ``waiting: true`` at every heartbeat until it has read the reply: those it sent while
    the bot thought (a starter reads nothing while it computes) or before it got round to reading the reply reach
    the bot after its reply, several when the server's heartbeats are short or the machine is loaded. Here they
    go out with the request, before the reply is read, as a server's heartbeats do."""
    async with connect(f"ws://127.0.0.1:{starter.port}/bws/v1-alpha/game") as ws:
        await ws.send(json.dumps({"type": "setup", "board": _board([(0, 0)], [])}))
        await ws.send(json.dumps({"type": "move_request", "side": "o", "previous": []}))
        for _ in range(4):
            await ws.send(json.dumps({"type": "heartbeat", "waiting": True}))
        first = _pieces(json.loads(await asyncio.wait_for(ws.recv(), WAIT)))
        # the server reads the reply: its next heartbeat says it waits no more, and the game goes on
        await ws.send(json.dumps({"type": "heartbeat", "waiting": False}))
        reply = await _ask(ws, {"type": "move_request", "side": "x", "previous": []})
    assert not _pieces(reply) & (first | {(0, 0)})


async def test_heartbeat_waiting_after_the_server_read_the_reply_closes_the_connection(
    starter: StarterServer,
) -> None:
    """``waiting: false`` says the server read the reply; a ``waiting: true`` after it, with no request since,
    means the server lost track of the requests (the spec's error state): the bot closes."""
    async with connect(f"ws://127.0.0.1:{starter.port}/bws/v1-alpha/game") as ws:
        await ws.send(json.dumps({"type": "setup", "board": _board([(0, 0)], [])}))
        await ws.send(json.dumps({"type": "heartbeat", "waiting": False}))
        _pieces(await _ask(ws, {"type": "move_request", "side": "o", "previous": []}))
        await ws.send(json.dumps({"type": "heartbeat", "waiting": True}))  # crossed the reply: tolerated
        await ws.send(json.dumps({"type": "heartbeat", "waiting": False}))  # the server read it
        await ws.send(json.dumps({"type": "some_future_packet"}))  # unknown packets are ignored
        await ws.send(json.dumps({"type": "heartbeat", "waiting": True}))
        with pytest.raises(ConnectionClosed):
            await asyncio.wait_for(ws.recv(), WAIT)
    assert ws.close_code == 1008


async def test_heartbeat_waiting_long_after_the_reply_closes_the_connection(starter: StarterServer) -> None:
    """A server that never reads the reply says ``waiting: true`` for ever: past the window in which a heartbeat
    can still be one sent before the reply arrived (the SDK's, which the starters share), the bot closes."""
    async with connect(f"ws://127.0.0.1:{starter.port}/bws/v1-alpha/game") as ws:
        await ws.send(json.dumps({"type": "setup", "board": _board([(0, 0)], [])}))
        _pieces(await _ask(ws, {"type": "move_request", "side": "o", "previous": []}))
        await asyncio.sleep(CROSSING_WINDOW + 0.5)  # the bot took its clock before it replied: past it, however late
        await ws.send(json.dumps({"type": "heartbeat", "waiting": True}))
        with pytest.raises(ConnectionClosed):
            await asyncio.wait_for(ws.recv(), WAIT)
    assert ws.close_code == 1008


async def test_garbage_closes_with_policy_violation(starter: StarterServer) -> None:
    async with connect(f"ws://127.0.0.1:{starter.port}/bws/v1-alpha/game") as ws:
        await ws.send("this is not json")
        with pytest.raises(ConnectionClosed):
            await asyncio.wait_for(ws.recv(), WAIT)
    assert ws.close_code == 1008
    # and the server still serves the next game
    async with connect(f"ws://127.0.0.1:{starter.port}/bws/v1-alpha/game") as ws:
        await ws.send(json.dumps({"type": "setup", "board": _board([(0, 0)], [])}))
        assert len(_pieces(await _ask(ws, {"type": "move_request", "side": "o", "previous": []}))) == 2


async def test_node_starter_beats_random_at_hex_over_uais() -> None:
    need_toolchain("node")
    run = STARTERS / "node" / "run"
    wins = 0
    for i in range(4):
        specs = [f"uais:{run}", "builtin:random"] if i % 2 == 0 else ["builtin:random", f"uais:{run}"]
        result = await _play(specs, "hex")
        assert result.outcome.termination == Termination.NORMAL, result.outcome.reason
        wins += result.outcome.winner == specs.index(f"uais:{run}")
    assert wins >= 3, f"the Hex starter won {wins} of 4 against random"


def test_every_starter_has_a_readme_and_an_executable_entry_point() -> None:
    for language in BWS_LANGUAGES:
        folder = STARTERS / language
        assert (folder / "README.md").is_file()
        assert (folder / "serve").stat().st_mode & 0o111, f"{language}/serve is not executable"
    assert (STARTERS / "node" / "run").stat().st_mode & 0o111
    assert (STARTERS / "node" / "run-hive").stat().st_mode & 0o111
    assert (STARTERS / "install-toolchains").stat().st_mode & 0o111
    assert (Path(__file__).resolve().parents[2] / "starters").resolve() == STARTERS  # the repository's link


async def test_node_starter_beats_random_at_hive_over_uhp() -> None:
    need_toolchain("node")
    engine = f"uhp:{STARTERS / 'node' / 'run-hive'}"
    game = get_game("hive")
    wins = 0
    ended = (Termination.NORMAL, Termination.TURN_LIMIT)
    # Both players choose at random among what they rate alike, and now and then a game never ends (the queen's last
    # free neighbour out of the starter's reach, random never filling it): the move cap makes it a draw. So the claim
    # is wins in most of five games, which two such draws still leave.
    for i in range(5):
        specs = [engine, "builtin:random"] if i % 2 == 0 else ["builtin:random", engine]
        result = await play_one(game, specs, game.validate_params({"expansions": ""}), clock_from("turn", 120))
        assert result.outcome.termination in ended, result.outcome.reason
        wins += result.outcome.winner == specs.index(engine)
    assert wins >= 3, f"the Hive starter won {wins} of 5 against random"


class UhpConversation:
    """The Hive starter on stdin/stdout: ``ask`` sends a command and returns the lines before ``ok``."""

    def __init__(self, proc: subprocess.Popen[str]) -> None:
        assert proc.stdin is not None and proc.stdout is not None
        self.stdin, self.stdout = proc.stdin, proc.stdout

    def read(self) -> list[str]:
        lines = []
        while (line := self.stdout.readline()) != "ok\n":
            assert line, f"the engine stopped after {lines}"
            lines.append(line.rstrip("\n"))
        return lines

    def ask(self, command: str) -> list[str]:
        self.stdin.write(command + "\n")
        self.stdin.flush()
        return self.read()


@pytest.fixture
def hive_engine() -> Iterator[UhpConversation]:
    need_toolchain("node")
    with subprocess.Popen(
        [str(STARTERS / "node" / "run-hive")], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
    ) as proc:
        try:
            engine = UhpConversation(proc)
            assert engine.read()[0].startswith("id ")  # the banner
            yield engine
        finally:
            proc.kill()


def test_hive_starter_knows_exactly_the_legal_moves_of_random_games(hive_engine: UhpConversation) -> None:
    game = get_game("hive")
    checked = 0
    for seed in range(3):
        rng = random.Random(seed)
        state = game.new(expansions="")
        for _ in range(90):
            if game.outcome(state) is not None:
                break
            legal = game.legal(state)
            text = game.game_string(state)
            assert hive_engine.ask(f"newgame {text}") == [text]
            (answer,) = hive_engine.ask("validmoves")
            theirs = {m if m == "pass" else game.normalize(state, game.parse(m)).text for m in answer.split(";")}
            assert theirs == {m.text for m in legal}, text
            checked += 1
            state = game.play(state, rng.choice(legal))
    assert checked > 200


def test_hive_starter_refuses_illegal_moves_and_expansions(hive_engine: UhpConversation) -> None:
    assert hive_engine.ask("newgame Base") == ["Base;NotStarted;White[1]"]
    assert hive_engine.ask("play wQ")[0].startswith("invalidmove")  # no queen on the first turn
    assert hive_engine.ask("play wG1") == ["Base;InProgress;Black[1];wG1"]
    assert hive_engine.ask("play bA1 wG1-") == ["Base;InProgress;White[2];wG1;bA1 wG1-"]
    assert hive_engine.ask("play wS1 bA1-")[0].startswith("invalidmove")  # touches the other colour
    assert hive_engine.ask("undo") == ["Base;InProgress;Black[1];wG1"]
    (best,) = hive_engine.ask("bestmove time 00:00:01")
    assert best.startswith("b") and "wG1" in best
    assert hive_engine.ask("newgame Base+MLP")[0].startswith("err")
