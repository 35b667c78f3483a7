"""The bws v1-alpha adapter against scripted fake bot servers on real loopback sockets.

Every bad input ends the match with a recorded reason: the culprit gets ``nope{reason}``, the opponent and the
spectator get ``end``, the game is stored with that reason, and no task or socket is left (``check_ended``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
from websockets.asyncio.server import serve
from websockets.datastructures import Headers
from websockets.http11 import Response

from fakes.harness import check_ended, play
from fakes.procs import free_port
from fakes.servers import AUTO, CLOSE, SILENCE, Act, FakeBot, Session, fake_bot, fake_bots, move_response, send, sleep
from hexarena.core.contract import ClockConfig, MatchInfo, PlayerResult
from hexarena.core.types import Outcome, Termination
from hexarena.games.htttx import HTTTX
from hexarena.players.bws import FRAME_LIMIT, BwsPlayer
from hexarena.store import Store
from hexarena.wire.htttx import MAX_BOT_PACKET_BYTES


@pytest.fixture
async def store(migrated_database_url: str) -> AsyncIterator[Store]:
    s = await Store.open(migrated_database_url)
    try:
        yield s
    finally:
        await s.close()


async def wait_closed(bot: FakeBot) -> None:
    for s in bot.sessions:
        await asyncio.wait_for(s.closed.wait(), 5)


# ----- a clean game -----


async def test_two_fake_bots_play_to_a_turn_limit_draw_with_spec_packets(store: Store) -> None:
    ev = {"heuristic": -0.25, "win_in": -3}
    cons = [{"pieces": [{"q": 1, "r": 1}, {"q": 2, "r": 2}], "evaluation": {"heuristic": 0.1}}]
    xbot = FakeBot()
    obot = FakeBot([Act("auto", evaluation=ev, considerations=cons)])
    async with fake_bots(xbot, obot) as (xu, ou):
        played = await play(store, [BwsPlayer(xu), BwsPlayer(ou)], params={"turn_limit": 4})
        await wait_closed(xbot)
        await wait_closed(obot)
    await check_ended(played, Termination.TURN_LIMIT, winner=None, reason="turn limit")
    xs, os_ = xbot.session, obot.session
    assert (xs.path, os_.path) == ("/bot0/bws/v1-alpha/game", "/bot1/bws/v1-alpha/game")  # spec default root
    # setup first, exactly X at the origin; no config (not declared); side consistent
    for s in (xs, os_):
        assert s.received[0] == {"type": "setup", "board": {"cells": [{"q": 0, "r": 0, "p": "x"}]}}
        assert not s.of_type("config")
        assert "move_time_limit" not in s.of_type("move_request")[0]  # not declared
        assert s.last is not None and s.last["type"] == "end" and s.last["reason"] == "draw"
        assert s.last["winner"] is None and len(s.last["board"]["cells"]) == 1 + 2 * 4
        assert not s.of_type("nope")
    oreq, xreq = os_.of_type("move_request"), xs.of_type("move_request")
    assert {r["side"] for r in oreq} == {"o"} and {r["side"] for r in xreq} == {"x"}
    assert len(oreq) == 2 and len(xreq) == 2
    # previous: empty on O's first move; then [own previous move, opponent's move]; board is the full board
    moves = played.result.moves
    assert oreq[0]["previous"] == []
    assert [m["side"] for m in xreq[0]["previous"]] == ["o"]
    assert [m["side"] for m in oreq[1]["previous"]] == ["o", "x"]
    assert [m["side"] for m in xreq[1]["previous"]] == ["x", "o"]
    first = oreq[1]["previous"][0]["pieces"]
    assert f"[{first[0]['q']},{first[0]['r']}][{first[1]['q']},{first[1]['r']}]" == moves[0].move
    assert len(xreq[1]["board"]["cells"]) == 1 + 2 * 3
    # evaluation and considerations are kept, stored and shown to spectators
    assert moves[0].evaluation == ev
    assert moves[0].considerations == [{"pieces": [[1, 1], [2, 2]], "evaluation": {"heuristic": 0.1}}]
    assert played.record.moves[0].evaluation == ev
    updates = [m for m in played.spectator if m["type"] == "board_update"]
    assert len(updates) == 4 and updates[0]["evaluation"] == ev and updates[0]["side"] == "o"
    assert updates[-1]["status"] == "draw" and updates[0]["status"] == "in_progress"
    assert [p.kind for p in played.record.players] == ["bws", "bws"]


async def test_declared_features_config_and_time_limit(store: Store) -> None:
    caps = {
        "meta": {"name": "Configurable"},
        "basic_websocket": {"versions": {"v1-alpha": {"config": {}, "move_time_limit": True}}},
    }
    xbot, obot = FakeBot(), FakeBot(capabilities=caps)
    async with fake_bots(xbot, obot) as (xu, ou):
        players = [BwsPlayer(xu, depth=3, extras={"x-style": "sharp", "private": 1}), BwsPlayer(ou, depth=5)]
        played = await play(store, players, params={"turn_limit": 2}, clock=ClockConfig("turn", 30))
    assert obot.session.received[0] == {"type": "config", "depth": 5}  # before setup
    assert obot.session.received[1]["type"] == "setup"
    assert [r["move_time_limit"] for r in obot.session.of_type("move_request")] == [30.0]
    # x did not declare config: no config packet even though a depth was given; nor move_time_limit
    assert not xbot.session.of_type("config")
    assert "move_time_limit" not in xbot.session.of_type("move_request")[0]
    assert played.result.players[1]["bot_name"] == "Configurable"
    assert played.live.players[1].name == "Configurable"


async def test_heartbeats_say_waiting_only_while_a_request_is_open(store: Store) -> None:
    xbot = FakeBot()
    obot = FakeBot([[sleep(0.4), AUTO]])
    async with fake_bots(xbot, obot) as (xu, ou):
        await play(store, [BwsPlayer(xu), BwsPlayer(ou)], params={"turn_limit": 1}, heartbeat_ms=40)
    o_beats = [p["waiting"] for p in obot.session.received if p["type"] == "heartbeat"]
    x_beats = [p["waiting"] for p in xbot.session.received if p["type"] == "heartbeat"]
    assert True in o_beats  # o was asked while it slept
    assert x_beats and not any(x_beats)  # x was never asked (turn limit 1: only o moves)


async def test_custom_api_root_and_capabilities_url(store: Store) -> None:
    xbot = FakeBot(api_root="engine/bws-v1/")
    async with fake_bots(xbot, FakeBot()) as (xu, ou):
        played = await play(
            store, [BwsPlayer(xu + "capabilities.json"), BwsPlayer(ou.rstrip("/"))], params={"turn_limit": 2}
        )
    assert played.outcome.termination == Termination.TURN_LIMIT
    assert xbot.session.path == "/bot0/engine/bws-v1/game"  # relative to the folder of capabilities.json


async def test_evaluate_is_not_sent_unless_declared() -> None:
    state = HTTTX.new()
    bot = FakeBot()
    async with fake_bot(bot) as url:
        p = BwsPlayer(url)
        await p.start(MatchInfo("m", HTTTX, {}, 1, state, heartbeat_ms=0))
        assert await p.evaluate(1.0) is None
        await p.finish(PlayerResult(Outcome(None), 1, state))
        await wait_closed(bot)
    assert [m["type"] for m in bot.session.received] == ["setup", "end"]


async def test_eval_request_round_trip() -> None:
    """A bot declaring evaluation gets eval_request (with the limit only if declared) and its answer is read."""
    caps = {"basic_websocket": {"versions": {"v1-alpha": {"evaluation": True, "evaluation_time_limit": True}}}}
    bot = EvalBot(capabilities=caps)
    state = HTTTX.new()
    async with fake_bot(bot) as url:
        p = BwsPlayer(url)
        await p.start(MatchInfo("m", HTTTX, {}, 1, state, heartbeat_ms=0))
        out = await asyncio.wait_for(p.evaluate(2.5), 5)
        await p.finish(PlayerResult(Outcome(None), 1, state))
        await wait_closed(bot)
    assert out == {"heuristic": 0.5, "win_in": 3}
    assert bot.session.of_type("eval_request") == [{"type": "eval_request", "side": "o", "evaluation_time_limit": 2.5}]


class EvalBot(FakeBot):
    """Answers eval_request with a fixed evaluation (the base fake only scripts move requests)."""

    async def _socket(self, ws: Any) -> None:
        await ws.accept()
        session = Session(path=ws.url.path)
        self.sessions.append(session)
        try:
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    return
                packet = json.loads(message["text"])
                session.received.append(packet)
                if packet["type"] == "eval_request":
                    await ws.send_text(
                        json.dumps({"type": "eval_response", "evaluation": {"heuristic": 0.5, "win_in": 3}})
                    )
        finally:
            session.closed.set()


# ----- misbehaviour: each one ends the game with a reason, the culprit gets nope -----

BIG = "x" * (MAX_BOT_PACKET_BYTES + 10)
BAD_FIRST_MOVES: list[Any] = [
    pytest.param(send("hello"), Termination.PROTOCOL, "not valid JSON", id="garbage-text"),
    pytest.param(send(b"\x00\xff\xfe"), Termination.PROTOCOL, "not valid JSON", id="binary-garbage"),
    pytest.param(
        send('{"type": "move_response", "move": {"pieces": [{"q": 1'),
        Termination.PROTOCOL,
        "not valid JSON: Input data was truncated",
        id="truncated-json",
    ),
    pytest.param(
        move_response([{"r": 0}, {"q": 1, "r": 0}]), Termination.PROTOCOL, "missing required field `q`", id="missing-q"
    ),
    pytest.param(
        move_response([{"q": "a", "r": 0}, [1, 0]]), Termination.PROTOCOL, "Expected `int`, got `str`", id="q-is-a"
    ),
    pytest.param(
        move_response([{"q": 1.5, "r": 0}, [1, 0]]), Termination.PROTOCOL, "Expected `int`, got `float`", id="float-q"
    ),
    pytest.param(
        move_response([{"q": 1.0, "r": 0}, [2, 0]]),
        Termination.PROTOCOL,
        "Expected `int`, got `float`",
        id="integral-float-q",
    ),
    pytest.param(
        move_response([{"q": True, "r": 0}, [2, 0]]), Termination.PROTOCOL, "Expected `int`, got `bool`", id="bool-q"
    ),
    pytest.param(move_response([[1, 0]]), Termination.PROTOCOL, "exactly 2 pieces, got 1", id="one-piece"),
    pytest.param(
        move_response([[1, 0], [2, 0], [3, 0]]), Termination.PROTOCOL, "exactly 2 pieces, got 3", id="three-pieces"
    ),
    pytest.param(move_response([]), Termination.PROTOCOL, "exactly 2 pieces, got 0", id="no-pieces"),
    pytest.param(move_response([[1, 0], [1, 0]]), Termination.ILLEGAL_MOVE, "same cell (1, 0)", id="duplicate"),
    pytest.param(move_response([[1, 0], [0, 0]]), Termination.ILLEGAL_MOVE, "cell (0, 0) is occupied", id="occupied"),
    pytest.param(
        move_response([[1, 0], [50, 50]]), Termination.ILLEGAL_MOVE, "cell (50, 50) is more than 8", id="out-of-range"
    ),
    pytest.param(move_response([[10**30, 0], [1, 0]]), Termination.ILLEGAL_MOVE, "is more than 8", id="huge-int"),
    pytest.param(
        send({"type": "eval_response", "evaluation": {"heuristic": 1}}),
        Termination.PROTOCOL,
        "expected move_response, got eval_response",
        id="eval-response",
    ),
    pytest.param(send({"type": "banana"}), Termination.PROTOCOL, "'banana'", id="unknown-type"),
    pytest.param(send({"move": {"pieces": []}}), Termination.PROTOCOL, "missing required field `type`", id="no-type"),
    pytest.param(send("[1, 2]"), Termination.PROTOCOL, "invalid packet", id="json-array"),
    pytest.param(
        send('{"type":"move_response","move":{"pieces":[{"q":1,"r":0},{"q":2,"r":0}]},"x":"' + BIG + '"}'),
        Termination.PROTOCOL,
        f"too large: {MAX_BOT_PACKET_BYTES + 89} bytes (limit {MAX_BOT_PACKET_BYTES})",
        id="over-64KiB",
    ),
    pytest.param(
        move_response([[1, 0], [2, 0]], evaluation={"heuristic": "great"}),
        Termination.PROTOCOL,
        "`$.move.evaluation.heuristic`",
        id="bad-evaluation",
    ),
]


@pytest.mark.parametrize(("act", "termination", "reason"), BAD_FIRST_MOVES)
async def test_bad_move_response_loses_with_nope(store: Store, act: Act, termination: Termination, reason: str) -> None:
    xbot, obot = FakeBot(), FakeBot([act])  # o moves first
    async with fake_bots(xbot, obot) as (xu, ou):
        played = await play(store, [BwsPlayer(xu), BwsPlayer(ou)])
        await wait_closed(xbot)
        await wait_closed(obot)
    await check_ended(played, termination, winner=0, reason=reason)
    assert played.result.culprit == 1
    nope = obot.session.last
    assert nope is not None and nope["type"] == "nope" and reason in nope["reason"], nope
    assert not obot.session.of_type("end")
    end = xbot.session.last
    assert end is not None and end["type"] == "end" and end["winner"] == "x" and end["reason"] == "forfeit"
    assert reason in end["detail"]


async def test_bad_move_later_in_the_game_keeps_the_moves_before(store: Store) -> None:
    xbot, obot = FakeBot(), FakeBot([AUTO, AUTO, move_response([{"q": "a", "r": 0}, [1, 0]])])
    async with fake_bots(xbot, obot) as (xu, ou):
        played = await play(store, [BwsPlayer(xu), BwsPlayer(ou)])
    await check_ended(played, Termination.PROTOCOL, winner=0, reason="Expected `int`, got `str`")
    assert len(played.record.moves) == 4
    assert obot.session.last is not None and obot.session.last["type"] == "nope"


async def test_frame_over_the_socket_limit(store: Store) -> None:
    """Above 1 MiB the socket layer refuses to buffer the frame (close 1009): no nope can follow, but the game
    still ends at once with the reason, and the opponent and spectators get ``end``."""
    huge = '{"type":"move_response","x":"' + "y" * (FRAME_LIMIT + 100) + '"}'
    xbot, obot = FakeBot(), FakeBot([send(huge)])
    async with fake_bots(xbot, obot) as (xu, ou):
        played = await play(store, [BwsPlayer(xu), BwsPlayer(ou)])
        await wait_closed(obot)
    await check_ended(played, Termination.PROTOCOL, winner=0, reason=f"larger than {FRAME_LIMIT} bytes")
    assert obot.session.close_code == 1009
    assert xbot.session.last is not None and xbot.session.last["type"] == "end"


async def test_unrequested_move_response_while_the_opponent_thinks(store: Store) -> None:
    # x sends a move right after setup, while o (who never answers) is thinking: x loses at once
    xbot = FakeBot(after_setup=[sleep(0.05), move_response([[1, 0], [2, 0]])])
    obot = FakeBot([SILENCE])
    async with fake_bots(xbot, obot) as (xu, ou):
        played = await play(store, [BwsPlayer(xu), BwsPlayer(ou)])
        await wait_closed(obot)
    await check_ended(played, Termination.PROTOCOL, winner=1, reason="move_response sent without a pending request")
    assert xbot.session.last is not None and xbot.session.last["type"] == "nope"
    assert obot.session.last is not None and obot.session.last["type"] == "end" and obot.session.last["winner"] == "o"


async def test_silence_past_the_clock_is_a_time_forfeit(store: Store) -> None:
    xbot, obot = FakeBot(), FakeBot([SILENCE])
    async with fake_bots(xbot, obot) as (xu, ou):
        played = await play(store, [BwsPlayer(xu), BwsPlayer(ou)], clock=ClockConfig("turn", 0.2))
        await wait_closed(obot)
    await check_ended(played, Termination.TIME, winner=0, reason="did not move within 0.200 s")
    last = obot.session.last
    assert last is not None and last["type"] == "end" and last["reason"] == "forfeit" and last["winner"] == "x"


async def test_closing_mid_move(store: Store) -> None:
    xbot, obot = FakeBot(), FakeBot([AUTO, CLOSE])
    async with fake_bots(xbot, obot) as (xu, ou):
        played = await play(store, [BwsPlayer(xu), BwsPlayer(ou)])
    await check_ended(played, Termination.DISCONNECT, winner=0, reason="closed the connection")
    assert len(played.record.moves) == 2
    assert xbot.session.last is not None and xbot.session.last["type"] == "end"


async def test_closing_while_the_opponent_thinks_is_noticed_at_once(store: Store) -> None:
    # o never answers and there is no clock: only noticing x's closed socket can end this game
    xbot = FakeBot(after_setup=[sleep(0.05), CLOSE])
    obot = FakeBot([SILENCE])
    async with fake_bots(xbot, obot) as (xu, ou):
        played = await play(store, [BwsPlayer(xu), BwsPlayer(ou)], heartbeat_ms=0)
    await check_ended(played, Termination.DISCONNECT, winner=1, reason="x (")
    assert "closed the connection" in played.outcome.reason
    assert obot.session.last is not None and obot.session.last["type"] == "end"


async def test_refused_connection(store: Store) -> None:
    obot = FakeBot()
    async with fake_bot(obot) as ou:
        played = await play(store, [BwsPlayer(f"http://127.0.0.1:{free_port()}"), BwsPlayer(ou)])
        await wait_closed(obot)
    # a bot that can't be reached never started the game: nobody wins it (it used to be o's win)
    await check_ended(played, Termination.ABORTED, winner=None, reason="could not fetch")
    assert played.result.culprit == 0 and played.record is not None and played.record.status == "aborted"
    # o had connected and set up: it is told the game ended
    assert obot.session.last is not None and obot.session.last["type"] == "end"


async def test_socket_path_refused(store: Store) -> None:
    # capabilities point at a socket path the server does not have: the handshake fails
    caps = {"basic_websocket": {"versions": {"v1-alpha": {"api_root": "nowhere"}}}}
    async with fake_bots(FakeBot(capabilities=caps), FakeBot()) as (xu, ou):
        played = await play(store, [BwsPlayer(xu), BwsPlayer(ou)])
    await check_ended(played, Termination.ABORTED, winner=None, reason="could not open ws://")


@pytest.mark.parametrize(
    ("caps", "status", "termination", "reason"),
    [
        (b"{not json", 200, Termination.ABORTED, "capabilities.json is not valid JSON"),
        (b'{"basic_websocket": {"versions": {"v1-alpha": {"api_root": 7}}}}', 200, Termination.ABORTED, "api_root"),
        (b"{}", 500, Termination.ABORTED, "answered HTTP 500"),
        (b"{}", 200, Termination.ABORTED, "does not declare basic_websocket v1-alpha"),
    ],
    ids=["non-json", "wrong-type", "http-500", "not-declared"],
)
async def test_bad_capabilities(store: Store, caps: bytes, status: int, termination: Termination, reason: str) -> None:
    async with fake_bots(FakeBot(capabilities=caps, caps_status=status), FakeBot()) as (xu, ou):
        played = await play(store, [BwsPlayer(xu), BwsPlayer(ou)])
    await check_ended(played, termination, winner=None, reason=reason)


async def test_free_setup_is_required_for_an_opening_position(store: Store) -> None:
    from hexarena.server.live import MatchManager
    from hexarena.store.recorder import Recorder

    manager = MatchManager(None if store is None else Recorder(store))
    opening = HTTTX.from_cells([(0, 0, 0), (1, 0, 1), (2, 0, 1)], to_move=0)
    async with fake_bots(FakeBot(), FakeBot()) as (xu, ou):
        live = await manager.create(HTTTX, [BwsPlayer(xu), BwsPlayer(ou)], initial_state=opening)
        await asyncio.wait_for(live.done.wait(), 10)
    assert live.result is not None
    assert live.result.outcome.termination == Termination.ABORTED
    assert "free_setup" in live.result.outcome.reason


async def test_a_huge_capabilities_document_is_refused_by_size(store: Store) -> None:
    """A hostile bot's 5 MB capabilities.json is cut at the bot-packet limit, not read whole into memory."""
    huge = b'{"pad": "' + b"x" * (5 * 1024 * 1024) + b'"}'
    async with fake_bots(FakeBot(capabilities=huge), FakeBot()) as (xu, ou):
        played = await play(store, [BwsPlayer(xu), BwsPlayer(ou)])
    await check_ended(played, Termination.ABORTED, winner=None, reason="capabilities.json larger than 65536 bytes")


