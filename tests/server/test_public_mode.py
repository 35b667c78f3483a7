"""Public mode (issue 12, finding 10: "no write endpoint asks who you are"; bot URLs may point anywhere).

Real servers on loopback. In public mode every write needs ``Authorization: Bearer <token>`` (made by the store,
as ``hexarena token create`` does): without one, or with an unknown or revoked one, the answer is 401 saying how
to get one. Tokens are stored as their SHA-256 only (the database files are searched for the token) and never
logged. A walker visits every write route of the app: each one either answers 401 without a token or is in the
documented allow-list ``OPEN_WRITES`` (and then must not). Bot addresses on loopback and private networks are
refused unless allowed. Local mode stays open.
"""

from __future__ import annotations

import hashlib
import logging
import re
import sqlite3
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from starlette.routing import Mount

from fakes.servers import serve_app
from hexarena.bots.sdk import bot_class_for
from hexarena.bots.sdk import make_app as bot_app
from hexarena.server.app import Settings, create_app
from hexarena.server.auth import OPEN_WRITES, PUBLIC_CREATE_LIMIT, WRITE_METHODS
from hexarena.server.dots.routes import dots_app

PUBLIC_MODE_DOC = Path(__file__).resolve().parents[2] / "docs" / "operations" / "public-mode.md"
MATCH = {"game": "numberwang", "players": ["builtin:random", "builtin:random"]}
HTTTX = {"player_x": {"type": "builtin", "name": "random"}, "player_o": {"type": "builtin", "name": "random"}}
TOURNAMENT = {"game": "numberwang", "players": ["builtin:random", "builtin:random"], "names": ["a", "b"]}


def public_app(tmp_path: Path, **settings: Any) -> FastAPI:
    return create_app(Settings(database_url=f"sqlite+aiosqlite:///{tmp_path / 'db.sqlite3'}", public=True, **settings))


@pytest.fixture
async def public(tmp_path: Path) -> AsyncIterator[tuple[str, FastAPI]]:
    app = public_app(tmp_path, create_rate_limit=None)
    async with serve_app(app) as url:
        yield url, app


async def new_token(app: FastAPI, name: str) -> str:
    _, token = await app.state.services.store.create_api_token(name)
    return str(token)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def assert_401(r: httpx.Response, *words: str) -> None:
    assert r.status_code == 401, (r.request.method, r.request.url, r.status_code, r.text)
    assert r.headers["WWW-Authenticate"].startswith("Bearer"), r.headers
    detail = r.json()["detail"]
    assert "hexarena token create" in detail and "Authorization: Bearer" in detail, detail  # how to get one
    for word in words:
        assert word in detail, detail


# ----- tokens on the write endpoints -----


async def test_writes_need_a_valid_token_and_succeed_with_one(public: tuple[str, FastAPI]) -> None:
    url, app = public
    token = await new_token(app, "alice")
    assert re.fullmatch(r"hxa_[A-Za-z0-9_-]{43}", token), token
    async with httpx.AsyncClient(base_url=url, timeout=30) as client:
        for path, body in (("/api/matches", MATCH), ("/game/new", HTTTX), ("/api/tournaments", TOURNAMENT)):
            assert_401(await client.post(path, json=body), path)
            assert_401(await client.post(path, json=body, headers={"Authorization": "Basic YTpi"}))
            wrong = token[:-4] + ("AAAA" if not token.endswith("AAAA") else "BBBB")
            r = await client.post(path, json=body, headers=bearer(wrong))
            assert_401(r, "unknown or revoked")
            assert 'error="invalid_token"' in r.headers["WWW-Authenticate"]
            r = await client.post(path, json=body, headers=bearer(token))
            assert r.status_code in (200, 201), (path, r.status_code, r.text)
        # nothing was created by the refused requests: one match, one HTTTX game, one tournament
        assert len((await client.get("/api/tournaments")).json()) == 1
        # reads stay open
        for path in ("/healthz", "/api/games", "/games", "/api/matches/live", "/api/tournaments"):
            assert (await client.get(path)).status_code == 200, path
        # the analysis endpoint is a write too: without a token 401, with one it reaches the endpoint's own checks
        analyse = {"bot_url": "http://127.0.0.1:9/", "cells": [], "to_move": "x"}
        assert_401(await client.post("/api/analyse", json=analyse))
        r = await client.post("/api/analyse", json=analyse, headers=bearer(token))
        assert r.status_code == 400 and "allow-bot-host" in r.text, r.text


async def test_a_revoked_token_is_refused(public: tuple[str, FastAPI]) -> None:
    url, app = public
    token = await new_token(app, "bob")
    other = await new_token(app, "carol")
    async with httpx.AsyncClient(base_url=url, timeout=30) as client:
        assert (await client.post("/api/matches", json=MATCH, headers=bearer(token))).status_code == 200
        assert await app.state.services.store.revoke_api_token("bob") is True
        assert_401(await client.post("/api/matches", json=MATCH, headers=bearer(token)), "revoked")
        assert (await client.post("/api/matches", json=MATCH, headers=bearer(other))).status_code == 200
    assert [t.name for t in await app.state.services.store.list_api_tokens()] == ["carol"]


