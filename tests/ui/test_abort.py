"""Aborting a game before it really began (issue 33): either person may abort while neither seat has moved yet, as
on lichess; the game ends ``aborted`` (no winner, not a result), so a friend who never joined an open seat is not
recorded as winning a game they never played. Once both sides have moved, abort is refused: resign is the way out.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from test_play_api import new_match, recv, ws
from websockets.asyncio.client import connect

from fakes.servers import serve_app


@pytest.fixture
async def server(migrated_database_url: str, app_factory: Any) -> AsyncIterator[str]:
    async with serve_app(app_factory(migrated_database_url)) as url:
        yield url


async def stored(client: httpx.AsyncClient, url: str, game_id: str) -> dict[str, Any]:
    """The game's record once it has ended (polled: the store writes it after the end is sent)."""
    for _ in range(600):
        rec: dict[str, Any] = (await client.get(f"{url}/games/{game_id}")).json()
        if rec.get("status") not in (None, "running"):
            return rec
        await asyncio.sleep(0.05)
    raise AssertionError(f"game {game_id} never ended: {rec}")


async def test_the_creator_aborts_while_nobody_joined_the_open_seat(server: str) -> None:
    async with httpx.AsyncClient(timeout=30) as client:
        m = await new_match(server, "tictactoe", ["browser:ann", "open:bob"])
        async with connect(ws(server, f"/api/play?token={m['tokens']['X']}")) as creator:
            hello = await recv(creator, "hello")
            assert hello["abortable"] is True
            await creator.send(json.dumps({"type": "abort"}))
            end = await recv(creator, "end")
        assert end["termination"] == "aborted" and end["winner"] is None
        rec = await stored(client, server, m["game_id"])
        assert rec["termination"] == "aborted" and rec["winner"] is None and rec["moves"] == []


async def test_either_side_may_abort_until_both_have_moved_then_only_resign(server: str) -> None:
    async with httpx.AsyncClient(timeout=30) as client:
        m = await new_match(server, "tictactoe", ["browser:ann", "browser:bob"])
        tokens = m["tokens"]
        async with (
            connect(ws(server, f"/api/play?token={tokens['X']}")) as ann,
            connect(ws(server, f"/api/play?token={tokens['O']}")) as bob,
        ):
            await recv(bob, "hello")
            assert (await recv(ann, "your_turn"))["abortable"] is True
            await ann.send(json.dumps({"type": "move", "move": "b2"}))
            await recv(ann, "accepted")
            assert (await recv(bob, "your_turn"))["abortable"] is True  # bob has not moved: he may still abort
            await bob.send(json.dumps({"type": "move", "move": "a1"}))
            assert (await recv(ann, "your_turn"))["abortable"] is False
            await ann.send(json.dumps({"type": "abort"}))
            refused = await recv(ann, "error")
            assert "resign" in refused["reason"]
            await ann.send(json.dumps({"type": "move", "move": "c3"}))
            await recv(ann, "accepted")  # the refusal cost nothing: the game goes on

        m2 = await new_match(server, "tictactoe", ["browser:ann", "browser:bob"])
        async with (
            connect(ws(server, f"/api/play?token={m2['tokens']['X']}")) as ann,
            connect(ws(server, f"/api/play?token={m2['tokens']['O']}")) as bob,
        ):
            await recv(ann, "your_turn")
            await ann.send(json.dumps({"type": "move", "move": "b2"}))
            await recv(bob, "your_turn")
            await bob.send(json.dumps({"type": "abort"}))  # the side that has not moved yet aborts
            assert (await recv(ann, "end"))["termination"] == "aborted"
        rec = await stored(client, server, m2["game_id"])
        assert rec["termination"] == "aborted" and rec["winner"] is None
