"""One unstorable string, or one write the database refuses, stops nothing: proven with a real ``hexarena serve``.

A NUL in a tournament player's name, or in the ``meta.name`` a bws bot announces in its ``/capabilities.json``
(a real bot server on loopback), used to stop every write on PostgreSQL (``invalid byte sequence for encoding
"UTF8": 0x00``), turn ``/healthz`` to 503, refuse every new game, and make the restarted server fail its
start-up replaying the same journal row. A journal with a poisoned record must let the server start, with the
record set aside as a dead letter and every other record stored.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from procs import ServeProcess

from fakes.servers import FakeBot, fake_bot
from hexarena.store import GameStatus, PlayerRecord, Store, new_id
from hexarena.store.recorder import GameEnd, NewGame, _Op, _to_json
from hexarena.store.records import MoveRecord

pytestmark = [pytest.mark.slow, pytest.mark.fault]

REPLACED = "\ufffd"


async def _games(database_url: str, tournament_id: str) -> list[Any]:
    store = await Store.open(database_url)
    try:
        return list(await store.list_games(tournament_id=tournament_id))
    finally:
        await store.close()


async def _until_stored(server: ServeProcess, database_url: str, tournaments: dict[str, int]) -> dict[str, Any]:
    """Wait (up to 90 s) until each tournament has its number of finished games stored and nothing is pending;
    returns the last ``/healthz`` body."""
    health: dict[str, Any] = {}
    for _ in range(900):
        health = (await server.get("/healthz")).json()
        counts = {}
        for tid in tournaments:
            counts[tid] = sum(g.status == GameStatus.FINISHED for g in await _games(database_url, tid))
        if counts == tournaments and health["store"]["pending_writes"] == 0:
            return health
        assert health["ok"], health  # never degraded on the way
        await asyncio.sleep(0.1)
    raise AssertionError(f"not stored in time: {counts} of {tournaments}; health {health}")


async def _tournament(server: ServeProcess, body: dict[str, Any]) -> str:
    r = await server.post("/api/tournaments", body)
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


async def test_a_nul_in_a_tournament_name_stops_nothing(database_url: str, tmp_path: Path) -> None:
    server = ServeProcess(database_url, tmp_path / "data", tmp_path / "serve.log")
    await server.start()
    try:
        evil = await _tournament(
            server,
            {
                "game": "tictactoe",
                "players": ["builtin:random", "builtin:perfect"],
                "names": ["evil\u0000name", "b"],
                "games_per_pairing": 2,
            },
        )
        other = await _tournament(
            server, {"game": "tictactoe", "players": ["builtin:random", "builtin:perfect"], "games_per_pairing": 4}
        )
        health = await _until_stored(server, database_url, {evil: 2, other: 4})
        assert health["ok"] and health["store"]["status"] == "ok" and health["store"]["dead_letters"] == 0
        names = {p.name for g in await _games(database_url, evil) for p in g.players}
        assert names == {f"evil{REPLACED}name", "b"}
        board = (await server.get("/leaderboard/tictactoe")).json()
        assert f"evil{REPLACED}name" in json.dumps(board, ensure_ascii=False)  # rated under the stored name
        # the server still takes new work, and a restart has nothing left to replay
        again = await _tournament(
            server, {"game": "tictactoe", "players": ["builtin:random", "builtin:perfect"], "games_per_pairing": 2}
        )
        await _until_stored(server, database_url, {again: 2})
        server.stop()
        await server.start()
        assert (await server.get("/healthz")).json()["ok"]
    finally:
        server.stop()


async def _until_ended(database_url: str, game_ids: list[str]) -> list[Any]:
    """The games, once every one has ended in the store (up to 90 s)."""
    store = await Store.open(database_url)
    try:
        for _ in range(900):
            records = [await store.get_game(gid) for gid in game_ids]
            if all(r is not None and r.status != GameStatus.RUNNING for r in records):
                return records
            await asyncio.sleep(0.1)
    finally:
        await store.close()
    raise AssertionError(f"not ended in time: {[None if r is None else r.status for r in records]}")


async def test_a_nul_in_a_bws_bots_meta_name_stops_nothing(database_url: str, tmp_path: Path) -> None:
    caps = {"meta": {"name": "bot\u0000x"}, "basic_websocket": {"versions": {"v1-alpha": {}}}}
    async with fake_bot(FakeBot(capabilities=caps)) as url:
        server = ServeProcess(database_url, tmp_path / "data", tmp_path / "serve.log")
        await server.start()
        try:
            body = {"player_x": {"type": "bot", "bot_url": url}, "player_o": {"type": "builtin", "name": "random"}}
            game_ids = []
            for _ in range(3):
                r = await server.post("/game/new", body)
                assert r.status_code == 200, r.text
                game_ids.append(r.json()["game_id"])
            other = await _tournament(
                server, {"game": "tictactoe", "players": ["builtin:random", "builtin:perfect"], "games_per_pairing": 6}
            )
            records = await _until_ended(database_url, game_ids)
            assert all(r.status == GameStatus.FINISHED for r in records), [r.reason for r in records]
            board = (await server.get("/leaderboard/htttx")).json()
            assert f"bot{REPLACED}x" in json.dumps(board, ensure_ascii=False)  # rated under the name it gave
            health = await _until_stored(server, database_url, {other: 6})
            assert health["store"]["status"] == "ok" and health["store"]["dead_letters"] == 0
            r = await server.post("/game/new", body)  # and new games are still taken
            assert r.status_code == 200, r.text
        finally:
            server.stop()


def _journal_entries(good: str, poisoned: str) -> list[dict[str, Any]]:
    from datetime import UTC, datetime

    players = (
        PlayerRecord("evil\x00name", "builtin", "builtin:random"),
        PlayerRecord("b", "builtin", "builtin:random"),
    )
    moves = tuple(MoveRecord(i, i % 2, f"m{i}", datetime.now(UTC), 0.01) for i in range(3))
    out: list[dict[str, Any]] = []
    for gid, game in ((poisoned, "a game name far too long to be stored"), (good, "tictactoe")):
        new = NewGame(game_id=gid, game=game, params={}, players=players)
        end = GameEnd(gid, game, 0, "normal", "won", moves, players)
        out += [_to_json(_Op("create", gid, new)), _to_json(_Op("finish", gid, end))]
    return out


async def test_a_poisoned_journal_record_lets_the_server_start(database_url: str, tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    good, poisoned = new_id(), new_id()
    lines = [json.dumps(e) for e in _journal_entries(good, poisoned)]
    (data / "journal-1-crashed.jsonl").write_text("\n".join(lines) + "\n")
    server = ServeProcess(database_url, data, tmp_path / "serve.log")
    await server.start()  # no "Application startup failed"
    try:
        health = (await server.get("/healthz")).json()
        assert health["ok"] and health["store"]["status"] == "ok", health
        assert health["store"]["dead_letters"] == 2  # the refused creation, and the result of that game
        record = (await server.get(f"/games/{good}")).json()
        assert record["status"] == "finished" and len(record["moves"]) == 3
        assert record["players"][0]["name"] == f"evil{REPLACED}name"
        assert (await server.get(f"/games/{poisoned}")).status_code == 404
        assert not list(data.glob("journal-*.jsonl"))  # replayed once: the next start has nothing to do
        store = await Store.open(database_url)
        try:
            letters = await store.list_dead_letters()
        finally:
            await store.close()
        assert sorted(d.kind for d in letters) == ["create", "finish"] and {d.game_id for d in letters} == {poisoned}
    finally:
        server.stop()
