"""The runner end to end on fast games: formats, broken bots, resume, determinism, SPRT, store and ratings."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from hexarena.core.errors import ConfigError
from hexarena.store import Store
from hexarena.tournament.executors import LocalExecutor
from hexarena.tournament.ratings import leaderboard
from hexarena.tournament.runner import Runner, TournamentConfig


@pytest.fixture
async def store(migrated_sqlite_url: str) -> AsyncIterator[Store]:
    s = await Store.open(migrated_sqlite_url)
    yield s
    await s.close()


def nw(players: list[str], **kw: Any) -> TournamentConfig:
    kw.setdefault("clock", {"kind": "turn", "seconds": 1.0})
    return TournamentConfig(game="numberwang", players=players, **kw)


def results(runner: Runner) -> list[tuple[str, Any, str]]:
    return [(g["id"].split(".")[-1], g["result"]["winner"], g["result"]["termination"]) for g in runner.games]


async def test_round_robin_counts_broken_bots_and_never_stalls(store: Store) -> None:
    config = nw(
        ["tfake:random", "tfake:crash", "tfake:slow", "tfake:illegal"],
        names=["ok", "crasher", "sleeper", "cheater"],
        games_per_pairing=2,
        concurrency=4,
        clock={"kind": "turn", "seconds": 0.05},
    )
    runner = await Runner.create(config, store)
    summary = await runner.run()
    assert summary["status"] == "finished"
    assert summary["games_finished"] == summary["games_scheduled"] == 6 * 2
    rows = {r["name"]: r for r in summary["standings"]}
    assert sum(r["points"] for r in rows.values()) == 12  # every game gives out exactly one point
    assert rows["crasher"]["crashes"] >= 1 and rows["crasher"]["timeouts"] == rows["crasher"]["illegal"] == 0
    assert rows["sleeper"]["timeouts"] >= 1 and rows["sleeper"]["crashes"] == 0
    assert rows["cheater"]["illegal"] >= 1
    assert rows["ok"]["timeouts"] == rows["ok"]["crashes"] == rows["ok"]["illegal"] == 0
    stored = await store.list_games(tournament_id=runner.id, limit=100)
    assert len(stored) == 12
    record = await store.get_tournament(runner.id)
    assert record is not None and record.status == "finished"
    board = await leaderboard(store, "numberwang")
    assert {r["player"] for r in board} == {"ok", "crasher", "sleeper", "cheater"}
    assert board[0]["player"] == "ok" and all(r["games"] == 6 for r in board)


class Boom(Exception):
    pass


async def test_interrupted_tournament_resumes_where_it_stopped(store: Store) -> None:
    config = nw(["tfake:random", "tfake:greedy", "tfake:random"], names=["a", "b", "c"], games_per_pairing=4, seed=5)
    seen = 0

    def explode(runner: Runner, game: dict[str, Any]) -> None:
        nonlocal seen
        seen += 1
        if seen == 5:
            raise Boom("power cut")

    runner = await Runner.create(config, store, tournament_id="resume-me", on_result=explode)
    with pytest.raises(Boom):
        await runner.run()
    record = await store.get_tournament("resume-me")
    assert record is not None and record.status == "running"
    saved = [g for g in record.state["games"] if g["result"] is not None]
    assert len(saved) == 5
    resumed = await Runner.resume(store, "resume-me")
    summary = await resumed.run()
    assert summary["status"] == "finished" and summary["games_finished"] == 12
    after = {g["id"]: g["result"] for g in resumed.games}
    assert all(after[g["id"]] == g["result"] for g in saved)  # finished games were kept, not replayed
    assert len(await store.list_games(tournament_id="resume-me", limit=100)) == 12
    # a finished tournament has nothing left to do
    again = await Runner.resume(store, "resume-me")
    assert (await again.run())["games_finished"] == 12


async def test_same_seed_same_tournament_whatever_the_concurrency() -> None:
    players = ["tfake:random", "tfake:random", "tfake:greedy"]
    runs = []
    for concurrency in (1, 3):
        r = await Runner.create(
            nw(players, names=["x", "y", "z"], seed=11, opening_plies=2, concurrency=concurrency), None, "same"
        )
        await r.run()
        runs.append((results(r), [g["opening"] for g in r.games]))
    assert runs[0] == runs[1]
    other = await Runner.create(nw(players, names=["x", "y", "z"], seed=12, opening_plies=2), None, "same")
    await other.run()
    assert [g["opening"] for g in other.games] != runs[0][1]


async def test_pairs_share_an_opening_with_colours_swapped() -> None:
    r = await Runner.create(
        nw(["tfake:random", "tfake:random"], names=["p", "q"], opening_plies=3, games_per_pairing=6), None
    )
    await r.run()
    by_pair: dict[int, list[dict[str, Any]]] = {}
    for g in r.games:
        by_pair.setdefault(g["pair"], []).append(g)
    assert len(by_pair) == 3
    for first, second in by_pair.values():
        assert first["opening"] == second["opening"] and len(first["opening"]) == 3
        assert first["seats"] == second["seats"][::-1]


async def test_sprt_stops_as_soon_as_it_decides(store: Store) -> None:
    config = nw(
        ["tfake:greedy", "tfake:random"],
        names=["strong", "weak"],
        games_per_pairing=400,
        concurrency=2,
        sprt={"elo0": 0, "elo1": 50, "alpha": 0.05, "beta": 0.05, "model": "logistic"},
    )
    runner = await Runner.create(config, store)
    summary = await runner.run()
    assert summary["status"] == "stopped"
    assert summary["sprt"]["decision"] == "H1"
    assert summary["sprt"]["llr"] >= summary["sprt"]["upper"]
    assert "H1" in summary["stop_reason"]
    assert summary["games_finished"] < 400


@pytest.mark.parametrize("n", [4, 5])
async def test_swiss_rounds_without_rematches(n: int) -> None:
    players = ["tfake:greedy"] + ["tfake:random"] * (n - 1)
    names = [f"p{i}" for i in range(n)]
    r = await Runner.create(nw(players, names=names, format="swiss", rounds=3, seed=2), None)
    summary = await r.run()
    rounds = sorted({g["round"] for g in r.games})
    assert rounds == [1, 2, 3]
    met = [frozenset(g["seats"]) for g in r.games if g["index"] % 2 == 0]
    assert len(met) == len(set(met))  # no pairing repeated across rounds
    if n % 2:
        assert len(r.state["byes"]) == 3 and len({p for _, p in r.state["byes"]}) == 3
    assert summary["status"] == "finished"


async def test_knockout_crowns_one_champion() -> None:
    players = ["tfake:greedy", "tfake:random", "tfake:random", "tfake:random", "tfake:random"]
    r = await Runner.create(nw(players, names=list("abcde"), format="knockout", seed=4), None)
    summary = await r.run()
    assert summary["status"] == "finished"
    assert r.state["champion"] in range(5)
    brackets = r.state["brackets"]
    assert len(brackets) == 3  # 8-slot bracket: quarter-finals (3 byes), semi-finals, final
    assert len(brackets[-1]) == 1 and r.state["champion"] in brackets[-1][0]


async def test_gauntlet_only_pairs_the_seed() -> None:
    r = await Runner.create(
        nw(["tfake:greedy", "tfake:random", "tfake:random"], names=["me", "o1", "o2"], format="gauntlet"), None
    )
    await r.run()
    assert all(0 in g["seats"] for g in r.games) and len(r.games) == 4


async def test_tournament_ids_leave_room_for_game_ids() -> None:
    with pytest.raises(ConfigError, match="1 to 48 characters"):
        await Runner.create(nw(["tfake:random", "tfake:greedy"], names=["a", "b"]), None, "x" * 49)


def test_config_validation_explains_itself() -> None:
    with pytest.raises(ConfigError, match="even"):
        nw(["tfake:random", "tfake:random"], names=["a", "b"], games_per_pairing=3).validate()
    with pytest.raises(ConfigError, match="unique"):
        nw(["tfake:random", "tfake:random"]).validate()
    with pytest.raises(ConfigError, match="format"):
        nw(["a", "b"], format="ladder").validate()
    with pytest.raises(ConfigError, match="exactly 2"):
        nw(["a", "b", "c"], sprt={"elo0": 0, "elo1": 5}).validate()
    with pytest.raises(ConfigError, match="'players' must be a list"):
        TournamentConfig(game="numberwang", players="ab").validate()  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="unknown tournament setting"):
        TournamentConfig.from_json({"game": "numberwang", "players": ["a", "b"], "colour": "red"})
    with pytest.raises(ConfigError, match="unknown game"):
        TournamentConfig(game="chess", players=["a", "b"]).validate()


async def test_worker_processes_play_builtin_games() -> None:
    config = nw(["builtin:random", "builtin:random"], names=["r1", "r2"], games_per_pairing=4, concurrency=2)
    r = await Runner.create(config, None, executor=LocalExecutor(processes=2))
    summary = await r.run()
    assert summary["games_finished"] == 4
    assert all(g["result"]["termination"] in ("normal", "turn_limit") for g in r.games)


async def test_results_stored_after_the_last_state_save_are_recovered(store: Store) -> None:
    """A hard crash between two state saves: the games table still has every result, and resume takes them."""
    config = nw(["tfake:random", "tfake:greedy"], names=["a", "b"], games_per_pairing=8, seed=9)
    runner = await Runner.create(config, store, tournament_id="crashy")
    await runner.run()
    truth = {g["id"]: (g["result"]["winner"], g["result"]["termination"], g["result"]["plies"]) for g in runner.games}
    # roll the saved state back to "half the games unfinished", as if the process died before saving them
    state = runner.state
    for g in state["games"][4:]:
        g["result"] = None
    state["status"] = "running"
    await store.update_tournament_state("crashy", state, status="running")
    resumed = await Runner.resume(store, "crashy")
    assert resumed.finished == 8
    summary = await resumed.run()
    assert summary["games_finished"] == 8 and summary["status"] == "finished"
    after = {g["id"]: (g["result"]["winner"], g["result"]["termination"], g["result"]["plies"]) for g in resumed.games}
    assert after == truth  # recovered from the games table, not replayed
    assert len(await store.list_games(tournament_id="crashy", limit=100)) == 8


async def test_a_database_outage_does_not_stop_a_tournament(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """State saves that fail while the database is away are retried at the next game, not fatal: the games
    themselves wait in the recorder's journal, and the state is saved again once the database answers."""
    from hexarena.store import StoreError

    config = nw(["tfake:random", "tfake:greedy"], names=["a", "b"], games_per_pairing=6, seed=3)
    runner = await Runner.create(config, store, tournament_id="outage")
    real = store.update_tournament_state
    failures = 0

    async def flaky(*args: Any, **kwargs: Any) -> None:
        nonlocal failures
        if failures < 3:
            failures += 1
            raise StoreError("update_tournament_state failed: ConnectionRefusedError: [Errno 111]")
        await real(*args, **kwargs)

    monkeypatch.setattr(store, "update_tournament_state", flaky)
    summary = await runner.run()
    assert failures == 3 and summary["status"] == "finished" and summary["games_finished"] == 6
    record = await store.get_tournament("outage")
    assert record is not None and record.status == "finished"
