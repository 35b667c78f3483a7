"""The UI's server side without a browser: the seat socket protocol (pre-validation, probes, reconnects,
forfeit after the grace period), open-seat joining, replays, listings, and the clickable legal-move views."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect

from fakes.servers import serve_app
from hexarena.core.errors import IllegalMove
from hexarena.core.registry import get_game
from hexarena.core.types import Termination
from hexarena.players.browser import BrowserPlayer
from hexarena.players.inprocess import InProcessPlayer
from hexarena.server.live import MatchManager


@pytest.fixture
async def server(migrated_database_url: str, app_factory: Any) -> AsyncIterator[str]:
    async with serve_app(app_factory(migrated_database_url)) as url:
        yield url


def ws(url: str, path: str) -> str:
    return "ws" + url[len("http") :] + path


async def recv(sock: ClientConnection, kind: str | None = None, timeout: float = 10) -> dict[str, Any]:
    while True:
        msg = json.loads(await asyncio.wait_for(sock.recv(), timeout))
        if kind is None or msg["type"] == kind:
            return msg  # type: ignore[no-any-return]


async def new_match(
    url: str, game: str, players: list[str], params: dict[str, Any] | None = None, clock: dict[str, Any] | None = None
) -> dict[str, Any]:
    body: dict[str, Any] = {"game": game, "params": params or {}, "players": players}
    if clock is not None:
        body["clock"] = clock
    async with httpx.AsyncClient() as client:
        r = await client.post(f"{url}/api/matches", json=body)
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


async def test_illegal_moves_are_explained_and_the_turn_stays_open(server: str) -> None:
    m = await new_match(server, "tictactoe", ["browser:ann", "builtin:random"])
    async with connect(ws(server, f"/api/play?token={m['tokens']['X']}")) as sock:
        hello = await recv(sock, "hello")
        assert hello["seat"] == 0 and hello["side"] == "X" and hello["game"] == "tictactoe"
        turn = await recv(sock, "your_turn")
        assert turn["legal"]["kind"] == "cells" and len(turn["legal"]["moves"]) == 9
        await sock.send("not json")
        assert "not JSON" in (await recv(sock, "error"))["reason"]
        await sock.send(json.dumps({"type": "move", "move": "z9"}))
        assert "z9" in (await recv(sock, "illegal"))["reason"]
        await sock.send(json.dumps({"type": "move", "move": "b2"}))
        assert (await recv(sock, "accepted"))["move"] == "b2"
        turn = await recv(sock, "your_turn")
        assert turn["state"]["board"][1][1] == "X"
        await sock.send(json.dumps({"type": "move", "move": "b2"}))
        assert (await recv(sock, "illegal"))["reason"] == "cell 'b2' is occupied"
        free = turn["legal"]["moves"][0]["move"]
        await sock.send(json.dumps({"type": "move", "move": free}))
        await recv(sock, "accepted")
        await sock.send(json.dumps({"type": "move", "move": "a1"}))  # the bot is to move (or the game is over)
        reply = await recv(sock)
        while reply["type"] == "your_turn":
            reply = await recv(sock)
        assert reply["type"] in ("illegal", "end")


async def test_htttx_first_stone_probe_and_a_reload_keeps_the_seat(server: str) -> None:
    m = await new_match(server, "htttx", ["builtin:random", "browser"])
    token = m["tokens"]["o"]
    async with connect(ws(server, f"/api/play?token={token}")) as sock:
        turn = await recv(sock, "your_turn")
        assert [0, 1] in turn["legal"]["cells"] and [0, 0] not in turn["legal"]["cells"]
        await sock.send(json.dumps({"type": "probe", "what": "htttx_first", "args": [0, 0]}))
        assert (await recv(sock, "illegal"))["reason"] == "cell (0, 0) is occupied"
        await sock.send(json.dumps({"type": "probe", "what": "htttx_first", "args": [0, 9]}))
        assert "more than 8 from every stone" in (await recv(sock, "illegal"))["reason"]
        await sock.send(json.dumps({"type": "probe", "what": "htttx_first", "args": [0, 8]}))
        probe = await recv(sock, "probe")
        assert probe["wins"] is False and [0, 16] in probe["cells"] and [0, 8] not in probe["cells"]
    # the page reloads: the same token rejoins the seat, and the open request is sent again
    async with connect(ws(server, f"/api/play?token={token}")) as sock:
        await recv(sock, "hello")
        again = await recv(sock, "your_turn")
        assert again["ply"] == turn["ply"]
        await sock.send(json.dumps({"type": "move", "move": "[0,8][0,16]"}))
        await recv(sock, "accepted")
    async with httpx.AsyncClient() as client:
        record = (await client.get(f"{server}/games/{m['game_id']}")).json()
    assert record["moves"][0]["move"] == "[0,8][0,16]"


async def test_bad_tokens_and_open_seats(server: str) -> None:
    async with connect(ws(server, "/api/play?token=nope")) as sock:
        assert (await recv(sock))["type"] == "nope"
    m = await new_match(server, "hex", ["open:a", "open:b"], {"size": 3})
    assert m["tokens"] == {}  # open seats get their tokens when somebody joins them
    async with httpx.AsyncClient() as client:
        live = (await client.get(f"{server}/api/matches/live")).json()
        assert sorted(next(x for x in live if x["game_id"] == m["game_id"])["open_seats"]) == ["black", "white"]
        r = await client.post(f"{server}/api/ui/matches/{m['game_id']}/join", json={"seat": "white"})
        assert r.status_code == 200 and r.json()["seat"] == "white" and len(r.json()["token"]) >= 32
        async with connect(ws(server, f"/api/play?token={r.json()['token']}")) as sock:
            await recv(sock, "hello")
            taken = await client.post(f"{server}/api/ui/matches/{m['game_id']}/join", json={"seat": "white"})
            assert taken.status_code == 409 and "taken" in taken.json()["detail"]
            bad = await client.post(f"{server}/api/ui/matches/{m['game_id']}/join", json={"seat": "green"})
            assert bad.status_code == 400
            info = (await client.get(f"{server}/api/ui/matches/{m['game_id']}")).json()
            assert info["open_seats"] == ["black"] and info["clock"]["kind"] == "none" and info["live"] is True


async def test_replay_listing_and_bots(server: str) -> None:
    m = await new_match(server, "hexdots", ["builtin:random", "builtin:random"], {"rows": 3, "cols": 3})
    async with httpx.AsyncClient() as client:
        for _ in range(200):
            rec = (await client.get(f"{server}/games/{m['game_id']}")).json()
            if rec["status"] == "finished":
                break
            await asyncio.sleep(0.02)
        replay = (await client.get(f"{server}/api/ui/replay/{m['game_id']}")).json()
        assert len(replay["states"]) == len(replay["moves"]) + 1 and replay["replay_error"] is None
        assert replay["states"][0]["lines"] == [] and len(replay["states"][-1]["lines"]) == len(replay["moves"])
        listed = (await client.get(f"{server}/api/ui/games", params={"game": "hexdots"})).json()
        assert [g["game_id"] for g in listed] == [m["game_id"]]
        other = "draw" if rec["winner"] is not None else "win"
        assert (await client.get(f"{server}/api/ui/games", params={"result": other})).json() == []
        assert (await client.get(f"{server}/api/ui/games", params={"result": "bogus"})).status_code == 400
        assert (await client.get(f"{server}/api/ui/replay/nope")).status_code == 404
        bots = (await client.get(f"{server}/api/ui/bots", params={"game": "hex"})).json()
        assert {b["spec"] for b in bots if b["kind"] == "builtin"} == {
            "builtin:random",
            "builtin:mcts",
            "builtin:uct",
            "builtin:best",
        }


async def test_a_person_who_leaves_forfeits_after_the_grace_period() -> None:
    manager = MatchManager(None)
    person = BrowserPlayer("ann", grace=0.2)
    game = get_game("tictactoe")
    live = await manager.create(game, [person, InProcessPlayer.builtin("tictactoe", "random")])
    sent: list[dict[str, Any]] = []

    async def send(text: str) -> None:
        sent.append(json.loads(text))

    await person.connect(send)
    for _ in range(100):
        if any(s["type"] == "your_turn" for s in sent):
            break
        await asyncio.sleep(0.01)
    person.disconnect(send)
    await asyncio.sleep(0.05)
    await person.connect(send)  # back within the grace period: still playing
    assert live.result is None
    person.disconnect(send)
    await asyncio.wait_for(live.done.wait(), 5)
    assert live.result is not None
    assert live.result.outcome.winner == 1 and live.result.outcome.termination == Termination.DISCONNECT
    assert "did not come back within 0.2 s" in live.result.outcome.reason
    with contextlib.suppress(Exception):
        await manager.close()


def test_legal_views_of_every_game() -> None:
    """Each game's ``legal_view`` and ``probes`` (the web UI's clickable moves), called as the browser seat does."""
    hive = get_game("hive")
    view = hive.legal_view(hive.new())
    assert view["kind"] == "hive" and all(m["from"] is None and m["to"] == [0, 0] for m in view["moves"])
    assert "wQ" not in {m["piece"] for m in view["moves"]}  # no queen on the first turn
    s = hive.play(hive.new(), hive.parse("wA1"))
    with pytest.raises(IllegalMove, match="queen"):
        hive.probes()["hive_why"](s, "bQ", 1, 0)
    assert hive.probes()["hive_why"](s, "bA1", 1, 0) == {"move": "bA1 wA1-"}

    hx = get_game("hex")
    s = hx.play(hx.new(size=3), hx.parse("b2"))
    view = hx.legal_view(s)
    assert view["extra"] == ["swap"] and len(view["moves"]) == 8 and {"move": "a1", "row": 0, "col": 0} in view["moves"]

    dots = get_game("hexdots")
    view = dots.legal_view(dots.new(rows=3, cols=3))
    assert view["kind"] == "lines" and len(view["moves"]) == 12
    assert view["moves"][0] == {"move": "0,0-0,1", "a": [0, 0], "b": [0, 1]}

    nw = get_game("numberwang")
    assert nw.legal_view(nw.new()) == {"kind": "number", "min": -10, "max": 10}

    ht = get_game("htttx")
    s = ht.new(win_distance=2)
    first = ht.probes()["htttx_first"](s, 5, 0)
    assert first["wins"] is False and [13, 0] in first["cells"]
    s = ht.play(s, ((3, 0), (5, 0)))  # O's turn over; X to move with a stone at the origin
    assert ht.probes()["htttx_first"](s, 1, 0)["wins"] is True
    with pytest.raises(IllegalMove, match="occupied"):
        ht.probes()["htttx_first"](s, 3, 0)
    ttt = get_game("tictactoe")
    over = ttt.new()
    for mv in ("a1", "b1", "a2", "b2", "a3"):
        over = ttt.play(over, ttt.parse(mv))
    assert ttt.legal_view(over) == {"kind": "none", "moves": []}


async def test_a_browser_token_used_on_the_htttx_socket_is_refused_and_still_works(server: str) -> None:
    m = await new_match(server, "htttx", ["builtin:random", "browser"])
    token = m["tokens"]["o"]
    async with connect(ws(server, f"/ws?token={token}")) as sock:
        assert "/api/play" in (await recv(sock, "nope"))["reason"]
    async with connect(ws(server, f"/api/play?token={token}")) as sock:
        assert (await recv(sock, "hello"))["side"] == "o"
        await recv(sock, "your_turn")


async def test_long_games_replay_in_chunks(server: str) -> None:
    m = await new_match(server, "htttx", ["builtin:random", "builtin:random"], {"win_distance": 32, "turn_limit": 350})
    async with httpx.AsyncClient(timeout=30) as client:
        for _ in range(500):
            rec = (await client.get(f"{server}/games/{m['game_id']}")).json()
            if rec["status"] == "finished":
                break
            await asyncio.sleep(0.02)
        assert rec["termination"] == "turn_limit" and len(rec["moves"]) == 350
        replay = (await client.get(f"{server}/api/ui/replay/{m['game_id']}")).json()
        assert replay["states"] is None and replay["plies"] == 350 and replay["chunk"] == 100
        part = (await client.get(f"{server}/api/ui/replay/{m['game_id']}/states", params={"start": 300})).json()
        assert part["start"] == 300 and len(part["states"]) == 51 and part["replay_error"] is None
        assert [len(s["cells"]) for s in part["states"]] == [1 + 2 * ply for ply in range(300, 351)]
        first = (await client.get(f"{server}/api/ui/replay/{m['game_id']}/states", params={"count": 2})).json()
        assert [len(s["cells"]) for s in first["states"]] == [1, 3]


async def test_the_clocks_start_only_when_every_seat_is_taken(server: str) -> None:
    """Issue 15: the creator of a two-person game is not asked to move (and its clock does not run) while the
    invited seat is empty; the first move's recorded think time is counted from the friend's arrival."""
    async with httpx.AsyncClient() as client:
        m = await new_match(server, "tictactoe", ["browser:ann", "open:bob"], clock={"type": "match", "seconds": 60})
        async with connect(ws(server, f"/api/play?token={m['tokens']['X']}")) as creator:
            await recv(creator, "hello")
            loop = asyncio.get_running_loop()
            waited_from = loop.time()
            with pytest.raises(TimeoutError):  # nobody opposite: no turn, no clock
                await recv(creator, "your_turn", timeout=1.0)
            joined = await client.post(f"{server}/api/ui/matches/{m['game_id']}/join", json={"seat": "O"})
            async with connect(ws(server, f"/api/play?token={joined.json()['token']}")) as friend:
                await recv(friend, "hello")
                turn = await recv(creator, "your_turn")
                waited = loop.time() - waited_from
                assert turn["time_left"] > 60 - waited  # the wait was not taken from the creator's clock
                await creator.send(json.dumps({"type": "move", "move": "b2"}))
                await recv(creator, "accepted")
                await recv(friend, "your_turn")
                replay = (await client.get(f"{server}/api/ui/replay/{m['game_id']}")).json()
                assert replay["moves"][0]["think_time"] < waited


async def test_a_rematch_is_answered_by_the_other_person_only(server: str) -> None:
    """Issue 15: the rematch route knows each person by their seat token of the finished game; a stranger, an
    answer to one's own offer, and an offer on a live game are refused; a decline is seen by the offerer."""
    async with httpx.AsyncClient() as client:
        m = await new_match(server, "tictactoe", ["browser:ann", "browser:bob"])
        tokens = m["tokens"]
        url = f"{server}/api/ui/matches/{m['game_id']}/rematch"
        live = await client.post(url, json={"token": tokens["X"], "action": "offer"})
        assert live.status_code == 409 and "not over" in live.json()["detail"]
        async with (
            connect(ws(server, f"/api/play?token={tokens['X']}")) as ann,
            connect(ws(server, f"/api/play?token={tokens['O']}")) as bob,
        ):
            await recv(bob, "hello")
            await recv(ann, "your_turn")
            await ann.send(json.dumps({"type": "resign"}))
            await recv(ann, "end")
        assert (await client.post(url, json={"token": "x" * 43})).status_code == 403
        offered = (await client.post(url, json={"token": tokens["X"], "action": "offer"})).json()
        assert offered["offer"] == {"by_seat": 0, "by": "ann", "mine": True} and offered["token"] is None
        own = await client.post(url, json={"token": tokens["X"], "action": "accept"})
        assert own.status_code == 409
        seen = (await client.post(url, json={"token": tokens["O"]})).json()
        assert seen["offer"]["mine"] is False and seen["offer"]["by"] == "ann"
        declined = (await client.post(url, json={"token": tokens["O"], "action": "decline"})).json()
        assert declined["declined"] is True and declined["game_id"] is None
        assert (await client.post(url, json={"token": tokens["X"]})).json()["declined"] is True
        # bob offers in turn, ann accepts: each gets a new token of the other seat
        await client.post(url, json={"token": tokens["O"], "action": "offer"})
        both = await asyncio.gather(  # two clicks at once: one new game
            *(client.post(url, json={"token": tokens["X"], "action": "accept"}) for _ in range(2))
        )
        assert all(r.status_code == 200 for r in both)
        live = (await client.get(f"{server}/api/matches/live")).json()
        assert len(live) == 1
        accepted = (await client.post(url, json={"token": tokens["X"]})).json()
        assert accepted["game_id"] == live[0]["game_id"]
        assert accepted["seat"] == "O" and accepted["game_id"] and len(accepted["token"]) >= 32
        bobs = (await client.post(url, json={"token": tokens["O"]})).json()
        assert bobs["seat"] == "X" and bobs["game_id"] == accepted["game_id"] and bobs["token"] != accepted["token"]
        players = (await client.get(f"{server}/api/ui/matches/{accepted['game_id']}")).json()["players"]
        assert [p["name"] for p in players] == ["bob", "ann"]


