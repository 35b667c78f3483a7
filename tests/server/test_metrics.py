"""``GET /metrics`` (issue 28, "what an operator watches"): the numbers move when real matches are played.

Real servers on loopback with a real SQLite file; matches between built-in bots played to their end. The
counters are read in the Prometheus text format with prometheus-client's own parser, as a scraper reads them.
Public mode guards the page with the operator's metrics token: 401 without it, 403 with another one or when
none is configured, 200 with it.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from prometheus_client.parser import text_string_to_metric_families

from fakes.servers import CLOSE, FakeBot, serve_app
from hexarena.server.app import Settings, create_app

WAIT = 60.0  # seconds a poll waits for a condition (the machine may be loaded)


def arena(tmp_path: Path, **settings: Any) -> FastAPI:
    return create_app(Settings(database_url=f"sqlite+aiosqlite:///{tmp_path / 'db.sqlite3'}", **settings))


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[str]:
    app = arena(tmp_path, create_rate_limit=None, open_seat_seconds=1.0)
    async with serve_app(app) as url:
        yield url


async def scrape(client: httpx.AsyncClient, **kwargs: Any) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of ``/metrics``: (name, sorted labels) -> value."""
    r = await client.get("/metrics", **kwargs)
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("text/plain"), r.headers
    out = {}
    for family in text_string_to_metric_families(r.text):
        for s in family.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


def value(samples: dict[tuple[str, tuple[tuple[str, str], ...]], float], name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


async def until(check: Any, what: str) -> None:
    for _ in range(int(WAIT / 0.05)):
        if await check():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"waited {WAIT} s for {what}")


async def test_the_numbers_follow_real_matches(server: str) -> None:
    async with httpx.AsyncClient(base_url=server, timeout=30) as client:
        before = await scrape(client)
        assert value(before, "hexarena_moves_total", game="numberwang") == 0
        assert value(before, "process_resident_memory_bytes") > 0
        assert ("hexarena_store_queue_depth", ()) in before and ("hexarena_journal_entries", ()) in before
        assert value(before, "hexarena_cluster_enabled") == 0
        # every game's live count is there, at 0, before anything is played
        assert ("hexarena_live_matches", (("game", "numberwang"),)) in before, before

        # a match between two bots, played to its end
        r = await client.post("/api/matches", json={"game": "numberwang", "players": ["builtin:random"] * 2})
        assert r.status_code == 200, r.text
        game_id = r.json()["game_id"]

        async def stored() -> bool:
            g = await client.get(f"/games/{game_id}")
            return g.status_code == 200 and g.json()["status"] != "running"

        await until(stored, "the bots' match to end")
        record = (await client.get(f"/games/{game_id}")).json()
        plies = len(record["moves"])
        assert plies > 0, record
        after = await scrape(client)
        assert value(after, "hexarena_moves_total", game="numberwang") == plies
        assert value(after, "hexarena_move_latency_seconds_count", game="numberwang") == plies
        assert value(after, "hexarena_referee_cpu_seconds_count", game="numberwang") == plies
        assert value(after, "hexarena_referee_cpu_seconds_sum", game="numberwang") > 0
        assert value(after, "hexarena_terminations_total", game="numberwang", termination=record["termination"]) == 1

        # a match with a seat nobody takes: live while it waits, then aborted (open_seat_seconds=1)
        r = await client.post("/api/matches", json={"game": "numberwang", "players": ["open:guest", "builtin:random"]})
        assert r.status_code == 200, r.text
        waiting = await scrape(client)
        assert value(waiting, "hexarena_live_matches", game="numberwang") == 1

        async def aborted() -> bool:
            now = await scrape(client)
            return value(now, "hexarena_terminations_total", game="numberwang", termination="aborted") == 1

        await until(aborted, "the unjoined match to be aborted")
        end = await scrape(client)
        assert end[("hexarena_live_matches", (("game", "numberwang"),))] == 0
        # a person who never came is not a bot error
        assert not [k for k in end if k[0] == "hexarena_bot_errors_total"], end


