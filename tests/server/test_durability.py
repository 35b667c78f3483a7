"""Records survive faults, proven with real processes: ``kill -9`` of the server, a stopped PostgreSQL server,
a bot server killed mid-game.

Each test runs ``hexarena serve`` as a subprocess and plays HTTTX between two people over ``/ws`` (real sockets),
so the test knows exactly which moves the referee acknowledged: a move is acknowledged once the other seat is
asked to move.
"""

from __future__ import annotations

import asyncio
import json
import signal
from pathlib import Path

import pytest
from procs import (
    Person,
    ServeProcess,
    bot_serve,
    people_game,
    pg_bin,
    play_turns,
    private_postgres,
)
from websockets.asyncio.client import connect

from fakes.procs import start_serving, stop_process
from hexarena.store import GameStatus, Store

pytestmark = [pytest.mark.slow, pytest.mark.fault]


async def stored(database_url: str, game_id: str) -> tuple[str, int, int | None, str]:
    store = await Store.open(database_url)
    try:
        rec = await store.get_game(game_id)
    finally:
        await store.close()
    assert rec is not None, f"game {game_id} is not in the store"
    return str(rec.status), len(rec.moves), rec.winner, rec.termination or ""


async def test_kill_9_keeps_every_acknowledged_move(database_url: str, tmp_path: Path) -> None:
    server = ServeProcess(database_url, tmp_path / "data", tmp_path / "serve.log")
    await server.start()
    try:
        games = [await people_game(server) for _ in range(3)]
        acknowledged = await asyncio.gather(*(play_turns(x, o, 12 + 4 * i) for i, (_, x, o) in enumerate(games)))
        await asyncio.sleep(1.2)  # every acknowledged move is now more than 1 s old
        server.kill9()
        for (game_id, _, _), plies in zip(games, acknowledged, strict=True):
            status, moves, _, _ = await stored(database_url, game_id)
            assert (status, moves) == ("running", plies), (game_id, status, moves, plies)
        await server.start()  # the restart ends them: interrupted, moves kept, no result
        for (game_id, x, o), plies in zip(games, acknowledged, strict=True):
            await x.ws.close()
            await o.ws.close()
            record = (await server.get(f"/games/{game_id}")).json()
            assert record["status"] == "interrupted" and record["winner"] is None
            assert record["termination"] == "interrupted" and "stopped mid-game" in record["reason"]
            assert len(record["moves"]) == plies
            assert record["notation"].count("[") >= plies  # exportable as Notation v1
            assert (await server.get(f"/api/ui/replay/{game_id}")).status_code == 200
        listed = (await server.get("/games?status=interrupted")).json()
        assert {g["game_id"] for g in listed} == {g for g, _, _ in games}
    finally:
        server.stop()


@pytest.mark.skipif(pg_bin() is None, reason="PostgreSQL's server binaries are not installed")
async def test_a_postgresql_outage_loses_no_result(tmp_path: Path) -> None:
    with private_postgres() as pg:
        server = ServeProcess(pg.url, tmp_path / "data", tmp_path / "serve.log")
        await server.start()
        try:
            # -- games finish while PostgreSQL is down; it comes back; everything is written
            games = [await people_game(server) for _ in range(3)]
            await asyncio.gather(*(play_turns(x, o, 5) for _, x, o in games))
            pg.stop()
            await asyncio.gather(*(play_turns(x, o, 5) for _, x, o in games))
            for _, x, _ in games:
                await x.ws.close()  # x leaves mid-game: o wins by disconnect, during the outage
            health = await _until_degraded(server)
            assert health["store"]["status"] == "degraded" and health["store"]["pending_writes"] >= 3
            # the games are over (o won by disconnect), though their results wait for the database
            assert (await server.get("/api/matches/live")).json() == []
            # creating a game now is refused clearly, and leaves no ghost behind
            r = await server.post("/game/new", {"player_x": {"type": "human"}, "player_o": {"type": "human"}})
            assert r.status_code == 503 and "try again" in r.json()["detail"] and r.headers["retry-after"]
            r = await server.post(
                "/api/matches", {"game": "tictactoe", "players": ["builtin:random", "builtin:random"]}
            )
            assert r.status_code == 503
            assert (await server.get("/api/matches/live")).json() == []
            pg.start()
            for _ in range(300):
                if (await server.get("/healthz")).status_code == 200:
                    break
                await asyncio.sleep(0.1)
            assert (await server.get("/healthz")).json()["store"]["status"] == "ok"
            for game_id, _, o in games:
                await o.ws.close()
                assert await stored(pg.url, game_id) == ("finished", 20, 1, "disconnect")

            # -- the same, but the server is killed during the outage: the journal carries the results over
            games = [await people_game(server) for _ in range(2)]
            await asyncio.gather(*(play_turns(x, o, 4) for _, x, o in games))
            pg.stop()
            await asyncio.gather(*(play_turns(x, o, 4) for _, x, o in games))
            for _, x, _ in games:
                await x.ws.close()
            await _until_degraded(server)
            await asyncio.sleep(0.3)
            server.kill9()
            assert list((tmp_path / "data").glob("journal-*.jsonl"))
            pg.start()
            await server.start()
            for game_id, _, o in games:
                await o.ws.close()
                assert await stored(pg.url, game_id) == ("finished", 16, 1, "disconnect")
            assert not list((tmp_path / "data").glob("journal-*.jsonl"))
        finally:
            server.stop()


async def _until_degraded(server: ServeProcess) -> dict[str, object]:
    for _ in range(200):
        r = await server.get("/healthz")
        if r.status_code == 503:
            return r.json()  # type: ignore[no-any-return]
        await asyncio.sleep(0.05)
    raise AssertionError("the server never reported a degraded store")


async def test_a_bot_server_killed_mid_game_is_a_recorded_loss(database_url: str, tmp_path: Path) -> None:
    bot, port = start_serving(bot_serve("random"), tmp_path / "bot.log")
    server = ServeProcess(database_url, tmp_path / "data", tmp_path / "serve.log")
    await server.start()
    try:
        body = {"player_x": {"type": "bot", "bot_url": f"http://127.0.0.1:{port}"}, "player_o": {"type": "human"}}
        r = await server.post("/game/new", body)
        assert r.status_code == 200, r.text
        game_id = r.json()["game_id"]
        async with connect(server.ws(f"/ws?token={r.json()['token_o']}")) as ws:
            o = Person(ws, 1)
            await o.play(3)
            await o.wait_request()  # the bot answered three times: it is alive and playing
            bot.send_signal(signal.SIGKILL)
            bot.wait(10)
            # o moves: the server turns to the dead bot (over bws its closed socket alone ends the game)
            await ws.send(json.dumps({"type": "move_response", "move": {"pieces": o.next_stones()}}))
            for _ in range(150):
                status, moves, winner, termination = await stored(database_url, game_id)
                if status != "running":
                    break
                await asyncio.sleep(0.1)
        assert (status, winner, termination) == (GameStatus.FINISHED, 1, "disconnect") and moves >= 6
    finally:
        server.stop()
        stop_process(bot)  # killed by the test already, or still up after a failure
