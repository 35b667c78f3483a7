"""Games and moves: create, append, finish, read back, list with filters, and the errors around them."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from store_helpers import T0, move, players

from hexarena.core.types import Termination
from hexarena.store import (
    Conflict,
    GameStatus,
    InvalidRecord,
    MoveRecord,
    NotFound,
    PlayerRecord,
    Store,
    as_json,
    new_id,
)


async def test_create_append_finish_roundtrip(store: Store) -> None:
    gid = new_id()
    await store.create_game(game_id=gid, game="hex", params={"size": 11, "swap": True}, players=players())
    running = await store.get_game(gid)
    assert running is not None
    assert running.status is GameStatus.RUNNING and running.moves == ()
    assert running.started_at is not None and running.finished_at is None

    evaluation = {"score": 0.5, "pv": ["a1", "b2"]}
    await store.append_move(gid, move(0, "a1", evaluation=evaluation, considerations=[{"move": "a1", "p": 0.9}]))
    await store.append_move(gid, move(1, "b2"))
    assert await store.finish_game(gid, winner=1, termination=Termination.NORMAL, reason="White connected left-right")

    rec = await store.get_game(gid)
    assert rec is not None
    assert rec.game == "hex" and rec.params == {"size": 11, "swap": True}
    assert rec.players == tuple(players())
    assert rec.status is GameStatus.FINISHED
    assert (rec.winner, rec.termination, rec.reason) == (1, "normal", "White connected left-right")
    assert rec.winner_name == "bob"
    assert [m.move for m in rec.moves] == ["a1", "b2"]
    first = rec.moves[0]
    assert first == move(0, "a1", evaluation=evaluation, considerations=[{"move": "a1", "p": 0.9}])
    assert first.timestamp.tzinfo is not None and first.timestamp == T0
    assert rec.moves[1].evaluation is None and rec.moves[1].considerations is None
    assert rec.finished_at is not None and rec.started_at is not None
    assert rec.created_at <= rec.started_at <= rec.finished_at
    assert rec.finished_at.utcoffset() == timedelta(0)


async def test_records_render_as_json(store: Store) -> None:
    gid = new_id()
    await store.create_game(game_id=gid, game="hex", params={"size": 5}, players=players())
    await store.append_move(gid, move(0, "a1", evaluation={"s": 1}))
    await store.finish_game(gid, winner=0, termination=Termination.RESIGN, reason="bob resigned")
    rec = await store.get_game(gid)
    listed = await store.list_games()
    data = json.loads(json.dumps(as_json({"game": rec, "list": listed})))
    game = data["game"]
    assert game["status"] == "finished" and game["termination"] == "resign" and game["winner_name"] == "alice"
    assert game["players"][1] == {"name": "bob", "kind": "builtin", "spec": "random"}
    assert game["moves"][0]["timestamp"] == T0.isoformat() and game["moves"][0]["evaluation"] == {"s": 1}
    assert datetime.fromisoformat(game["finished_at"]).tzinfo is not None
    assert data["list"][0]["move_count"] == 1 and data["list"][0]["game_id"] == gid


async def test_timestamps_are_normalised_to_utc(store: Store) -> None:
    gid = new_id()
    plus2 = timezone(timedelta(hours=2))
    created = datetime(2026, 5, 1, 12, 0, tzinfo=plus2)
    await store.create_game(game_id=gid, game="hive", params={}, players=players(), created_at=created)
    stamped = MoveRecord(0, 0, "wQ", datetime(2026, 5, 1, 12, 0, 1, tzinfo=plus2), 0.1)
    await store.append_move(gid, stamped)
    rec = await store.get_game(gid)
    assert rec is not None
    assert rec.created_at == created and rec.created_at.tzinfo is UTC and rec.created_at.hour == 10
    assert rec.moves[0].timestamp == stamped.timestamp and rec.moves[0].timestamp.tzinfo is UTC


async def test_finish_is_idempotent_and_final(store: Store) -> None:
    gid = new_id()
    await store.create_game(game_id=gid, game="tictactoe", params={}, players=players())
    assert await store.finish_game(gid, winner=0, termination="normal", reason="three in a row")
    assert not await store.finish_game(gid, winner=1, termination="time", reason="late")
    assert not await store.abort_game(gid, "shutdown")
    rec = await store.get_game(gid)
    assert rec is not None
    assert (rec.status, rec.winner, rec.termination, rec.reason) == ("finished", 0, "normal", "three in a row")
    with pytest.raises(Conflict, match="finished"):
        await store.append_move(gid, move(0))


async def test_finish_with_moves_replaces_the_move_list(store: Store) -> None:
    gid = new_id()
    await store.create_game(game_id=gid, game="htttx", params={}, players=players())
    for ply in range(3):
        await store.append_move(gid, move(ply, f"live{ply}"))
    final = [move(ply, f"final{ply}") for ply in range(5)]
    assert await store.finish_game(gid, winner=None, termination="turn_limit", reason="draw", moves=final)
    rec = await store.get_game(gid)
    assert rec is not None
    assert rec.moves == tuple(final)
    assert rec.winner is None and rec.winner_name is None
    assert await store.get_moves(gid, after_ply=2) == final[3:]


async def test_finish_with_bad_moves_writes_nothing(store: Store) -> None:
    gid = new_id()
    await store.create_game(game_id=gid, game="hex", params={}, players=players())
    await store.append_move(gid, move(0))
    with pytest.raises(InvalidRecord, match="repeat a ply"):
        await store.finish_game(gid, winner=0, termination="normal", reason="", moves=[move(1), move(1)])
    with pytest.raises(InvalidRecord, match="winner seat 2"):
        await store.finish_game(gid, winner=2, termination="normal", reason="", moves=[move(0), move(1)])
    rec = await store.get_game(gid)
    assert rec is not None and rec.status == "running" and [m.ply for m in rec.moves] == [0]


async def test_pending_game_starts_and_first_move_starts_it(store: Store) -> None:
    a, b = new_id(), new_id()
    for gid in (a, b):
        await store.create_game(game_id=gid, game="hex", params={}, players=players(), status="pending")
    rec = await store.get_game(a)
    assert rec is not None and rec.status == "pending" and rec.started_at is None
    assert await store.start_game(a)
    assert not await store.start_game(a)
    await store.append_move(b, move(0))
    for gid in (a, b):
        rec = await store.get_game(gid)
        assert rec is not None and rec.status == "running" and rec.started_at is not None


async def test_unknown_game_ids(store: Store) -> None:
    assert await store.get_game("nope") is None
    assert await store.get_moves("nope") == []
    with pytest.raises(NotFound, match="'nope'"):
        await store.append_move("nope", move(0))
    with pytest.raises(NotFound, match="'nope'"):
        await store.finish_game("nope", winner=None, termination="aborted", reason="")
    with pytest.raises(NotFound):
        await store.start_game("nope")


async def test_duplicate_game_and_ply_are_conflicts(store: Store) -> None:
    gid = new_id()
    await store.create_game(game_id=gid, game="hex", params={}, players=players())
    with pytest.raises(Conflict, match="already exists"):
        await store.create_game(game_id=gid, game="hex", params={}, players=players("x", "y"))
    await store.append_move(gid, move(0, "a1"))
    with pytest.raises(Conflict, match="ply 0"):
        await store.append_move(gid, move(0, "b2"))
    rec = await store.get_game(gid)
    assert rec is not None and rec.players == tuple(players()) and [m.move for m in rec.moves] == ["a1"]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"game_id": ""}, "game id ''"),
        ({"game_id": "x" * 65}, "1 to 64"),
        ({"game": ""}, "game name"),
        ({"params": [1, 2]}, "params must be a dict"),
        ({"params": {"f": object()}}, "not JSON"),
        ({"players": []}, "at least one player"),
        ({"players": [("alice", "bws")]}, "PlayerRecord"),
        ({"players": [PlayerRecord("a", "k" * 33)]}, "player kind of seat 0"),
        ({"status": "finished"}, "not allowed here"),
        ({"status": "bogus"}, "'bogus'"),
        ({"created_at": datetime(2026, 1, 1)}, "no timezone"),
    ],
)
async def test_create_game_rejects_bad_input(store: Store, kwargs: dict[str, object], message: str) -> None:
    args: dict[str, object] = {"game_id": new_id(), "game": "hex", "params": {}, "players": players()}
    args.update(kwargs)
    with pytest.raises(InvalidRecord, match=message):
        await store.create_game(**args)  # type: ignore[arg-type]
    assert await store.count_games() == 0


async def test_bad_moves_are_refused_with_the_value_quoted(store: Store) -> None:
    gid = new_id()
    await store.create_game(game_id=gid, game="hex", params={}, players=players())
    naive = MoveRecord(0, 0, "a1", datetime(2026, 1, 1), 0.1)
    with pytest.raises(InvalidRecord, match="no timezone"):
        await store.append_move(gid, naive)
    with pytest.raises(InvalidRecord, match="-1"):
        await store.append_move(gid, MoveRecord(-1, 0, "a1", T0, 0.1))
    with pytest.raises(InvalidRecord, match="nan"):
        await store.append_move(gid, MoveRecord(0, 0, "a1", T0, float("nan")))
    assert await store.get_moves(gid) == []


async def test_bot_data_is_cleaned_not_refused(store: Store) -> None:
    """NaN evaluations and NUL characters come from bots; PostgreSQL rejects both, so they are cleaned."""
    gid = new_id()
    await store.create_game(
        game_id=gid, game="hex", params={"k": "a\x00b"}, players=[PlayerRecord("n\x00ul", "bws", "")]
    )
    await store.append_move(
        gid,
        MoveRecord(0, 0, "a\x001", T0, 0.0, {"v": float("nan"), 3: float("inf")}, [1.5, (2, "x\x00")]),
    )
    await store.finish_game(gid, winner=0, termination="protocol", reason="sent 'a\x001'")
    rec = await store.get_game(gid)
    assert rec is not None
    assert rec.params == {"k": "a\ufffdb"} and rec.players[0].name == "n\ufffdul"
    m = rec.moves[0]
    assert m.move == "a\ufffd1" and m.evaluation == {"v": None, "3": None}
    assert m.considerations == [1.5, [2, "x\ufffd"]]
    assert rec.reason == "sent 'a\ufffd1'"


async def test_player_specs_never_keep_secrets(store: Store) -> None:
    gid = new_id()
    seats = [
        PlayerRecord("a", "bws", "wss://user:hunter2@bots.example/ws?token=s3cret&depth=3"),
        PlayerRecord("b", "uais", "./bot --api-key=abc123 --depth 3"),
        PlayerRecord("c", ""),  # a missing kind is kept as "", not a reason to lose the game
    ]
    await store.create_game(game_id=gid, game="hex", params={}, players=seats)
    rec = await store.get_game(gid)
    assert rec is not None
    stored = " ".join(p.spec for p in rec.players)
    for secret in ("hunter2", "s3cret", "abc123"):
        assert secret not in stored
    assert "depth=3" in rec.players[0].spec and "bots.example/ws" in rec.players[0].spec
    assert "--depth 3" in rec.players[1].spec
    assert rec.players[2] == PlayerRecord("c", "", "")


async def _seed(store: Store) -> dict[str, str]:
    """Five games at known times: hex x3 (alice wins one, bob one, one running), hive x1, contest game."""
    ids = {k: new_id() for k in ("h1", "h2", "h3", "v1", "c1")}
    specs = [
        ("h1", "hex", players("alice", "bob"), 0, None),
        ("h2", "hex", players("carol", "alice"), 0, None),
        ("h3", "hex", players("bob", "carol"), None, None),
        ("v1", "hive", players("alice", "dave"), 1, None),
        ("c1", "hex", players("dave", "bob"), 1, "cup"),
    ]
    for n, (key, game, seats, winner, contest) in enumerate(specs):
        await store.create_game(
            game_id=ids[key],
            game=game,
            params={"n": n},
            players=seats,
            contest_id=contest,
            created_at=T0 + timedelta(minutes=n),
        )
        for ply in range(n):
            await store.append_move(ids[key], move(ply))
        if winner is not None:
            await store.finish_game(ids[key], winner=winner, termination="normal", reason="")
    return ids


async def test_list_and_count_with_filters(store: Store) -> None:
    ids = await _seed(store)
    inv = {v: k for k, v in ids.items()}

    async def keys(**kw: object) -> list[str]:
        listed = [inv[g.game_id] for g in await store.list_games(**kw)]  # type: ignore[arg-type]
        if "limit" not in kw:
            assert await store.count_games(**kw) == len(listed)  # type: ignore[arg-type]
        return listed

    assert await keys() == ["c1", "v1", "h3", "h2", "h1"]  # newest first
    assert await keys(game="hex") == ["c1", "h3", "h2", "h1"]
    assert await keys(player="alice") == ["v1", "h2", "h1"]
    assert await keys(player="alice", game="hex") == ["h2", "h1"]
    assert await keys(winner_name="bob") == ["c1"]
    assert await keys(winner_name="alice") == ["h1"]
    assert await keys(winner_name="dave") == ["v1"]
    assert await keys(winner_name="carol") == ["h2"]
    assert await keys(winner_name="erin") == []
    assert await keys(status="running") == ["h3"]
    assert await keys(status=["running", GameStatus.FINISHED], game="hive") == ["v1"]
    assert await keys(contest_id="cup") == ["c1"]
    assert await keys(limit=2) == ["c1", "v1"]
    assert await keys(limit=2, offset=3) == ["h2", "h1"]
    assert await store.count_games(game="hex") == 4
    assert await store.count_games(player="bob", status="finished") == 2

    summary = {g.game_id: g for g in await store.list_games()}
    assert summary[ids["v1"]].move_count == 3 and summary[ids["h1"]].move_count == 0
    assert summary[ids["v1"]].players == tuple(players("alice", "dave"))
    assert summary[ids["v1"]].winner_name == "dave" and summary[ids["h3"]].winner_name is None
    assert summary[ids["c1"]].params == {"n": 4} and summary[ids["c1"]].contest_id == "cup"


async def test_list_rejects_bad_arguments(store: Store) -> None:
    with pytest.raises(InvalidRecord, match="'won'"):
        await store.list_games(status="won")
    with pytest.raises(InvalidRecord, match="limit"):
        await store.list_games(limit=-1)
    with pytest.raises(InvalidRecord, match="limit 5000"):
        await store.list_games(limit=5000)


async def test_mark_unfinished_as_aborted(store: Store) -> None:
    ids = await _seed(store)
    pending = new_id()
    await store.create_game(game_id=pending, game="hex", params={}, players=players(), status="pending")
    assert await store.mark_unfinished_as_aborted() == 2
    assert await store.mark_unfinished_as_aborted() == 0
    for gid in (ids["h3"], pending):
        rec = await store.get_game(gid)
        assert rec is not None
        assert (rec.status, rec.winner, rec.termination) == ("aborted", None, "aborted")
        assert "server stopped" in rec.reason and rec.finished_at is not None
    kept = await store.get_game(ids["h1"])
    assert kept is not None and kept.status == "finished" and kept.termination == "normal"
    assert await store.count_games(status="finished") == 4


async def test_closed_store_refuses_work(database_url: str) -> None:
    s = await Store.open(database_url)
    await s.close()
    await s.close()
    with pytest.raises(Exception, match="closed"):
        await s.get_game("x")
    assert "Store(" in repr(s)


async def test_moves_stored_in_bulk_are_stored_exactly_as_one_by_one(store: Store) -> None:
    """Moves go to the table through ``BulkInsert`` (the columns' own conversions, without SQLAlchemy's work per
    row): the recorder's batches and a finish's moves. Both must leave exactly what SQLAlchemy's own insert
    leaves, not only values that read back alike: a JSON null against an SQL NULL, a timestamp in another text
    form, would split what queries find."""
    from sqlalchemy import insert, text

    from hexarena.store.models import moves as moves_table
    from hexarena.store.repository import _move_row

    shapes = [
        move(0, "a1", evaluation={"score": 0.5, "pv": ["a1", "b2"]}, considerations=[{"move": "a1", "p": 0.9}]),
        move(1, "b2"),
        move(2, "ç3", evaluation=[1, 2.5, None], considerations={"x": {"y": "z"}}),
        move(3, "d4", evaluation=0),
    ]
    bulk, single, reference = new_id(), new_id(), new_id()
    for gid in (bulk, single, reference):
        await store.create_game(game_id=gid, game="hex", params={"size": 5}, players=players())
    async with store._engine.begin() as conn:  # the reference: SQLAlchemy's executemany of the same rows
        await conn.execute(insert(moves_table), [_move_row(reference, m) for m in shapes])
    assert await store.append_moves([(bulk, m) for m in shapes]) == len(shapes)
    await store.append_moves([(bulk, m) for m in shapes])  # stored already: skipped, not doubled (checked below)
    await store.finish_game(single, winner=0, termination=Termination.RESIGN, reason="bob resigned", moves=shapes)
    bulk_game = await store.get_game(bulk)
    assert bulk_game is not None and list(bulk_game.moves) == shapes
    raw = text(  # untyped: the driver's own values (SQLite's text, PostgreSQL's jsonb text), no conversion back
        "SELECT ply, seat, move, timestamp, think_time, evaluation, considerations FROM moves "
        "WHERE game_id = :g ORDER BY ply"
    )
    async with store._engine.connect() as conn:
        stored = {gid: [tuple(row) for row in await conn.execute(raw, {"g": gid})] for gid in (bulk, single, reference)}
    assert stored[bulk] == stored[reference] == stored[single] and len(stored[reference]) == len(shapes)


async def test_a_large_batch_of_moves_is_a_few_statement_steps_on_sqlite(
    store: Store, migrated_database_url: str
) -> None:
    """The recorder's batches hold every move of every game since the last flush (a thousand and more on a busy
    server). On SQLite they go in statements of many rows, because Python's sqlite3 gives the GIL up around every
    step and an ``executemany`` of N rows took it back N times from the busy event loop (see
    ``hexarena.store.bulk_insert``). Every row arrives as written, a second write of the batch adds nothing, and a
    finish's moves take the same path."""
    from sqlalchemy import event

    steps: list[int] = []  # per statement sent to the driver: its steps (rows of an executemany, else one)

    def counting(_conn: Any, _cursor: Any, statement: str, parameters: Any, _context: Any, many: bool) -> None:
        if statement.lstrip().upper().startswith("INSERT INTO MOVES"):
            steps.append(len(parameters) if many else 1)

    event.listen(store._engine.sync_engine, "before_cursor_execute", counting)
    games = [new_id() for _ in range(3)]
    for gid in games:
        await store.create_game(game_id=gid, game="hex", params={"size": 5}, players=players())
    batch = [
        (gid, move(ply, f"m{ply}", evaluation={"ply": ply} if ply % 7 == 0 else None))
        for gid in games
        for ply in range(230)
    ]
    assert len(batch) == 690
    assert await store.append_moves(batch) == len(batch)
    await store.append_moves(batch)  # stored already: skipped, not doubled (read back below)
    ended = new_id()
    await store.create_game(game_id=ended, game="hex", params={"size": 5}, players=players())
    finished = [move(ply, f"m{ply}") for ply in range(300)]
    await store.finish_game(ended, winner=0, termination=Termination.RESIGN, reason="resigned", moves=finished)
    for gid in games:
        game = await store.get_game(gid)
        assert game is not None and list(game.moves) == [m for g, m in batch if g == gid]
    game = await store.get_game(ended)
    assert game is not None and list(game.moves) == finished
    if migrated_database_url.startswith("sqlite"):
        # 690 rows: two statements of 256 rows and one of 178, not 690 steps; three writes like it in all
        assert steps and max(steps) <= 2, steps
        assert sum(steps) <= 3 * 3, steps


