"""Text the database cannot store, and rows it refuses, on SQLite and PostgreSQL.

Two rules are checked here. Every string reaching the store passes one boundary that makes it storable (a NUL,
which PostgreSQL's text and JSONB refuse, and a lone surrogate, which no UTF-8 database can encode, become
U+FFFD), in writes and in lookups alike. And one write the database refuses never blocks the others: the
recorder sets it aside in the dead-letter table, counts it in its health, and writes the rest; a journal
replayed at start-up with such a record in it still starts.
"""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import insert
from store_helpers import move

from hexarena.store import GameStatus, InvalidRecord, MoveRecord, PlayerRecord, Store, new_id
from hexarena.store.models import games
from hexarena.store.recorder import GameEnd, NewGame, Recorder, _Op, _to_json
from hexarena.store.records import GameFinish, RatedGame

pytestmark = pytest.mark.fault

EVIL = "evil\x00name"
SURROGATE = "sur\ud800rogate"
REPLACED = "\ufffd"
SECRET = "s3cret-token-value"


def _players(a: str, b: str) -> tuple[PlayerRecord, PlayerRecord]:
    return PlayerRecord(a, "bws", f"bws:http://127.0.0.1:1/?token={SECRET}"), PlayerRecord(
        b, "builtin", "builtin:random"
    )


def _new(gid: str, a: str = "alice", b: str = "bob", game: str = "hex") -> NewGame:
    return NewGame(game_id=gid, game=game, params={"size": 5}, players=_players(a, b))


def _end(gid: str, a: str = "alice", b: str = "bob", moves: tuple[MoveRecord, ...] | None = None) -> GameEnd:
    return GameEnd(
        game_id=gid,
        game="hex",
        winner=1,
        termination="normal",
        reason="connected",
        moves=moves if moves is not None else tuple(move(i) for i in range(3)),
        players=_players(a, b),
    )


# ----- the boundary: every string storable, on both databases -----


async def test_a_nul_or_a_lone_surrogate_is_stored_everywhere_and_found_again(store: Store) -> None:
    gid = new_id()
    await store.create_game(
        game_id=gid, game="hex", params={"k\x00": "v\ud800"}, players=list(_players(EVIL, SURROGATE))
    )
    odd = MoveRecord(0, 0, "a\x001", datetime.now(UTC), 0.1, evaluation={"s\x00": "x\udc00"}, considerations=["\x00"])
    await store.append_moves([(gid, odd)])
    end = GameFinish(
        gid,
        winner=0,
        termination="normal",
        reason="won\x00",
        moves=[odd, move(1)],
        rate=RatedGame("hex", (EVIL, SURROGATE)),
    )
    assert await store.finish_games([end]) == [True]

    rec = await store.get_game(gid)
    assert rec is not None and rec.status == GameStatus.FINISHED
    assert [p.name for p in rec.players] == [f"evil{REPLACED}name", f"sur{REPLACED}rogate"]
    assert rec.reason == f"won{REPLACED}" and rec.params == {f"k{REPLACED}": f"v{REPLACED}"}
    assert rec.moves[0].move == f"a{REPLACED}1" and rec.moves[0].evaluation == {f"s{REPLACED}": f"x{REPLACED}"}
    ratings = {r.key: r for r in await store.list_ratings("hex")}
    assert set(ratings) == {f"evil{REPLACED}name", f"sur{REPLACED}rogate"}
    # lookups pass the same boundary: the name as the bot gave it finds what was stored for it
    found = await store.get_rating(EVIL, "hex")
    assert found is not None and found.rating > 1500
    assert [g.game_id for g in await store.list_games(player=EVIL)] == [gid]
    assert await store.count_games(winner_name=EVIL) == 1

    t = await store.create_tournament(name="cup\x00", game="hex", config={"names": [EVIL, SURROGATE]})
    got = await store.get_tournament(t.tournament_id)
    assert got is not None and got.name == f"cup{REPLACED}" and got.config["names"][0] == f"evil{REPLACED}name"
    contest = await store.create_contest(game="hex", name="c\x00\ud800")
    assert contest.name == f"c{REPLACED}{REPLACED}"
    await store.register_bot(bot_id="b1", game="hex", owner="o\x00", kind="bws", spec={"url": "\x00"})
    bot = await store.get_bot("b1")
    assert bot is not None and bot.owner == f"o{REPLACED}" and bot.spec == {"url": REPLACED}


async def test_the_columns_themselves_make_text_storable(store: Store) -> None:
    """The boundary is the column types, not the callers: a statement that skips every validator stores the
    same, and does not make PostgreSQL refuse the row."""
    gid = new_id()
    async with store._write("raw insert") as conn:
        row = {"id": gid, "game": "hex", "params": {"k\x00": ["v\ud800", "\U0001f600"]}, "status": "running"}
        now = datetime.now(UTC)
        await conn.execute(insert(games).values(**row, reason="r\x00\udfff", created_at=now, started_at=now))
    rec = await store.get_game(gid)
    assert rec is not None and rec.reason == f"r{REPLACED}{REPLACED}"
    assert rec.params == {f"k{REPLACED}": [f"v{REPLACED}", "\U0001f600"]}  # a real astral character is kept


