"""The recorder against a real store (SQLite and PostgreSQL): one mapping of endings, batched moves, outages.

The database outage here is a store whose every call fails while ``down`` is set, around the real store: the
recorder must keep, journal, retry and finally write everything. The end-to-end proofs with a stopped
PostgreSQL server and ``kill -9`` live in ``tests/server/test_durability.py``.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from store_helpers import move, players

from hexarena.core.types import Termination
from hexarena.store import GameStatus, MoveRecord, PlayerRecord, Store, StoreError, new_id
from hexarena.store.recorder import GameEnd, NewGame, Recorder, StoreUnavailable, rated, status_for


class FlakyStore:
    """The real store, except that every call raises StoreError while ``down`` is set (a database outage)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.down = False
        self.calls = 0

    def __getattr__(self, name: str) -> Any:
        target = getattr(self.store, name)
        if not callable(target):
            return target

        async def call(*args: Any, **kwargs: Any) -> Any:
            self.calls += 1
            if self.down:
                raise StoreError(f"{name} failed: ConnectionRefusedError: [Errno 111] Connection refused")
            return await target(*args, **kwargs)

        return call


def _new(gid: str, names: tuple[str, str] = ("alice", "bob"), kinds: tuple[str, str] = ("bws", "builtin")) -> NewGame:
    return NewGame(
        game_id=gid,
        game="hex",
        params={"size": 5},
        players=(PlayerRecord(names[0], kinds[0], ""), PlayerRecord(names[1], kinds[1], "")),
    )


def _end(gid: str, n: int, *, winner: int | None = 1, termination: str = "normal", **extra: Any) -> GameEnd:
    new = _new(gid)
    return GameEnd(
        game_id=gid,
        game="hex",
        winner=winner,
        termination=termination,
        reason="connected",
        moves=extra.pop("moves", tuple(move(i) for i in range(n))),
        players=extra.pop("players", new.players),
        **extra,
    )


# ----- the one mapping -----


@pytest.mark.parametrize(
    ("termination", "plies", "status"),
    [
        ("normal", 10, GameStatus.FINISHED),
        ("turn_limit", 10, GameStatus.FINISHED),
        ("time", 0, GameStatus.FINISHED),  # a forfeit before the first move is still a result
        ("illegal_move", 3, GameStatus.FINISHED),
        ("protocol", 3, GameStatus.FINISHED),
        ("disconnect", 3, GameStatus.FINISHED),
        ("resign", 3, GameStatus.FINISHED),
        ("aborted", 0, GameStatus.ABORTED),
        ("aborted", 5, GameStatus.ABORTED),
        ("interrupted", 5, GameStatus.INTERRUPTED),
        ("interrupted", 0, GameStatus.ABORTED),
        ("error", 5, GameStatus.INTERRUPTED),
        ("error", 0, GameStatus.ABORTED),
        ("bogus", 5, GameStatus.INTERRUPTED),
    ],
)
def test_status_for_every_termination(termination: str, plies: int, status: GameStatus) -> None:
    assert status_for(termination, plies) == status


def test_every_termination_is_mapped() -> None:
    for t in Termination:
        assert status_for(str(t), 1) in (GameStatus.FINISHED, GameStatus.ABORTED, GameStatus.INTERRUPTED)
        assert (status_for(str(t), 1) == GameStatus.FINISHED) == t.is_result


def test_rated_only_results_between_bots() -> None:
    assert rated("normal", ["bws", "builtin"])
    assert rated("time", ["bws", "builtin"])
    assert not rated("normal", ["browser", "builtin"])
    assert not rated("normal", ["human", "builtin"])
    for t in ("aborted", "interrupted", "error"):
        assert not rated(t, ["bws", "builtin"])


# ----- results -----


async def test_result_with_analysis_and_rating(store: Store, recorder: Recorder) -> None:
    gid = new_id()
    await recorder.open_game(_new(gid))
    moves = (move(0, evaluation={"score": 0.25}), move(1, evaluation={"score": -1}, considerations=[{"move": "b"}]))
    recorder.finish(_end(gid, 0, moves=moves))
    await recorder.flush(10)
    rec = await store.get_game(gid)
    assert rec is not None and rec.status == GameStatus.FINISHED and rec.winner_name == "bob"
    assert [m.evaluation for m in rec.moves] == [{"score": 0.25}, {"score": -1}]
    assert rec.moves[1].considerations == [{"move": "b"}]
    ratings = {r.key: r for r in await store.list_ratings("hex")}
    assert ratings["bob"].rating > 1500 > ratings["alice"].rating and ratings["bob"].games == 1


