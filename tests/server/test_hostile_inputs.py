"""Hostile client input against a real server (uvicorn on loopback, the real store): every bad request gets a
4xx that says what is wrong, in a small strict-JSON answer, and nothing unbounded is accepted.

One test per finding of issue 12 (items 5 and 6), each of which failed on the code before the fix: NaN and
Infinity clocks, lone surrogates, ``/games`` query parameters, a hiveai port out of range, tournament fields of
the wrong type, a database error's text in a 422, unbounded tournaments, names, clocks, workers and ids, and
megabyte fields echoed back. Then every JSON body the OpenAPI schema declares is checked to be bounded.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from fakes.servers import serve_app
from hexarena.server.app import Settings, create_app
from hexarena.server.errors import MAX_ECHO
from hexarena.server.schemas import MAX_BODY_BYTES, MAX_CLOCK_SECONDS, MAX_NAME, MAX_WORKERS
from hexarena.server.tournament_request import MAX_GAMES

PAIR = ["builtin:random", "builtin:perfect"]
#: An error answer may quote a bad input (cut to MAX_ECHO characters) and say why, and no more.
SMALL_ANSWER = 4 * MAX_ECHO + 1000


@pytest.fixture
async def server(migrated_database_url: str) -> AsyncIterator[httpx.AsyncClient]:
    app = create_app(Settings(database_url=migrated_database_url))
    async with serve_app(app) as url, httpx.AsyncClient(base_url=url, timeout=30) as client:
        yield client


async def send(client: httpx.AsyncClient, method: str, path: str, body: str | bytes | None = None) -> httpx.Response:
    """``body`` as sent (raw JSON text: NaN, Infinity and ``\\ud800`` escapes are what an attacker types)."""
    headers = {"content-type": "application/json"} if body is not None else {}
    return await client.request(method, path, content=body, headers=headers)


def refused(r: httpx.Response, status: int, *words: str) -> str:
    """Assert a small, strict-JSON ``status`` answer that names the problem; return its text."""
    assert r.status_code == status, (r.status_code, r.text[:500])
    assert len(r.content) < SMALL_ANSWER, len(r.content)
    r.content.decode("utf-8")  # valid UTF-8: no lone surrogate slipped through
    json.loads(r.text, parse_constant=lambda c: pytest.fail(f"non-JSON constant {c} in {r.text[:200]}"))
    for word in words:
        assert word.lower() in r.text.lower(), (word, r.text)
    return r.text


def tournament(**fields: Any) -> str:
    return json.dumps({"game": "tictactoe", "players": PAIR, **fields})


async def no_tournaments(client: httpx.AsyncClient) -> None:
    r = await client.get("/api/tournaments")
    assert r.status_code == 200 and r.json() == [], r.text


# ----- 5. 500s on client input -----


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity"])
async def test_non_finite_clocks_are_refused_by_name(server: httpx.AsyncClient, number: str) -> None:
    match = (
        f'{{"game":"htttx","players":["builtin:random","builtin:random"],"clock":{{"type":"turn","seconds":{number}}}}}'
    )
    refused(await send(server, "POST", "/api/matches", match), 422, "finite", "seconds")
    new_game = (
        '{"player_x":{"type":"builtin","name":"random"},"player_o":{"type":"builtin","name":"random"},'
        f'"match_config":{{"clock_type":"turn","clock":{number}}}}}'
    )
    refused(await send(server, "POST", "/game/new", new_game), 422, "finite", "clock")
    body = tournament()[:-1] + f',"clock":{{"kind":"turn","seconds":{number}}}}}'
    refused(await send(server, "POST", "/api/tournaments", body), 422, "finite", "seconds")
    refused(await send(server, "POST", "/api/tournaments", tournament()[:-1] + f',"time_margin":{number}}}'), 422)
    await no_tournaments(server)


async def test_lone_surrogates_are_refused_by_name(server: httpx.AsyncClient) -> None:
    seat = '{"player_x":{"type":"human","name":"a\\ud800"},"player_o":{"type":"builtin","name":"random"}}'
    refused(await send(server, "POST", "/game/new", seat), 422, "surrogate", "name")
    game = '{"game":"\\udfff","players":["builtin:random","builtin:random"]}'
    refused(await send(server, "POST", "/api/matches", game), 422, "surrogate", "game")
    owner = '{"bot_id":"abc","owner":"me\\ud83d"}'
    refused(await send(server, "POST", "/bots/hive", owner), 400, "surrogate", "owner")
    named = tournament()[:-1] + ',"name":"\\ud800"}'
    refused(await send(server, "POST", "/api/tournaments", named), 422, "surrogate", "name")
    await no_tournaments(server)


async def test_games_listing_refuses_an_unknown_status_listing_the_known_ones(server: httpx.AsyncClient) -> None:
    text = refused(await server.get("/games", params={"status": "bogus"}), 422, "status")
    for status in ("pending", "running", "finished", "aborted"):
        assert status in text
    assert (await server.get("/games", params={"status": "finished"})).json() == []


@pytest.mark.parametrize("offset", ["1e23", str(10**23), "-1"])
async def test_games_listing_refuses_an_offset_out_of_range(server: httpx.AsyncClient, offset: str) -> None:
    refused(await server.get("/games", params={"offset": offset}), 422, "offset")


@pytest.mark.parametrize("port", ["99999", "0", "http", "-1"])
async def test_a_hiveai_port_out_of_range_is_the_clients_error(server: httpx.AsyncClient, port: str) -> None:
    body = json.dumps({"game": "hive", "players": [f"hiveai:127.0.0.1:{port}", "builtin:random"]})
    refused(await send(server, "POST", "/api/matches", body), 400, "port", "65535")
    assert (await server.get("/api/matches/live")).json() == []


@pytest.mark.parametrize(
    ("field", "value"),
    [("rounds", 1.5), ("games_per_pairing", 2.5), ("processes", "many"), ("concurrency", True), ("seed", "x")],
)
async def test_tournament_fields_of_the_wrong_type_are_refused_and_nothing_starts(
    server: httpx.AsyncClient, field: str, value: Any
) -> None:
    refused(await send(server, "POST", "/api/tournaments", tournament(**{field: value})), 422, field)
    await no_tournaments(server)


async def test_a_database_error_never_reaches_the_client(server: httpx.AsyncClient) -> None:
    """Names with a lone surrogate reached the database: PostgreSQL's own words came back in a 422."""
    body = tournament()[:-1] + ',"names":["\\ud800","b"]}'
    text = refused(await send(server, "POST", "/api/tournaments", body), 422, "surrogate", "names")
    assert "failed" not in text and "Error:" not in text
    await no_tournaments(server)


