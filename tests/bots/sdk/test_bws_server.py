"""The bot server over real loopback sockets, driven the way a game server drives it."""

from __future__ import annotations

import asyncio
import importlib.util
import sys
import threading
import time
from pathlib import Path
from typing import Any, ClassVar

import httpx
import pytest
from sdk_wire_helpers import cells, move, recv, running, send
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from hexarena.bots.sdk import (
    BaseBot,
    BwsV1AlphaCapability,
    Capabilities,
    Cell,
    CenterBot,
    Coord,
    Match,
    Meta,
    Player,
    PositionEvaluation,
    bot_class_for,
    default_capabilities,
    hex_distance,
    make_app,
    valid_placement_cells,
)
from hexarena.games.htttx.board import Board
from hexarena_sdk.connection import CROSSING_WINDOW

ROOT = Path(__file__).resolve().parents[3]


class RecordingBot(BaseBot):
    """Plays the two legal cells nearest the origin and records what it was shown."""

    seen: ClassVar[list[dict[str, Any]]] = []
    slept: ClassVar[threading.Event] = threading.Event()  # set when an uncooperative sleep ends
    skips: ClassVar[bool] = False

    def __init__(self) -> None:
        self.depth: int | None = None
        self.extras: dict[str, Any] = {}

    @classmethod
    def capabilities(cls) -> Capabilities:
        caps = default_capabilities(
            BwsV1AlphaCapability(
                move_time_limit=True,
                evaluation=True,
                evaluation_time_limit=True,
                config={"dynamic": True},
                interruptible=True,
                resettable_state=True,
                free_setup=True,
                dual_sided=True,
                move_skips=cls.skips,
            )
        )
        caps.meta = Meta(name="recorder", tags=["test"])
        return caps

    def on_config(self, depth: int | None, extras: dict[str, Any]) -> None:
        self.depth = depth
        self.extras = extras

    def choose_move(self, cells: list[Cell], player: Player, match: Match) -> tuple[Coord, Coord]:
        RecordingBot.seen.append(
            {
                "cells": {(c.q, c.r): c.p.value for c in cells},
                "player": player,
                "match": match,
                "depth": self.depth,
                "extras": dict(self.extras),
            }
        )
        if self.depth == 99:  # cooperative slow mode: think until told to stop
            while not self.should_stop():
                time.sleep(0.005)
        if self.depth == 98:  # uncooperative slow mode
            time.sleep(1.0)
            RecordingBot.slept.set()
        legal = valid_placement_cells(cells, match.view_distance)
        legal.sort(key=lambda c: (hex_distance(0, 0, c.q, c.r), c.q, c.r))
        return legal[0], legal[1]

    def evaluate(self, cells: list[Cell], player: Player, match: Match) -> PositionEvaluation:
        return PositionEvaluation(heuristic=0.25, win_in=len(cells))


class SkippingBot(RecordingBot):
    skips = True


class IllegalBot(BaseBot):
    def choose_move(self, cells: list[Cell], player: Player, match: Match) -> tuple[Coord, Coord]:
        return Coord(q=0, r=0), Coord(q=50, r=50)  # occupied and out of range


@pytest.fixture(autouse=True)
def _fresh_log() -> None:
    RecordingBot.seen.clear()
    RecordingBot.slept.clear()


def _legal(stones: dict[tuple[int, int], str], pieces: list[dict[str, int]], side: str) -> bool:
    board = Board()
    for (q, r), owner in stones.items():
        board.setup(q, r, 0 if owner == "x" else 1)
    try:
        for piece in pieces:
            board.place(piece["q"], piece["r"], 0 if side == "x" else 1)
    except ValueError:
        return False
    return len(pieces) == 2


def _pieces(reply: dict[str, Any]) -> list[tuple[int, int]]:
    assert reply["type"] == "move_response", reply
    return [(p["q"], p["r"]) for p in reply["move"]["pieces"]]