async def test_a_bot_that_fails_is_counted_by_kind(tmp_path: Path) -> None:
    """A bws bot that hangs up after the setup: the match ends by its fault and its bot error is counted."""
    bot = FakeBot(after_setup=[CLOSE])
    app = arena(tmp_path, create_rate_limit=None)
    async with (
        serve_app(bot.app) as bot_url,
        serve_app(app) as url,
        httpx.AsyncClient(base_url=url, timeout=30) as client,
    ):
        players = [f"bws:{bot_url}/", "builtin:random"]
        r = await client.post("/api/matches", json={"game": "htttx", "players": players})
        assert r.status_code == 200, r.text

        async def ended() -> dict[str, float]:
            now = await scrape(client)
            return {dict(k[1])["kind"]: v for k, v in now.items() if k[0] == "hexarena_bot_errors_total"}

        async def counted() -> bool:
            return bool(await ended())

        await until(counted, "the bot's error to be counted")
        errors = await ended()
        samples = await scrape(client)
        ends = {dict(k[1])["termination"]: v for k, v in samples.items() if k[0] == "hexarena_terminations_total"}
        assert errors == ends and list(errors.values()) == [1.0], (errors, ends)
        assert set(errors) <= {"disconnect", "protocol"}, errors
        assert value(samples, "hexarena_bot_errors_total", kind=next(iter(errors)), player_kind="bws") == 1