async def test_a_broken_database_is_a_503_without_the_drivers_text(tmp_path: Path) -> None:
    path = tmp_path / "broken.sqlite3"
    async with serve_app(create_app(Settings(database_url=f"sqlite+aiosqlite:///{path}"))) as url:
        with sqlite3.connect(path) as db:
            db.execute("DROP TABLE moves")
        async with httpx.AsyncClient(base_url=url) as client:
            text = refused(await client.get("/games"), 503, "database")
    assert "moves" not in text and "OperationalError" not in text


# ----- 6. unbounded work -----


async def test_tournament_size_is_capped(server: httpx.AsyncClient) -> None:
    refused(await send(server, "POST", "/api/tournaments", tournament(games_per_pairing=200_000)), 422, "10000")
    # 40 players in a round robin: 780 pairings x 20 games = 15,600 games, each field within its own bounds
    players, names = ["builtin:random"] * 40, [f"p{i}" for i in range(40)]
    body = json.dumps({"game": "tictactoe", "players": players, "names": names, "games_per_pairing": 20})
    refused(await send(server, "POST", "/api/tournaments", body), 422, f"at most {MAX_GAMES} are allowed")
    await no_tournaments(server)


async def test_names_are_capped(server: httpx.AsyncClient) -> None:
    long = "n" * (MAX_NAME + 1)
    refused(await send(server, "POST", "/api/tournaments", tournament(name=long)), 422, "name", str(MAX_NAME))
    refused(await send(server, "POST", "/api/tournaments", tournament(names=[long, "b"])), 422, "names")
    seat = {"type": "human", "name": long}
    body = json.dumps({"player_x": seat, "player_o": {"type": "builtin", "name": "random"}})
    refused(await send(server, "POST", "/game/new", body), 422, "name")
    await no_tournaments(server)


