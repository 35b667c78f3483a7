"""The ladder end to end: a real server on loopback with its store, real SDK bot servers registered over the API,
the scheduler playing them, the Glicko-2 leaderboard moving, and a bot that always plays an illegal move paused
with the reason and check-bot's report. A restart on the same database resumes the ladder.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from fakes.servers import FakeBot, fake_bot, move_response, serve_app
from hexarena.bots.sdk import bot_class_for, make_app
from hexarena.checkbot.htttx import REACT_ENV
from hexarena.checkbot.ladder import report_for
from hexarena.server.app import Settings, create_app
from hexarena.server.ladder_pairing import LadderSettings

#: Ladder games are kept short (a turn limit) so that a test plays several of them.
PARAMS = {"htttx": {"turn_limit": 12}}


def settings(database_url: str, tmp: Any, **ladder: Any) -> Settings:
    pace: dict[str, Any] = dict(games_per_hour=36_000, concurrency=2, fail_limit=2, tick=0.05, params=PARAMS)
    pace.update(ladder)
    out = Settings(database_url=database_url, data_dir=tmp, ladder=LadderSettings(checker=report_for, **pace))
    out.create_rate_limit = None
    return out


@contextlib.asynccontextmanager
async def sdk_bots(*names: str) -> AsyncIterator[list[str]]:
    async with contextlib.AsyncExitStack() as stack:
        yield [await stack.enter_async_context(serve_app(make_app(bot_class_for(n)))) for n in names]


async def until(client: httpx.AsyncClient, path: str, ok: Any, what: str, timeout: float = 120.0) -> Any:
    """Poll ``path`` until ``ok(json)``; the bound is generous (a loaded machine), the test never times itself."""
    body: Any = None
    for _ in range(int(timeout / 0.1)):
        r = await client.get(path)
        body = r.json()
        if r.status_code == 200 and ok(body):
            return body
        await asyncio.sleep(0.1)
    raise AssertionError(f"{what}: never happened; last answer {body}")


async def register(client: httpx.AsyncClient, name: str, spec: str, **more: Any) -> httpx.Response:
    body = {"name": name, "game": "htttx", "spec": spec, "owner": f"{name}@example.org", **more}
    return await client.post("/api/ladder/bots", json=body)


async def test_the_ladder_plays_rates_and_pauses_a_failing_bot(
    migrated_database_url: str, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    illegal = FakeBot([move_response([[0, 0], [1, 0]])] * 200)  # the occupied origin, every time
    # each pause's check-bot report: the scripted bot answers at once and never closes on a stray heartbeat, so
    # check-bot's default margin for real bots (5 s) would only be waited out, twice
    monkeypatch.setenv(REACT_ENV, "0.5")
    app = create_app(settings(migrated_database_url, tmp_path))
    async with (
        sdk_bots("heuristic", "random", "random") as (heuristic, random1, random2),
        fake_bot(illegal) as broken,
        serve_app(app) as url,
        httpx.AsyncClient(base_url=url, timeout=30) as client,
    ):
        for name, spec in [("heur", heuristic), ("rand1", random1), ("rand2", f"stateless:{random2}")]:
            r = await register(client, name, spec, max_concurrent=2)
            assert r.status_code == 201, r.text
        assert (await register(client, "broken", f"bws:{broken}")).status_code == 201
        bot = await until(
            client, "/api/ladder/bots/broken", lambda b: b["status"] == "paused" and b["report"], "broken paused"
        )
        assert "illegal_move" in bot["pause_reason"] and "2 failed games in a row" in bot["pause_reason"]
        assert bot["forfeits"] >= 2 and bot["failures_in_row"] >= 2
        report = bot["report"]
        assert report["ok"] is False
        failed = [c for c in report["checks"] if c["status"] == "fail"]
        assert any("occupied" in c["detail"] for c in failed), failed
        assert all(g["failed"] == "broken" for g in bot["games_list"] if g["finished_at"] and g["failed"])

        ladder = await until(
            client,
            "/api/ladder",
            lambda b: sum(s["games"] for s in b["standings"] if s["name"] != "broken") >= 8,
            "eight ladder games played",
        )
        standing = {s["name"]: s for s in ladder["standings"]}
        assert standing["broken"]["status"] == "paused"
        assert all(standing[n]["status"] == "active" and standing[n]["failures_in_row"] == 0 for n in ("heur", "rand1"))
        recent = ladder["recent"]
        assert recent and all(len(g["players"]) == 2 and g["players"][0] != g["players"][1] for g in recent)
        board = (await client.get("/leaderboard/htttx")).json()["ratings"]
        rated = {r["player"]: r for r in board}
        assert {"heur", "rand1", "rand2"} <= set(rated)  # ladder games are ordinary rated matches
        assert all(rated[n]["rating"] != 1500.0 for n in ("heur", "rand1", "rand2"))
        some = recent[0]["game_id"]
        record = (await client.get(f"/games/{some}")).json()  # an ordinary recorded match
        assert [p["name"] for p in record["players"]] == recent[0]["players"]

        # nothing pairs a paused bot: its game count stands still while the others play on
        played = standing["broken"]["games"] + standing["broken"]["forfeits"]
        await until(
            client,
            "/api/ladder",
            lambda b: sum(s["games"] for s in b["standings"]) >= sum(s["games"] for s in ladder["standings"]) + 4,
            "four more games",
        )
        again = (await client.get("/api/ladder/bots/broken")).json()
        assert again["games"] + again["forfeits"] == played
        # the owner fixes nothing, the operator resumes it: paired again, its streak starts over
        resumed = (await client.post("/api/ladder/bots/broken/resume")).json()
        assert resumed["status"] == "active" and resumed["failures_in_row"] == 0
        await until(client, "/api/ladder/bots/broken", lambda b: b["status"] == "paused", "paused again")


async def test_a_bot_whose_games_cannot_start_is_paused(migrated_database_url: str, tmp_path: Any) -> None:
    """It answers its capabilities, but its socket is not where they say: each game is aborted, its fault."""
    caps = {"meta": {"name": "lost"}, "basic_websocket": {"versions": {"v1-alpha": {"api_root": "nowhere"}}}}
    lost = FakeBot(capabilities=caps, api_root="elsewhere")
    app = create_app(settings(migrated_database_url, tmp_path))
    async with (
        sdk_bots("random") as (rand,),
        fake_bot(lost) as lost_url,
        serve_app(app) as url,
        httpx.AsyncClient(base_url=url, timeout=30) as client,
    ):
        assert (await register(client, "rand", rand)).status_code == 201
        assert (await register(client, "lost", lost_url)).status_code == 201
        bot = await until(client, "/api/ladder/bots/lost", lambda b: b["status"] == "paused", "lost paused")
        assert "aborted" in bot["pause_reason"] and "could not start" in bot["pause_reason"]
        rand_now = (await client.get("/api/ladder/bots/rand")).json()
        assert rand_now["failures_in_row"] == 0 and rand_now["games"] == 0  # no result, and not its fault


async def test_a_restart_resumes_the_ladder(migrated_database_url: str, tmp_path: Any) -> None:
    """The entries live in the database: a new server on it pairs them again, and the game the first one left
    unfinished is settled (interrupted: no result, nobody's failure)."""
    endless = {"htttx": {"turn_limit": 100_000}}  # the first server's game is still running when it stops
    async with sdk_bots("random", "random") as (a, b):
        first = settings(migrated_database_url, tmp_path / "1", concurrency=1, params=endless)
        async with serve_app(create_app(first)) as url, httpx.AsyncClient(base_url=url, timeout=30) as client:
            assert (await register(client, "one", a)).status_code == 201
            assert (await register(client, "two", b)).status_code == 201
            started = await until(client, "/api/ladder", lambda j: j["recent"], "a game")
        left = started["recent"][0]["game_id"]
        app = create_app(settings(migrated_database_url, tmp_path / "2", concurrency=1))
        async with serve_app(app) as url, httpx.AsyncClient(base_url=url, timeout=30) as client:
            ladder = await until(
                client,
                "/api/ladder",
                lambda j: sum(s["games"] for s in j["standings"]) >= 4,
                "the ladder going on after the restart",
            )
            settled = {g["game_id"]: g for g in ladder["recent"]}[left]
            assert settled["termination"] == "interrupted" and settled["failed"] is None and settled["finished_at"]
            assert all(s["failures_in_row"] == 0 and s["status"] == "active" for s in ladder["standings"])
            one, two = (s["games"] for s in ladder["standings"])
            assert one == two >= 2  # both played every game counted


async def test_a_removed_bot_leaves_nothing_in_the_scheduler(migrated_database_url: str, tmp_path: Any) -> None:
    """What pairing remembers of a bot between passes goes with the bot: a server left up for months forgets
    the bots taken off its ladder."""
    app = create_app(settings(migrated_database_url, tmp_path, concurrency=1))
    async with (
        sdk_bots("random", "random") as (a, b),
        serve_app(app) as url,
        httpx.AsyncClient(base_url=url, timeout=30) as client,
    ):
        assert (await register(client, "one", a)).status_code == 201
        assert (await register(client, "two", b)).status_code == 201
        await until(client, "/api/ladder", lambda j: j["recent"], "a game")
        assert app.state.ladder.remembered() == {"one", "two"}
        assert (await client.delete("/api/ladder/bots/two")).status_code == 200
        for _ in range(600):
            if app.state.ladder.remembered() == {"one"}:
                break
            await asyncio.sleep(0.05)
        assert app.state.ladder.remembered() == {"one"}


async def test_registration_is_bounded_and_takes_only_network_bots(migrated_database_url: str, tmp_path: Any) -> None:
    app = create_app(settings(migrated_database_url, tmp_path, max_bots=2, enabled=False))
    async with serve_app(app) as url, httpx.AsyncClient(base_url=url, timeout=30) as client:
        for spec in ("uais:./mybot", "htp:python3 bot.py", "engine:mybot", "builtin:random", "human:me"):
            r = await register(client, "x", spec)
            assert r.status_code == 400 and "never a command" in r.json()["detail"], (spec, r.text)
        r = await client.post(
            "/api/ladder/bots", json={"name": "../x", "game": "htttx", "spec": "http://a", "owner": "o"}
        )
        assert r.status_code == 422
        assert (await register(client, "a", "http://127.0.0.1:1")).status_code == 201
        assert (await register(client, "a", "http://127.0.0.1:2")).status_code == 409  # a name is one bot's
        assert (await register(client, "b", "battlebot:somebot")).status_code == 201
        r = await register(client, "c", "http://127.0.0.1:3")
        assert r.status_code == 409 and "full" in r.json()["detail"]
        assert (await client.post("/api/ladder/bots/nobody/pause")).status_code == 404
        paused = (await client.post("/api/ladder/bots/a/pause", json={"reason": "maintenance"})).json()
        assert paused["status"] == "paused" and paused["pause_reason"] == "maintenance"
        assert (await client.delete("/api/ladder/bots/a")).status_code == 200
        assert [s["name"] for s in (await client.get("/api/ladder")).json()["standings"]] == ["b"]
        schema = (await client.get("/openapi.json")).json()
        assert {"/api/ladder", "/api/ladder/bots", "/api/ladder/bots/{name}/resume"} <= set(schema["paths"])


async def test_public_mode_needs_a_token_and_refuses_private_bot_addresses(
    migrated_database_url: str, tmp_path: Any
) -> None:
    from hexarena.store import Store

    store = await Store.open(migrated_database_url)
    try:
        _, token = await store.create_api_token("ladder-admin")
    finally:
        await store.close()
    public = settings(migrated_database_url, tmp_path, enabled=False)
    public.public = True
    async with serve_app(create_app(public)) as url, httpx.AsyncClient(base_url=url, timeout=30) as client:
        r = await register(client, "mine", "http://127.0.0.1:8002")
        assert r.status_code == 401 and "API token" in r.json()["detail"]
        assert (await client.post("/api/ladder/bots/mine/pause")).status_code == 401
        assert (await client.delete("/api/ladder/bots/mine")).status_code == 401
        client.headers["Authorization"] = f"Bearer {token}"
        r = await register(client, "mine", "http://127.0.0.1:8002")
        assert r.status_code == 400 and "not public" in r.json()["detail"], r.text
        r = await register(client, "mine", "bws:http://10.1.2.3:8002")
        assert r.status_code == 400 and "not public" in r.json()["detail"], r.text
        assert (await client.get("/api/ladder")).json()["standings"] == []
