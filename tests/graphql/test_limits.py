"""What one GraphQL query may cost (issue 12, finding 3): aliases, depth, tokens, page sizes, turns, time, and the
database connections GraphQL may hold at once.

The finding: one query of 2,000 aliases of ``game(id) { turns { move } state }`` ran 70 s, returned 97 MB and
took every connection of the pool. Each test here failed on the code without limits.
"""

from __future__ import annotations

import asyncio
import random
from datetime import timedelta
from typing import Any

import httpx
import pytest
from sqlalchemy import event
from test_graphql import T0, seed

from fakes.servers import serve_app
from hexarena.games.htttx import HTTTX
from hexarena.server import graphql
from hexarena.server.app import Settings, create_app
from hexarena.server.graphql import limits
from hexarena.store import MoveRecord, PlayerRecord

GAME = '{{ gameType(id: "htttx") {{ {fields} }} }}'


async def post(base: str, query: str, **variables: Any) -> httpx.Response:
    async with httpx.AsyncClient(timeout=60) as http:
        return await http.post(f"{base}/graphql", json={"query": query, "variables": variables})


async def errors_of(base: str, query: str) -> list[str]:
    """The error messages of a query that must be refused (and its data must be empty)."""
    r = await post(base, query)
    body = r.json()
    assert body.get("data") is None, str(body)[:300]
    return [e["message"] for e in body["errors"]]


async def data_of(base: str, query: str, **variables: Any) -> dict[str, Any]:
    r = await post(base, query, **variables)
    body = r.json()
    assert r.status_code == 200 and "errors" not in body, str(body)[:500]
    return body["data"]  # type: ignore[no-any-return]


async def add_htttx_game(store: Any, gid: str, turns: int) -> list[str]:
    """A finished HTTTX game of ``turns`` random legal turns (win distance 32, so nobody wins early)."""
    rng, state, moves = random.Random(turns), HTTTX.new(win_distance=32), []
    for _ in range(turns):
        move = HTTTX.random_move(state, rng)
        moves.append(HTTTX.format(move))
        state = HTTTX.play(state, move)
    await store.create_game(
        game_id=gid,
        game="htttx",
        params={"win_distance": 32},
        players=[PlayerRecord("A", "battlebot"), PlayerRecord("B", "battlebot")],
    )
    recs = [
        MoveRecord(ply=i, seat=(i + 1) % 2, move=m, timestamp=T0 + timedelta(seconds=i), think_time=0.01)
        for i, m in enumerate(moves)
    ]
    await store.finish_game(gid, winner=None, termination="turn_limit", reason="turn limit", moves=recs)
    return moves


def aliased(n: int, selection: str) -> str:
    return GAME.format(fields=" ".join(f"a{i}: {selection}" for i in range(n)))


async def test_the_two_thousand_alias_query_is_refused_before_it_runs(served: tuple[str, Any]) -> None:
    base, app = served
    await add_htttx_game(app.state.services.store, "g1", 30)
    messages = await errors_of(base, aliased(2000, 'game(id: "g1") { turns { move } state }'))
    # refused while parsing (token limit) or validating (alias limit): either way, it says which limit
    assert any(
        f"more than {limits.MAX_TOKENS} tokens" in m or f"Allowed: {limits.MAX_ALIASES}" in m for m in messages
    ), messages


async def test_aliases_beyond_the_cap_are_refused(served: tuple[str, Any]) -> None:
    base, app = served
    await add_htttx_game(app.state.services.store, "g1", 3)
    n = limits.MAX_ALIASES + 1
    messages = await errors_of(base, aliased(n, 'game(id: "g1") { id }'))
    assert messages == [f"{n} aliases found. Allowed: {limits.MAX_ALIASES}"]


