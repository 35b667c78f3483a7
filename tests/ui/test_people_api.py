"""Two people in a rated game over the seat sockets (issue 33), on SQLite and PostgreSQL: both are rated under
their identities' keys and listed under their display names, and a rematch stays rated with the same people in
swapped seats."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from test_play_api import recv, ws
from websockets.asyncio.client import connect

from fakes.servers import serve_app
from hexarena.core.person import person_key

ANN, BOB = "a" * 43, "b" * 43


@pytest.fixture
async def server(migrated_database_url: str, app_factory: Any) -> AsyncIterator[str]:
    async with serve_app(app_factory(migrated_database_url)) as url:
        yield url


async def test_two_people_are_rated_and_their_rematch_stays_rated(server: str) -> None:
    async with httpx.AsyncClient(timeout=30) as client:
        body = {"game": "tictactoe", "players": ["browser:Ann", "open"], "person": ANN, "rated": True}
        m = (await client.post(f"{server}/api/matches", json=body)).json()
        gid = m["game_id"]
        joined = await client.post(
            f"{server}/api/ui/matches/{gid}/join", json={"seat": "O", "name": "Bob", "person": BOB}
        )
        tokens = {"X": m["tokens"]["X"], "O": joined.json()["token"]}
        async with (
            connect(ws(server, f"/api/play?token={tokens['X']}")) as ann,
            connect(ws(server, f"/api/play?token={tokens['O']}")) as bob,
        ):
            assert (await recv(ann, "hello"))["takebacks"] is False  # a rated game
            await recv(ann, "your_turn")
            await ann.send(json.dumps({"type": "move", "move": "b2"}))
            await recv(bob, "your_turn")
            await bob.send(json.dumps({"type": "move", "move": "a1"}))
            await recv(ann, "your_turn")
            await ann.send(json.dumps({"type": "resign"}))
            await recv(ann, "end")
        for _ in range(100):
            board = (await client.get(f"{server}/leaderboard/tictactoe")).json()["ratings"]
            if board:
                break
            await asyncio.sleep(0.05)
        rows = {r["player"]: (r["name"], r["person"], r["games"]) for r in board}
        assert rows == {person_key(ANN): ("Ann", True, 1), person_key(BOB): ("Bob", True, 1)}
        assert board[0]["player"] == person_key(BOB)  # Ann resigned
        url = f"{server}/api/ui/matches/{gid}/rematch"
        await client.post(url, json={"token": tokens["X"], "action": "offer"})
        accepted = (await client.post(url, json={"token": tokens["O"], "action": "accept"})).json()
        info = (await client.get(f"{server}/api/ui/matches/{accepted['game_id']}")).json()
        assert info["rated"] is True
        assert [(p["name"], p["spec"]) for p in info["players"]] == [("Bob", person_key(BOB)), ("Ann", person_key(ANN))]
        assert info["players"][0]["rating"]["rating"] > 1500 > info["players"][1]["rating"]["rating"]