async def test_tokens_are_stored_hashed_and_use_is_noted(public: tuple[str, FastAPI], tmp_path: Path) -> None:
    url, app = public
    token = await new_token(app, "dave")
    async with httpx.AsyncClient(base_url=url, timeout=30) as client:
        assert (await client.post("/api/matches", json=MATCH, headers=bearer(token))).status_code == 200
    with sqlite3.connect(tmp_path / "db.sqlite3") as db:
        rows = db.execute("SELECT name, token_hash, created_at, last_used_at FROM api_tokens").fetchall()
    assert len(rows) == 1
    name, digest, created, used = rows[0]
    assert name == "dave" and digest == hashlib.sha256(token.encode()).hexdigest()
    assert created and used, rows  # the use was noted
    # the token itself is nowhere in the database (main file and write-ahead log)
    secret = token.encode()
    files = list(tmp_path.glob("db.sqlite3*"))
    assert files and not any(secret in f.read_bytes() for f in files)
    assert all(token not in repr(r) for r in await app.state.services.store.list_api_tokens())


async def test_the_token_never_reaches_the_logs(public: tuple[str, FastAPI], caplog: pytest.LogCaptureFixture) -> None:
    url, app = public
    caplog.set_level(logging.DEBUG)
    token = await new_token(app, "erin")
    revoked = await new_token(app, "frank")
    await app.state.services.store.revoke_api_token("frank")
    async with httpx.AsyncClient(base_url=url, timeout=30) as client:
        assert (await client.post("/api/matches", json=MATCH, headers=bearer(token))).status_code == 200
        assert (await client.post("/api/matches", json=MATCH, headers=bearer(revoked))).status_code == 401
        assert (await client.post("/api/matches", json=MATCH, headers=bearer(token + "x"))).status_code == 401
        assert (await client.post("/api/matches", json=MATCH)).status_code == 401
    text = "\n".join(f"{r.name} {r.getMessage()} {r.args!r}" for r in caplog.records)
    # the control: the checks did log, by name and reason
    assert "with API token 'erin'" in text and "unknown or revoked API token" in text and "no API token" in text
    for secret in (token, revoked, token[4:20], revoked[4:20]):
        assert secret not in text and secret not in caplog.text


# ----- deny by default: every write route -----


def walk(routes: list[Any], prefix: str = "") -> Iterator[tuple[str, str]]:
    """(method, path) of every HTTP route, through included routers and mounts."""
    for route in routes:
        if hasattr(route, "original_router"):
            yield from walk(route.original_router.routes, prefix + route.include_context.prefix)
        elif isinstance(route, Mount):
            yield from walk(getattr(route.app, "routes", []), prefix + route.path)
        elif getattr(route, "methods", None):
            for method in sorted(route.methods - {"HEAD"}):
                yield method, prefix + route.path


def is_open(method: str, path: str) -> bool:
    return any(w.method == method and w.path == path for w in OPEN_WRITES)


async def test_every_write_route_needs_a_token_or_is_a_documented_exception(tmp_path: Path) -> None:
    app = public_app(tmp_path, create_rate_limit=None)

    @app.post("/probe/added-later")
    async def added_later() -> dict[str, str]:  # a write nobody classified: deny by default covers it
        return {"ok": "yes"}

    writes = sorted({(m, p) for m, p in walk(app.routes) if m in WRITE_METHODS})
    assert len(writes) >= 14, writes  # the walker sees the app (creates, tournaments, UI, protocols)
    assert {("POST", "/api/matches"), ("POST", "/api/ui/matches/{game_id}/join")} <= set(writes)
    # the allow-list names real routes only, each with its reason, each documented on the public mode page
    readme = PUBLIC_MODE_DOC.read_text()
    for w in OPEN_WRITES:
        assert (w.method, w.path) in writes, f"OPEN_WRITES names a route the app does not have: {w}"
        assert len(w.reason) > 20 and f"`{w.method} {w.path}`" in readme, f"document {w.method} {w.path}"
    # the dots protocol's own port has no token check at all: each of its writes must be an open one
    dots_writes = {(m, "/dots" + p) for m, p in walk(dots_app(app).routes) if m in WRITE_METHODS}
    assert dots_writes and all(is_open(m, p) for m, p in dots_writes), dots_writes

    async with serve_app(app) as url, httpx.AsyncClient(base_url=url, timeout=30) as client:
        for method, path in writes:
            concrete = re.sub(r"\{[^}]+\}", "probe", path)
            r = await client.request(method, concrete, json={})
            if is_open(method, path):
                assert r.status_code != 401, (method, path, r.text)
            else:
                assert_401(r, f"{method} {concrete}")
        # with a token, the unclassified route is reached
        token = await new_token(app, "walker")
        r = await client.post("/probe/added-later", headers=bearer(token))
        assert r.status_code == 200, r.text


