"""One spec policy for every network entry point (issue 12, finding 1: command execution through the API).

A real server on loopback with every protocol mounted. The test walks ``app.routes`` (HTTP and WebSocket, the
dots-only app too): every route is either known to take no player spec or has a probe here, so a new route fails
this test until someone says which it is. Each route that takes a spec must answer a program-starting spec with a
4xx and start nothing: the spec would create a marker file, and the file must not exist. A positive control
(the same command registered by the operator as ``--engine``) shows that the marker does appear when a program
really starts, so its absence means something.
"""

from __future__ import annotations

import asyncio
import shlex
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from starlette.routing import Mount

from fakes.servers import serve_app
from hexarena.core.errors import ConfigError
from hexarena.players.base import BasePlayer
from hexarena.players.policy import SpecPolicy, allowed_bot_host, check_remote_spec, make_remote_player
from hexarena.players.spec import make_player, register_scheme, registered_schemes
from hexarena.server.app import Settings, create_app
from hexarena.server.dots.routes import dots_app
from hexarena.tournament.executors import GameJob, play_job

#: The game each program-starting scheme plays (its player refuses other games before starting anything).
GAME_OF = {"uais": "hex", "htp": "hex", "uhp": "hive", "hiveai-stdio": "hive"}

# ----- a scheme registered without any declaration: it "starts a program" by writing a marker itself -----

UNDECLARED_MARKERS: list[Path] = []


async def _undeclared(game: str, path: str) -> BasePlayer:
    Path(path).write_text("started")  # what a program-starting scheme would do: act on the server
    raise ConfigError("the undeclared probe scheme never makes a player")


register_scheme("probe-undeclared", _undeclared, "probe-undeclared:PATH  a test scheme that declares nothing")


def touch_command(marker: Path) -> str:
    """A command line that creates ``marker`` when started (with any arguments appended, e.g. ``black``)."""
    return f"sh -c {shlex.quote(f'touch {marker}')}"


def program_specs(tmp: Path) -> Iterator[tuple[str, str, Path]]:
    """(scheme, spec, marker) for every registered scheme not declared safe, the undeclared probe included."""
    for name, scheme in sorted(registered_schemes().items()):
        if scheme.remote_allowed:
            continue
        marker = tmp / f"ran-{name}"
        rest = str(marker) if name == "probe-undeclared" else touch_command(marker)
        yield name, f"{name}:{rest}", marker


# ----- the routes -----


def walk(routes: list[Any], prefix: str = "") -> Iterator[tuple[str, str]]:
    """(kind, path) of every route, through included routers and mounts; kind is the HTTP method or ``WS``."""
    for route in routes:
        if hasattr(route, "original_router"):  # FastAPI's included router
            yield from walk(route.original_router.routes, prefix + route.include_context.prefix)
        elif isinstance(route, Mount):
            inner = getattr(route.app, "routes", None)
            if inner is None:
                yield "MOUNT", prefix + route.path
            else:
                yield from walk(inner, prefix + route.path)
        elif getattr(route, "methods", None):
            for method in sorted(route.methods - {"HEAD"}):
                yield method, prefix + route.path
        else:
            yield "WS", prefix + route.path


