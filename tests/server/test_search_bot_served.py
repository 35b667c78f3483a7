"""``hexarena bot serve --bot search`` as a real subprocess: its evaluations and considered turns cross bws into
the referee's record, and the game server's ``POST /api/analyse`` evaluates positions with it (the documented way
to analyse with a built-in: the endpoint takes a bws bot address)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest
from procs import bot_server

from fakes.servers import serve_app
from hexarena.core.contract import ClockConfig
from hexarena.core.types import Termination
from hexarena.games.htttx import HTTTX
from hexarena.players.inprocess import InProcessPlayer
from hexarena.players.spec import make_player
from hexarena.referee.match import MatchConfig, Referee
from hexarena.server.app import Settings, create_app

#: Seconds of overrun the referee forgives a move here: more than a loaded 2-core machine stalls a process.
LOAD_MARGIN = 5.0


@pytest.fixture
def search_url(tmp_path: Path) -> Iterator[str]:
    with bot_server("search", tmp_path / "bot.log") as url:
        yield url


@pytest.fixture
async def api(migrated_database_url: str) -> AsyncIterator[httpx.AsyncClient]:
    app = create_app(Settings(database_url=migrated_database_url))
    async with serve_app(app) as url, httpx.AsyncClient(base_url=url, timeout=60) as client:
        yield client


#: what the SDK logs when it sends its fallback move instead of the bot's (``hexarena_sdk.play``)
REPLACED = "sending the engine's fallback move"


async def test_evaluations_cross_bws_into_the_record(search_url: str, tmp_path: Path) -> None:
    async with httpx.AsyncClient() as client:
        caps = (await client.get(f"{search_url}/capabilities.json")).json()
    assert caps["basic_websocket"]["versions"]["v1-alpha"]["evaluation"] is True
    served = await make_player(f"bws:{search_url}", "htttx")
    players = [served, InProcessPlayer.builtin("htttx", "heuristic")]
    # the referee forgives what a loaded machine adds to a move (the search stops at its 0.5 s, the process and
    # the socket around it may not): this test is about what crosses bws, not about keeping time
    config = MatchConfig(game=HTTTX, clock=ClockConfig("turn", 0.5), time_margin=LOAD_MARGIN)
    result = await Referee(config, players).run()
    assert result.outcome.termination == Termination.NORMAL, result.outcome
    mine = [m for m in result.moves if m.seat == 0]
    # every move the search chose carries its evaluation; a move the SDK replaced (the bot ran past its soft
    # deadline, which load makes as likely as it likes) carries none, and the bot's log names each of those
    replaced = (tmp_path / "bot.log").read_text().count(REPLACED)
    with_eval = [m for m in mine if m.evaluation is not None and "heuristic" in m.evaluation]
    assert len(with_eval) == len(mine) - replaced, ([m.evaluation for m in mine], replaced)
    assert with_eval, f"all {len(mine)} moves were replaced: no searched move to check"
    # who won is not this test's claim (a replaced move may cost the search the game); its winning move says so
    if result.winner == 0:
        assert mine[-1].evaluation == {"heuristic": 1.0, "win_in": 1}
    considered = next((m.considerations for m in with_eval), None)  # the first searched move's (not a replaced one)
    assert considered and len(considered[0]["pieces"]) == 2 and "heuristic" in considered[0]["evaluation"]


async def test_the_analysis_endpoint_evaluates_with_the_served_search_bot(
    search_url: str, api: httpx.AsyncClient
) -> None:
    four = [{"q": i, "r": 0, "p": "x"} for i in range(4)] + [
        {"q": 0, "r": 1, "p": "o"},
        {"q": 1, "r": 1, "p": "o"},
        {"q": 5, "r": -3, "p": "o"},
    ]
    for to_move, expected in (("x", {"heuristic": 1.0, "win_in": 1}), ("o", None)):
        # 5 s: at load 15 a search given 2 s was seen answered for by the SDK (an empty evaluation) past its deadline
        response = await api.post(
            "/api/analyse", json={"bot_url": search_url, "cells": four, "to_move": to_move, "time_limit": 5}
        )
        assert response.status_code == 200, response.text
        evaluation = response.json()["evaluation"]
        if expected is not None:
            assert evaluation == expected
        else:  # O to move blocks X's four (both ends): a game again, no forced result either way
            assert evaluation.get("win_in") is None and -1 < evaluation["heuristic"] < 1


async def test_a_built_in_search_games_evaluations_are_stored(api: httpx.AsyncClient) -> None:
    body = {
        "player_x": {"type": "builtin", "name": "search"},
        "player_o": {"type": "builtin", "name": "heuristic"},
        # 2 s, not 0.5: at load 15 a search lost on time on its first move at 0.5 s (26 ms over), storing nothing to
        # check; what a longer turn keeps back for stalls outlasts them (the API sets no time margin)
        "match_config": {"clock_type": "turn", "clock": 2.0, "heartbeat": 5000, "view_distance": 8, "win_distance": 6},
    }
    created = await api.post("/game/new", json=body)
    assert created.status_code == 200, created.text
    game_id = created.json()["game_id"]
    for _ in range(600):  # a bounded wait for the game to end (liveness, not timing)
        got = await api.get(f"/games/{game_id}")
        if got.status_code == 200 and got.json()["status"] != "running":
            break
        await asyncio.sleep(0.1)
    record = got.json()
    assert record["status"] != "running", record
    # Who won is not this test's claim: under a loaded machine the search may overrun its turn and lose on time
    # (its time use is measured by bench/time_use.py). Every move it made, the last included, carries its evaluation.
    mine = [m for m in record["moves"] if m["seat"] == 0]
    assert len(mine) >= 2, record["reason"]
    assert all(m["evaluation"] and "heuristic" in m["evaluation"] for m in mine), [m["evaluation"] for m in mine]
    assert mine[0]["evaluation"]["depth"] >= 1 and mine[0]["considerations"]
