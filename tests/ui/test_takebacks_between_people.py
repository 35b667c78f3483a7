"""Takebacks between two people and the referee's desk for offers (issue 33): a person asks, whoever's turn it is;
the person in the other seat accepts (the asker's last move and every reply after it are undone: the position,
the clocks, the store, the replay and the spectators all go back) or declines; a move instead of an answer lets
the request lapse. Every wrong request is refused with its reason, and a seat's offers per game are bounded."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from test_play_api import new_match, recv, ws
from websockets.asyncio.client import connect

from fakes.servers import serve_app
from hexarena.core.registry import get_game
from hexarena.players.browser import BrowserPlayer
from hexarena.referee.offers import MAX_OFFERS
from hexarena.server.live import MatchManager


@pytest.fixture
async def server(migrated_database_url: str, app_factory: Any) -> AsyncIterator[str]:
    async with serve_app(app_factory(migrated_database_url)) as url:
        yield url


def takeback(action: str | None = None) -> str:
    return json.dumps({"type": "takeback"} if action is None else {"type": "takeback", "action": action})


def move(text: str) -> str:
    return json.dumps({"type": "move", "move": text})


async def replayed(client: httpx.AsyncClient, server: str, gid: str) -> list[str]:
    return [m["move"] for m in (await client.get(f"{server}/api/ui/replay/{gid}")).json()["moves"]]


async def stored_moves(database_url: str, gid: str, want: list[str]) -> list[str]:
    """The moves the store holds once the recorder caught up with ``want`` (bounded wait, then what it has)."""
    from hexarena.store import Store

    store = await Store.open(database_url)
    try:
        for _ in range(250):
            got = [m.move for m in await store.get_moves(gid)]
            if got == want:
                break
            await asyncio.sleep(0.02)
        return got
    finally:
        await store.close()


async def two_people(server: str, **clock: Any) -> tuple[dict[str, Any], Any, Any]:
    m = await new_match(server, "tictactoe", ["browser:ann", "browser:bob"], clock=clock or None)
    ann = connect(ws(server, f"/api/play?token={m['tokens']['X']}"))
    bob = connect(ws(server, f"/api/play?token={m['tokens']['O']}"))
    return m, ann, bob


async def test_a_takeback_asked_on_either_turn_and_accepted_undoes_the_askers_move(
    server: str, migrated_database_url: str
) -> None:
    m, ann_c, bob_c = await two_people(server, type="match", seconds=60)
    gid = m["game_id"]
    async with httpx.AsyncClient(timeout=30) as client, ann_c as ann, bob_c as bob:
        hello = await recv(ann, "hello")
        assert hello["takebacks"] is True and hello["takeback_offer"] is None  # two people, a casual game
        await recv(ann, "your_turn")
        await ann.send(move("b2"))
        accepted = await recv(ann, "accepted")
        assert accepted["takeback"] is True  # she may ask while he thinks
        await recv(bob, "your_turn")
        await bob.send(move("a1"))
        await recv(ann, "your_turn")
        async with connect(ws(server, f"/spectate/{gid}")) as spectator:
            assert len((await recv(spectator, "setup"))["moves"]) == 2
            # bob asks on ann's turn: she is asked, and accepting withdraws her turn and gives his back
            await bob.send(takeback())
            assert (await recv(bob, "takeback"))["event"] == "offered"
            assert await recv(ann, "takeback") == {"type": "takeback", "event": "offer", "by": "O"}
            await bob.send(takeback("accept"))  # his own request is not his to answer
            refused = await recv(bob, "takeback")
            assert refused["granted"] is False and "no takeback request from your opponent" in refused["reason"]
            await ann.send(takeback("accept"))
            assert await recv(bob, "takeback") == {"type": "takeback", "granted": True, "ply": 1}
            turn = await recv(bob, "your_turn")
            assert turn["state"]["ply"] == 1 and "a1" in {x["move"] for x in turn["legal"]["moves"]}
            told = await recv(ann, "takeback")
            assert told["event"] == "taken_back" and told["ply"] == 1
            fresh = await recv(spectator, "setup")
            assert [x["move"] for x in fresh["moves"]] == ["b2"]
            await ann.send(move("c3"))  # her turn went with the takeback
            assert "not your turn" in (await recv(ann, "illegal"))["reason"]
            assert await replayed(client, server, gid) == ["b2"]
            assert await stored_moves(migrated_database_url, gid, ["b2"]) == ["b2"]
            # now ann asks on bob's turn for her b2: he accepts, and it is her first move again
            await ann.send(takeback())
            assert (await recv(ann, "takeback"))["event"] == "offered"
            assert (await recv(bob, "takeback"))["event"] == "offer"
            await bob.send(takeback("accept"))
            assert await recv(ann, "takeback") == {"type": "takeback", "granted": True, "ply": 0}
            turn = await recv(ann, "your_turn")
            assert turn["state"]["ply"] == 0 and len(turn["legal"]["moves"]) == 9
            assert turn["time_left"] > 59  # the clocks went back with the moves
            fresh = await recv(spectator, "setup")
            assert fresh["moves"] == [] and fresh["clocks"] == [60.0, 60.0]
            assert await stored_moves(migrated_database_url, gid, []) == []
        await ann.send(move("a3"))
        await recv(bob, "your_turn")
        await bob.send(move("c1"))
        await recv(ann, "your_turn")
        assert await replayed(client, server, gid) == ["a3", "c1"]
        assert await stored_moves(migrated_database_url, gid, ["a3", "c1"]) == ["a3", "c1"]


async def test_a_takeback_declined_or_lapsed_leaves_the_game_as_it_was(server: str) -> None:
    _, ann_c, bob_c = await two_people(server)
    async with ann_c as ann, bob_c as bob:
        await recv(ann, "your_turn")
        await ann.send(takeback())  # nothing of hers on the board yet
        refused = await recv(ann, "takeback")
        assert refused["granted"] is False and "no move to take back" in refused["reason"]
        await ann.send(move("b2"))
        await recv(bob, "your_turn")
        await ann.send(takeback())
        assert (await recv(ann, "takeback"))["event"] == "offered"
        await ann.send(takeback())
        assert "already asked for a takeback" in (await recv(ann, "takeback"))["reason"]
        await recv(bob, "takeback")
        await bob.send(takeback())  # his own request while hers stands
        assert "answer theirs first" in (await recv(bob, "takeback"))["reason"]
        await bob.send(takeback("decline"))
        declined = await recv(ann, "takeback")
        assert declined == {"type": "takeback", "event": "declined", "by": "opponent", "mine": True, "granted": False}
        assert (await recv(bob, "takeback"))["by"] == "you"
        # asked again, and bob moves instead of answering: the request lapses for both
        await ann.send(takeback())
        assert (await recv(ann, "takeback"))["event"] == "offered"
        await recv(bob, "takeback")
        await bob.send(move("a1"))
        assert (await recv(ann, "takeback"))["event"] == "lapsed"
        assert (await recv(bob, "takeback"))["event"] == "lapsed"
        await bob.send(takeback("accept"))
        assert "no takeback request" in (await recv(bob, "takeback"))["reason"]
        turn = await recv(ann, "your_turn")
        assert turn["state"]["ply"] == 2  # nothing was taken back
        await ann.send(json.dumps({"type": "takeback", "action": "maybe"}))
        assert "'offer', 'accept' or 'decline'" in (await recv(ann, "error"))["reason"]


async def test_offers_per_seat_are_bounded_and_nothing_is_asked_once_the_game_is_over(server: str) -> None:
    _, ann_c, bob_c = await two_people(server)
    async with ann_c as ann, bob_c as bob:
        await recv(ann, "your_turn")
        for _ in range(MAX_OFFERS["draw"]):
            await ann.send(json.dumps({"type": "draw", "action": "offer"}))
            assert (await recv(ann, "draw"))["event"] == "offered"
            assert (await recv(bob, "draw"))["event"] == "offer"
            await bob.send(json.dumps({"type": "draw", "action": "decline"}))
            assert (await recv(ann, "draw"))["event"] == "declined"
            assert (await recv(bob, "draw"))["by"] == "you"
        await ann.send(json.dumps({"type": "draw", "action": "offer"}))
        flood = (await recv(ann, "error"))["reason"]
        assert f"offered a draw {MAX_OFFERS['draw']} times this game" in flood
        await bob.send(json.dumps({"type": "draw", "action": "offer"}))  # bob's own offers are his
        assert (await recv(bob, "draw"))["event"] == "offered"
        await ann.send(json.dumps({"type": "resign"}))
        await recv(bob, "end")
        await recv(ann, "end")
    # after the end the seat sockets are closed by the server; the referee's desk says why on any late request
    assert "already over" in await late_request()


async def late_request() -> str:
    """A takeback asked of a finished match, straight at the seat: refused because the game is over."""
    manager = MatchManager(None)
    game = get_game("tictactoe")
    ann, bob = BrowserPlayer("ann"), BrowserPlayer("bob")
    live = await manager.create(game, [ann, bob], clock=None)
    sent: list[dict[str, Any]] = []

    async def send(text: str) -> None:
        sent.append(json.loads(text))

    await ann.connect(send)
    await bob.connect(send)
    for _ in range(250):
        if any(s["type"] == "your_turn" for s in sent):
            break
        await asyncio.sleep(0.01)
    await ann.handle(json.dumps({"type": "resign"}))
    for _ in range(250):
        if live.result is not None:
            break
        await asyncio.sleep(0.01)
    assert live.result is not None
    await ann.handle(takeback())
    with contextlib.suppress(Exception):
        await manager.close()
    return str(next(s for s in sent if s["type"] == "takeback")["reason"])


async def test_takebacks_between_people_are_refused_in_rated_and_tournament_games() -> None:
    manager = MatchManager(None)
    game = get_game("tictactoe")
    ann, bob = BrowserPlayer("ann"), BrowserPlayer("bob")
    rated = await manager.create(game, [ann, bob], contest_id="c1", clock=None)
    sent: list[tuple[str, dict[str, Any]]] = []

    def sender(who: str) -> Any:
        async def send(text: str) -> None:
            sent.append((who, json.loads(text)))

        return send

    await ann.connect(sender("ann"))
    await bob.connect(sender("bob"))
    for _ in range(250):
        if any(m["type"] == "your_turn" for _, m in sent):
            break
        await asyncio.sleep(0.01)
    await ann.handle(move("b2"))
    for _ in range(250):
        if any(who == "bob" and m["type"] == "your_turn" for who, m in sent):
            break
        await asyncio.sleep(0.01)
    await ann.handle(takeback())
    refusal = next(m for who, m in sent if who == "ann" and m["type"] == "takeback")
    assert refusal["granted"] is False and "rated or tournament" in refusal["reason"]
    assert not any(who == "bob" and m["type"] == "takeback" for who, m in sent)  # bob was never asked
    assert [m["takebacks"] for _, m in sent if m["type"] == "hello"] == [False, False]
    assert len(rated.moves) == 1
    with contextlib.suppress(Exception):
        await manager.close()


async def test_a_takeback_to_before_both_moved_makes_the_game_abortable_again(server: str) -> None:
    """Abort is allowed while the two seats have not both moved; a takeback that undoes the moves of one seat
    (here both) gives that back to both seats, as the start did, and each page is told so."""
    _, ann_c, bob_c = await two_people(server)
    async with ann_c as ann, bob_c as bob:
        assert (await recv(ann, "hello"))["abortable"] is True
        await recv(ann, "your_turn")
        await ann.send(move("b2"))
        await recv(bob, "your_turn")
        await bob.send(move("a1"))
        assert (await recv(ann, "your_turn"))["abortable"] is False  # both sides moved
        await ann.send(takeback())
        assert (await recv(ann, "takeback"))["event"] == "offered"
        assert (await recv(bob, "takeback"))["event"] == "offer"
        await bob.send(takeback("accept"))  # back to ply 0: neither side has a move on the board
        assert (await recv(ann, "takeback"))["ply"] == 0
        assert (await recv(ann, "your_turn"))["abortable"] is True
        told = await recv(bob, "takeback")
        assert told["event"] == "taken_back" and told["abortable"] is True
        await bob.send(json.dumps({"type": "abort"}))
        end = await recv(bob, "end")
        assert end["termination"] == "aborted" and end["winner"] is None