#: Routes that take a player spec (or a bot address: /api/analyse takes only a bot URL, checked by
#: test_the_servers_bot_host_setting_guards_every_route) from the client.
SPEC_ROUTES = {
    ("POST", "/game/new"),
    ("POST", "/api/matches"),
    ("POST", "/api/tournaments"),
    ("POST", "/api/analyse"),
    ("POST", "/api/ladder/bots"),
}
#: Every other route, each checked to take no player spec: a new route must be added to one of the two sets.
NO_SPEC_ROUTES = {
    ("GET", "/openapi.json"),
    ("GET", "/docs"),
    ("GET", "/docs/oauth2-redirect"),
    ("GET", "/redoc"),
    ("GET", "/healthz"),
    ("GET", "/metrics"),  # Prometheus: reads only, behind the metrics token in public mode
    ("GET", "/api/games"),
    ("GET", "/api/players"),
    ("GET", "/api/games/{name}/board.js"),
    ("GET", "/api/games/{name}/rules"),
    ("GET", "/api/ladder"),
    ("GET", "/api/ladder/bots/{name}"),
    ("DELETE", "/api/ladder/bots/{name}"),
    ("POST", "/api/ladder/bots/{name}/pause"),  # a reason only
    ("POST", "/api/ladder/bots/{name}/resume"),  # pairs the spec checked when it was registered
    ("GET", "/api/matches/live"),
    ("GET", "/games"),
    ("GET", "/games/{game_id}"),
    ("WS", "/ws"),  # a token, not a spec
    ("WS", "/spectate/{game_id}"),
    ("WS", "/api/play"),  # a token
    ("GET", "/api/ui/matches/{game_id}"),
    ("POST", "/api/ui/matches/{game_id}/join"),  # a seat name of an existing match
    ("POST", "/api/ui/matches/{game_id}/rematch"),  # a seat token of a finished match and an action
    ("GET", "/api/ui/replay/{game_id}"),
    ("GET", "/api/ui/replay/{game_id}/states"),
    ("GET", "/api/ui/games"),
    ("GET", "/api/ui/bots"),
    ("GET", "/api/ui/leaderboard/{game}/history"),
    ("MOUNT", "/ui"),  # static files
    ("GET", "/"),
    ("POST", "/bots/{game}"),  # battlebot registration: bot_id and owner
    ("POST", "/battlebot/bots/{game}"),
    ("WS", "/"),  # battlebot login: bot_id, game, hash
    ("WS", "/battlebot"),
    ("WS", "/battlebot/"),
    ("POST", "/dots/"),  # rows and cols: the server makes the players itself
    ("GET", "/dots/"),
    ("GET", "/dots/match"),
    ("GET", "/dots/{game_id}"),
    ("POST", "/dots/{game_id}/players"),  # a name
    ("POST", "/dots/{game_id}/moves"),
    ("POST", "/dots/{game_id}/observers"),
    ("GET", "/graphql"),  # queries only: the schema has no mutation (checked below)
    ("POST", "/graphql"),
    ("WS", "/graphql"),
    ("GET", "/api/gametypes"),  # the battlebot REST views: reads
    ("GET", "/api/gametypes/{game_type}"),
    ("GET", "/api/gametypes/{game_type}/bots"),
    ("GET", "/api/gametypes/{game_type}/contests"),
    ("GET", "/api/gametypes/{game_type}/contests/{name}"),
    ("GET", "/api/gametypes/{game_type}/games"),
    ("GET", "/api/gametypes/{game_type}/games/{game_id}"),
    ("GET", "/leaderboard/{game}"),
    ("GET", "/api/tournaments"),
    ("GET", "/api/tournaments/{tournament_id}"),
    ("POST", "/api/tournaments/{tournament_id}/resume"),  # runs a stored config, checked when it was created
    ("GET", "/api/tournaments/{tournament_id}/report"),
    ("POST", "/api/analysis/{game}"),  # a position: the server's own built-in best bot analyses it
    ("POST", "/api/analysis/{game}/position"),
    ("POST", "/api/analysis/{game}/probe"),
}
#: Field names that carry a player spec or a bot address in a request body.
SPEC_FIELDS = {"players", "player_x", "player_o", "spec", "specs", "bot_url", "url", "engine"}


def probes(spec: str, game: str) -> dict[tuple[str, str], Any]:
    """A request body per spec route that puts ``spec`` in a seat."""
    return {
        ("POST", "/game/new"): {"player_x": {"type": "spec", "spec": spec}, "player_o": {"type": "builtin"}},
        ("POST", "/api/matches"): {"game": game, "players": [spec, "builtin:random"]},
        ("POST", "/api/tournaments"): {"game": game, "players": [spec, "builtin:random"]},
        ("POST", "/api/ladder/bots"): {"name": "probe", "game": game, "spec": spec, "owner": "the test"},
    }