async def test_two_servers_in_one_process_keep_their_own_numbers(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    a, b = arena(tmp_path / "a", create_rate_limit=None), arena(tmp_path / "b", create_rate_limit=None)
    async with (
        serve_app(a) as url_a,
        serve_app(b) as url_b,
        httpx.AsyncClient(base_url=url_a, timeout=30) as ca,
        httpx.AsyncClient(base_url=url_b, timeout=30) as cb,
    ):
        r = await ca.post("/api/matches", json={"game": "numberwang", "players": ["builtin:random"] * 2})
        assert r.status_code == 200, r.text

        async def ended() -> bool:
            now = await scrape(ca)
            return sum(v for k, v in now.items() if k[0] == "hexarena_terminations_total") == 1

        await until(ended, "the match on server A to end")
        other = await scrape(cb)
        assert value(other, "hexarena_moves_total", game="numberwang") == 0
        assert not [k for k in other if k[0] == "hexarena_terminations_total"]


# ----- public mode: the operator's token -----

TOKEN = "metrics-secret-0123456789abcdef"


async def test_public_metrics_need_the_operators_token(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    app = arena(tmp_path, public=True, metrics_token=TOKEN)
    assert TOKEN not in repr(app.state) and TOKEN not in repr(Settings(metrics_token=TOKEN))
    async with serve_app(app) as url, httpx.AsyncClient(base_url=url, timeout=30) as client:
        r = await client.get("/metrics")
        assert r.status_code == 401, r.text
        assert r.headers["WWW-Authenticate"].startswith("Bearer")
        for wrong in (TOKEN[:-1], TOKEN + "x", "x"):
            r = await client.get("/metrics", headers={"Authorization": f"Bearer {wrong}"})
            assert r.status_code == 403, r.text
        r = await client.get("/metrics/", headers={"Authorization": f"Bearer {TOKEN[:-1]}"})
        assert r.status_code == 403, r.text
        samples = await scrape(client, headers={"Authorization": f"Bearer {TOKEN}"})
        assert value(samples, "process_resident_memory_bytes") > 0
    assert TOKEN not in caplog.text


async def test_public_metrics_are_refused_while_no_token_is_configured(tmp_path: Path) -> None:
    app = arena(tmp_path, public=True, metrics_token=None)
    async with serve_app(app) as url, httpx.AsyncClient(base_url=url, timeout=30) as client:
        for headers in ({}, {"Authorization": "Bearer anything"}, {"Authorization": "Basic YTpi"}):
            r = await client.get("/metrics", headers=headers)
            assert r.status_code == 403, r.text
            assert "--metrics-token-file" in r.json()["detail"]


# ----- several instances: the leases -----


@pytest.mark.postgres
@pytest.mark.skipif(not os.environ.get("HEXARENA_TEST_DATABASE_URL"), reason="needs HEXARENA_TEST_DATABASE_URL")
@pytest.mark.parametrize("migrated_database_url", ["postgresql"], indirect=True)
async def test_leases_held_follow_the_live_match(migrated_database_url: str, tmp_path: Path) -> None:
    redis_url = os.environ.get("HEXARENA_TEST_REDIS_URL", "redis://127.0.0.1:6379")
    app = create_app(
        Settings(
            database_url=migrated_database_url,
            redis_url=redis_url,
            data_dir=tmp_path / "data",
            create_rate_limit=None,
            open_seat_seconds=3.0,
        )
    )
    async with serve_app(app) as url, httpx.AsyncClient(base_url=url, timeout=30) as client:
        before = await scrape(client)
        assert value(before, "hexarena_cluster_enabled") == 1
        assert value(before, "hexarena_leases_held", kind="match") == 0
        r = await client.post("/api/matches", json={"game": "numberwang", "players": ["open:guest", "builtin:random"]})
        assert r.status_code == 200, r.text
        waiting = await scrape(client)
        assert value(waiting, "hexarena_leases_held", kind="match") == 1
        assert value(waiting, "hexarena_live_matches", game="numberwang") == 1

        async def released() -> bool:
            now = await scrape(client)
            return value(now, "hexarena_leases_held", kind="match") == 0

        await until(released, "the aborted match's lease to be released")
        end = await scrape(client)
        assert {k[0].removesuffix("_total") for k in end} >= CLUSTER_ONLY - {"hexarena_cluster_home_held"}
        assert value(end, "hexarena_terminations_total", game="numberwang", termination="aborted") == 1


# ----- the operator's documents -----

DOCS = Path(__file__).resolve().parents[2] / "docs" / "operations"
#: Families only an instance of several (``--redis-url``) has: checked by the lease test above.
CLUSTER_ONLY = {
    "hexarena_leases_held",
    "hexarena_cluster_home_held",
    "hexarena_cluster_watched_matches",
    "hexarena_cluster_scans",
}


def documented() -> set[str]:
    """The metric names docs/operations/metrics.md lists (its table's first column), as families (no _total)."""
    names = re.findall(r"^\| `([a-z_]+)`", (DOCS / "metrics.md").read_text(encoding="utf-8"), re.MULTILINE)
    return {n.removesuffix("_total") for n in names}


async def test_every_metric_is_documented_and_nothing_else(tmp_path: Path) -> None:
    app = arena(tmp_path)
    async with serve_app(app) as url, httpx.AsyncClient(base_url=url, timeout=30) as client:
        text = (await client.get("/metrics")).text
        # the dead-letter count exists with a recorder that sets refused writes aside (and counts them)
        counts_dead_letters = isinstance(getattr(app.state.services.recorder, "dead_letters", None), int)
    exposed = {family.name for family in text_string_to_metric_families(text)}
    assert exposed - documented() == set()
    assert documented() - exposed == CLUSTER_ONLY | (set() if counts_dead_letters else {"hexarena_dead_letters"})


def test_the_grafana_dashboard_queries_documented_metrics() -> None:
    board = json.loads((DOCS / "grafana-dashboard.json").read_text(encoding="utf-8"))
    assert board["title"] and board["schemaVersion"] and board["uid"]
    exprs = [t["expr"] for p in board["panels"] for t in p.get("targets", [])]
    assert len(exprs) >= 8, exprs
    used = {re.sub(r"_(total|bucket|count|sum)$", "", n) for e in exprs for n in re.findall(r"\b[a-z_]+_[a-z_]+\b", e)}
    metrics = {n for n in used if n.startswith(("hexarena_", "process_"))}
    assert metrics - documented() == set(), metrics
    assert {n for n in documented() if n.startswith("hexarena_")} - metrics <= {"hexarena_cluster_enabled"}