async def test_non_default_rules_are_told_or_the_match_is_aborted(store: Store) -> None:
    """A bot can only place stones by the match's rules if it is told them: with ``config`` declared it gets
    ``x-view_distance``/``x-win_distance`` (the SDK reads them); without, the match can't be played fairly and is
    aborted instead of being recorded as the bot's illegal-move loss."""
    caps = {"meta": {"name": "Configurable"}, "basic_websocket": {"versions": {"v1-alpha": {"config": {}}}}}
    xbot, obot = FakeBot(), FakeBot(capabilities=caps)
    async with fake_bots(xbot, obot) as (xu, ou):
        played = await play(store, [BwsPlayer(xu), BwsPlayer(ou)], params={"view_distance": 3, "turn_limit": 2})
    await check_ended(played, Termination.ABORTED, winner=None, reason="view_distance 3")
    assert "declares no config" in played.outcome.reason
    assert obot.session.received[0] == {"type": "config", "x-view_distance": 3}
    # both declare config: the match is played, each told before its setup
    async with fake_bots(FakeBot(capabilities=caps), FakeBot(capabilities=caps)) as (xu, ou):
        played = await play(store, [BwsPlayer(xu), BwsPlayer(ou)], params={"win_distance": 5, "turn_limit": 1})
    assert played.outcome.termination == Termination.TURN_LIMIT, played.outcome