@pytest.fixture
async def server(migrated_sqlite_url: str, tmp_path: Path) -> AsyncIterator[tuple[str, FastAPI]]:
    control = tmp_path / "engine-ran"
    settings = Settings(
        database_url=migrated_sqlite_url,
        engines={"control": f"uais:{touch_command(control)}"},
    )
    app = create_app(settings)
    async with serve_app(app) as url:
        yield url, app


def test_every_route_is_classified_and_spec_fields_are_only_in_spec_routes() -> None:
    app = create_app(Settings(use_store=False))
    found = set(walk(app.routes)) | {(k, "/dots" + p if p != "/" else "/dots/") for k, p in walk(dots_app(app).routes)}
    unknown = found - SPEC_ROUTES - NO_SPEC_ROUTES
    assert not unknown, f"classify these routes in test_spec_policy.py (do they take a player spec?): {unknown}"
    schema = app.openapi()
    for path, item in schema["paths"].items():
        for method, op in item.items():
            body = op.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema", {})
            ref = body.get("$ref", "").rsplit("/", 1)[-1]
            fields = set(schema["components"]["schemas"].get(ref, {}).get("properties", {})) if ref else set()
            if fields & SPEC_FIELDS:
                assert (method.upper(), path) in SPEC_ROUTES, f"{method} {path} takes {fields & SPEC_FIELDS}"


def test_graphql_has_no_mutation() -> None:
    from hexarena.server.graphql.schema import schema

    assert schema.mutation is None, "a GraphQL mutation that takes a player spec must go through the spec policy"


async def test_every_spec_route_refuses_program_specs_and_starts_nothing(
    server: tuple[str, FastAPI], tmp_path: Path
) -> None:
    url, _ = server
    assert set(probes("x", "hex")) | {("POST", "/api/analyse")} == SPEC_ROUTES, "every spec route needs a probe"
    specs = list(program_specs(tmp_path))
    assert {"uais", "htp", "uhp", "hiveai-stdio", "probe-undeclared"} <= {s for s, _, _ in specs}
    async with httpx.AsyncClient(base_url=url, timeout=30) as client:
        for scheme, spec, _ in specs:
            for (method, path), body in probes(spec, GAME_OF.get(scheme, "hex")).items():
                r = await client.request(method, path, json=body)
                assert 400 <= r.status_code < 500, (scheme, path, r.status_code, r.text)
                assert "engine" in r.text or "server" in r.text, r.text  # says why and what to do instead
        assert (await client.get("/api/tournaments")).json() == []
        assert (await client.get("/api/matches/live")).json() == []
        # the positive control: the operator's engine with the same kind of command does start
        r = await client.post("/api/matches", json={"game": "hex", "players": ["engine:control", "builtin:random"]})
        assert r.status_code == 200, r.text
        for _ in range(500):
            if (tmp_path / "engine-ran").exists():
                break
            await asyncio.sleep(0.01)
        assert (tmp_path / "engine-ran").exists(), "the control engine never ran: the markers prove nothing"
    for scheme, _, marker in specs:
        assert not marker.exists(), f"{scheme}: a remote client started a program on the server"


async def test_an_api_tournament_reaches_operator_engines(server: tuple[str, FastAPI], tmp_path: Path) -> None:
    url, _ = server
    async with httpx.AsyncClient(base_url=url, timeout=30) as client:
        body = {"game": "hex", "params": {"size": 3}, "players": ["engine:control", "builtin:random"]}
        r = await client.post("/api/tournaments", json=body)
        assert r.status_code == 201, r.text
        for _ in range(500):
            if (tmp_path / "engine-ran").exists():
                break
            await asyncio.sleep(0.01)
    assert (tmp_path / "engine-ran").exists()