async def test_capabilities_served_from_the_bot_class() -> None:
    async with running(make_app(RecordingBot)) as host, httpx.AsyncClient() as client:
        r = await client.get(f"http://{host}/capabilities.json")
    assert r.status_code == 200
    doc = r.json()
    assert doc["meta"] == {"name": "recorder", "tags": ["test"]}
    bws = doc["basic_websocket"]["versions"]["v1-alpha"]
    assert bws["evaluation"] is True and bws["interruptible"] is True and bws["config"] == {"dynamic": True}
    assert doc["stateless"]["versions"]["v1-alpha"] == {"move_time_limit": True}


@pytest.mark.parametrize("dialect", ["spec", "hivemaker"])
async def test_previous_in_both_dialects(dialect: str) -> None:
    async with running(make_app(RecordingBot)) as host, connect(f"ws://{host}/bws/v1-alpha/game") as ws:
        await send(ws, type="setup", board={"cells": cells((0, 0, "x"))})
        await send(ws, type="move_request", side="o", previous=[])
        first = _pieces(await recv(ws))
        assert first == [(-1, 0), (-1, 1)]
        x_move = move("x", (3, 0), (4, 0))
        previous = [move("o", *first), x_move] if dialect == "spec" else [x_move]
        await send(ws, type="move_request", side="o", previous=previous)
        await recv(ws)
    expected = {(0, 0): "x", (-1, 0): "o", (-1, 1): "o", (3, 0): "x", (4, 0): "x"}
    assert RecordingBot.seen[1]["cells"] == expected
    assert RecordingBot.seen[1]["player"] is Player.O


async def test_board_field_is_preferred_over_previous() -> None:
    board = cells((0, 0, "x"), (5, 5, "o"), (6, 5, "o"), (1, 1, "x"), (2, 2, "x"))
    async with running(make_app(RecordingBot)) as host, connect(f"ws://{host}/bws/v1-alpha/game") as ws:
        await send(ws, type="setup", board={"cells": cells((0, 0, "x"))})
        await send(ws, type="move_request", side="o", previous=[move("x", (7, 7), (8, 8))], board={"cells": board})
        assert len(_pieces(await recv(ws))) == 2
    assert RecordingBot.seen[0]["cells"] == {(c["q"], c["r"]): c["p"] for c in board}


async def test_move_skips_takes_the_servers_version_of_our_move() -> None:
    async with running(make_app(SkippingBot)) as host, connect(f"ws://{host}/bws/v1-alpha/game") as ws:
        await send(ws, type="setup", board={"cells": cells((0, 0, "x"))})
        await send(ws, type="move_request", side="o", previous=[])
        await recv(ws)
        # the client played something else on our behalf, then its own move
        await send(ws, type="move_request", side="o", previous=[move("o", (2, -2), (2, -1)), move("x", (0, 3), (0, 4))])
        await recv(ws)
    assert RecordingBot.seen[1]["cells"] == {(0, 0): "x", (2, -2): "o", (2, -1): "o", (0, 3): "x", (0, 4): "x"}


async def test_config_reaches_on_config_and_match() -> None:
    async with running(make_app(RecordingBot)) as host, connect(f"ws://{host}/bws/v1-alpha/game") as ws:
        await send(ws, type="config", depth=3, **{"x-style": "sharp", "x-view_distance": 4, "unknown": 1})
        await send(ws, type="setup", board={"cells": cells((0, 0, "x"))})
        await send(ws, type="move_request", side="o", previous=[], move_time_limit=5.0)
        await recv(ws)
    seen = RecordingBot.seen[0]
    assert seen["depth"] == 3
    assert seen["extras"] == {"x-style": "sharp", "x-view_distance": 4}
    assert seen["match"].view_distance == 4
    assert seen["match"].move_time_limit == 5.0 and seen["match"].deadline is not None