async def test_too_many_tokens_are_refused(served: tuple[str, Any]) -> None:
    base, _ = served
    fields = " ".join(["id name title"] * (limits.MAX_TOKENS // 3 + 1))
    messages = await errors_of(base, "{ gameTypes { " + fields + " } }")
    assert any(f"more than {limits.MAX_TOKENS} tokens" in m for m in messages), messages


async def test_deep_queries_are_refused(served: tuple[str, Any]) -> None:
    base, app = served
    await seed(app.state.services.store)
    deep = '{ gameType(id: "noughtsandcrosses") { contest(id: "spring") { games { turns { move } } } } }'
    messages = await errors_of(base, deep)
    assert messages == [f"'anonymous' exceeds maximum operation depth of {limits.MAX_QUERY_DEPTH}"]


@pytest.mark.parametrize(
    "selection",
    [
        "games(filters: {{limit: {n}}}) {{ id }}",
        'contest(id: "spring") {{ games(filters: {{limit: {n}}}) {{ id }} }}',
        "bots(limit: {n}) {{ id }}",
        "contests(limit: {n}) {{ id }}",
        'contest(id: "spring") {{ rankings(limit: {n}) {{ bot }} }}',
    ],
)
async def test_pages_above_the_cap_are_refused(served: tuple[str, Any], selection: str) -> None:
    base, app = served
    await seed(app.state.services.store)
    query = '{ gameType(id: "noughtsandcrosses") { ' + selection.format(n=limits.MAX_PAGE + 1) + " } }"
    r = await post(base, query)
    messages = [e["message"] for e in r.json()["errors"]]
    assert messages == [f"limit {limits.MAX_PAGE + 1} is above the cap of {limits.MAX_PAGE}; page with offset"]
    legal = '{ gameType(id: "noughtsandcrosses") { ' + selection.format(n=limits.MAX_PAGE) + " } }"
    await data_of(base, legal)


async def test_pages_of_bots_contests_and_rankings(served: tuple[str, Any]) -> None:
    base, app = served
    await seed(app.state.services.store)
    d = (
        await data_of(
            base,
            """{ gameType(id: "noughtsandcrosses") {
                first: bots(limit: 2) { id } rest: bots(limit: 2, offset: 2) { id }
                contests(limit: 1) { id rankings(limit: 1, offset: 1) { bot } }
            } }""",
        )
    )["gameType"]
    assert [b["id"] for b in d["first"]] == ["A", "B"] and [b["id"] for b in d["rest"]] == ["C"]
    assert d["contests"] == [{"id": "spring", "rankings": [{"bot": "B"}]}]
    r = await post(base, '{ gameType(id: "noughtsandcrosses") { bots(offset: -1) { id } } }')
    assert [e["message"] for e in r.json()["errors"]] == ["offset must be 0 or more, got -1"]


async def test_turns_come_in_capped_pages(served: tuple[str, Any]) -> None:
    base, app = served
    moves = await add_htttx_game(app.state.services.store, "long", limits.MAX_TURNS + 20)
    g = (await data_of(base, GAME.format(fields='game(id: "long") { turnCount turns { move } state }')))["gameType"][
        "game"
    ]
    assert g["turnCount"] == len(moves) and [t["move"] for t in g["turns"]] == moves[: limits.MAX_TURNS]
    assert g["state"]["complete"] is True  # the state is still the final one, after every turn
    page = await data_of(
        base, GAME.format(fields=f'game(id: "long") {{ turns(offset: {limits.MAX_TURNS}) {{ move }} }}')
    )
    assert [t["move"] for t in page["gameType"]["game"]["turns"]] == moves[limits.MAX_TURNS :]
    r = await post(base, GAME.format(fields=f'game(id: "long") {{ turns(limit: {limits.MAX_TURNS + 1}) {{ move }} }}'))
    assert [e["message"] for e in r.json()["errors"]] == [
        f"limit {limits.MAX_TURNS + 1} is above the cap of {limits.MAX_TURNS}; page with offset"
    ]


async def test_a_big_but_legal_query_works(served: tuple[str, Any]) -> None:
    """Every alias allowed, each game with a full page of turns, plus a full page of games."""
    base, app = served
    store = app.state.services.store
    moves = await add_htttx_game(store, "g0", limits.MAX_TURNS)
    for i in range(1, 12):
        await add_htttx_game(store, f"g{i}", 10)
    games = [f'a{i}: game(id: "g{i % 12}") {{ id turns {{ move turn }} state }}' for i in range(limits.MAX_ALIASES - 1)]
    query = GAME.format(fields=" ".join([*games, f"page: games(filters: {{limit: {limits.MAX_PAGE}}}) {{ id }}"]))
    d = (await data_of(base, query))["gameType"]
    assert [t["move"] for t in d["a0"]["turns"]] == moves
    assert d["a12"]["id"] == "g0" and len(d["a1"]["turns"]) == 10
    assert len(d["page"]) == 12


async def test_graphql_never_holds_more_than_its_share_of_the_pool(served: tuple[str, Any]) -> None:
    """Many concurrent aliased queries: the connections the requests check out stay within GraphQL's share, so
    the rest of the server (new matches, REST) always finds one. The server's own background tasks (the ladder's
    pass, named ``hexarena-*``) take connections of their own meanwhile; they are not GraphQL's and not counted."""
    base, app = served
    store = app.state.services.store
    for i in range(4):
        await add_htttx_game(store, f"g{i}", 5)
    pool = store._engine.pool
    held: dict[int, str] = {}  # connection record -> the task that checked it out
    seen: list[int] = []

    def requests_holding() -> int:
        return sum(1 for name in held.values() if not name.startswith("hexarena-"))

    def on_checkout(_dbapi: Any, record: Any, _proxy: Any) -> None:
        # Read at every checkout, the only moment the count grows: exact, and it leaves the event loop to the
        # queries (a task polling the pool in a loop starved them past their time limit).
        task = asyncio.current_task()
        held[id(record)] = task.get_name() if task is not None else "?"
        seen.append(requests_holding())

    def on_checkin(_dbapi: Any, record: Any) -> None:
        held.pop(id(record), None)

    query = aliased(limits.MAX_ALIASES, 'game(id: "g1") { id state }')
    event.listen(pool, "checkout", on_checkout)
    event.listen(pool, "checkin", on_checkin)
    try:
        answers = await asyncio.gather(*(post(base, query) for _ in range(limits.MAX_CONCURRENT_QUERIES)))
    finally:
        event.remove(pool, "checkout", on_checkout)
        event.remove(pool, "checkin", on_checkin)
    for r in answers:
        assert r.status_code == 200 and "errors" not in r.json(), r.text[:300]
    assert 1 <= max(seen) <= limits.DB_CONNECTIONS, max(seen)


async def test_queries_beyond_the_concurrency_bound_are_refused(served: tuple[str, Any]) -> None:
    """With every GraphQL database slot busy, queries wait; one more than the bound is refused at once."""
    base, app = served
    await add_htttx_game(app.state.services.store, "g1", 3)
    gate = app.state.graphql_gate
    for _ in range(limits.DB_CONNECTIONS):
        await gate.db.acquire()
    query = GAME.format(fields='game(id: "g1") { id }')
    waiting = [asyncio.create_task(post(base, query)) for _ in range(limits.MAX_CONCURRENT_QUERIES)]
    try:
        for _ in range(500):
            if gate.running == limits.MAX_CONCURRENT_QUERIES:
                break
            await asyncio.sleep(0.01)
        extra = await post(base, query)
        assert extra.status_code == 429
        assert extra.json()["detail"] == (
            f"{limits.MAX_CONCURRENT_QUERIES} GraphQL queries are running; try again shortly"
        )
        assert not any(t.done() for t in waiting)
    finally:
        for _ in range(limits.DB_CONNECTIONS):
            gate.db.release()
    for r in await asyncio.gather(*waiting):
        assert r.json()["data"]["gameType"]["game"]["id"] == "g1"
    assert gate.running == 0


async def test_a_query_that_runs_too_long_is_cancelled(migrated_database_url: str) -> None:
    """A query still waiting for the database when its time is up gets a clear error; its slot is given back."""
    app = create_app(Settings(database_url=migrated_database_url, graphql=graphql.GraphQLLimits(timeout=0.3)))
    async with serve_app(app) as base:
        await add_htttx_game(app.state.services.store, "g1", 3)
        gate = app.state.graphql_gate
        for _ in range(limits.DB_CONNECTIONS):
            await gate.db.acquire()
        try:
            r = await post(base, GAME.format(fields='game(id: "g1") { id }'))
        finally:
            for _ in range(limits.DB_CONNECTIONS):
                gate.db.release()
        assert r.status_code == 200 and r.json()["data"] is None
        assert [e["message"] for e in r.json()["errors"]] == [
            "the query ran longer than 0.3 s and was cancelled; ask for fewer games, turns or aliases"
        ]
        assert gate.running == 0
        d = await data_of(base, GAME.format(fields='game(id: "g1") { id }'))
        assert d["gameType"]["game"]["id"] == "g1"


async def test_the_rest_twin_has_the_same_caps(served: tuple[str, Any]) -> None:
    base, app = served
    await seed(app.state.services.store)
    moves = await add_htttx_game(app.state.services.store, "long", limits.MAX_TURNS + 5)
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        r = await http.get("/api/gametypes/tictactoe/games", params={"limit": limits.MAX_PAGE + 1})
        assert r.status_code == 422 and f"less than or equal to {limits.MAX_PAGE}" in r.text
        assert (await http.get("/api/gametypes/tictactoe/games", params={"limit": limits.MAX_PAGE})).status_code == 200
        one = (await http.get("/api/gametypes/htttx/games/long")).json()
        assert one["turnCount"] == len(moves) and [t["move"] for t in one["turns"]] == moves[: limits.MAX_TURNS]
        rest = (await http.get("/api/gametypes/htttx/games/long", params={"turnsOffset": limits.MAX_TURNS})).json()
        assert [t["move"] for t in rest["turns"]] == moves[limits.MAX_TURNS :]
        r = await http.get("/api/gametypes/htttx/games/long", params={"turnsLimit": limits.MAX_TURNS + 1})
        assert r.status_code == 422 and f"less than or equal to {limits.MAX_TURNS}" in r.text


async def test_a_repeated_query_is_validated_once_and_refused_every_time(served: tuple[str, Any]) -> None:
    """Validation results are kept per query (it was most of a small query's CPU); the limits, being validation
    rules, still refuse a query however often it comes, and a kept result is only ever its own query's."""
    from strawberry.extensions.validation_cache import _get_validate_cache

    from hexarena.server.graphql.schema import VALIDATIONS_KEPT

    base, app = served
    await seed(app.state.services.store)
    cache = _get_validate_cache(VALIDATIONS_KEPT)
    query = "{ gameTypes { id name } }"
    await data_of(base, query)
    before = cache.cache_info()
    for _ in range(3):
        assert (await data_of(base, query))["gameTypes"]
    after = cache.cache_info()
    assert after.hits - before.hits == 3 and after.misses == before.misses  # validated once, not four times
    deep = '{ gameType(id: "noughtsandcrosses") { contest(id: "spring") { games { turns { move } } } } }'
    refusal = [f"'anonymous' exceeds maximum operation depth of {limits.MAX_QUERY_DEPTH}"]
    for _ in range(3):
        assert await errors_of(base, deep) == refusal
    n = limits.MAX_ALIASES + 1
    for _ in range(2):
        assert await errors_of(base, aliased(n, "name")) == [f"{n} aliases found. Allowed: {limits.MAX_ALIASES}"]