async def test_a_takeback_against_a_bot_undoes_both_moves_and_the_store_agrees(
    server: str, migrated_database_url: str
) -> None:
    """Issue 15: on the person's turn a takeback undoes their last move and the bot's reply, restores both
    clocks, tells spectators, and the store deletes the moves taken back: the replay, the stored moves and the
    final record all show the game as it stands."""
    from hexarena.store import Store

    async with httpx.AsyncClient() as client:
        m = await new_match(
            server, "tictactoe", ["browser:ann", "builtin:random"], clock={"type": "match", "seconds": 60}
        )
        gid = m["game_id"]
        async with connect(ws(server, f"/api/play?token={m['tokens']['X']}")) as sock:
            assert (await recv(sock, "hello"))["takebacks"] is True  # a casual game against a built-in bot
            # each turn says whether a takeback would be granted now (the page's button follows it)
            assert (await recv(sock, "your_turn"))["takeback"] is False
            await sock.send(json.dumps({"type": "takeback"}))
            refused = await recv(sock, "takeback")
            assert refused["granted"] is False and "no move" in refused["reason"]
            await sock.send(json.dumps({"type": "move", "move": "b2"}))
            assert (await recv(sock, "your_turn"))["takeback"] is True  # the bot replied
            async with connect(ws(server, f"/spectate/{gid}")) as spectator:
                assert len((await recv(spectator, "setup"))["moves"]) == 2
                await sock.send(json.dumps({"type": "takeback"}))
                assert await recv(sock, "takeback") == {"type": "takeback", "granted": True, "ply": 0}
                turn = await recv(sock, "your_turn")
                assert turn["state"]["ply"] == 0 and len(turn["legal"]["moves"]) == 9
                assert turn["takeback"] is False  # nothing of mine left to take back
                fresh = await recv(spectator, "setup")
                assert fresh["moves"] == [] and fresh["clocks"] == [60.0, 60.0]  # as before the first move
            assert (await client.get(f"{server}/api/ui/replay/{gid}")).json()["moves"] == []
            await sock.send(json.dumps({"type": "move", "move": "a1"}))
            await recv(sock, "your_turn")
            played = [x["move"] for x in (await client.get(f"{server}/api/ui/replay/{gid}")).json()["moves"]]
            assert played[0] == "a1" and len(played) == 2
            store = await Store.open(migrated_database_url)
            try:
                for _ in range(200):  # moves reach the store within a flush interval
                    if [x.move for x in await store.get_moves(gid)] == played:
                        break
                    await asyncio.sleep(0.02)
                assert [x.move for x in await store.get_moves(gid)] == played
                await sock.send(json.dumps({"type": "resign"}))
                await recv(sock, "end")
                for _ in range(200):
                    rec = await store.get_game(gid)
                    if rec is not None and rec.status == "finished":
                        break
                    await asyncio.sleep(0.02)
                assert rec is not None and [x.move for x in rec.moves] == played
            finally:
                await store.close()


