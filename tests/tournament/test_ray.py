"""The Ray executor on a local Ray instance: games run as Ray tasks, results land in the same store and stats."""

from __future__ import annotations

import pytest

from hexarena.store import Store
from hexarena.tournament.executors import RayExecutor
from hexarena.tournament.runner import Runner, TournamentConfig

ray = pytest.importorskip("ray", reason="ray is an optional extra (pip install ray==2.60.0)")


@pytest.mark.slow
async def test_ray_executor_plays_a_round_robin_into_the_store(migrated_sqlite_url: str) -> None:
    store = await Store.open(migrated_sqlite_url)
    try:
        config = TournamentConfig(
            game="numberwang",
            players=["builtin:random", "builtin:random", "builtin:random"],
            names=["r1", "r2", "r3"],
            games_per_pairing=2,
            concurrency=2,
            seed=3,
            opening_plies=1,
            clock={"kind": "turn", "seconds": 2.0},
        )
        executor = RayExecutor(None, num_cpus=2, include_dashboard=False, log_to_driver=False)
        runner = await Runner.create(config, store, executor=executor)
        summary = await runner.run()
        assert not ray.is_initialized()  # the executor shut down the instance it started
        assert summary["status"] == "finished"
        assert summary["games_finished"] == 6
        assert sum(r["points"] for r in summary["standings"]) == 6
        assert all(g["result"]["termination"] in ("normal", "turn_limit") for g in runner.games)
        stored = await store.list_games(tournament_id=runner.id, limit=50)
        assert len(stored) == 6
        assert all(
            g.move_count == g_plies
            for g, g_plies in zip(
                sorted(stored, key=lambda s: s.game_id),
                [g["result"]["plies"] for g in sorted(runner.games, key=lambda g: g["id"])],
                strict=True,
            )
        )
    finally:
        await store.close()
