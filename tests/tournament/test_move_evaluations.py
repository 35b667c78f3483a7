"""A tournament game keeps what its bots said about each move (evaluation, considerations), as live matches do."""

from __future__ import annotations

import pytest

from hexarena.store import Store
from hexarena.tournament.executors import LocalExecutor
from hexarena.tournament.runner import Runner, TournamentConfig


@pytest.mark.parametrize("processes", [0, 1])
async def test_tournament_moves_are_stored_with_their_evaluations(migrated_sqlite_url: str, processes: int) -> None:
    store = await Store.open(migrated_sqlite_url)
    try:
        config = TournamentConfig(
            game="htttx",
            players=["builtin:search", "builtin:heuristic"],
            names=["search", "heuristic"],
            games_per_pairing=2,
            max_plies=6,
            clock={"kind": "turn", "seconds": 1.0},
            time_margin=5.0,  # a loaded machine's stalls are forgiven: a search lost on time stores fewer moves
        )
        runner = await Runner.create(config, store, executor=LocalExecutor(processes=processes))
        summary = await runner.run()
        assert summary["games_finished"] == 2
        games = await store.list_games(tournament_id=runner.id, limit=10)
        assert len(games) == 2
        evaluated = searched = 0
        for game in games:
            seat = [p.name for p in game.players].index("search")
            moves = await store.get_moves(game.game_id)
            assert moves
            for m in moves:
                if m.seat == seat and m.evaluation and "depth" in m.evaluation:
                    evaluated += 1
                    # a search that finished a whole turn names the moves it weighed; one that a loaded machine
                    # gave no time for one (depth 0: its first guess) has none to name
                    if m.evaluation["depth"]:
                        searched += 1
                        assert m.considerations, m
        assert evaluated >= 4  # every move of the search bot says what it found (its first is the opening rule's)
        assert searched >= 1
    finally:
        await store.close()