async def test_heartbeats_while_thinking_do_not_disconnect() -> None:
    async with running(make_app(RecordingBot)) as host, connect(f"ws://{host}/bws/v1-alpha/game") as ws:
        await send(ws, type="config", depth=98)  # thinks for a second
        await send(ws, type="setup", board={"cells": cells((0, 0, "x"))})
        await send(ws, type="move_request", side="o", previous=[])
        for _ in range(3):
            await asyncio.sleep(0.1)
            await send(ws, type="heartbeat", waiting=True)
        assert len(_pieces(await recv(ws))) == 2
        # waiting heartbeats that crossed our reply are tolerated
        await send(ws, type="heartbeat", waiting=True)
        await send(ws, type="heartbeat", waiting=True)
        await send(ws, type="heartbeat", waiting=False)
        await send(ws, type="config", depth=1)
        await send(ws, type="move_request", side="o", previous=[move("x", (3, 0), (4, 0))])
        assert len(_pieces(await recv(ws))) == 2


async def test_waiting_heartbeat_when_idle_closes_the_connection() -> None:
    async with running(make_app(RecordingBot)) as host, connect(f"ws://{host}/bws/v1-alpha/game") as ws:
        await send(ws, type="setup", board={"cells": cells((0, 0, "x"))})
        await send(ws, type="heartbeat", waiting=False)
        await send(ws, type="heartbeat", waiting=True)
        with pytest.raises(ConnectionClosed) as info:
            await asyncio.wait_for(ws.recv(), 10)
    assert info.value.rcvd is not None and info.value.rcvd.code == 1008


async def test_waiting_heartbeats_sent_before_the_client_read_the_reply_are_tolerated() -> None:
    """The client says ``waiting: true`` at every heartbeat until it has read the reply: a client slow to read (or
    a reader held up while the bot thought) leaves several behind the reply, which the bot cannot tell from these."""
    async with running(make_app(RecordingBot)) as host, connect(f"ws://{host}/bws/v1-alpha/game") as ws:
        await send(ws, type="setup", board={"cells": cells((0, 0, "x"))})
        await send(ws, type="move_request", side="o", previous=[])
        first = await recv(ws)
        for _ in range(4):
            await send(ws, type="heartbeat", waiting=True)
        await send(ws, type="heartbeat", waiting=False)  # the client has read the reply
        await send(
            ws, type="move_request", side="o", previous=[first["move"] | {"side": "o"}, move("x", (3, 0), (4, 0))]
        )
        assert len(_pieces(await recv(ws))) == 2


async def test_waiting_heartbeat_after_the_client_read_the_reply_closes() -> None:
    """``waiting: false`` says the client read the reply: a ``waiting: true`` after it, with no request since,
    means it lost track of the requests (error state)."""
    async with running(make_app(RecordingBot)) as host, connect(f"ws://{host}/bws/v1-alpha/game") as ws:
        await send(ws, type="setup", board={"cells": cells((0, 0, "x"))})
        await send(ws, type="move_request", side="o", previous=[])
        await recv(ws)
        await send(ws, type="heartbeat", waiting=True)  # may have crossed the reply: tolerated
        await send(ws, type="heartbeat", waiting=False)
        await send(ws, type="heartbeat", waiting=True)  # error state
        with pytest.raises(ConnectionClosed) as info:
            await asyncio.wait_for(ws.recv(), 10)
    assert info.value.rcvd is not None and info.value.rcvd.code == 1008


async def test_waiting_heartbeat_long_after_the_reply_closes() -> None:
    """A client that never reads the reply says ``waiting: true`` for ever: past ``CROSSING_WINDOW`` the bot
    closes."""
    async with running(make_app(RecordingBot)) as host, connect(f"ws://{host}/bws/v1-alpha/game") as ws:
        await send(ws, type="setup", board={"cells": cells((0, 0, "x"))})
        await send(ws, type="move_request", side="o", previous=[])
        await recv(ws)
        await asyncio.sleep(CROSSING_WINDOW + 0.5)  # the bot took its clock before it replied: past it, however late
        await send(ws, type="heartbeat", waiting=True)
        with pytest.raises(ConnectionClosed) as info:
            await asyncio.wait_for(ws.recv(), 10)
    assert info.value.rcvd is not None and info.value.rcvd.code == 1008