async def test_unstorable_analysis_does_not_lose_the_result(store: Store, recorder: Recorder) -> None:
    gid = new_id()
    await recorder.open_game(_new(gid))
    bad = MoveRecord(ply=1, seat=1, move="b2", timestamp=move(1).timestamp, think_time=0.1, evaluation={"s": {1, 2}})
    recorder.finish(_end(gid, 0, moves=(move(0), bad)))
    await recorder.flush(10)
    rec = await store.get_game(gid)
    assert rec is not None and rec.status == GameStatus.FINISHED and rec.winner == 1
    assert [(m.move, m.evaluation) for m in rec.moves] == [("m0", None), ("b2", None)]


async def test_a_bad_result_is_refused_not_invented(store: Store, recorder: Recorder) -> None:
    gid = new_id()
    await recorder.open_game(_new(gid))
    recorder.finish(_end(gid, 2, winner=5))
    await recorder.flush(10)
    rec = await store.get_game(gid)
    assert rec is not None and rec.status == GameStatus.RUNNING and rec.winner is None


@pytest.mark.parametrize(
    ("termination", "kinds", "status", "rated_game"),
    [
        ("normal", ("bws", "builtin"), GameStatus.FINISHED, True),
        ("aborted", ("bws", "builtin"), GameStatus.ABORTED, False),
        ("interrupted", ("bws", "builtin"), GameStatus.INTERRUPTED, False),
        ("error", ("bws", "builtin"), GameStatus.INTERRUPTED, False),
        ("normal", ("browser", "builtin"), GameStatus.FINISHED, False),
    ],
)
async def test_no_result_has_no_winner_and_no_rating(
    store: Store, recorder: Recorder, termination: str, kinds: tuple[str, str], status: GameStatus, rated_game: bool
) -> None:
    gid = new_id()
    new = _new(gid, kinds=kinds)
    recorder.record(new, _end(gid, 3, winner=0, termination=termination, players=new.players))
    await recorder.flush(10)
    rec = await store.get_game(gid)
    assert rec is not None and rec.status == status and len(rec.moves) == 3
    assert rec.winner == (0 if status == GameStatus.FINISHED else None)
    assert bool(await store.list_ratings("hex")) == rated_game


# ----- moves as played -----


async def test_moves_reach_the_store_as_played(store: Store, tmp_path: Path) -> None:
    recorder = Recorder(store, tmp_path, interval=0.01)
    await recorder.start()
    ids = [new_id() for _ in range(4)]
    for gid in ids:
        await recorder.open_game(_new(gid))
    for ply in range(25):
        for gid in ids:
            recorder.move(gid, move(ply))
    await recorder.flush(10)
    for gid in ids:
        assert [m.ply for m in await store.get_moves(gid)] == list(range(25))
    assert recorder.written_moves == 100
    # replaying the same moves (a retry whose answer was lost) changes nothing
    for ply in range(25):
        recorder.move(ids[0], move(ply, "other"))
    await recorder.flush(10)
    assert [m.move for m in await store.get_moves(ids[0])] == [f"m{i}" for i in range(25)]
    await recorder.close()


async def test_moves_of_an_ended_game_are_dropped(store: Store, recorder: Recorder) -> None:
    gid = new_id()
    await recorder.open_game(_new(gid))
    recorder.finish(_end(gid, 2))
    await recorder.flush(10)
    recorder.move(gid, move(2))
    await recorder.flush(10)
    rec = await store.get_game(gid)
    assert rec is not None and len(rec.moves) == 2 and not recorder.degraded


# ----- outages -----


