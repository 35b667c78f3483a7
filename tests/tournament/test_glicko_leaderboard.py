"""The leaderboard answers Glicko-2 standings: the deviation, and whether the rating is still provisional."""

from __future__ import annotations

import httpx

from fakes.apps import module_app
from hexarena.core.glicko2 import PROVISIONAL_RD
from hexarena.server import tournaments
from hexarena.server.ui import ratings as ui_ratings
from hexarena.store import Store
from hexarena.store.records import RatingRecord


async def test_leaderboard_and_history_answer_the_deviation_and_mark_provisional_players(
    migrated_sqlite_url: str,
) -> None:
    store = await Store.open(migrated_sqlite_url)
    try:
        await store.upsert_ratings(
            [
                RatingRecord("newbie", "hex", 1810.0, rd=300.0, games=2),
                RatingRecord("settled", "hex", 1700.04, rd=61.26, sigma=0.0599, games=80),
                RatingRecord("edge", "hex", 1600.0, rd=PROVISIONAL_RD, games=11),
                RatingRecord("just-settled", "hex", 1550.0, rd=PROVISIONAL_RD - 0.01, games=12),
            ]
        )
        await store.upsert_rating(RatingRecord("settled", "hex", 1712.0, rd=60.0, games=81))
        async with (
            module_app(tournaments.router, tournaments.lifespan, store) as app,
            httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test") as c,
        ):
            app.include_router(ui_ratings.router)
            board = (await c.get("/leaderboard/hex")).json()["ratings"]
            history = (await c.get("/api/ui/leaderboard/hex/history")).json()["history"]
    finally:
        await store.close()
    assert [(r["player"], r["rating"], r["rd"], r["provisional"]) for r in board] == [
        ("newbie", 1810.0, 300.0, True),
        ("settled", 1712.0, 60.0, False),
        ("edge", 1600.0, 110.0, True),  # provisional from the threshold on, as lichess
        ("just-settled", 1550.0, 110.0, False),
    ]
    assert [(p["rating"], p["rd"]) for p in history["settled"]] == [(1700.04, 61.26), (1712.0, 60.0)]