async def test_eval_request_with_request_id() -> None:
    async with running(make_app(RecordingBot)) as host, connect(f"ws://{host}/bws/v1-alpha/game") as ws:
        await send(ws, type="setup", board={"cells": cells((0, 0, "x"), (1, 0, "o"))})
        await send(ws, type="eval_request", side="x", evaluation_time_limit=2.0, request_id=41)
        reply = await recv(ws)
        await send(ws, type="eval_request", side="x")
        plain = await recv(ws)
    assert reply == {"type": "eval_response", "evaluation": {"heuristic": 0.25, "win_in": 2}, "request_id": 41}
    assert plain == {"type": "eval_response", "evaluation": {"heuristic": 0.25, "win_in": 2}}


async def test_interrupt_cancels_the_request_and_its_previous() -> None:
    async with running(make_app(RecordingBot)) as host, connect(f"ws://{host}/bws/v1-alpha/game") as ws:
        await send(ws, type="setup", board={"cells": cells((0, 0, "x"))})
        await send(ws, type="config", depth=99)  # thinks until stopped
        await send(ws, type="move_request", side="o", previous=[move("x", (5, 0), (6, 0))], request_id=7)
        await asyncio.sleep(0.2)
        await send(ws, type="heartbeat", waiting=True)  # still open: fine
        await send(ws, type="interrupt", request_id=7)
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(ws.recv(), 0.5)  # no reply for an interrupted request
        await send(ws, type="config", depth=1)
        await send(ws, type="move_request", side="o", previous=[move("x", (1, 1), (2, 2))], request_id=8)
        reply = await recv(ws)
    assert reply["request_id"] == 8 and len(_pieces(reply)) == 2
    assert RecordingBot.seen[-1]["cells"] == {(0, 0): "x", (1, 1): "x", (2, 2): "x"}


async def test_overrunning_bot_gets_a_legal_fallback_before_the_deadline() -> None:
    async with running(make_app(RecordingBot)) as host, connect(f"ws://{host}/bws/v1-alpha/game") as ws:
        await send(ws, type="config", depth=98)  # sleeps 1 s, ignoring should_stop
        start = cells((0, 0, "x"), (1, 0, "o"), (2, 0, "o"), (0, 1, "x"), (0, 2, "x"))
        await send(ws, type="setup", board={"cells": start})
        await send(ws, type="move_request", side="o", previous=[], move_time_limit=0.3)
        reply = await recv(ws)
        # the bot was still sleeping: the reply is the SDK's fallback, not the bot's own answer
        assert not RecordingBot.slept.is_set()
        stones = {(c["q"], c["r"]): c["p"] for c in start}
        assert _legal(stones, reply["move"]["pieces"], "o")
        # the late call still holds the bot; the next request is answered too
        await send(ws, type="config", depth=1)
        await send(ws, type="move_request", side="o", previous=[move("x", (3, 3), (4, 4))], move_time_limit=5.0)
        assert len(_pieces(await recv(ws))) == 2


async def test_illegal_answer_is_replaced_by_a_legal_move() -> None:
    async with running(make_app(IllegalBot)) as host, connect(f"ws://{host}/bws/v1-alpha/game") as ws:
        await send(ws, type="setup", board={"cells": cells((0, 0, "x"))})
        await send(ws, type="move_request", side="o", previous=[])
        reply = await recv(ws)
    assert _legal({(0, 0): "x"}, reply["move"]["pieces"], "o")


@pytest.mark.parametrize(
    "packet",
    [{"type": "end", "winner": "x", "reason": "win", "board": {"cells": []}}, {"type": "nope", "reason": "bad move"}],
)
async def test_end_and_nope_close_cleanly(packet: dict[str, Any]) -> None:
    async with running(make_app(RecordingBot)) as host, connect(f"ws://{host}/bws/v1-alpha/game") as ws:
        await send(ws, **packet)
        with pytest.raises(ConnectionClosed) as info:
            await asyncio.wait_for(ws.recv(), 10)
    assert info.value.rcvd is not None and info.value.rcvd.code == 1000