async def test_an_outage_loses_nothing_and_is_reported(store: Store, tmp_path: Path) -> None:
    flaky = FlakyStore(store)
    recorder = Recorder(flaky, tmp_path, interval=0.01, max_backoff=0.05)
    await recorder.start()
    gid = new_id()
    await recorder.open_game(_new(gid))
    flaky.down = True
    for ply in range(5):
        recorder.move(gid, move(ply))
    recorder.finish(_end(gid, 6))
    for _ in range(200):
        if recorder.degraded:
            break
        await asyncio.sleep(0.01)
    assert recorder.degraded
    health = recorder.health()
    assert health["status"] == "degraded" and "Connection refused" in health["error"]
    assert health["pending_writes"] >= 1 and health["journaled"] >= 1
    with pytest.raises(StoreUnavailable, match="try again"):
        await recorder.open_game(_new(new_id()))
    journals = list(tmp_path.glob("journal-*.jsonl"))
    assert len(journals) == 1 and any(json.loads(x)["op"] == "finish" for x in journals[0].read_text().splitlines())
    flaky.down = False
    await recorder.flush(10)
    rec = await store.get_game(gid)
    assert rec is not None and rec.status == GameStatus.FINISHED and len(rec.moves) == 6
    assert not recorder.degraded and recorder.health()["journaled"] == 0
    await recorder.close()
    assert not list(tmp_path.glob("journal-*.jsonl"))  # nothing left to replay


async def test_a_restart_during_an_outage_replays_the_journal(database_url: str, tmp_path: Path) -> None:
    store = await Store.open(database_url)
    flaky = FlakyStore(store)
    recorder = Recorder(flaky, tmp_path, interval=0.01, max_backoff=0.05)
    await recorder.start()
    gids = [new_id() for _ in range(3)]
    for gid in gids:
        await recorder.open_game(_new(gid))
    flaky.down = True
    for gid in gids:
        recorder.finish(_end(gid, 4, winner=0))
    await recorder.close(timeout=0.2)  # the database never came back before this process stopped
    assert len(list(tmp_path.glob("journal-*.jsonl"))) == 1
    # the next process: the journal is written before anything else, and rates each game exactly once
    for _ in range(2):
        again = Recorder(store, tmp_path)
        replayed = await again.start()
        await again.close()
        assert replayed in (0, 3)
    for gid in gids:
        rec = await store.get_game(gid)
        assert rec is not None and rec.status == GameStatus.FINISHED and rec.winner == 0 and len(rec.moves) == 4
    ratings = {r.key: r.games for r in await store.list_ratings("hex")}
    assert ratings == {"alice": 3, "bob": 3}
    assert not list(tmp_path.glob("journal-*.jsonl"))
    await store.close()


