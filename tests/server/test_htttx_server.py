"""The game server end to end: a real uvicorn on a loopback port, the real store, the SDK's real bot servers.

POST /game/new plays bot against bot to the end and stores it; a human plays through /ws?token=; spectators
watch live and late; bad tokens, unknown games and bad bodies get clear answers.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect

from fakes.servers import cli_bot_server, legal_pieces, serve_app, wait_up
from hexarena.bots.sdk import bot_class_for, make_app
from hexarena.core.game import read_headers
from hexarena.games.htttx import HTTTX, read_record, replay_record
from hexarena.server.app import Settings, create_app


@contextlib.asynccontextmanager
async def game_server(database_url: str) -> AsyncIterator[str]:
    async with serve_app(create_app(Settings(database_url=database_url))) as url:
        yield url


@pytest.fixture
async def server(migrated_database_url: str) -> AsyncIterator[str]:
    async with game_server(migrated_database_url) as url:
        yield url


@pytest.fixture
async def bots() -> AsyncIterator[dict[str, str]]:
    """Two SDK bot servers (the same app ``hexarena bot serve`` runs)."""
    async with serve_app(make_app(bot_class_for("heuristic"))) as h, serve_app(make_app(bot_class_for("random"))) as r:
        yield {"heuristic": h, "random": r}


def ws_url(http: str, path: str) -> str:
    return "ws" + http[len("http") :] + path


async def recv(ws: ClientConnection, timeout: float = 20) -> dict[str, Any]:
    return json.loads(await asyncio.wait_for(ws.recv(), timeout))  # type: ignore[no-any-return]


async def until(ws: ClientConnection, kind: str) -> dict[str, Any]:
    while True:
        msg = await recv(ws)
        if msg["type"] == kind:
            return msg


async def new_game(url: str, body: dict[str, Any]) -> dict[str, Any]:
    async with httpx.AsyncClient() as client:
        r = await client.post(f"{url}/game/new", json=body)
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


async def finished(url: str, game_id: str) -> dict[str, Any]:
    """Wait for the game's end through a spectator socket, then read its record."""
    async with connect(ws_url(url, f"/spectate/{game_id}")) as ws:
        end = await until(ws, "end")
    async with httpx.AsyncClient() as client:
        for _ in range(200):
            r = await client.get(f"{url}/games/{game_id}")
            if r.json()["status"] == "finished":
                break
            await asyncio.sleep(0.02)
    out = r.json()
    out["_end"] = end
    return out  # type: ignore[no-any-return]


async def test_bot_against_bot_is_played_stored_listed_and_recorded(server: str, bots: dict[str, str]) -> None:
    body = {
        "player_x": {"type": "bot", "bot_url": bots["heuristic"]},
        "player_o": {"type": "bot", "bot_url": bots["random"]},
        "match_config": {"heartbeat": 5000, "view_distance": 8, "win_distance": 6, "turn_limit": 80},
    }
    created = await new_game(server, body)
    assert set(created) == {"game_id"}  # no human seat, no token
    game_id = created["game_id"]
    rec = await finished(server, game_id)
    assert rec["_end"]["type"] == "end" and rec["_end"]["reason"] in ("win", "draw")
    assert rec["status"] == "finished" and rec["termination"] in ("normal", "turn_limit")
    assert rec["winner"] == (0 if rec["_end"]["winner"] == "x" else 1 if rec["_end"]["winner"] == "o" else None)
    assert [p["kind"] for p in rec["players"]] == ["bws", "bws"]
    assert rec["players"][0]["name"] == "hexarena-heuristic"
    moves = rec["moves"]
    assert moves and all(m["think_time"] >= 0 and m["timestamp"] for m in moves)
    assert [m["seat"] for m in moves[:3]] == [1, 0, 1]  # o moves first
    # Notation v1: parses, and replays to the final position the referee reached
    # the export's header block (``record_headers``), then Notation v1 as other HTTTX tools read it
    # ``export``: the header block, then the game's own record, which ``notation`` is alone (what other tools read)
    assert rec["export"].startswith('[Game "htttx"]\n')
    notation = rec["notation"]
    assert read_headers(HTTTX, rec["export"])[1] == notation.rstrip("\n")
    assert notation.startswith("name[") and "version[1]" in notation and "1. [" in notation
    parsed = read_record(notation)
    assert len(parsed.turns) == len(moves)
    assert [HTTTX.format(t) for t in parsed.turns] == [m["move"] for m in moves]
    final = replay_record(parsed)
    if rec["termination"] == "normal":
        assert final.winner == rec["winner"]
        assert parsed.headers["winner"] == ("cross" if rec["winner"] == 0 else "circle")
    async with httpx.AsyncClient() as client:
        listed = (await client.get(f"{server}/games")).json()
        assert [g["game_id"] for g in listed] == [game_id]
        assert listed[0]["moves"] == len(moves) and listed[0]["status"] == "finished"
        assert (await client.get(f"{server}/games", params={"status": "running"})).json() == []
        assert (await client.get(f"{server}/games/nope")).status_code == 404