async def test_garbage_closes_with_policy_violation() -> None:
    async with running(make_app(RecordingBot)) as host, connect(f"ws://{host}/bws/v1-alpha/game") as ws:
        await ws.send("{not json")
        with pytest.raises(ConnectionClosed) as info:
            await asyncio.wait_for(ws.recv(), 10)
    assert info.value.rcvd is not None and info.value.rcvd.code == 1008


@pytest.mark.parametrize("path", ["/bws/v1-alpha/game/game", "/"])
async def test_hivemaker_paths(path: str) -> None:
    async with running(make_app(CenterBot)) as host, connect(f"ws://{host}{path}") as ws:
        await send(ws, type="setup", board={"cells": cells((0, 0, "x"))})
        await send(ws, type="move_request", side="o", previous=[], board={"cells": cells((0, 0, "x"))})
        assert len(_pieces(await recv(ws))) == 2


async def test_a_socket_on_another_path_is_refused_and_one_on_a_bws_path_is_served(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The bws paths go straight to a session, with no Starlette ``WebSocket`` a message (its checks and wrappers
    were ~5 % of an instant bot server's CPU); any other WebSocket path is refused before the handshake, and so
    is the bws path of a bot that declares no bws."""
    from starlette.websockets import WebSocket

    for name in ("send", "receive", "accept"):
        monkeypatch.setattr(WebSocket, name, lambda *a, **k: pytest.fail("a bws message went through Starlette"))

    class StatelessOnly(CenterBot):
        @classmethod
        def capabilities(cls) -> Capabilities:
            caps = super().capabilities()
            caps.basic_websocket = None
            return caps

    async with running(make_app(CenterBot)) as host:
        with pytest.raises(InvalidStatus) as refused:
            async with connect(f"ws://{host}/bws/v1-alpha/elsewhere"):
                pass
        assert refused.value.response.status_code == 403
        async with connect(f"ws://{host}/bws/v1-alpha/game") as ws:
            await send(ws, type="move_request", side="o", previous=[])
            assert len(_pieces(await recv(ws))) == 2
    async with running(make_app(StatelessOnly)) as host:
        with pytest.raises(InvalidStatus):
            async with connect(f"ws://{host}/bws/v1-alpha/game"):
                pass


async def test_custom_api_roots_are_respected() -> None:
    class Rooted(CenterBot):
        @classmethod
        def capabilities(cls) -> Capabilities:
            caps = super().capabilities()
            assert caps.bws is not None and caps.stateless_v1 is not None
            caps.bws.api_root = "engine/bws"
            caps.stateless_v1.api_root = "engine/st"
            return caps

    async with running(make_app(Rooted)) as host, httpx.AsyncClient() as client:
        async with connect(f"ws://{host}/engine/bws/game") as ws:
            await send(ws, type="move_request", side="o", previous=[])
            assert len(_pieces(await recv(ws))) == 2
        r = await client.post(
            f"http://{host}/engine/st/turn", json={"board": {"to_move": "o", "cells": cells((0, 0, "x"))}}
        )
        assert r.status_code == 200


async def test_fifty_concurrent_sessions() -> None:
    async def one(host: str, i: int) -> list[tuple[int, int]]:
        async with connect(f"ws://{host}/bws/v1-alpha/game") as ws:
            await send(ws, type="setup", board={"cells": cells((0, 0, "x"))})
            await send(ws, type="move_request", side="o", previous=[])
            a = _pieces(await recv(ws, 30))
            await send(ws, type="move_request", side="o", previous=[move("x", (i % 5 + 2, 0), (0, i % 5 + 2))])
            b = _pieces(await recv(ws, 30))
            return a + b

    async with running(make_app(bot_class_for("heuristic"))) as host:
        results = await asyncio.gather(*(one(host, i) for i in range(50)))
    assert len(results) == 50
    for i, pieces in enumerate(results):
        x = {(0, 0), (i % 5 + 2, 0), (0, i % 5 + 2)}
        assert len(set(pieces)) == 4 and not set(pieces) & x


def _script(path: str) -> Any:
    """A bot script of the repository (``examples/``, ``bench/``) loaded as a module, as its users run it."""
    name = Path(path).stem
    spec = importlib.util.spec_from_file_location(name, ROOT / path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


async def test_hivemaker_style_example_bot() -> None:
    module = _script("examples/hivemaker_style_bot.py")
    async with running(make_app(module.MyBot)) as host, httpx.AsyncClient() as client:
        caps = (await client.get(f"http://{host}/capabilities.json")).json()
        assert caps["meta"] == {"name": "MyBot", "tags": ["minimax"]}
        assert caps["basic_websocket"]["versions"]["v1-alpha"]["evaluation"] is True
        async with connect(f"ws://{host}/bws/v1-alpha/game") as ws:
            await send(ws, type="config", depth=4)
            await send(ws, type="setup", board={"cells": cells((0, 0, "x"))})
            await send(ws, type="move_request", side="o", previous=[], move_time_limit=5.0)
            reply = await recv(ws)
            assert _legal({(0, 0): "x"}, reply["move"]["pieces"], "o")
            await send(ws, type="eval_request", side="x")
            assert (await recv(ws)) == {"type": "eval_response", "evaluation": {"heuristic": 0.0}}


async def test_hivemaker_serve_pattern_with_websockets_serve() -> None:
    """Hivemaker's bot/serve.py: ``websockets.serve(handler)`` with ``await CenterBot().handle(websocket)``."""
    from websockets.asyncio.server import ServerConnection, serve

    async def handler(websocket: ServerConnection) -> None:
        await CenterBot().handle(websocket)  # new instance per game

    async with serve(handler, "127.0.0.1", 0) as server:
        port = next(iter(server.sockets)).getsockname()[1]
        async with connect(f"ws://127.0.0.1:{port}") as ws:
            await send(ws, type="setup", board={"cells": cells((0, 0, "x"))})
            await send(ws, type="move_request", side="o", previous=[])
            assert _pieces(await recv(ws)) == [(-1, 0), (-1, 1)]
            await send(ws, type="heartbeat", waiting=True)  # crossed the reply: fine
            await send(ws, type="heartbeat", waiting=False)  # the client read the reply
            await send(ws, type="heartbeat", waiting=True)  # error state: the bot closes
            with pytest.raises(ConnectionClosed):
                await asyncio.wait_for(ws.recv(), 10)


async def test_resettable_state_and_dual_sided_requests() -> None:
    async with running(make_app(RecordingBot)) as host, connect(f"ws://{host}/bws/v1-alpha/game") as ws:
        await send(ws, type="setup", board={"cells": cells((0, 0, "x"))})
        await send(ws, type="move_request", side="o", previous=[])
        o_move = _pieces(await recv(ws))
        await send(ws, type="move_request", side="x", previous=[])  # dual-sided: now play X's reply
        x_move = _pieces(await recv(ws))
        free = cells((10, 10, "o"), (11, 10, "o"), (12, 10, "x"))
        await send(ws, type="setup", board={"cells": free})  # reset mid-session to a free setup
        await send(ws, type="move_request", side="x", previous=[])
        await recv(ws)
    assert RecordingBot.seen[1]["player"] is Player.X
    assert RecordingBot.seen[1]["cells"] == {(0, 0): "x", **{c: "o" for c in o_move}}
    assert not set(x_move) & set(o_move)
    assert RecordingBot.seen[2]["cells"] == {(10, 10): "o", (11, 10): "o", (12, 10): "x"}


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ('{"type":"move_request","side":"o","previous":[{"side":"x","pieces":[{"q":"a","r":0}]}]}', "$.previous[0]"),
        ('{"type":"move_request","side":"o","previous":[', "not valid JSON"),
        ('{"type":"move_request","side":"o","previous":[],"board":{"cells":[{"q":"a","r":0,"p":"x"}]}}', "$.board"),
    ],
)
async def test_a_broken_move_request_is_refused_with_its_reason(text: str, reason: str) -> None:
    """Our server's move requests are decoded in one pass (no head first); a broken one that begins the same way
    still closes the session with the reason the usual path gives."""
    async with running(make_app(RecordingBot)) as host, connect(f"ws://{host}/bws/v1-alpha/game") as ws:
        await ws.send(text)
        with pytest.raises(ConnectionClosed) as info:
            await asyncio.wait_for(ws.recv(), 10)
    assert info.value.rcvd is not None and info.value.rcvd.code == 1008 and reason in info.value.rcvd.reason