async def test_a_row_the_database_refuses_is_invalid_not_an_outage(store: Store) -> None:
    """A refusal that depends on the row (a constraint, a value out of range) is InvalidRecord, which the
    recorder sets aside; only an error of the database itself (unreachable, failing) is a StoreError to retry."""
    with pytest.raises(InvalidRecord, match="refused"):
        async with store._write("raw insert") as conn:  # a NOT NULL column left out: the database refuses it
            await conn.execute(insert(games).values(id=new_id(), game="hex", params={}))
    gid = new_id()
    await store.create_game(game_id=gid, game="hex", params={}, players=list(_players("a", "b")))
    huge = MoveRecord(2**70, 0, "a1", datetime.now(UTC), 0.1)
    with pytest.raises(InvalidRecord):
        await store.append_moves([(gid, huge)])
    assert await store.append_moves([(gid, move(0))]) == 1  # the store is fine


# ----- the writer: a refused write is set aside, the rest flows -----


async def test_a_refused_write_is_set_aside_and_every_other_write_lands(store: Store, tmp_path: Path) -> None:
    recorder = Recorder(store, tmp_path, interval=0.01)
    await recorder.start()
    gids = [new_id() for _ in range(5)]
    for gid in gids:
        await recorder.open_game(_new(gid))
    poisoned = gids[2]
    bad = MoveRecord(2**70, 0, "zz", datetime.now(UTC), 0.1)
    recorder.move(gids[0], move(0))
    recorder.move(gids[0], bad)  # a refused move among good ones
    recorder.move(gids[0], move(1))
    waits = [recorder.finish(_end(gid, moves=(move(0), bad) if gid == poisoned else None)) for gid in gids[1:]]
    await recorder.flush(30)
    for w in waits:
        assert w.done()
    assert not recorder.degraded
    for gid in gids[1:]:
        rec = await store.get_game(gid)
        assert rec is not None
        assert rec.status == (GameStatus.RUNNING if gid == poisoned else GameStatus.FINISHED), gid
    live = await store.get_game(gids[0])
    assert live is not None and [m.ply for m in live.moves] == [0, 1]
    health = recorder.health()
    assert health["status"] == "ok" and health["dead_letters"] == 2 and health["pending_writes"] == 0
    letters = await store.list_dead_letters()
    assert sorted((d.kind, d.game_id) for d in letters) == sorted([("move", gids[0]), ("finish", poisoned)])
    for d in letters:
        assert d.error and json.loads(d.entry)["game_id"] == d.game_id  # kept whole, for an operator to mend
    await recorder.close()


async def test_a_poisoned_journal_record_is_set_aside_and_the_rest_is_replayed(
    store: Store, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    good, poisoned, later = new_id(), new_id(), new_id()
    entries: list[dict[str, Any]] = [
        _to_json(_Op("create", good, _new(good, EVIL, "b"))),
        _to_json(_Op("finish", good, _end(good, EVIL, "b"))),
        _to_json(_Op("create", poisoned, _new(poisoned, game="a game name far too long to be stored"))),
        _to_json(_Op("finish", poisoned, _end(poisoned))),
        {"op": "finish", "game_id": "torn"},  # JSON, but not a write any more
        _to_json(_Op("create", later, _new(later))),
        _to_json(_Op("finish", later, _end(later))),
    ]
    (tmp_path / "journal-1-dead.jsonl").write_text("".join(json.dumps(e) + "\n" for e in entries))
    recorder = Recorder(store, tmp_path)
    await recorder.start()  # does not fail over one record
    assert recorder.health()["dead_letters"] == 3
    await recorder.close()
    for gid in (good, later):
        rec = await store.get_game(gid)
        assert rec is not None and rec.status == GameStatus.FINISHED and len(rec.moves) == 3
    assert await store.get_game(poisoned) is None
    letters = await store.list_dead_letters()
    assert sorted(d.kind for d in letters) == ["create", "finish", "journal"]
    create = next(json.loads(d.entry) for d in letters if d.kind == "create")
    assert create["game"] == "a game name far too long to be stored" and len(create["players"]) == 2
    assert all(SECRET not in d.entry for d in letters) and SECRET not in caplog.text  # specs redacted
    assert not list(tmp_path.glob("journal-*.jsonl"))  # the next start replays nothing again


async def test_a_lone_surrogate_journaled_during_an_outage_is_replayed(store: Store, tmp_path: Path) -> None:
    """The journal holds writes as they were queued, before the store's boundary: a lone surrogate, which UTF-8
    cannot encode, must not make the journal unwritable (and the write lost) while the database is away."""
    from test_recorder import FlakyStore

    flaky = FlakyStore(store)
    recorder = Recorder(flaky, tmp_path, interval=0.01, max_backoff=0.05)
    await recorder.start()
    gid = new_id()
    await recorder.open_game(_new(gid, SURROGATE, "b"))
    flaky.down = True
    recorder.finish(_end(gid, SURROGATE, "b"))
    for _ in range(500):
        if recorder.degraded and recorder.health()["journaled"]:
            break
        await asyncio.sleep(0.01)
    assert recorder.health()["journaled"] == 1
    await recorder.close(timeout=0.2)  # the database never came back before this process stopped
    again = Recorder(store, tmp_path)
    assert await again.start() == 1
    await again.close()
    rec = await store.get_game(gid)
    assert rec is not None and rec.status == GameStatus.FINISHED and rec.players[0].name == f"sur{REPLACED}rogate"
