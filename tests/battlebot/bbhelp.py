"""Raw battlebot sessions for tests: register, log in, read and send frames, play with the rules engine."""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
from typing import Any

import httpx
import websockets

from hexarena.wire.battlebot import shape_for


async def register(
    srv: Any, game: str, bot_id: str, owner: str = "tester", http: httpx.AsyncClient | None = None
) -> dict[str, Any]:
    """Register a bot over HTTP. A test that registers many passes one ``http`` client for them all: a client of
    its own each (a TLS context built, a connection opened) costs far more than the request it sends."""
    if http is None:
        async with httpx.AsyncClient() as own:
            return await register(srv, game, bot_id, owner, own)
    r = await http.post(f"{srv.http}/bots/{game}", json={"bot_id": bot_id, "owner": owner})
    assert r.status_code == 201, r.text
    return {**r.json(), "hostname": srv.host, "secure": False}


class Session:
    """One bot's socket after a successful login."""

    def __init__(self, ws: Any, auth: dict[str, Any]) -> None:
        self.ws = ws
        self.auth = auth
        self.bot_id = auth["bot_id"]

    async def recv(self, timeout: float = 5.0) -> dict[str, Any]:
        return json.loads(await asyncio.wait_for(self.ws.recv(), timeout))  # type: ignore[no-any-return]

    async def send(self, value: Any) -> None:
        await self.ws.send(value if isinstance(value, str | bytes) else json.dumps(value))

    async def silent(self, seconds: float) -> bool:
        """True if nothing arrives within ``seconds``."""
        try:
            await asyncio.wait_for(self.ws.recv(), seconds)
        except TimeoutError:
            return True
        return False

    async def until_complete(self, timeout: float = 10.0) -> dict[str, Any]:
        while True:
            msg = await self.recv(timeout)
            if msg["state"].get("complete"):
                return msg

    async def closed(self, timeout: float = 5.0) -> bool:
        try:
            while True:
                await asyncio.wait_for(self.ws.recv(), timeout)
        except websockets.ConnectionClosed:
            return True
        except TimeoutError:
            return False

    async def close(self) -> None:
        await self.ws.close()


async def waiting(srv: Any, count: int = 1, timeout: float = 60.0) -> None:
    """Wait until ``count`` bots wait in the server's lobby.

    A bot's login answer goes out before the lobby takes it in, so a test that needs one bot waiting before the
    next connects (the one waiting moves first) waits for this event: a fixed pause loses that race on a loaded
    machine. The timeout is a margin no load uses up, never a time the test waits out.
    """
    deadline = asyncio.get_running_loop().time() + timeout
    while srv.lobby.waiting_count() != count:
        assert asyncio.get_running_loop().time() < deadline, f"{srv.lobby.waiting_count()} bots waiting, not {count}"
        await asyncio.sleep(0.005)


async def logins_settled(srv: Any, timeout: float = 60.0) -> None:
    """Wait until the server holds no socket between accept and login (closed ones let go of their slot)."""
    deadline = asyncio.get_running_loop().time() + timeout
    while srv.lobby.pending_logins:
        assert asyncio.get_running_loop().time() < deadline, f"{srv.lobby.pending_logins} logins still pending"
        await asyncio.sleep(0.005)


def login_hash(pass_hash: str, salt: str) -> str:
    return hashlib.sha256((pass_hash + salt).encode()).hexdigest()


async def connect(srv: Any, auth: dict[str, Any], contest: str | None = None, path: str = "/") -> Session:
    ws = await websockets.connect(f"ws://{srv.host}{path}")
    salt = json.loads(await ws.recv())["salt"]
    login = {"bot_id": auth["bot_id"], "game": auth["game"], "login_hash": login_hash(auth["pass_hash"], salt)}
    if contest:
        login["contest"] = contest
    await ws.send(json.dumps(login))
    answer = json.loads(await ws.recv())
    assert answer["authentication"] == "OK", answer
    return Session(ws, auth)


async def play_random(session: Session, seed: int = 0, max_turns: int | None = None) -> dict[str, Any]:
    """Play with random legal moves, tracking the position through the echoed turns (any game).

    After ``max_turns`` of its own turns the bot disconnects; returns the last message.
    """
    shape = shape_for(session.auth["game"])
    game = shape.game
    rng = random.Random(seed)
    first = await session.recv()
    players = first["state"]["players"]
    me = players.index(session.bot_id)
    state = game.new()
    mine = 0
    msg = first
    while True:
        s = msg["state"]
        if s.get("complete"):
            return msg
        turn = msg.get("turn")
        if turn is not None and turn["valid"]:
            seat = players.index(turn["player"])
            body = {k: v for k, v in turn.items() if k not in ("player", "time", "valid")}
            state = game.play(state, shape.parse(body, seat, state))
        if game.to_move(state) == me and (turn is None or turn["valid"] or turn["player"] == session.bot_id):
            if max_turns is not None and mine >= max_turns:
                await session.close()
                return msg
            mine += 1
            await session.send(shape.turn(game.random_move(state, rng), me, state))
        msg = await session.recv()
