"""A server match without a clock caps every move (``hexarena serve --move-cap``), like ``hexarena play``:
a bot that goes silent loses on time instead of leaving the match ``running`` forever."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from fakes.servers import SILENCE, FakeBot, fake_bot, serve_app
from hexarena.referee.clock import DEFAULT_MOVE_CAP, capped, clock_from
from hexarena.server.app import Settings, create_app


async def _ended(client: httpx.AsyncClient, game_id: str) -> dict[str, Any]:
    for _ in range(600):  # up to 60 s: the cap is 1 s, the rest is slack for a loaded machine
        record = (await client.get(f"/games/{game_id}")).json()
        if record.get("status") != "running":
            return record  # type: ignore[no-any-return]
        await asyncio.sleep(0.1)
    raise AssertionError(f"match {game_id} still running: {record}")


async def test_a_silent_bot_loses_on_time_under_the_servers_move_cap(migrated_database_url: str) -> None:
    app = create_app(Settings(database_url=migrated_database_url, move_cap=1.0))
    async with (
        fake_bot(FakeBot([SILENCE] * 100)) as bot,
        serve_app(app) as url,
        httpx.AsyncClient(base_url=url, timeout=30) as client,
    ):
        r = await client.post("/api/matches", json={"game": "htttx", "players": [f"bws:{bot}", "builtin:random"]})
        assert r.status_code == 200, r.text
        record = await _ended(client, r.json()["game_id"])
        assert record["status"] == "finished" and record["termination"] == "time", record
        assert record["winner"] == 1, record
        r = await client.post(
            "/game/new",
            json={"player_x": {"type": "bot", "bot_url": bot}, "player_o": {"type": "builtin", "name": "random"}},
        )
        assert r.status_code == 200, r.text
        record = await _ended(client, r.json()["game_id"])
        assert record["termination"] == "time" and record["winner"] == 1, record


def test_the_cap_is_one_rule_shared_with_the_cli() -> None:
    from hexarena import cli

    assert cli.DEFAULT_MOVE_CAP == DEFAULT_MOVE_CAP == Settings().move_cap
    none = clock_from("none")
    assert capped(none, 7.0) == clock_from("turn", 7.0)
    assert capped(none, 0) == none  # 0: no cap
    clocked = clock_from("match", 30.0)
    assert capped(clocked, 7.0) is clocked  # a clock of the user's own is kept


async def test_a_tournament_without_a_clock_ends_despite_a_silent_bot(migrated_database_url: str) -> None:
    app = create_app(Settings(database_url=migrated_database_url, move_cap=1.0))
    async with (
        fake_bot(FakeBot([SILENCE] * 100)) as bot,
        serve_app(app) as url,
        httpx.AsyncClient(base_url=url, timeout=30) as client,
    ):
        body = {"game": "htttx", "players": [f"bws:{bot}", "builtin:random"], "games_per_pairing": 2}
        r = await client.post("/api/tournaments", json=body)
        assert r.status_code == 201, r.text
        tid = r.json()["id"]
        for _ in range(900):  # up to 90 s
            info = (await client.get(f"/api/tournaments/{tid}")).json()
            if info["status"] != "running":
                break
            await asyncio.sleep(0.1)
        assert info["status"] == "finished", info
        assert info["config"]["clock"] == {"kind": "turn", "seconds": 1.0, "increment": 0.0}, info["config"]