async def test_tournament_clocks_are_at_most_a_day(server: httpx.AsyncClient) -> None:
    for seconds in (1e308, MAX_CLOCK_SECONDS + 1):
        body = tournament(clock={"kind": "turn", "seconds": seconds})
        refused(await send(server, "POST", "/api/tournaments", body), 422, "seconds", "86400")
    await no_tournaments(server)


async def test_concurrency_and_processes_are_capped(server: httpx.AsyncClient) -> None:
    refused(await send(server, "POST", "/api/tournaments", tournament(concurrency=MAX_WORKERS + 1)), 422, "concurrency")
    refused(await send(server, "POST", "/api/tournaments", tournament(processes=MAX_WORKERS + 1)), 422, "processes")
    await no_tournaments(server)


@pytest.mark.parametrize("bad", ["../../etc", ".hidden", "a/b", "x" * 49, "", "caf\u00e9"])
async def test_tournament_ids_are_safe_names(server: httpx.AsyncClient, bad: str) -> None:
    refused(await send(server, "POST", "/api/tournaments", tournament(id=bad)), 422, "id")
    await no_tournaments(server)


async def test_a_good_tournament_id_is_still_accepted(server: httpx.AsyncClient) -> None:
    r = await send(server, "POST", "/api/tournaments", tournament(id="spring-2026.final_1"))
    assert r.status_code == 201, r.text
    assert r.json()["id"] == "spring-2026.final_1"


async def test_a_big_field_is_not_echoed_back(server: httpx.AsyncClient) -> None:
    body = json.dumps({"game": "x" * 500_000, "players": PAIR})
    text = refused(await send(server, "POST", "/api/matches", body), 422, "game", "500000 characters")
    assert "x" * (MAX_ECHO + 1) not in text


async def test_a_body_over_the_cap_is_413_declared_or_streamed(server: httpx.AsyncClient) -> None:
    huge = json.dumps({"game": "tictactoe", "players": PAIR, "name": "x" * MAX_BODY_BYTES}).encode()
    refused(await send(server, "POST", "/api/tournaments", huge), 413, str(MAX_BODY_BYTES))

    async def chunks() -> AsyncIterator[bytes]:  # no Content-Length: counted as it arrives
        for i in range(0, len(huge), 64 * 1024):
            yield huge[i : i + 64 * 1024]

    r = await server.post("/api/tournaments", content=chunks(), headers={"content-type": "application/json"})
    refused(r, 413, str(MAX_BODY_BYTES))
    await no_tournaments(server)


async def test_a_seat_number_in_another_script_is_refused_not_a_500(server: httpx.AsyncClient) -> None:
    """``'²'.isdigit()`` is true, ``int('²')`` fails: the join route took it for a seat number."""
    r = await send(server, "POST", "/api/matches", json.dumps({"game": "htttx", "players": ["browser", "open"]}))
    assert r.status_code == 200, r.text
    game_id = r.json()["game_id"]
    refused(await send(server, "POST", f"/api/ui/matches/{game_id}/join", '{"seat":"\\u00b2"}'), 422, "seat")
    ok = await send(server, "POST", f"/api/ui/matches/{game_id}/join", '{"seat":"1"}')
    assert ok.status_code == 200 and ok.json()["seat"] == "o", ok.text


# ----- every JSON body the API declares is bounded -----

#: POST routes that read their body by hand, each with its own small byte limit (wire-exact protocols).
HAND_PARSED = {
    "/bots/{game}",
    "/battlebot/bots/{game}",
    "/dots/",
    "/dots/{game_id}/players",
    "/dots/{game_id}/moves",
    "/dots/{game_id}/observers",
    "/graphql",
    "/api/tournaments/{tournament_id}/resume",  # no body at all
    "/api/ladder/bots/{name}/resume",  # no body at all
}