async def test_takebacks_are_refused_in_contests_and_between_two_bots() -> None:
    manager = MatchManager(None)
    game = get_game("tictactoe")
    person = BrowserPlayer("ann")
    rated = await manager.create(
        game, [person, InProcessPlayer.builtin("tictactoe", "random")], contest_id="c1", clock=None
    )
    sent: list[dict[str, Any]] = []

    async def send(text: str) -> None:
        sent.append(json.loads(text))

    await person.connect(send)
    for _ in range(200):
        if sum(s["type"] == "your_turn" for s in sent) >= 1:
            break
        await asyncio.sleep(0.01)
    await person.handle(json.dumps({"type": "move", "move": "b2"}))
    for _ in range(200):
        if sum(s["type"] == "your_turn" for s in sent) >= 2:
            break
        await asyncio.sleep(0.01)
    await person.handle(json.dumps({"type": "takeback"}))
    refusal = next(s for s in sent if s["type"] == "takeback")
    assert refusal["granted"] is False and "tournament" in refusal["reason"] and len(rated.moves) == 2
    # the page was told so: no takebacks in this match, none on any turn (its button never shows)
    assert [s["takebacks"] for s in sent if s["type"] == "hello"] == [False]
    assert [s["takeback"] for s in sent if s["type"] == "your_turn"] == [False, False]
    bots = await manager.create(
        game, [InProcessPlayer.builtin("tictactoe", "random"), InProcessPlayer.builtin("tictactoe", "random")]
    )
    assert not bots.referee.may_take_back(0) and not bots.referee.may_take_back(1)
    assert not rated.referee.may_take_back(0)
    with contextlib.suppress(Exception):
        await manager.close()