@pytest.mark.parametrize("winner", [None, 1])
async def test_a_finish_stores_its_values_as_an_inline_update_would(store: Store, winner: int | None) -> None:
    """A game's end runs statements built once with typed parameters (building them per game cost more than
    running them). What they store must be exactly what SQLAlchemy stores for the same values written inline:
    the end time through the column's own conversion, ``started_at`` filled from it when the game never
    recorded a start, the winner checked against the seats."""
    from sqlalchemy import func, text, update

    from hexarena.store.models import games as games_table

    stamp = datetime(2026, 11, 27, 12, 34, 56, 789012, tzinfo=UTC)
    done, reference = new_id(), new_id()
    for gid in (done, reference):
        await store.create_game(game_id=gid, game="hex", params={"size": 5}, players=players())
    async with store._engine.begin() as conn:  # neither has a start time: the finish fills it in
        await conn.execute(update(games_table).values(started_at=None).where(games_table.c.id.in_([done, reference])))
    termination = Termination.RESIGN if winner is not None else Termination.TURN_LIMIT
    assert await store.finish_game(done, winner=winner, termination=termination, reason="why", finished_at=stamp)
    async with store._engine.begin() as conn:
        await conn.execute(
            update(games_table)
            .where(games_table.c.id == reference)
            .values(
                status=GameStatus.FINISHED,
                winner=winner,
                termination=str(termination),
                reason="why",
                finished_at=stamp,
                started_at=func.coalesce(games_table.c.started_at, stamp),
            )
        )
    raw = text("SELECT status, winner, termination, reason, started_at, finished_at FROM games WHERE id = :g")
    async with store._engine.connect() as conn:
        stored = [tuple((await conn.execute(raw, {"g": gid})).one()) for gid in (done, reference)]
    assert stored[0] == stored[1], stored
    with pytest.raises(InvalidRecord, match="not a seat"):  # the seats check still holds
        gid = new_id()
        await store.create_game(game_id=gid, game="hex", params={"size": 5}, players=players())
        await store.finish_game(gid, winner=2, termination=Termination.RESIGN, reason="no such seat")