async def test_many_concurrent_games(server: str, bots: dict[str, str]) -> None:
    body = {
        "player_x": {"type": "bot", "bot_url": bots["random"]},
        "player_o": {"type": "bot", "bot_url": bots["random"]},
        "match_config": {"turn_limit": 10},
    }
    ids = [(await new_game(server, body))["game_id"] for _ in range(8)]
    records = await asyncio.gather(*(finished(server, i) for i in ids))
    assert all(r["status"] == "finished" and r["termination"] in ("normal", "turn_limit") for r in records)
    async with httpx.AsyncClient() as client:
        listed = (await client.get(f"{server}/games", params={"limit": 100})).json()
    assert sorted(g["game_id"] for g in listed) == sorted(ids)


async def test_human_plays_through_ws_with_one_and_two_piece_answers(server: str, bots: dict[str, str]) -> None:
    body = {
        "player_x": {"type": "human"},
        "player_o": {"type": "bot", "bot_url": bots["random"]},
        "match_config": {"turn_limit": 4},
    }
    created = await new_game(server, body)
    assert set(created) == {"game_id", "token_x"}
    game_id, token = created["game_id"], created["token_x"]
    async with connect(ws_url(server, f"/spectate/{game_id}")) as spectator:
        snap = await recv(spectator)
        assert snap["type"] == "setup" and snap["board"]["cells"] == [{"q": 0, "r": 0, "p": "x"}]
        async with connect(ws_url(server, f"/ws?token={token}")) as ws:
            setup = await recv(ws)
            assert setup == {"type": "setup", "board": {"cells": [{"q": 0, "r": 0, "p": "x"}]}}
            # turn 2 (x): two pieces at once
            req = await until(ws, "move_request")
            assert req["side"] == "x" and len(req["previous"]) == 1 and len(req["board"]["cells"]) == 3
            async with httpx.AsyncClient() as client:  # a live game is served from memory, moves so far
                live = (await client.get(f"{server}/games/{game_id}")).json()
            assert live["status"] == "running" and len(live["moves"]) == 1 and live["notation"].endswith(";\n")
            pieces = legal_pieces(req["board"]["cells"], "x")
            await ws.send(
                json.dumps({"type": "move_response", "move": {"pieces": [dict(q=q, r=r) for q, r in pieces]}})
            )
            # turn 4 (x): one piece per request, as Hivemaker's UI does
            req = await until(ws, "move_request")
            assert [m["side"] for m in req["previous"]] == ["x", "o"]  # own move first, then the opponent's
            a, _ = legal_pieces(req["board"]["cells"], "x")
            await ws.send(json.dumps({"type": "move_response", "move": {"pieces": [{"q": a[0], "r": a[1]}]}}))
            second = await recv(ws)
            assert second["type"] == "move_request" and second["previous"] == []
            assert {"q": a[0], "r": a[1], "p": "x"} in second["board"]["cells"]
            b, _ = legal_pieces(second["board"]["cells"], "x")
            await ws.send(json.dumps({"type": "move_response", "move": {"pieces": [{"q": b[0], "r": b[1]}]}}))
            end = await until(ws, "end")
            assert end["reason"] == "draw" and len(end["board"]["cells"]) == 9
            # the server closes the socket after the end
            with pytest.raises(Exception):  # noqa: B017 - ConnectionClosed of either kind
                await asyncio.wait_for(ws.recv(), 5)
        kinds = [m["type"] for m in [await recv(spectator) for _ in range(5)]]
        assert kinds == ["board_update"] * 4 + ["end"]
    # token reuse is refused
    async with connect(ws_url(server, f"/ws?token={token}")) as ws:
        nope = await recv(ws)
        assert nope["type"] == "nope" and "token" in nope["reason"]
    rec = await finished(server, game_id)
    assert rec["termination"] == "turn_limit" and len(rec["moves"]) == 4
    assert rec["moves"][3]["move"] == f"[{a[0]},{a[1]}][{b[0]},{b[1]}]"
    assert [p["kind"] for p in rec["players"]] == ["human", "bws"]