BEYOND = (1 << 20) + 5  # past the engine's coordinate limit (|q|, |r| < 2**20): no position holds such a cell


@pytest.mark.parametrize(
    "packets",
    [
        [{"type": "move_request", "side": "o", "previous": [], "board": {"cells": cells((BEYOND, 0, "x"))}}],
        [{"type": "setup", "board": {"cells": cells((0, BEYOND, "x"))}}, {"type": "move_request", "side": "o"}],
        [{"type": "move_request", "side": "o", "previous": [move("x", (-BEYOND, 0))]}],
    ],
    ids=["board", "setup", "previous"],
)
async def test_a_board_beyond_the_coordinate_limit_is_refused_with_its_reason(packets: list[dict[str, Any]]) -> None:
    """A client's board with a cell the engine cannot hold is the client's error (1008, naming the cell), not a
    crash of the bot server ending the session as if all went well."""
    async with running(make_app(RecordingBot)) as host, connect(f"ws://{host}/bws/v1-alpha/game") as ws:
        for packet in packets:
            await send(ws, **{"previous": [], **packet} if packet["type"] == "move_request" else packet)
        with pytest.raises(ConnectionClosed) as info:
            await asyncio.wait_for(ws.recv(), 10)
    assert info.value.rcvd is not None and info.value.rcvd.code == 1008, info.value.rcvd
    assert f"{BEYOND}" in info.value.rcvd.reason and "too far from the origin" in info.value.rcvd.reason
    assert RecordingBot.seen == []  # the bot was never asked


