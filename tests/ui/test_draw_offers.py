"""Draw offers over the seat sockets (issue 33, lichess's "Offer draw"): a person offers, the person in the other
seat accepts (the game is recorded a draw, termination ``agreement``) or declines; a bot declines at once; the
offer lapses when its receiver moves instead. The seat token is what authorizes: a seat cannot accept its own
offer, nothing is answered without an offer, and nothing before the start or after the end."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from test_abort import stored
from test_play_api import new_match, recv, ws
from websockets.asyncio.client import connect

from fakes.servers import serve_app


@pytest.fixture
async def server(migrated_database_url: str, app_factory: Any) -> AsyncIterator[str]:
    async with serve_app(app_factory(migrated_database_url)) as url:
        yield url


def draw(action: str) -> str:
    return json.dumps({"type": "draw", "action": action})


async def test_a_draw_offered_and_accepted_is_recorded_a_draw_by_agreement(server: str) -> None:
    async with httpx.AsyncClient(timeout=30) as client:
        m = await new_match(server, "tictactoe", ["browser:ann", "browser:bob"])
        async with (
            connect(ws(server, f"/api/play?token={m['tokens']['X']}")) as ann,
            connect(ws(server, f"/api/play?token={m['tokens']['O']}")) as bob,
        ):
            assert (await recv(bob, "hello"))["draw_offer"] is None
            await recv(ann, "your_turn")
            await ann.send(json.dumps({"type": "move", "move": "b2"}))
            await recv(bob, "your_turn")
            # bob offers on his turn; ann, waiting, is told and accepts
            await bob.send(draw("offer"))
            assert (await recv(bob, "draw"))["event"] == "offered"
            offer = await recv(ann, "draw")
            assert offer == {"type": "draw", "event": "offer", "by": "O"}
            await bob.send(draw("accept"))  # his own offer: refused, and the game goes on
            assert "no draw offer from your opponent" in (await recv(bob, "error"))["reason"]
            await bob.send(draw("offer"))
            assert "already offered" in (await recv(bob, "error"))["reason"]
            await ann.send(draw("accept"))
            end = await recv(ann, "end")
            assert end["winner"] is None and end["termination"] == "agreement" and end["you"] == "draw"
            assert (await recv(bob, "end"))["termination"] == "agreement"
        rec = await stored(client, server, m["game_id"])
        assert rec["status"] == "finished" and rec["winner"] is None and rec["termination"] == "agreement"
        assert "agreement" in rec["reason"]


async def test_a_declined_or_lapsed_offer_leaves_the_game_going(server: str) -> None:
    m = await new_match(server, "tictactoe", ["browser:ann", "browser:bob"])
    async with (
        connect(ws(server, f"/api/play?token={m['tokens']['X']}")) as ann,
        connect(ws(server, f"/api/play?token={m['tokens']['O']}")) as bob,
    ):
        await recv(ann, "your_turn")
        await bob.send(draw("decline"))  # nothing to decline
        assert "no draw offer" in (await recv(bob, "error"))["reason"]
        await bob.send(draw("maybe"))
        assert "'offer', 'accept' or 'decline'" in (await recv(bob, "error"))["reason"]
        await ann.send(draw("offer"))
        assert (await recv(ann, "draw"))["event"] == "offered"
        await recv(bob, "draw")
        await bob.send(draw("decline"))
        assert (await recv(ann, "draw"))["event"] == "declined"
        # a new offer, which bob ignores: he moves, and the offer lapses
        await ann.send(json.dumps({"type": "move", "move": "b2"}))
        await recv(bob, "your_turn")
        await ann.send(draw("offer"))
        assert (await recv(ann, "draw"))["event"] == "offered"
        assert (await recv(bob, "draw"))["event"] == "offer"
        await bob.send(json.dumps({"type": "move", "move": "a1"}))
        assert (await recv(ann, "draw"))["event"] == "lapsed"
        await bob.send(draw("accept"))
        assert "no draw offer" in (await recv(bob, "error"))["reason"]
        await ann.send(json.dumps({"type": "move", "move": "c3"}))
        await recv(ann, "accepted")  # the game went on


async def test_a_bot_declines_a_draw(server: str) -> None:
    m = await new_match(server, "tictactoe", ["browser:ann", "builtin:random"])
    async with connect(ws(server, f"/api/play?token={m['tokens']['X']}")) as ann:
        await recv(ann, "your_turn")
        await ann.send(draw("offer"))
        answer = await recv(ann, "draw")
        assert answer["event"] == "declined" and answer["by"] == "opponent"
        await ann.send(json.dumps({"type": "move", "move": "b2"}))
        await recv(ann, "accepted")