async def test_a_torn_journal_line_is_skipped(store: Store, tmp_path: Path) -> None:
    gid = new_id()
    await store.create_game(game_id=gid, game="hex", params={}, players=players())
    end = _end(gid, 2)
    from hexarena.store.recorder import _Op, _to_json

    line = json.dumps(_to_json(_Op("finish", gid, end)))
    (tmp_path / "journal-1-dead.jsonl").write_text(line + "\n" + line[: len(line) // 2])
    recorder = Recorder(store, tmp_path)
    assert await recorder.start() == 1
    await recorder.close()
    rec = await store.get_game(gid)
    assert rec is not None and rec.status == GameStatus.FINISHED


async def test_unfinished_games_become_interrupted_or_aborted(store: Store) -> None:
    played, unplayed = new_id(), new_id()
    for gid in (played, unplayed):
        await store.create_game(game_id=gid, game="hex", params={}, players=players())
    await store.append_moves([(played, move(0)), (played, move(1))])
    assert await store.mark_unfinished_as_interrupted() == (1, 1)
    a, b = await store.get_game(played), await store.get_game(unplayed)
    assert a is not None and a.status == GameStatus.INTERRUPTED and len(a.moves) == 2 and a.winner is None
    assert b is not None and b.status == GameStatus.ABORTED


async def test_an_outage_journals_in_batches_not_per_move(store: Store, tmp_path: Path) -> None:
    """While the database is away every queued write goes to the journal once per flush tick: a burst of moves is
    one fsync'ed append, not one per move (which would stall the event loop with the whole queue each time)."""
    flaky = FlakyStore(store)
    recorder = Recorder(flaky, tmp_path, interval=0.01, max_backoff=0.05)
    await recorder.start()
    gid = new_id()
    await recorder.open_game(_new(gid))
    flaky.down = True
    recorder.move(gid, move(0))
    for _ in range(200):
        if recorder.degraded:
            break
        await asyncio.sleep(0.01)
    assert recorder.degraded and recorder.journal is not None
    appends = 0
    append = recorder.journal.append

    def counting(entries: list[dict[str, Any]]) -> None:
        nonlocal appends
        appends += 1
        append(entries)

    recorder.journal.append = counting  # type: ignore[method-assign]
    for ply in range(1, 1001):
        recorder.move(gid, move(ply))
    await asyncio.sleep(0.05)
    assert recorder.journal.entries >= 1001 and appends <= 3, appends
    flaky.down = False
    await recorder.flush(10)
    assert len(await store.get_moves(gid)) == 1001
    await recorder.close()


# ----- takebacks -----


async def test_a_takeback_deletes_the_moves_in_order_with_those_around_it(store: Store, tmp_path: Path) -> None:
    """Issue 15: moves taken back leave the store, in order with the moves played before and after them (queued
    together or flushed in between), and the game's end keeps the line as it stands."""
    recorder = Recorder(store, tmp_path, interval=0.01)
    await recorder.start()
    flushed, queued = new_id(), new_id()
    for gid in (flushed, queued):
        await recorder.open_game(_new(gid))
        for ply in range(6):
            recorder.move(gid, move(ply))
    await recorder.flush(10)
    for gid in (flushed, queued):
        recorder.take_back(gid, 4)
        if gid == flushed:
            await recorder.flush(10)
            assert [m.ply for m in await store.get_moves(gid)] == [0, 1, 2, 3]
        recorder.move(gid, move(4, "x4"))
        recorder.move(gid, move(5, "x5"))
    await recorder.flush(10)
    line = ["m0", "m1", "m2", "m3", "x4", "x5"]
    for gid in (flushed, queued):
        assert [m.move for m in await store.get_moves(gid)] == line
    recorder.move(queued, move(6))
    recorder.take_back(queued, 6)  # queued behind its move: nothing of it stays, and the finish agrees
    recorder.finish(_end(queued, 6, moves=tuple(move(i, t) for i, t in enumerate(line))))
    await recorder.flush(10)
    rec = await store.get_game(queued)
    assert rec is not None and rec.status == GameStatus.FINISHED and [m.move for m in rec.moves] == line
    assert await store.take_back_moves(queued, 0) == 0  # an ended game's moves are its result's: kept
    await recorder.close()


async def test_a_takeback_during_an_outage_is_journaled_and_replayed_in_order(
    database_url: str, tmp_path: Path
) -> None:
    store = await Store.open(database_url)
    flaky = FlakyStore(store)
    recorder = Recorder(flaky, tmp_path, interval=0.01, max_backoff=0.05)
    await recorder.start()
    gid = new_id()
    await recorder.open_game(_new(gid))
    recorder.move(gid, move(0))
    recorder.move(gid, move(1))
    await recorder.flush(10)
    flaky.down = True
    recorder.move(gid, move(2))
    recorder.move(gid, move(3))
    recorder.take_back(gid, 1)
    recorder.move(gid, move(1, "x1"))
    await recorder.close(timeout=0.2)  # the database never came back before this process stopped
    entries = [json.loads(x) for x in next(tmp_path.glob("journal-*.jsonl")).read_text().splitlines()]
    assert [e["op"] for e in entries] == ["move", "move", "takeback", "move"]
    for _ in range(2):  # the next process replays it (twice: idempotent)
        again = Recorder(store, tmp_path)
        await again.start()
        await again.close()
    assert [m.move for m in await store.get_moves(gid)] == ["m0", "x1"]
    await store.close()


async def test_games_created_together_share_one_transaction(store: Store, tmp_path: Path) -> None:
    """Matches that start at the same moment (a tournament round, a wave of API creates) are written in one
    transaction, not one each (~2 ms of the server's CPU a transaction on SQLite); a bad one among them is
    refused alone, and the others exist."""
    counting = FlakyStore(store)
    recorder = Recorder(counting, tmp_path, interval=0.01)  # type: ignore[arg-type]
    await recorder.start()
    ids = [new_id() for _ in range(20)]
    bad = NewGame(game_id=new_id(), game="x" * 500, params={}, players=_new("x").players)  # too long a name
    outcomes = await asyncio.gather(
        *(recorder.open_game(_new(gid)) for gid in ids[:10]),
        recorder.open_game(bad),
        *(recorder.open_game(_new(gid)) for gid in ids[10:]),
        return_exceptions=True,
    )
    assert [type(o).__name__ for o in outcomes].count("InvalidRecord") == 1
    assert all(o is None for o in outcomes[:10] + outcomes[11:]), outcomes
    for gid in ids:
        assert (await store.get_game(gid)) is not None
    assert counting.calls < 10, counting.calls  # was one transaction a game
    await recorder.open_game(_new(ids[0]))  # created again (a retry whose answer was lost): already done
    await recorder.close()


async def test_create_games_is_idempotent(store: Store) -> None:
    games = [_new(new_id()) for _ in range(3)]
    assert await store.create_games(games) == 3
    assert await store.create_games(games) == 0
    assert [p.name for p in (await store.get_game(games[0].game_id)).players] == ["alice", "bob"]  # type: ignore[union-attr]


async def test_games_that_end_together_share_one_transaction(store: Store, tmp_path: Path) -> None:
    """Ends queued together (a wave of games ending at once) are written in one transaction, each rated once;
    a bad one among them (a winner that is no seat) is refused alone after the batch is, and the others are
    written all the same, moves and ratings included."""
    counting = FlakyStore(store)
    recorder = Recorder(counting, tmp_path, interval=0.01)  # type: ignore[arg-type]
    await recorder.start()
    ids = [new_id() for _ in range(12)]
    for gid in ids:
        await recorder.open_game(_new(gid))
    await recorder.flush(10)
    before = counting.calls
    ends = [recorder.finish(_end(gid, 3)) for gid in ids[:6]]
    await asyncio.gather(*ends)
    assert counting.calls - before <= 2, counting.calls - before  # was one transaction a game
    for gid in ids[:6]:
        rec = await store.get_game(gid)
        assert rec is not None and rec.status == GameStatus.FINISHED and rec.winner == 1 and len(rec.moves) == 3
    ratings = {r.key: r for r in await store.list_ratings("hex")}
    assert ratings["bob"].games == 6 and ratings["alice"].games == 6
    # one refused among five: the batch is refused, then each alone; only the bad one stays unfinished
    ends = [recorder.finish(_end(gid, 2, winner=5 if gid == ids[8] else 0)) for gid in ids[6:11]]
    await asyncio.gather(*ends)
    assert recorder.written_results == 10
    for gid in ids[6:11]:
        rec = await store.get_game(gid)
        assert rec is not None
        assert (rec.status, rec.winner) == ((GameStatus.RUNNING, None) if gid == ids[8] else (GameStatus.FINISHED, 0))
    assert {r.key: r.games for r in await store.list_ratings("hex")} == {"alice": 10, "bob": 10}
    await recorder.close()


async def test_finish_games_says_which_it_ended_and_refuses_a_bad_batch_whole(store: Store) -> None:
    from hexarena.store import InvalidRecord
    from hexarena.store.records import GameFinish, RatedGame

    ids = [new_id() for _ in range(3)]
    for gid in ids[:2]:
        await store.create_games([_new(gid)])
    await store.finish_game(ids[0], winner=0, termination="normal", reason="first")
    rate = RatedGame(game="hex", keys=("alice", "bob"))
    ends = [GameFinish(gid, winner=1, termination="normal", reason="again", rate=rate) for gid in ids]
    assert await store.finish_games(ends) == [False, True, None]  # already ended, ended now, never stored
    assert (await store.get_game(ids[0])).reason == "first"  # type: ignore[union-attr]
    assert {r.key: r.games for r in await store.list_ratings("hex")} == {"alice": 1, "bob": 1}  # rated once
    fresh, other = new_id(), new_id()
    await store.create_games([_new(fresh), _new(other)])
    with pytest.raises(InvalidRecord, match="not a seat"):  # found by the database, after fresh's UPDATE ran
        await store.finish_games([GameFinish(fresh, 0, "normal", "ok"), GameFinish(other, 7, "normal", "bad")])
    with pytest.raises(InvalidRecord, match="status"):  # found before any SQL
        await store.finish_games(
            [GameFinish(fresh, 0, "normal", "ok"), GameFinish(other, 0, "normal", "x", status="won")]
        )
    for gid in (fresh, other):  # nothing of a refused batch is written
        assert (await store.get_game(gid)).status == GameStatus.RUNNING  # type: ignore[union-attr]


async def test_a_busy_healthy_recorder_keeps_no_written_moves(store: Store, tmp_path: Path) -> None:
    """Under steady load the flusher writes batch after batch without the queue ever running dry; what the
    database took must not stay referenced for the journal meanwhile (every move of a busy server was kept until
    the queue happened to be empty, and an outage then would have journaled moves long stored)."""

    class SlowStore(FlakyStore):  # each batch of moves takes 5 ms to write: more arrive meanwhile
        async def append_moves(self, batch: Any) -> int:
            await asyncio.sleep(0.005)
            return await self.store.append_moves(batch)

    recorder = Recorder(SlowStore(store), tmp_path, interval=0.001)  # type: ignore[arg-type]
    await recorder.start()
    gid = new_id()
    await recorder.open_game(_new(gid))
    held = []
    for i in range(300):
        recorder.move(gid, move(i))
        await asyncio.sleep(0.001)
        held.append(len(recorder._unjournaled))
    await recorder.flush(10)
    assert recorder.written_moves == 300
    assert max(held) == 0, max(held)  # was growing with every move while the flusher kept busy
    await recorder.close()


async def test_rated_ends_of_one_batch_rate_together_as_one_by_one_would(store: Store) -> None:
    """A batch of rated ends reads every rating once and writes them once (was four statements a game: each
    end's UPDATE, its ratings' SELECT, history INSERT and rating upsert), and comes to exactly the ratings and
    the history that finishing the games one by one gives, also when the same players meet several times."""
    from sqlalchemy import event

    from hexarena.store.records import GameFinish, RatedGame

    pairs = [("alice", "bob"), ("bob", "alice"), ("carol", "alice"), ("alice", "bob"), ("dave", "erin")]
    winners = [0, 0, 1, None, 1]

    async def finish_all(suffix: str, batch: bool) -> list[str]:
        """Play the games between the players named with ``suffix``; the statements the finishing ran."""
        ends = []
        for (a, b), winner in zip(pairs, winners, strict=True):
            gid = new_id()
            names = (a + suffix, b + suffix)
            await store.create_games([_new(gid, names=names)])
            ends.append(GameFinish(gid, winner, "normal", "over", rate=RatedGame(game="hex", keys=names)))
        statements: list[str] = []
        sync_engine = store._engine.sync_engine

        def count(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
            if statement.split()[0].upper() in ("SELECT", "INSERT", "UPDATE", "DELETE"):
                statements.append(statement.split()[0].upper())

        event.listen(sync_engine, "before_cursor_execute", count)
        try:
            if batch:
                assert await store.finish_games(ends) == [True] * len(ends)
            else:
                for end in ends:
                    assert await store.finish_games([end]) == [True]
        finally:
            event.remove(sync_engine, "before_cursor_execute", count)
        return statements

    finish_all_alone = await finish_all("-1", batch=False)
    batched = await finish_all("-2", batch=True)
    # one UPDATE a game, then one SELECT of every rating, one history INSERT and one upsert for them all
    assert len(batched) <= len(pairs) + 3, batched
    assert len(finish_all_alone) > len(batched)

    def by_player(suffix: str, rows: Any) -> dict[str, Any]:
        return {k.removesuffix(suffix): v for k, v in rows.items() if k.endswith(suffix)}

    ratings = {r.key: (round(r.rating, 9), r.games) for r in await store.list_ratings("hex")}
    assert by_player("-1", ratings) == by_player("-2", ratings)
    assert len(by_player("-1", ratings)) == 5
    history = {k: [round(r.rating, 9) for r in v] for k, v in (await store.rating_history("hex", points=100)).items()}
    assert by_player("-1", history) == by_player("-2", history)
    assert sorted(len(v) for v in by_player("-2", history).values()) == [1, 1, 1, 3, 4]  # a row per rated game