async def test_moves_go_out_and_replies_come_back_without_websockets_queues(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The hot path, both ways. A request goes straight to the socket while the connection is open, not through
    # websockets' send and its async context manager (only each connection's handshake and close use it). A reply
    # in one frame resolves the referee's wait from the connection's data_received, not through websockets'
    # message queue and the adapter's reader task; the reader still waits in recv() once per connection, for
    # fragmented messages and the connection's end.
    from websockets.asyncio.connection import Connection

    calls = {"recv": 0, "send_context": 0}
    recv, send_context = Connection.recv, Connection.send_context

    async def counting_recv(self: Connection, *args: Any, **kw: Any) -> Any:
        calls["recv"] += 1
        return await recv(self, *args, **kw)

    def counting_send_context(self: Connection, *args: Any, **kw: Any) -> Any:
        calls["send_context"] += 1
        return send_context(self, *args, **kw)

    monkeypatch.setattr(Connection, "recv", counting_recv)
    monkeypatch.setattr(Connection, "send_context", counting_send_context)
    xbot, obot = FakeBot(), FakeBot()
    async with fake_bots(xbot, obot) as (xu, ou):
        played = await play(store, [BwsPlayer(xu), BwsPlayer(ou)], params={"turn_limit": 10})
    await check_ended(played, Termination.TURN_LIMIT, winner=None, reason="turn limit")
    assert len(played.result.moves) == 10
    assert calls == {"recv": 2, "send_context": 4}, calls  # per connection: one wait; the handshake and the close


# ----- replies in several frames -----


@contextlib.asynccontextmanager
async def fragmenting_bot(frames: int) -> AsyncIterator[str]:
    """A bws bot on websockets' own server whose every move_response comes as a message in ``frames`` frames
    (a text frame and its continuations; Starlette's fake bots can only send whole messages). It serves its
    capabilities.json over plain HTTP on the same port and plays legal pairs: (k, 2) and (k, 3)."""
    caps = json.dumps({"meta": {"name": "fragmenter"}, "basic_websocket": {"versions": {"v1-alpha": {}}}}).encode()
    turn = 0

    def http(connection: Any, request: Any) -> Any:
        if request.path.endswith("/capabilities.json"):
            headers = Headers([("Content-Type", "application/json"), ("Content-Length", str(len(caps)))])
            return Response(200, "OK", headers, caps)
        return None

    async def handler(ws: Any) -> None:
        nonlocal turn
        async for message in ws:
            if json.loads(message)["type"] != "move_request":
                continue
            turn += 1
            pieces = [{"q": turn, "r": 2}, {"q": turn, "r": 3}]
            text = json.dumps({"type": "move_response", "move": {"pieces": pieces}})
            step = -(-len(text) // frames)
            await ws.send([text[i : i + step] for i in range(0, len(text), step)])

    async with serve(handler, "127.0.0.1", 0, process_request=http) as server:
        port = server.sockets[0].getsockname()[1]
        yield f"http://127.0.0.1:{port}/capabilities.json"


async def test_a_reply_in_several_frames_is_read_whole(store: Store) -> None:
    # Whole replies are handed over as the frame is parsed; a fragmented one still goes through websockets'
    # assembler and the adapter's reader, and counts as the same move.
    xbot = FakeBot()
    async with fragmenting_bot(frames=3) as ou, fake_bots(xbot) as (xu,):
        played = await play(store, [BwsPlayer(xu), BwsPlayer(ou)], params={"turn_limit": 6})
    await check_ended(played, Termination.TURN_LIMIT, winner=None, reason="turn limit")
    assert [m.move for m in played.result.moves if m.seat == 1] == ["[1,2][1,3]", "[2,2][2,3]", "[3,2][3,3]"]


async def test_a_match_continued_mid_game_sends_the_position_once_and_only_the_moves_after_it() -> None:
    """A match another instance took over starts from its position with its history so far
    (``MatchInfo.played``): the bot gets that position as its setup, then ``previous`` holds only the moves since,
    and the request's board each stone once."""
    import random

    from hexarena.core.contract import MoveRequest

    rng = random.Random(7)
    state = HTTTX.new()
    history: list[tuple[int, Any]] = []
    for _ in range(3):  # x's opening stone, then a turn each
        seat = HTTTX.to_move(state)
        assert seat is not None
        move = HTTTX.random_move(state, rng)
        history.append((seat, move))
        state = HTTTX.play(state, move)
    caps = {"basic_websocket": {"versions": {"v1-alpha": {"free_setup": True}}}}
    bot = FakeBot(capabilities=caps)
    async with fake_bot(bot) as url:
        p = BwsPlayer(url)
        seat = HTTTX.to_move(state)
        assert seat is not None
        await p.start(MatchInfo("m", HTTTX, {}, seat, state, heartbeat_ms=0, played=len(history)))
        await asyncio.wait_for(p.move(MoveRequest(state=state, history=history, time_limit=None)), 10)
        await p.finish(PlayerResult(Outcome(None), seat, state))
        await wait_closed(bot)
    setup = bot.session.of_type("setup")[0]
    request = bot.session.of_type("move_request")[0]
    stones = len(state.cells)
    assert len(setup["board"]["cells"]) == stones
    assert request["previous"] == []  # everything so far is in the setup
    assert len(request["board"]["cells"]) == stones, request["board"]
