"""The stateless v1-alpha adapter (one POST .../turn per move) against scripted fake bot servers."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import struct
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest
from starlette.responses import Response

from fakes.harness import check_ended, play
from fakes.servers import FakeBot, fake_bots
from hexarena.core.contract import ClockConfig
from hexarena.core.types import Termination
from hexarena.players.bws import BwsPlayer
from hexarena.players.stateless import StatelessPlayer
from hexarena.store import Store
from hexarena.wire.htttx import MAX_BOT_PACKET_BYTES


@pytest.fixture
async def store(migrated_database_url: str) -> AsyncIterator[Store]:
    s = await Store.open(migrated_database_url)
    try:
        yield s
    finally:
        await s.close()


def answer(body: bytes | str, status: int = 200, delay: float = 0.0) -> Callable[[dict[str, Any]], Awaitable[Response]]:
    async def turn(request: dict[str, Any]) -> Response:
        if delay:
            await asyncio.sleep(delay)
        return Response(body, status, media_type="application/json")

    return turn


async def test_stateless_bot_plays_against_a_bws_bot(store: Store) -> None:
    caps = {"meta": {"name": "Stateless"}, "stateless": {"versions": {"v1-alpha": {"move_time_limit": True}}}}
    sbot, wbot = FakeBot(capabilities=caps), FakeBot()
    async with fake_bots(sbot, wbot) as (su, wu):
        played = await play(
            store, [BwsPlayer(wu), StatelessPlayer(su)], params={"turn_limit": 3}, clock=ClockConfig("match", 60)
        )
    await check_ended(played, Termination.TURN_LIMIT, winner=None, reason="turn limit")
    assert len(sbot.turns) == 2  # o moves on turns 1 and 3
    first, second = sbot.turns
    assert first["board"] == {"to_move": "o", "cells": [{"q": 0, "r": 0, "p": "x"}]}
    assert len(second["board"]["cells"]) == 5 and second["board"]["to_move"] == "o"
    assert 0 < first["time_limit"] <= 60  # declared: the seconds left on its clock
    assert played.result.moves[0].evaluation == {"heuristic": 0.25}
    assert played.record.players[1].kind == "stateless" and played.live.players[1].name == "Stateless"


async def test_no_time_limit_unless_declared(store: Store) -> None:
    sbot = FakeBot()
    async with fake_bots(sbot, FakeBot()) as (su, wu):
        await play(store, [BwsPlayer(wu), StatelessPlayer(su)], params={"turn_limit": 1}, clock=ClockConfig("turn", 9))
    assert "time_limit" not in sbot.turns[0]


GOOD = json.dumps({"move": {"pieces": [{"q": 1, "r": 0}, {"q": 2, "r": 0}]}})


@pytest.mark.parametrize(
    ("turn", "termination", "reason"),
    [
        (answer('{"error": "boom"}', 500), Termination.PROTOCOL, "answered HTTP 500"),
        (answer("not json at all"), Termination.PROTOCOL, "turn response is not valid JSON"),
        (answer('{"move": {"pieces": [{"q": "a", "r": 0}, {"q": 1, "r": 0}]}}'), Termination.PROTOCOL, "got `str`"),
        (
            answer('{"move": {"pieces": [{"r": 0}, {"q": 1, "r": 0}]}}'),
            Termination.PROTOCOL,
            "missing required field `q`",
        ),
        (answer('{"move": {"pieces": [{"q": 1, "r": 0}]}}'), Termination.PROTOCOL, "exactly 2 pieces, got 1"),
        (
            answer('{"move": {"pieces": [{"q": 0, "r": 0}, {"q": 1, "r": 0}]}}'),
            Termination.ILLEGAL_MOVE,
            "(0, 0) is occupied",
        ),
        (answer('{"nomove": 1}'), Termination.PROTOCOL, "missing required field `move`"),
        (answer("x" * (MAX_BOT_PACKET_BYTES + 1)), Termination.PROTOCOL, f"larger than {MAX_BOT_PACKET_BYTES} bytes"),
    ],
    ids=["http-500", "non-json", "q-is-a", "missing-q", "one-piece", "occupied", "no-move", "oversized"],
)
async def test_bad_turn_answers(store: Store, turn: Any, termination: Termination, reason: str) -> None:
    sbot, wbot = FakeBot(turn=turn), FakeBot()
    async with fake_bots(sbot, wbot) as (su, wu):
        played = await play(store, [BwsPlayer(wu), StatelessPlayer(su)])
        await asyncio.wait_for(wbot.session.closed.wait(), 5)
    await check_ended(played, termination, winner=0, reason=reason)
    assert wbot.session.last is not None and wbot.session.last["type"] == "end"
    assert wbot.session.last["winner"] == "x" and wbot.session.last["reason"] == "forfeit"


async def test_slow_stateless_bot_forfeits_on_time(store: Store) -> None:
    sbot = FakeBot(turn=answer(GOOD, delay=5.0))
    async with fake_bots(sbot, FakeBot()) as (su, wu):
        played = await play(store, [BwsPlayer(wu), StatelessPlayer(su)], clock=ClockConfig("turn", 0.2))
    await check_ended(played, Termination.TIME, winner=0, reason="did not move within 0.200 s")


async def test_stateless_not_declared_aborts(store: Store) -> None:
    caps: dict[str, Any] = {"basic_websocket": {"versions": {"v1-alpha": {}}}}
    async with fake_bots(FakeBot(capabilities=caps), FakeBot()) as (su, wu):
        played = await play(store, [BwsPlayer(wu), StatelessPlayer(su)])
    await check_ended(played, Termination.ABORTED, winner=None, reason="does not declare stateless v1-alpha")


@contextlib.asynccontextmanager
async def dying_stateless_bot() -> AsyncIterator[str]:
    """A stateless bot server that answers capabilities.json, then dies in the middle of every turn request:
    the connection is reset (RST) after the request arrived, as when the bot's process is killed."""

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        head = await reader.readuntil(b"\r\n\r\n")
        if head.startswith(b"GET /capabilities.json"):
            body = json.dumps({"stateless": {"versions": {"v1-alpha": {}}}}).encode()
            writer.write(b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nconnection: close\r\n")
            writer.write(b"content-length: %d\r\n\r\n%s" % (len(body), body))
            await writer.drain()
            writer.close()
            return
        sock = writer.get_extra_info("socket")
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        writer.transport.abort()

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    try:
        yield f"http://127.0.0.1:{server.sockets[0].getsockname()[1]}/"
    finally:
        server.close()
        await server.wait_closed()


async def test_a_bot_that_dies_mid_turn_is_recorded_with_what_happened(store: Store) -> None:
    """The reset used to be recorded as ``POST ... failed: `` with nothing after it (httpx's ReadError has no text)."""
    async with dying_stateless_bot() as su, fake_bots(FakeBot()) as (wu,):
        played = await play(store, [BwsPlayer(wu), StatelessPlayer(su)])
    await check_ended(played, Termination.DISCONNECT, winner=0, reason="POST ")
    reason = played.outcome.reason
    assert not reason.rstrip().endswith("failed:"), reason
    assert "connection" in reason.lower() and "ReadError" in reason, reason


async def test_non_default_rules_abort_a_stateless_match(store: Store) -> None:
    """The stateless protocol has no way to tell a bot the match's rules: such a match is aborted, not played
    until the bot's default-rule move is refused as illegal."""
    async with fake_bots(FakeBot(), FakeBot()) as (xu, ou):
        played = await play(store, [StatelessPlayer(xu), BwsPlayer(ou)], params={"view_distance": 2})
    await check_ended(played, Termination.ABORTED, winner=None, reason="view_distance 2")
    assert "stateless" in played.outcome.reason