async def test_move_requests_read_by_position_see_the_packet_as_a_whole() -> None:
    """The board of a move request laid out as our server writes it is cut out by position; members after it,
    a board nested elsewhere and a board with a second member all read as the whole packet says."""
    async with running(make_app(RecordingBot)) as host, connect(f"ws://{host}/bws/v1-alpha/game") as ws:
        board = '{"cells":[{"q":0,"r":0,"p":"x"},{"q":1,"r":0,"p":"o"},{"q":2,"r":0,"p":"o"}]}'
        await ws.send(
            '{"type":"move_request","side":"x","previous":[],"board":' + board + ',"move_time_limit":5,"request_id":3}'
        )
        reply = await recv(ws)
        assert reply["request_id"] == 3 and RecordingBot.seen[-1]["cells"] == {(0, 0): "x", (1, 0): "o", (2, 0): "o"}
        nested = '{"side":"x","pieces":[{"q":3,"r":0}],"board":{"cells":[{"q":9,"r":9,"p":"x"}]}}'
        await ws.send('{"type":"move_request","side":"o","previous":[' + nested + "]}")
        await recv(ws)
        assert (9, 9) not in RecordingBot.seen[-1]["cells"] and (3, 0) in RecordingBot.seen[-1]["cells"]
        grown = board[:-2] + ',{"q":5,"r":0,"p":"x"}]}'
        await ws.send('{"type":"move_request","side":"o","previous":[],"board":' + grown + ',"board":' + board + "}")
        await recv(ws)
        assert RecordingBot.seen[-1]["cells"] == {(0, 0): "x", (1, 0): "o", (2, 0): "o"}  # the last member wins
