"""A battlebot client on the ladder, end to end: registered on the server (``POST /bots/htttx``) and on the ladder
as ``battlebot:BOT_ID`` under a ladder name of its own, it logs in to the server's lobby over a real WebSocket on
loopback (the reference client, examples/battlebot_client.py, game after game) and plays rated ladder games
against an SDK bot server; the results land in the store, the ladder's standings and the leaderboard.
"""

from __future__ import annotations

import asyncio
import random
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

from fakes.servers import serve_app
from hexarena.checkbot.ladder import report_for
from hexarena.core.errors import ConfigError
from hexarena.games.htttx import HTTTX
from hexarena.server.app import create_app
from ladder.test_ladder_e2e import register, sdk_bots, settings, until

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples"))

import battlebot_client as reference


def choose_htttx(state: dict[str, Any], me: str) -> dict[str, Any]:
    """A random legal HTTTX turn, read from the battlebot state's board (``cells`` with ``p`` x/o)."""
    board = state["board"]
    cells = [(c["q"], c["r"], 0 if c["p"] == "x" else 1) for c in board["cells"]]
    seat = 0 if state["marks"]["x"] == me else 1
    position = HTTTX.from_cells(cells, seat, turns=0, view_distance=board["view_distance"])
    a, b = HTTTX.random_move(position, random.Random(len(cells)))
    return {"pieces": [list(a), list(b)]}


async def test_a_battlebot_client_plays_rated_ladder_games(migrated_database_url: str, tmp_path: Any) -> None:
    app = create_app(settings(migrated_database_url, tmp_path))
    async with (
        sdk_bots("random") as (rand,),
        serve_app(app) as url,
        httpx.AsyncClient(base_url=url, timeout=30) as client,
    ):
        r = await client.post("/bots/htttx", json={"bot_id": "Hexer", "owner": "me@example.org"})
        assert r.status_code == 201, r.text
        auth = {**r.json(), "hostname": url.removeprefix("http://"), "secure": False}
        bot = asyncio.create_task(reference.play_forever(auth, choose_htttx))
        try:
            assert (await register(client, "hexer-on-the-ladder", "battlebot:Hexer")).status_code == 201
            assert (await register(client, "rand", rand)).status_code == 201
            ladder = await until(
                client,
                "/api/ladder",
                lambda b: any(
                    s["name"] == "hexer-on-the-ladder" and (s["games"] >= 3 or s["status"] != "active")
                    for s in b["standings"]
                ),
                "three ladder games of the battlebot client",
            )
        finally:
            bot.cancel()
            await asyncio.gather(bot, return_exceptions=True)
        standing = {s["name"]: s for s in ladder["standings"]}
        mine = standing["hexer-on-the-ladder"]
        assert mine["status"] == "active" and mine["failures_in_row"] == 0, mine
        assert mine["forfeits"] == 0, mine  # it answered every turn as itself: never timed out
        games = [g for g in ladder["recent"] if "hexer-on-the-ladder" in g["players"] and g["finished_at"]]
        assert games and all(set(g["players"]) == {"hexer-on-the-ladder", "rand"} for g in games)
        assert all(g["termination"] in ("normal", "turn_limit") for g in games), games
        record = (await client.get(f"/games/{games[0]['game_id']}")).json()
        players = {p["name"]: p for p in record["players"]}
        assert players["hexer-on-the-ladder"]["kind"] == "battlebot"
        rated = {r["player"]: r for r in (await client.get("/leaderboard/htttx")).json()["ratings"]}
        assert {"hexer-on-the-ladder", "rand"} <= set(rated)
        row = rated["hexer-on-the-ladder"]
        assert row["rd"] < 350.0, row  # rated: its deviation shrank from a newcomer's (random vs random may draw)


async def test_check_bot_on_a_paused_battlebot_entry_says_how_to_check_it() -> None:
    """The ladder can't point a battlebot client at check-bot's lobby: the report's note tells its owner how."""
    with pytest.raises(ConfigError) as caught:
        await report_for("battlebot:Hexer", "htttx")
    assert "hexarena check-bot battlebot:Hexer --game htttx --auth" in str(caught.value)