async def test_api_tournament_games_are_refused_program_specs_by_the_executor(tmp_path: Path) -> None:
    """Defence in depth: a game of a tournament that came from a client builds its players under the policy."""
    marker = tmp_path / "ran"
    job = GameJob(
        match_id="t-1",
        game="hex",
        specs=[f"uais:{touch_command(marker)}", "builtin:random"],
        names=["a", "b"],
        params={"size": 3},
        remote=True,
    )
    result = await play_job(job)
    assert result["termination"] == "aborted" and "engine" in result["reason"], result
    assert not marker.exists()
    local = GameJob(**{**job.to_json(), "remote": False})  # the operator's own tournament may start programs
    await play_job(local)
    assert marker.exists()


def test_every_shipped_scheme_declares_its_policy() -> None:
    shipped = {n: s for n, s in registered_schemes().items() if s.factory.__module__.startswith("hexarena.")}
    assert {"builtin", "bws", "stateless", "human", "browser", "battlebot", "uais", "htp", "uhp", "hiveai"} <= set(
        shipped
    )
    undeclared = sorted(n for n, s in shipped.items() if not s.declared)
    assert not undeclared, f"schemes registered without starts_program/remote: {undeclared}"
    for name in ("uais", "htp", "uhp", "hiveai-stdio"):
        assert shipped[name].starts_program and not shipped[name].remote_allowed
    for name in ("builtin", "bws", "stateless", "human", "browser", "open", "battlebot", "hiveai"):
        assert shipped[name].remote_allowed


def test_a_scheme_cannot_be_both_program_starting_and_remote() -> None:
    async def factory(game: str, rest: str) -> BasePlayer:
        raise AssertionError

    with pytest.raises(ValueError, match="remote"):
        register_scheme("probe-bad", factory, "x", starts_program=True, remote=True)


async def test_undeclared_schemes_are_local_only(tmp_path: Path) -> None:
    marker = tmp_path / "local"
    with pytest.raises(ConfigError, match="engine"):
        check_remote_spec(f"probe-undeclared:{marker}", SpecPolicy())
    with pytest.raises(ConfigError, match="never makes"):  # the operator's own CLI may use it
        await make_player(f"probe-undeclared:{marker}", "hex")
    assert marker.exists()


def test_engines_resolve_and_unknown_specs_are_refused() -> None:
    policy = SpecPolicy(engines={"mohex": "htp:mohex"})
    assert check_remote_spec(" engine:mohex ", policy) == "htp:mohex"
    assert check_remote_spec("builtin:random", policy) == "builtin:random"
    with pytest.raises(ConfigError, match="no engine named 'nope'"):
        check_remote_spec("engine:nope", policy)
    with pytest.raises(ConfigError, match="unknown player spec"):
        check_remote_spec("ftp:x", policy)


@pytest.mark.parametrize(
    ("url", "allow", "ok"),
    [
        ("http://93.184.215.14:8000/bot", [], True),
        ("https://93.184.215.14/", [], True),
        ("http://127.0.0.1:8002", [], False),
        ("http://localhost:8002", [], False),
        ("http://[::1]:8002/", [], False),
        ("http://10.1.2.3/", [], False),
        ("http://192.168.0.7/", [], False),
        ("http://172.16.5.5/", [], False),
        ("http://169.254.169.254/latest/meta-data/", [], False),  # cloud metadata: link-local
        ("http://[fe80::1]/", [], False),
        ("http://0.0.0.0:80/", [], False),
        ("http://[::ffff:127.0.0.1]/", [], False),
        ("http://127.0.0.1:8002", ["127.0.0.1"], True),
        ("http://localhost:8002", ["localhost"], True),
        ("http://10.1.2.3/", ["10.0.0.0/8"], True),
        ("http://10.1.2.3/", ["192.168.0.0/16"], False),
        ("127.0.0.1:8100", [], False),  # hiveai HOST:PORT
        ("93.184.215.14:8100", [], True),
        ("localhost:8100", [], False),  # a name is judged by the addresses it resolves to
        ("not a url", [], False),
    ],
)
def test_allowed_bot_host(url: str, allow: list[str], ok: bool) -> None:
    assert allowed_bot_host(url, allow) is ok