def unbounded(schema: dict[str, Any], defs: dict[str, Any], where: str, seen: frozenset[str]) -> Iterator[str]:
    """Where a JSON schema lets a client send something of unbounded size or value."""
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[1]
        if name not in seen:
            yield from unbounded(defs[name], defs, f"{where}<{name}>", seen | {name})
        return
    for key in ("anyOf", "oneOf", "allOf"):
        for i, sub in enumerate(schema.get(key, [])):
            yield from unbounded(sub, defs, f"{where}|{i}", seen)
    kind = schema.get("type")
    if "enum" in schema or "const" in schema:
        return
    if kind == "string" and "maxLength" not in schema:
        yield f"{where}: a string without maxLength"
    if kind in ("number", "integer"):
        if "maximum" not in schema and "exclusiveMaximum" not in schema:
            yield f"{where}: a number without maximum"
        if "minimum" not in schema and "exclusiveMinimum" not in schema:
            yield f"{where}: a number without minimum"
    if kind == "array":
        if "maxItems" not in schema:
            yield f"{where}: an array without maxItems"
        yield from unbounded(schema.get("items", {}), defs, f"{where}[]", seen)
    if kind == "object":
        for name, sub in schema.get("properties", {}).items():
            yield from unbounded(sub, defs, f"{where}.{name}", seen)
        extra = schema.get("additionalProperties")
        if extra not in (None, False) and "maxProperties" not in schema:
            yield f"{where}: an object without maxProperties"


def test_every_json_body_route_is_bounded() -> None:
    """Walks the whole OpenAPI schema: a new route with an unbounded model (or none) fails here."""
    spec = create_app(Settings(use_store=False)).openapi()
    defs = spec.get("components", {}).get("schemas", {})
    problems: list[str] = []
    bodiless: set[str] = set()
    for path, operations in spec["paths"].items():
        for method, op in operations.items():
            if method not in ("post", "put", "patch"):
                continue
            body = op.get("requestBody", {}).get("content", {}).get("application/json")
            if body is None:
                bodiless.add(path)
                continue
            problems += unbounded(body["schema"], defs, f"{method.upper()} {path}", frozenset())
    assert problems == []
    assert bodiless == HAND_PARSED


async def test_the_store_keeps_text_with_lone_surrogates_as_replacement_characters(migrated_database_url: str) -> None:
    """Bot data is cleaned, not refused (a game must never be lost over a bot's odd string): a lone surrogate,
    which no UTF-8 database can encode, is stored as U+FFFD like a NUL."""
    from hexarena.store import Store

    store = await Store.open(migrated_database_url)
    try:
        record = await store.create_tournament(
            name="cup \ud800", game="tictactoe", config={"note": "x\udfff", "k\ud83d": 1}, state={"s": ["\ud800"]}
        )
        stored = await store.get_tournament(record.tournament_id)
    finally:
        await store.close()
    assert stored is not None
    assert stored.name == "cup \ufffd"
    assert stored.config == {"note": "x\ufffd", "k\ufffd": 1}
    assert stored.state == {"s": ["\ufffd"]}


@pytest.mark.parametrize("value", ["nan", "inf", float("nan"), float("-inf")])
def test_a_float_game_parameter_refuses_non_finite_numbers(value: Any) -> None:
    """No game has a float parameter yet; the first one must not take NaN, which passes every range check."""
    from hexarena.core.errors import ConfigError
    from hexarena.core.game import Param

    with pytest.raises(ConfigError, match="finite"):
        Param("komi", float, 0.5, "points for the second player", minimum=0, maximum=10).coerce(value)


async def test_graphql_labels_errors_caused_by_the_request(server: httpx.AsyncClient) -> None:
    """GraphQL answers 200 either way: only ``extensions.code`` tells a bad argument from a server bug."""
    query = '{ gameType(id: "noughtsandcrosses") { games(filters: {contest: "bad\\u0001name"}) { id } } }'
    r = await server.post("/graphql", json={"query": query})
    assert r.status_code == 200, r.text
    errors = r.json()["errors"]
    assert "contest name" in errors[0]["message"]
    assert errors[0]["extensions"]["code"] == "BAD_USER_INPUT"


@pytest.mark.parametrize(
    ("body", "cause"),
    [
        (b'{"game":"\xff\xfe","players":["a","b"]}', "utf-8"),
        (b'{"game":"hex","params":{"size":' + b"[" * 100_000 + b"]" * 100_000 + b"}}", "recursion"),
        (b'{"game":"hex","params":{"size":' + b"9" * 5000 + b"}}", "digits"),
    ],
)
async def test_a_body_json_cannot_read_says_why(server: httpx.AsyncClient, body: bytes, cause: str) -> None:
    refused(await send(server, "POST", "/api/matches", body), 400, "not usable JSON", cause)