async def test_human_garbage_forfeits_and_late_spectators_get_the_end(server: str, bots: dict[str, str]) -> None:
    body = {"player_x": {"type": "bot", "bot_url": bots["random"]}, "player_o": {"type": "human"}}
    created = await new_game(server, body)
    game_id = created["game_id"]
    async with connect(ws_url(server, f"/ws?token={created['token_o']}")) as ws:
        await until(ws, "move_request")
        await ws.send('{"type": "move_response", "move": {"pieces": [{"q": "a", "r": 0}]}}')
        nope = await until(ws, "nope")
        assert "Expected `int`, got `str`" in nope["reason"]
    # late spectators of the forfeited game get the snapshot and the end at once (twice: nothing is consumed)
    for _ in range(2):
        async with connect(ws_url(server, f"/spectate/{game_id}")) as spectator:
            snap, end = await recv(spectator, 5), await recv(spectator, 5)
            assert snap["type"] == "setup" and end["type"] == "end"
            assert end["winner"] == "x" and end["reason"] == "forfeit" and end["termination"] == "protocol"
            assert "Expected `int`" in end["detail"]
    async with httpx.AsyncClient() as client:
        rec = (await client.get(f"{server}/games/{game_id}")).json()
    assert rec["termination"] == "protocol" and rec["winner"] == 0 and "Expected `int`" in rec["reason"]
    assert '[Result "1-0"]' in rec["export"] and '[Termination "protocol"]' in rec["export"]
    headers = read_record(rec["notation"]).headers
    assert headers["endreason"] == "resign" and headers["winner"] == "cross" and headers["playercircle"] == "human"


async def test_a_human_leaving_forfeits_at_once(server: str, bots: dict[str, str]) -> None:
    body = {"player_x": {"type": "bot", "bot_url": bots["random"]}, "player_o": {"type": "human"}}
    created = await new_game(server, body)
    async with connect(ws_url(server, f"/ws?token={created['token_o']}")) as ws:
        await until(ws, "move_request")
    rec = await finished(server, created["game_id"])
    assert rec["termination"] == "disconnect" and rec["winner"] == 0 and "left" in rec["reason"]


async def test_unrequested_human_packet_forfeits(server: str, bots: dict[str, str]) -> None:
    body = {"player_x": {"type": "human"}, "player_o": {"type": "human"}}
    created = await new_game(server, body)
    async with (
        connect(ws_url(server, f"/ws?token={created['token_x']}")) as wx,
        connect(ws_url(server, f"/ws?token={created['token_o']}")) as wo,
    ):
        await until(wo, "move_request")  # o to move; x sends a move out of turn
        await until(wx, "setup")
        await wx.send(json.dumps({"type": "move_response", "move": {"pieces": [{"q": 1, "r": 0}]}}))
        nope = await until(wx, "nope")
        assert "without a pending request" in nope["reason"]
        end = await until(wo, "end")
        assert end["winner"] == "o" and end["reason"] == "forfeit"