async def test_bot_addresses_pass_the_policy(tmp_path: Path) -> None:
    """The bot-host check is off by default (local mode) and, once on, guards every scheme with an address."""
    local = SpecPolicy()
    assert check_remote_spec("http://127.0.0.1:1/", local) == "http://127.0.0.1:1/"
    public = SpecPolicy(bot_hosts=[])
    for spec in ("http://127.0.0.1:1/", "bws:http://10.0.0.1/", "stateless:http://[::1]/", "hiveai:127.0.0.1:8100"):
        with pytest.raises(ConfigError, match="allow-bot-host"):
            check_remote_spec(spec, public)
    assert check_remote_spec("bws:http://127.0.0.1:1/", SpecPolicy(bot_hosts=["127.0.0.1"])).startswith("bws:")
    with pytest.raises(ConfigError):
        await make_remote_player("stateless:http://127.0.0.1:1/", "htttx", public)


async def test_the_servers_bot_host_setting_guards_every_route(migrated_sqlite_url: str) -> None:
    app = create_app(Settings(database_url=migrated_sqlite_url, bot_hosts=[]))
    bot = "http://127.0.0.1:9/"
    async with serve_app(app) as url, httpx.AsyncClient(base_url=url, timeout=30) as client:
        answers = [
            await client.post(
                "/game/new", json={"player_x": {"type": "bot", "bot_url": bot}, "player_o": {"type": "human"}}
            ),
            await client.post("/api/matches", json={"game": "htttx", "players": [bot, "builtin:random"]}),
            await client.post("/api/tournaments", json={"game": "htttx", "players": [f"bws:{bot}", "builtin:random"]}),
            await client.post("/api/analyse", json={"bot_url": bot, "cells": [], "to_move": "x"}),
        ]
    for r in answers:
        assert 400 <= r.status_code < 500 and "allow-bot-host" in r.text, (r.request.url, r.status_code, r.text)


def test_tournaments_stored_by_the_api_before_the_flag_are_remote_too() -> None:
    from hexarena.tournament.runner import Runner, TournamentConfig, new_state

    config = TournamentConfig(game="numberwang", players=["builtin:random", "builtin:greedy"]).validate()
    policy = SpecPolicy(engines={"e": "uais:x"})
    old_api = Runner("t", config, {**new_state(), "origin": "api"}, policy=policy)
    job = old_api.job({"id": "t-1", "seats": [0, 1], "opening": []})
    assert job.remote and job.engines == {"e": "uais:x"}
    cli = Runner("t", config, new_state(), policy=policy)
    assert not cli.job({"id": "t-1", "seats": [0, 1], "opening": []}).remote


async def test_a_stored_engine_player_shows_its_public_name_not_the_operators_command(
    migrated_database_url: str, tmp_path: Path
) -> None:
    """``engine:NAME`` is what the client chose and all it may know: the stored and live records show it, never the
    operator's command line (its paths, its interpreter)."""
    import sys

    bot = Path(__file__).resolve().parents[2] / "examples" / "uais_random_bot.py"
    command = f"uais:{sys.executable} {bot}"
    app = create_app(Settings(database_url=migrated_database_url, engines={"rando": command}))
    async with serve_app(app) as url, httpx.AsyncClient(base_url=url, timeout=30) as client:
        body = {"game": "hex", "params": {"size": 3}, "players": ["engine:rando", "builtin:random"]}
        r = await client.post("/api/matches", json=body)
        assert r.status_code in (200, 201), r.text
        match_id = r.json().get("match_id") or r.json().get("game_id")
        for _ in range(500):
            record = (await client.get(f"/games/{match_id}")).json()
            if record.get("status") == "finished":
                break
            await asyncio.sleep(0.02)
        listed = (await client.get("/games", params={"game": "hex"})).text
    assert record["status"] == "finished", record
    seat = record["players"][0]
    assert seat["spec"] == "engine:rando" and seat["name"] == "engine:rando", seat
    for text in (str(record), listed):
        assert str(bot) not in text and "uais_random_bot" not in text and sys.executable not in text, text
