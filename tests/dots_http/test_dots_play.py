"""Whole hexagon dots games over the turn-token protocol with the reference client, on loopback."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import turntoken_client as client

from hexarena.games.hexdots.wire import state_from_game_json


def drawn(game: dict[str, Any]) -> list[tuple[Any, str]]:
    """Lines in order with their owner's name (an owner's score is as of the message that carried it)."""
    return [(line["endpoints"], line["owner"]["name"]) for line in game["lines"]]


def captured(game: dict[str, Any]) -> list[tuple[Any, str]]:
    return [(h["center"], h["owner"]["name"]) for h in game["hexagons"]]


async def wait_stored(app: Any, n: int = 1) -> list[Any]:
    for _ in range(200):
        games = await app.state.services.store.list_games(status="finished")
        if len(games) >= n:
            return games
        await asyncio.sleep(0.05)
    raise AssertionError("game not stored")


async def test_two_reference_clients_play_a_game_on_the_dots_port(dots: Any) -> None:
    async with httpx.AsyncClient() as http:
        r = await http.post(f"{dots.port_base}/", json={"rows": 5, "cols": 5})
    assert r.status_code == 201
    path = r.headers["Location"]
    assert path.startswith("/") and not path.startswith("/dots")
    url = dots.port_base + path
    a = asyncio.to_thread(client.play, dots.port_base, "Alice", url)
    b = asyncio.to_thread(client.play, dots.port_base, "Bob", url)
    ga, gb = await asyncio.wait_for(asyncio.gather(a, b), 60)
    assert ga["state"] == gb["state"] == "completed"
    assert drawn(ga) == drawn(gb) and captured(ga) == captured(gb)
    # the copy each client merged from Deltas is exactly the server's final Game
    async with httpx.AsyncClient() as http:
        final = (await http.get(url)).json()
    assert drawn(final) == drawn(ga) and captured(final) == captured(ga) and final["players"] == ga["players"]
    state = state_from_game_json(final)
    assert state.over and list(state.scores) == [p["score"] for p in final["players"]]
    (game,) = await wait_stored(dots.app)
    assert [p.name for p in game.players] == [p["name"] for p in final["players"]] and game.game == "hexdots"
    record = await dots.app.state.services.store.get_game(game.game_id)
    assert len(record.moves) == len(final["lines"])


async def test_match_pairs_two_clients_under_the_main_app_prefix(dots: Any) -> None:
    a = asyncio.to_thread(client.play, dots.dots, "A")
    b = asyncio.to_thread(client.play, dots.dots, "B")
    ga, gb = await asyncio.wait_for(asyncio.gather(a, b), 60)
    assert ga["state"] == "completed" and drawn(ga) == drawn(gb)
    assert {p["name"] for p in ga["players"]} == {"A", "B"}