async def test_open_writes_still_answer_and_registration_draws_on_the_create_budget(tmp_path: Path) -> None:
    app = public_app(tmp_path, create_rate_limit="2/minute")
    async with serve_app(app) as url, httpx.AsyncClient(base_url=url, timeout=30) as client:
        for i in range(2):
            r = await client.post("/bots/numberwang", json={"bot_id": f"bot{i}", "owner": "me"})
            assert r.status_code == 201 and len(r.json()["pass_hash"]) == 64, r.text
        r = await client.post("/bots/numberwang", json={"bot_id": "bot3", "owner": "me"})
        assert r.status_code == 429 and "Retry-After" in r.headers, r.text
        assert r.json()["error"].startswith("too many new games")
        r = await client.post("/graphql", json={"query": "{ gameTypes { id } }"})
        assert r.status_code == 200 and "errors" not in r.json(), r.text


async def test_local_mode_needs_no_token(migrated_sqlite_url: str) -> None:
    app = create_app(Settings(database_url=migrated_sqlite_url))
    async with serve_app(app) as url, httpx.AsyncClient(base_url=url, timeout=30) as client:
        settings = app.state.services.settings
        assert settings.bot_hosts is None and not settings.public
        assert (await client.post("/api/matches", json=MATCH)).status_code == 200
        assert (await client.post("/game/new", json=HTTTX)).status_code == 200


async def test_public_mode_sets_the_public_defaults(tmp_path: Path) -> None:
    app = public_app(tmp_path)
    async with app.router.lifespan_context(app):
        services = app.state.services
        assert services.settings.bot_hosts == [] and services.settings.create_rate_limit == PUBLIC_CREATE_LIMIT
        assert [str(i) for i in services.limiter.items] == ["10 per 1 minute", "200 per 1 hour"]
    kept = public_app(tmp_path, create_rate_limit="5/second", bot_hosts=["10.0.0.0/8"])
    async with kept.router.lifespan_context(kept):
        settings = kept.state.services.settings
        assert settings.create_rate_limit == "5/second" and settings.bot_hosts == ["10.0.0.0/8"]
    with pytest.raises(ValueError, match="store"):
        create_app(Settings(use_store=False, public=True))


# ----- bot addresses (SSRF) -----


async def test_public_mode_refuses_private_bot_addresses_unless_allowed(tmp_path: Path) -> None:
    async with serve_app(bot_app(bot_class_for("random"))) as bot:
        strict = public_app(tmp_path / "strict", create_rate_limit=None)
        async with serve_app(strict) as url, httpx.AsyncClient(base_url=url, timeout=30) as client:
            token = await new_token(strict, "ssrf")
            for address in (bot, "http://10.1.2.3:8000/", "bws:http://192.168.1.1/", "http://169.254.169.254/"):
                r = await client.post(
                    "/api/matches",
                    json={"game": "htttx", "players": [address, "builtin:random"]},
                    headers=bearer(token),
                )
                assert r.status_code == 400 and "allow-bot-host" in r.text, (address, r.text)
            assert (await client.get("/api/matches/live")).json() == []
        allowed = public_app(tmp_path / "allowed", create_rate_limit=None, bot_hosts=["127.0.0.1"])
        async with serve_app(allowed) as url, httpx.AsyncClient(base_url=url, timeout=30) as client:
            token = await new_token(allowed, "ssrf")
            r = await client.post(
                "/api/matches", json={"game": "htttx", "players": [bot, "builtin:random"]}, headers=bearer(token)
            )
            assert r.status_code == 200, r.text
            r = await client.post(
                "/api/matches",
                json={"game": "htttx", "players": ["http://10.1.2.3:8000/", "builtin:random"]},
                headers=bearer(token),
            )
            assert r.status_code == 400 and "allow-bot-host" in r.text, r.text


async def test_a_public_server_without_tokens_says_how_to_make_one(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="hexarena")
    async with serve_app(public_app(tmp_path)):
        pass
    assert any(
        "no API token yet" in r.getMessage() and "hexarena token create" in r.getMessage() for r in caplog.records
    )
    app = public_app(tmp_path)
    async with serve_app(app):
        await new_token(app, "first")
    caplog.clear()
    async with serve_app(public_app(tmp_path)):
        pass
    assert not any("no API token yet" in r.getMessage() for r in caplog.records)


async def test_an_unreachable_database_is_a_503_not_a_500(tmp_path: Path) -> None:
    app = public_app(tmp_path)
    async with serve_app(app) as url, httpx.AsyncClient(base_url=url, timeout=30) as client:
        token = await new_token(app, "outage")
        await app.state.services.store.close()  # every store call now fails with StoreError, as in an outage
        r = await client.post("/api/matches", json=MATCH, headers=bearer(token))
        assert r.status_code == 503 and r.headers["Retry-After"] == "5" and "retry" in r.json()["detail"], r.text
        assert_401(await client.post("/api/matches", json=MATCH))  # no token: refused without the database
