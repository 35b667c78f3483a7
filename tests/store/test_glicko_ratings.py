"""The persistent ratings are Glicko-2 (rating, deviation, volatility), moved with each rated result in the same
transaction as the result, once, on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import timedelta

import pytest
from store_helpers import T0, players

from hexarena.core.glicko2 import Glicko, idle, idle_periods, rate_game
from hexarena.store import Store, new_id
from hexarena.store.records import GameFinish, RatedGame, RatingRecord

RATE = RatedGame(game="hex", keys=("alice", "bob"))


async def _play(store: Store, winner: int | None, days: float = 0.0) -> bool:
    gid = new_id()
    await store.create_game(game_id=gid, game="hex", params={"size": 5}, players=players())
    return await store.finish_game(
        gid, winner=winner, termination="normal", reason="over", rate=RATE, finished_at=T0 + timedelta(days=days)
    )


def _glicko(r: RatingRecord | None) -> Glicko:
    assert r is not None
    return Glicko(r.rating, r.rd, r.sigma)


async def test_a_rated_result_moves_rating_deviation_and_volatility_as_glicko2(store: Store) -> None:
    assert await _play(store, winner=1)
    alice, bob = rate_game(Glicko(), Glicko(), 0.0)
    stored = {r.key: r for r in await store.list_ratings("hex")}
    for key, want in (("alice", alice), ("bob", bob)):
        got = stored[key]
        assert (got.rating, got.rd, got.sigma, got.games) == pytest.approx((want.rating, want.rd, want.sigma, 1))
    assert stored["bob"].rd < 350.0  # Elo left the deviation at its default forever
    history = await store.rating_history("hex")
    assert [p.rating for p in history["bob"]] == pytest.approx([bob.rating])
    assert [p.rd for p in history["bob"]] == pytest.approx([bob.rd])


async def test_each_game_rates_against_the_opponent_before_it_and_idle_days_widen_the_deviation(
    store: Store,
) -> None:
    a, b = Glicko(), Glicko()
    for winner, days in ((0, 0.0), (None, 0.0), (1, 200.0)):
        assert await _play(store, winner, days)
        grown = idle_periods(days) if days else 0.0  # both last played on day 0
        score = 0.5 if winner is None else 1.0 - winner
        a, b = rate_game(idle(a, grown), idle(b, grown), score)
    got_a, got_b = _glicko(await store.get_rating("alice", "hex")), _glicko(await store.get_rating("bob", "hex"))
    for got, want in ((got_a, a), (got_b, b)):
        assert (got.rating, got.rd, got.sigma) == pytest.approx((want.rating, want.rd, want.sigma))
    assert len((await store.rating_history("hex"))["alice"]) == 3


async def test_a_replayed_finish_rates_once(store: Store) -> None:
    gid = new_id()
    await store.create_game(game_id=gid, game="hex", params={"size": 5}, players=players())
    end = GameFinish(gid, winner=0, termination="normal", reason="over", rate=RATE, finished_at=T0)
    assert await store.finish_games([end]) == [True]
    once = await store.get_rating("alice", "hex")
    assert await store.finish_games([end, end]) == [False, False]
    assert await store.get_rating("alice", "hex") == once
    assert len((await store.rating_history("hex"))["alice"]) == 1
