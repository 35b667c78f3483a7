"""Whole games over the real server with the reference client (examples/battlebot_client.py)."""

from __future__ import annotations

import asyncio
from typing import Any

import battlebot_client as client
import httpx
from bbhelp import waiting

Server = Any


async def register(srv: Server, game: str, bot_id: str, owner: str = "tester") -> dict[str, Any]:
    async with httpx.AsyncClient() as http:
        r = await http.post(f"{srv.http}/bots/{game}", json={"bot_id": bot_id, "owner": owner})
    assert r.status_code == 201, r.text
    data = r.json()
    return {**data, "hostname": srv.host, "secure": False}


async def wait_finished(srv: Server, n: int = 1, timeout: float = 10.0) -> list[Any]:
    for _ in range(int(timeout / 0.05)):
        games = await srv.store.list_games(status="finished")
        if len(games) >= n:
            return games
        await asyncio.sleep(0.05)
    raise AssertionError(f"{n} finished game(s) expected")


async def test_noughts_and_crosses_between_two_reference_clients(server: Server) -> None:
    a = await register(server, "noughtsandcrosses", "IdiotBot2")
    b = await register(server, "noughtsandcrosses", "IdiotBot")
    assert a["game"] == "noughtsandcrosses" and len(a["pass_hash"]) == 64
    first = asyncio.create_task(client.play(a))
    await waiting(server)  # the first to connect waits, and moves first
    second = asyncio.create_task(client.play(b))
    fa, fb = await asyncio.wait_for(asyncio.gather(first, second), 20)
    assert fa == fb
    assert fa["complete"] is True and fa["players"] == ["IdiotBot2", "IdiotBot"]
    assert fa["marks"] == {"X": "IdiotBot2", "O": "IdiotBot"}
    assert fa["reason"] == "complete"
    marks = [m for row in fa["board"] for m in row if m]
    assert fa["victor"] in ("IdiotBot2", "IdiotBot", None)
    (game,) = await wait_finished(server)
    assert [p.name for p in game.players] == ["IdiotBot2", "IdiotBot"]
    assert {p.kind for p in game.players} == {"battlebot"}
    record = await server.store.get_game(game.game_id)
    assert len(record.moves) == len(marks)
    assert all(m.timestamp is not None for m in record.moves)
    assert record.winner_name == fa["victor"]


async def test_games_are_listed_by_the_battlebot_game_id_and_unknown_games_are_refused(server: Server) -> None:
    """A battlebot user asks for its games by the wire id it registered under (noughtsandcrosses, stored as
    tictactoe); a name no game has is a 400 that lists the games, not an empty 200."""
    a = await register(server, "noughtsandcrosses", "Crosses")
    b = await register(server, "noughtsandcrosses", "Noughts")
    first = asyncio.create_task(client.play(a))
    await waiting(server)
    await asyncio.wait_for(asyncio.gather(first, client.play(b)), 20)
    (game,) = await wait_finished(server)
    async with httpx.AsyncClient() as http:
        by_alias = (await http.get(f"{server.http}/games", params={"game": "noughtsandcrosses"})).json()
        by_name = (await http.get(f"{server.http}/games", params={"game": "tictactoe"})).json()
        other = (await http.get(f"{server.http}/games", params={"game": "numberwang"})).json()
        unknown = await http.get(f"{server.http}/games", params={"game": "chess"})
    assert [g["game_id"] for g in by_alias] == [game.game_id] == [g["game_id"] for g in by_name]
    assert other == []
    assert unknown.status_code == 400
    text = unknown.text
    assert "chess" in text and all(name in text for name in ("tictactoe", "hex", "hive", "htttx", "numberwang"))
