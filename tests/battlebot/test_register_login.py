"""Registration (every error case) and the salt / login_hash handshake (deadline, floods, bad input)."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

import httpx
import pytest
import websockets
from bbhelp import connect, login_hash, logins_settled, register


async def post(srv: Any, path: str, **kwargs: Any) -> httpx.Response:
    async with httpx.AsyncClient() as http:
        return await http.post(f"{srv.http}{path}", **kwargs)


async def test_registration_returns_the_original_shape(server: Any) -> None:
    r = await post(server, "/bots/numberwang", json={"bot_id": "MyAwesomeBot", "owner": "David"})
    assert r.status_code == 201
    body = r.json()
    assert set(body) == {"game", "bot_id", "pass_hash"} and body["game"] == "numberwang"
    assert len(body["pass_hash"]) == 64 and int(body["pass_hash"], 16) >= 0
    r = await post(server, "/battlebot/bots/tictactoe", json={"bot_id": "Other", "owner": "David"})
    assert r.status_code == 201 and r.json()["game"] == "noughtsandcrosses"
    bot = await server.store.get_bot("MyAwesomeBot")
    assert bot.owner == "David" and bot.kind == "battlebot" and bot.game == "numberwang"


@pytest.mark.parametrize(
    ("path", "kwargs", "status", "words"),
    [
        ("/bots/chess", {"json": {"bot_id": "x", "owner": "y"}}, 400, "not recognised"),
        ("/bots/numberwang", {"json": {"owner": "y"}}, 400, "no bot_id"),
        ("/bots/numberwang", {"json": {"bot_id": "", "owner": "y"}}, 400, "no bot_id"),
        ("/bots/numberwang", {"json": {"bot_id": 7, "owner": "y"}}, 400, "no bot_id"),
        ("/bots/numberwang", {"json": {"bot_id": "x"}}, 400, "no owner"),
        ("/bots/numberwang", {"json": {"bot_id": "x", "owner": ["y"]}}, 400, "no owner"),
        ("/bots/numberwang", {"json": {"bot_id": "x" * 65, "owner": "y"}}, 400, "64"),
        ("/bots/numberwang", {"json": {"bot_id": "a\nb", "owner": "y"}}, 400, "printable"),
        ("/bots/numberwang", {"content": b"{not json"}, 400, "not JSON"),
        ("/bots/numberwang", {"json": ["bot_id", "owner"]}, 400, "JSON object"),
        ("/bots/numberwang", {"content": b"{" + b" " * 100_000 + b"}"}, 413, "larger"),
    ],
)
async def test_registration_errors(server: Any, path: str, kwargs: dict[str, Any], status: int, words: str) -> None:
    r = await post(server, path, **kwargs)
    assert r.status_code == status and words in r.json()["error"], r.text
    assert await server.store.list_bots() == []


async def test_ids_are_unique_across_games(server: Any) -> None:
    assert (await post(server, "/bots/numberwang", json={"bot_id": "Same", "owner": "a"})).status_code == 201
    r = await post(server, "/bots/hex", json={"bot_id": "Same", "owner": "b"})
    assert r.status_code == 400 and "already registered" in r.json()["error"]


async def raw_login(server: Any, login: Any, path: str = "/") -> tuple[str, Any, bool]:
    """Send ``login`` (a dict with {salt} filled in by a callable, or raw text); returns (salt, answer, closed)."""
    async with websockets.connect(f"ws://{server.host}{path}") as ws:
        salt = json.loads(await ws.recv())["salt"]
        await ws.send(login(salt) if callable(login) else login)
        answer = json.loads(await asyncio.wait_for(ws.recv(), 5))
        try:
            await asyncio.wait_for(ws.recv(), 5)
            closed = False
        except websockets.ConnectionClosed:
            closed = True
    return salt, answer, closed


async def test_login_ok_and_every_failure(server: Any, caplog: pytest.LogCaptureFixture) -> None:
    auth = await register(server, "numberwang", "Bot1")
    await register(server, "hex", "HexBot")

    def good(salt: str) -> str:
        return json.dumps({"bot_id": "Bot1", "game": "numberwang", "login_hash": login_hash(auth["pass_hash"], salt)})

    session = await connect(server, auth)
    await session.close()
    caplog.set_level(logging.DEBUG)
    cases = [
        lambda salt: json.dumps(
            {"bot_id": "Bot1", "game": "numberwang", "login_hash": login_hash(auth["pass_hash"], "0" * 64)}
        ),
        lambda salt: json.dumps(
            {"bot_id": "Nobody", "game": "numberwang", "login_hash": login_hash(auth["pass_hash"], salt)}
        ),
        lambda salt: json.dumps({"bot_id": "Bot1", "game": "hex", "login_hash": login_hash(auth["pass_hash"], salt)}),
        lambda salt: json.dumps({"bot_id": "Bot1", "game": "numberwang", "login_hash": 12}),
        lambda salt: json.dumps({"bot_id": "Bot1", "game": "numberwang"}),
        lambda salt: json.dumps(["Bot1", "numberwang"]),
        lambda salt: "garbage{",
        lambda salt: json.dumps({"bot_id": "Bot1", "game": "numberwang", "login_hash": "é" * 64}),
        lambda salt: json.dumps({"bot_id": "x" * 10_000, "game": "numberwang", "login_hash": "0"}),
    ]
    salts = set()
    for login in cases:
        salt, answer, closed = await raw_login(server, login)
        assert answer == {"authentication": "failed"} and closed
        assert len(salt) == 64 and int(salt, 16) >= 0
        salts.add(salt)
    assert len(salts) == len(cases)  # a fresh salt for every socket
    _, answer, _ = await raw_login(server, good, path="/battlebot")
    assert answer == {"authentication": "OK", "bot_id": "Bot1", "game": "numberwang"}
    assert auth["pass_hash"] not in caplog.text


async def test_login_deadline(make_server: Any) -> None:
    async with make_server(login_seconds=0.3) as srv, websockets.connect(f"ws://{srv.host}/") as ws:
        json.loads(await ws.recv())
        answer = json.loads(await asyncio.wait_for(ws.recv(), 3))
        assert answer == {"authentication": "failed"}
        with pytest.raises(websockets.ConnectionClosed):
            await asyncio.wait_for(ws.recv(), 3)


async def test_login_flood_is_capped_and_served(make_server: Any) -> None:
    # the login deadline is long enough that no slot frees itself while a loaded machine opens the twenty
    async with make_server(login_seconds=120.0, max_pending_logins=20) as srv:
        auth = await register(srv, "numberwang", "Flood")
        socks = [await websockets.connect(f"ws://{srv.host}/") for _ in range(20)]
        # one more than the cap is refused at once instead of holding a salt
        with pytest.raises(websockets.InvalidStatus):
            await websockets.connect(f"ws://{srv.host}/")
        for ws in socks:  # logins that go away free their slots
            await ws.close()
        await logins_settled(srv)
        session = await connect(srv, auth)
        await session.close()


async def test_websocket_at_root_does_not_clash_with_the_ui_redirect(server: Any) -> None:
    async with httpx.AsyncClient() as http:
        r = await http.get(f"{server.http}/", follow_redirects=False)
    assert r.status_code in (307, 404)
    if r.status_code == 307:
        assert r.headers["location"] == "/ui/"
    async with websockets.connect(f"ws://{server.host}/") as ws:
        assert len(json.loads(await ws.recv())["salt"]) == 64
