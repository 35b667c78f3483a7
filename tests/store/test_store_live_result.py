"""The server's end-of-match write (``MatchManager._store_result``) against a real store.

A bot's analysis is the one part of a result the referee does not check; if the store refuses it, the result
must still be stored, with the moves' analysis dropped.
"""

from __future__ import annotations

import pytest
from store_helpers import T0, players

from hexarena.core.types import Outcome, Termination
from hexarena.referee.result import MatchResult, PlayedMove
from hexarena.server.live import MatchManager
from hexarena.store import GameStatus, InvalidRecord, Store, new_id


def _result(gid: str, evaluation: object, winner: int | None = 1) -> MatchResult:
    t = T0.timestamp()
    moves = [
        PlayedMove(0, 0, "a1", t, 0.5, evaluation={"score": 0.25}),
        PlayedMove(1, 1, "b2", t + 1, 0.75, evaluation=evaluation, considerations=[{"move": "b2"}]),  # type: ignore[arg-type]
    ]
    return MatchResult(
        match_id=gid,
        game="hex",
        params={},
        players=[],
        outcome=Outcome(winner, Termination.NORMAL, "connected"),
        moves=moves,
        final_state=None,
        started=t,
        finished=t + 2,
    )


async def _game(store: Store) -> str:
    gid = new_id()
    await store.create_game(game_id=gid, game="hex", params={}, players=players())
    return gid


async def test_result_is_stored_with_analysis(store: Store) -> None:
    gid = await _game(store)
    await MatchManager(store)._store_result(_result(gid, {"score": -1}))
    rec = await store.get_game(gid)
    assert rec is not None and rec.status == GameStatus.FINISHED and rec.winner_name == "bob"
    assert [m.evaluation for m in rec.moves] == [{"score": 0.25}, {"score": -1}]
    assert rec.moves[1].considerations == [{"move": "b2"}]


async def test_unstorable_analysis_does_not_lose_the_result(store: Store) -> None:
    gid = await _game(store)
    await MatchManager(store)._store_result(_result(gid, {"seen": {1, 2}}))  # a set is not JSON
    rec = await store.get_game(gid)
    assert rec is not None and rec.status == GameStatus.FINISHED and rec.winner == 1
    assert [(m.move, m.evaluation, m.considerations) for m in rec.moves] == [("a1", None, None), ("b2", None, None)]


async def test_a_bad_result_is_still_refused(store: Store) -> None:
    gid = await _game(store)
    with pytest.raises(InvalidRecord, match="winner seat 5"):
        await MatchManager(store)._store_result(_result(gid, {"seen": {1, 2}}, winner=5))
    rec = await store.get_game(gid)
    assert rec is not None and rec.status == GameStatus.RUNNING