async def test_late_spectator_after_a_restart_reads_the_store(migrated_database_url: str, bots: dict[str, str]) -> None:
    body = {
        "player_x": {"type": "bot", "bot_url": bots["heuristic"]},
        "player_o": {"type": "bot", "bot_url": bots["random"]},
        "match_config": {"turn_limit": 6},
    }
    async with game_server(migrated_database_url) as url:
        game_id = (await new_game(url, body))["game_id"]
        rec = await finished(url, game_id)
    async with game_server(migrated_database_url) as url, connect(ws_url(url, f"/spectate/{game_id}")) as ws:
        snap, end = await recv(ws, 5), await recv(ws, 5)

        def key(c: dict[str, Any]) -> tuple[int, int, str]:
            return (c["q"], c["r"], c["p"])

        assert snap["type"] == "setup"
        assert sorted(map(key, snap["board"]["cells"])) == sorted(map(key, rec["_end"]["board"]["cells"]))
        assert end["type"] == "end" and end["termination"] == rec["termination"]


async def test_bad_token_and_unknown_game_get_nope(server: str) -> None:
    for path in ("/ws?token=forged", "/ws", "/spectate/0123456789abcdef", "/spectate/0123456789abcdef?updates=all"):
        async with connect(ws_url(server, path)) as ws:
            msg = await recv(ws, 5)
            assert msg["type"] == "nope" and msg["reason"], path
            if "updates" in path:  # says what may be asked
                assert "updates=board" in msg["reason"] and "updates=moves" in msg["reason"], msg
            with pytest.raises(Exception):  # noqa: B017 - the server closes after the nope
                await asyncio.wait_for(ws.recv(), 5)


@pytest.mark.parametrize(
    ("body", "status", "needle"),
    [
        ({"player_x": {"type": "human"}}, 422, "player_o"),
        ({"player_x": {"type": "robot"}, "player_o": {"type": "human"}}, 422, "type"),
        ({"player_x": {"type": "bot"}, "player_o": {"type": "human"}}, 400, "needs 'bot_url'"),
        ({"player_x": {"type": "bot", "bot_url": "ftp://x"}, "player_o": {"type": "human"}}, 400, "http://"),
        (
            {"player_x": {"type": "human"}, "player_o": {"type": "human"}, "match_config": {"clock_type": "turn"}},
            400,
            "needs 'clock'",
        ),
        (
            {"player_x": {"type": "human"}, "player_o": {"type": "human"}, "match_config": {"win_distance": 1}},
            422,
            "win_distance",
        ),
        (
            {"player_x": {"type": "human"}, "player_o": {"type": "human"}, "match_config": {"clock_type": "blitz"}},
            422,
            "clock_type",
        ),
    ],
)
async def test_bad_new_game_bodies(server: str, body: dict[str, Any], status: int, needle: str) -> None:
    async with httpx.AsyncClient() as client:
        r = await client.post(f"{server}/game/new", json=body)
        assert r.status_code == status, r.text
        assert needle in r.text
        assert (await client.get(f"{server}/games")).json() == []  # nothing was created
    async with httpx.AsyncClient() as client:
        r = await client.post(f"{server}/game/new", content=b"{not json", headers={"content-type": "application/json"})
        assert r.status_code == 422


async def test_openapi_is_served(server: str) -> None:
    async with httpx.AsyncClient() as client:
        spec = (await client.get(f"{server}/openapi.json")).json()
        docs = await client.get(f"{server}/docs")
    assert "/game/new" in spec["paths"] and "/games/{game_id}" in spec["paths"] and "/games" in spec["paths"]
    assert "NewGameRequest" in json.dumps(spec)
    assert docs.status_code == 200


async def test_game_between_two_cli_bot_servers(server: str) -> None:
    with cli_bot_server("heuristic") as hx, cli_bot_server("random") as rnd:
        await wait_up(f"{hx}/capabilities.json")
        await wait_up(f"{rnd}/capabilities.json")
        body = {
            "player_x": {"type": "bot", "bot_url": hx},
            "player_o": {"type": "bot", "bot_url": rnd},
            "match_config": {"turn_limit": 40, "clock_type": "incremental", "clock": 60, "increment": 1},
        }
        game_id = (await new_game(server, body))["game_id"]
        rec = await finished(server, game_id)
    assert rec["status"] == "finished" and rec["termination"] in ("normal", "turn_limit"), rec["reason"]
    assert rec["players"][0]["name"] == "hexarena-heuristic" and rec["players"][1]["name"] == "hexarena-random"
    async with httpx.AsyncClient() as client:
        listed = (await client.get(f"{server}/games")).json()
    assert [g["game_id"] for g in listed] == [game_id]


async def test_bot_servers_are_told_non_default_rules(server: str) -> None:
    """Two ``hexarena bot serve`` processes play with view_distance 2 and win_distance 4: told the rules (bws
    ``config`` with the ``x-`` extensions), their moves are legal; before, the first far stone was an illegal-move
    loss the record blamed on the bot."""
    with cli_bot_server("random") as a, cli_bot_server("random") as b:
        await wait_up(f"{a}/capabilities.json")
        await wait_up(f"{b}/capabilities.json")
        results = []
        for _ in range(3):
            body = {
                "player_x": {"type": "bot", "bot_url": a},
                "player_o": {"type": "bot", "bot_url": b},
                "match_config": {"view_distance": 2, "win_distance": 4, "turn_limit": 30},
            }
            rec = await finished(server, (await new_game(server, body))["game_id"])
            results.append((rec["termination"], rec["reason"]))
    assert all(t in ("normal", "turn_limit") for t, _ in results), results


async def test_shutdown_ends_live_games_and_stores_them(migrated_database_url: str) -> None:
    body = {"player_x": {"type": "human"}, "player_o": {"type": "human"}}
    async with game_server(migrated_database_url) as url:
        game_id = (await new_game(url, body))["game_id"]
        async with httpx.AsyncClient() as client:
            assert (await client.get(f"{url}/games/{game_id}")).json()["status"] == "running"
    from hexarena.store import Store

    store = await Store.open(migrated_database_url)
    try:
        rec = await store.get_game(game_id)
    finally:
        await store.close()
    # stopped before its first move: it never really started (with moves it would be "interrupted", moves kept)
    assert rec is not None and str(rec.status) == "aborted" and rec.termination == "interrupted"
    assert rec.winner is None and "stopped by the server" in rec.reason


async def test_ws_bot_urls_as_hivemakers_player_config_gives_them(server: str, bots: dict[str, str]) -> None:
    """Hivemaker's PlayerConfig defaults bot_url to ``ws://localhost:8002`` and its game server derives the bot's
    HTTP base (ws -> http, wss -> https) to fetch capabilities.json (docs/protocols/htttx.md)."""
    body = {
        "player_x": {"type": "bot", "bot_url": ws_url(bots["heuristic"], "")},
        "player_o": {"type": "bot", "bot_url": ws_url(bots["random"], "/")},
        "match_config": {"heartbeat": 5000, "view_distance": 8, "win_distance": 6, "turn_limit": 30},
    }
    assert body["player_x"]["bot_url"].startswith("ws://")  # type: ignore[index]
    rec = await finished(server, (await new_game(server, body))["game_id"])
    assert rec["termination"] in ("normal", "turn_limit"), rec
    assert [p["kind"] for p in rec["players"]] == ["bws", "bws"]
    assert rec["players"][0]["name"] == "hexarena-heuristic"
    assert len(rec["moves"]) >= 2


async def test_wss_bot_url_is_reached_over_https(server: str) -> None:
    """``wss://`` means TLS: the capabilities fetch goes to https:// (refused here: nothing speaks TLS there)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    body = {"player_x": {"type": "bot", "bot_url": f"wss://127.0.0.1:{port}"}, "player_o": {"type": "human"}}
    async with httpx.AsyncClient() as client:
        r = await client.post(f"{server}/game/new", json=body)
    assert "must start with" not in r.text
    if r.status_code == 200:
        rec = await finished(server, r.json()["game_id"])
        assert f"https://127.0.0.1:{port}/capabilities.json" in rec["reason"], rec
    else:
        assert f"https://127.0.0.1:{port}/capabilities.json" in r.text, r.text
