"""The store: one async API over games, moves, bots, contests, ratings and tournaments.

Usage::

    store = await Store.open()            # $HEXARENA_DATABASE_URL or ./data/hexarena.sqlite3; runs migrations
    await store.mark_unfinished_as_aborted()          # once, at server start
    await store.create_game(game_id=gid, game="hex", params={"size": 11}, players=[...])
    await store.append_move(gid, MoveRecord(...))     # as each move is played
    await store.finish_game(gid, winner=0, termination="normal", reason="Black connected")
    await store.close()

Design choices:

- Core statements on one :class:`AsyncEngine`, returning frozen records (``records.py``); no ORM sessions leak.
- Every write is one short transaction (``base.py``: SQLite write queue, ``BEGIN IMMEDIATE``). Games and
  moves live here; bots, contests, ratings and tournaments in ``directory.py``. A game ends by one conditional
  UPDATE (``WHERE status`` is unfinished), which on PostgreSQL also locks its row, so two finishes of the same game
  cannot both win.
- ``finish_game`` is idempotent: only the first call on an unfinished game changes it; later calls return False.
  Given ``moves``, it replaces the stored move list in the same transaction, so a result is never half-written.
- Driver errors become :class:`StoreError` naming the operation; bad input raises :class:`InvalidRecord`
  before any SQL runs; unknown ids give ``None`` from getters and :class:`NotFound` from writers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Delete,
    Insert,
    Update,
    and_,
    bindparam,
    delete,
    exists,
    func,
    insert,
    literal,
    select,
    tuple_,
    update,
)
from sqlalchemy.engine import URL, Dialect, RowMapping
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncConnection

from hexarena.core.game import ParamValue
from hexarena.core.glicko2 import Glicko, idle, idle_periods, rate_game
from hexarena.store import migrate
from hexarena.store.base import MAX_LIMIT, describe, json_object, now, upsert_insert
from hexarena.store.bulk_insert import BulkInsert
from hexarena.store.dead_letters import DeadLettersMixin
from hexarena.store.directory import DirectoryMixin, upsert_ratings_in
from hexarena.store.engine import create_engine, resolve_url
from hexarena.store.errors import Conflict, InvalidRecord, NotFound, StoreError
from hexarena.store.ladder import LadderMixin
from hexarena.store.models import game_players, games
from hexarena.store.models import moves as moves_table
from hexarena.store.models import ratings as ratings_table
from hexarena.store.people import PeopleMixin, admit_people_in
from hexarena.store.records import (
    ENDED,
    UNFINISHED,
    GameFinish,
    GameRecord,
    GameStatus,
    GameSummary,
    MoveRecord,
    NewGame,
    PlayerRecord,
    RatedGame,
    RatingRecord,
)
from hexarena.store.tokens import TokensMixin
from hexarena.store.validate import (
    check_float,
    check_id,
    check_int,
    check_key,
    check_name,
    check_text,
    clean_json,
    redact_spec,
    utc,
)

__all__ = ["ABORT_REASON", "INTERRUPT_REASON", "MAX_LIMIT", "Store"]

ABORT_REASON = "the server stopped before the game finished"
INTERRUPT_REASON = "the server stopped mid-game; the moves played are kept, there is no result"
NEVER_STARTED_REASON = "the server stopped before the first move"


class Store(TokensMixin, DirectoryMixin, DeadLettersMixin, LadderMixin, PeopleMixin):
    """Async repository over the hexarena database. Create with :meth:`open`; safe for concurrent use."""

    @classmethod
    async def open(
        cls,
        url: str | URL | None = None,
        *,
        migrate_schema: bool = True,
        echo: bool = False,
        pool_size: int | None = None,
    ) -> Store:
        """Connect and bring the schema up to date (Alembic ``upgrade head``).

        ``url`` may be any of ``sqlite:///path``, ``postgresql://user@host/db``, their async spellings, or a bare
        file path; ``None`` means ``$HEXARENA_DATABASE_URL`` or ``./data/hexarena.sqlite3``. ``pool_size`` None
        means ``$HEXARENA_DATABASE_POOL_SIZE`` or 10 (:func:`hexarena.store.engine.pool_size_from_env`).
        """
        resolved = resolve_url(url)
        engine = create_engine(resolved, echo=echo, pool_size=pool_size)
        try:
            if migrate_schema:
                await migrate.upgrade(engine)
        except StoreError:
            await engine.dispose()
            raise
        except (SQLAlchemyError, OSError) as exc:
            await engine.dispose()
            raise StoreError(
                f"cannot open database {resolved.render_as_string(hide_password=True)!r}: {describe(exc)}"
            ) from exc
        return cls(engine, resolved)

    async def _lock_game(self, conn: AsyncConnection, game_id: str) -> RowMapping | None:
        stmt = select(games.c.status, games.c.started_at).where(games.c.id == game_id).with_for_update()
        return (await conn.execute(stmt)).mappings().first()

    # -- games -------------------------------------------------------------------------------------------

    async def create_game(
        self,
        *,
        game_id: str,
        game: str,
        params: Mapping[str, ParamValue],
        players: Sequence[PlayerRecord],
        status: GameStatus | str = GameStatus.RUNNING,
        contest_id: str | None = None,
        tournament_id: str | None = None,
        created_at: datetime | None = None,
    ) -> None:
        """Record a new game (``running`` by default; ``pending`` if it waits to start). Conflict if the id exists."""
        values, seats = _game_rows(game_id, game, params, players, status, contest_id, tournament_id, created_at)
        async with self._write("create_game") as conn:
            try:
                await conn.execute(insert(games), values)
            except IntegrityError:
                raise Conflict(f"game {game_id!r} already exists") from None
            await conn.execute(insert(game_players), seats)

    async def create_games(self, new: Sequence[NewGame]) -> int:
        """Record many running games in one transaction; returns how many were new.

        The recorder's path for games that start together (a transaction costs the server ~2 ms of CPU on
        SQLite, whatever it holds). Idempotent: a game already stored is left as it is (a retry whose answer was
        lost). InvalidRecord if any game is refused, and then none is written: the caller tries them one by one.
        """
        rows = [
            _game_rows(
                g.game_id, g.game, g.params, g.players, GameStatus.RUNNING, g.contest_id, g.tournament_id, g.created_at
            )
            for g in new
        ]
        if not rows:
            return 0
        async with self._write("create_games") as conn:
            ids = [values["id"] for values, _ in rows]
            known = set((await conn.execute(select(games.c.id).where(games.c.id.in_(ids)))).scalars())
            fresh = [(values, seats) for values, seats in rows if values["id"] not in known]
            if not fresh:
                return 0
            added = upsert_insert(conn.dialect, games).on_conflict_do_nothing(index_elements=["id"])
            await conn.execute(added, [values for values, _ in fresh])
            seated = upsert_insert(conn.dialect, game_players).on_conflict_do_nothing(
                index_elements=["game_id", "seat"]
            )
            await conn.execute(seated, [seat for _, seats in fresh for seat in seats])
            return len(fresh)

    async def start_game(self, game_id: str) -> bool:
        """Move a ``pending`` game to ``running`` (stamping ``started_at``); False if it was not pending."""
        async with self._write("start_game") as conn:
            row = await self._lock_game(conn, game_id)
            if row is None:
                raise NotFound(f"no game {game_id!r}")
            if row["status"] != GameStatus.PENDING:
                return False
            await conn.execute(
                update(games).where(games.c.id == game_id).values(status=GameStatus.RUNNING, started_at=now())
            )
            return True

    async def append_move(self, game_id: str, move: MoveRecord) -> None:
        """Add one move to an unfinished game (a pending game becomes running).

        NotFound for an unknown game; Conflict after the game ended or when the ply is already stored.

        The common case (a running game) is one ``INSERT ... SELECT ... WHERE status = 'running' FOR SHARE``
        statement: moves are the store's hottest write. ``FOR SHARE`` waits for a concurrent finish (which
        holds ``FOR UPDATE``) and PostgreSQL then re-checks the status, so no move lands after a finish.
        Anything else (pending, ended, unknown) takes the slow path in a *second* transaction that locks the
        game row and explains: upgrading the share lock in the same transaction would deadlock two appenders.
        """
        row = _move_row(game_id, move)
        duplicate = f"game {game_id!r} already has a move at ply {move.ply}"
        async with self._write("append_move") as conn:
            try:
                if (await conn.execute(_append_if_running(row))).rowcount == 1:
                    return
            except IntegrityError:
                raise Conflict(duplicate) from None
        async with self._write("append_move") as conn:
            state = await self._lock_game(conn, game_id)
            if state is None:
                raise NotFound(f"no game {game_id!r}")
            if state["status"] not in UNFINISHED:
                raise Conflict(f"game {game_id!r} is {state['status']}; move {move.move!r} was not stored")
            if state["status"] == GameStatus.PENDING:
                await conn.execute(
                    update(games)
                    .where(games.c.id == game_id)
                    .values(status=GameStatus.RUNNING, started_at=state["started_at"] or row["timestamp"])
                )
            try:
                await conn.execute(insert(moves_table), row)
            except IntegrityError:
                raise Conflict(duplicate) from None

    async def append_moves(self, moves: Sequence[tuple[str, MoveRecord]]) -> int:
        """Store many moves of many games in one transaction; returns how many rows were added.

        The recorder's batched path: idempotent (a ply already stored is skipped, so a retried batch or a
        replayed journal never fails on its own earlier success) and lenient about ended or unknown games
        (their moves are skipped: a finished game's moves were written with its result). Pending games become
        running. One transaction for the whole batch is what lets the store absorb thousands of moves a second.
        """
        rows = [_move_row(gid, m) for gid, m in moves]
        if not rows:
            return 0
        ids = sorted({r["game_id"] for r in rows})
        async with self._write("append_moves") as conn:
            found = (
                await conn.execute(
                    select(games.c.id, games.c.status, games.c.started_at)
                    .where(games.c.id.in_(ids))
                    .with_for_update(read=True)
                )
            ).all()
            open_ids = {r.id for r in found if r.status in UNFINISHED}
            pending = [r.id for r in found if r.status == GameStatus.PENDING]
            if pending:
                await conn.execute(
                    update(games)
                    .where(games.c.id.in_(pending), games.c.status == GameStatus.PENDING)
                    .values(status=GameStatus.RUNNING, started_at=now())
                )
            keep = [r for r in rows if r["game_id"] in open_ids]
            if not keep:
                return 0
            added = await _APPEND_MOVES.execute(conn, keep)
            return len(keep) if added is None else added

    async def take_back_moves(self, game_id: str, from_ply: int) -> int:
        """Delete an unfinished game's moves from ``from_ply`` on (a person took them back); how many went.

        Lenient like :meth:`append_moves`: an ended or unknown game is left alone (an ended game's moves were
        written with its result, which already leaves the taken-back moves out), so a replayed journal never
        fails on it, and deleting twice deletes nothing more.
        """
        from_ply = check_int(from_ply, "ply")
        async with self._write("take_back_moves") as conn:
            state = await self._lock_game(conn, game_id)
            if state is None or state["status"] not in UNFINISHED:
                return 0
            result = await conn.execute(
                delete(moves_table).where(moves_table.c.game_id == game_id, moves_table.c.ply >= from_ply)
            )
            return max(0, int(result.rowcount or 0))

    async def finish_game(
        self,
        game_id: str,
        *,
        winner: int | None,
        termination: str,
        reason: str,
        moves: Sequence[MoveRecord] | None = None,
        status: GameStatus | str = GameStatus.FINISHED,
        finished_at: datetime | None = None,
        rate: RatedGame | None = None,
        kept_plies: int = 0,
    ) -> bool:
        """Record how a game ended; True if this call ended it, False if it had already ended (no change).

        ``winner`` is a seat index or None (draw, or no result); ``termination`` a stable string such as
        :class:`hexarena.core.types.Termination`; ``status`` is ``finished``, ``aborted`` or ``interrupted``.
        With ``moves``, the stored moves are replaced by these in the same transaction. With ``rate``, both
        players' Glicko-2 ratings move in the same transaction too, and only if this call ended the game: a
        retried or replayed finish can never rate a game twice. ``kept_plies`` says the first that many stored moves are
        already these (the recorder wrote them as they were played): they are kept, not written again.
        """
        end = GameFinish(game_id, winner, termination, reason, moves, status, finished_at, rate, kept_plies)
        prepared = _prepare_finish(end)
        async with self._write("finish_game") as conn:
            (ended,) = await _finish_all_in(conn, [prepared])
        if ended is None:
            raise NotFound(f"no game {game_id!r}")
        return ended

    async def finish_games(self, ends: Sequence[GameFinish]) -> list[bool | None]:
        """Several games' ends in one transaction (the recorder's group commit of games that end together).

        Per game as :meth:`finish_game` (True: ended by this call; False: had already ended), and None for a game
        that was never stored, where ``finish_game`` raises NotFound. Any InvalidRecord refuses the whole batch
        (nothing is written): the caller then finishes the games one by one to find the bad one.
        """
        prepared = [_prepare_finish(end) for end in ends]
        async with self._write("finish_games") as conn:
            return await _finish_all_in(conn, prepared)

    async def restore_result(self, end: GameFinish) -> bool | None:
        """A game's end that the database refused when it happened, written now (an operator replaying a mended
        dead letter): as :meth:`finish_games` for one game, except that a game a restart has since marked
        ``interrupted`` or ``aborted`` (no result: the result was in the dead letter) gets this result. The
        reopening and the finish are one transaction, so a finish still refused leaves the game as it was.
        True if written, False if the game already had a result, None if there is no such game."""
        prepared = _prepare_finish(end)
        async with self._write("restore_result") as conn:
            await conn.execute(
                update(games)
                .where(games.c.id == end.game_id, games.c.status.in_([GameStatus.INTERRUPTED, GameStatus.ABORTED]))
                .values(status=GameStatus.RUNNING)
            )
            (ended,) = await _finish_all_in(conn, [prepared])
            return ended

    async def abort_game(self, game_id: str, reason: str) -> bool:
        """End an unfinished game without a result (status ``aborted``); False if it had already ended."""
        return await self.finish_game(
            game_id, winner=None, termination="aborted", reason=reason, status=GameStatus.ABORTED
        )

    async def mark_unfinished_as_aborted(self, reason: str = ABORT_REASON) -> int:
        """Abort every ``pending`` or ``running`` game; returns how many. Call once at server start.

        Live games exist only in the memory of the server that runs them, so after a crash or restart those
        rows can never finish. Do not call this while another server process shares the database and is
        playing games.
        """
        stamp = now()
        async with self._write("mark_unfinished_as_aborted") as conn:
            result = await conn.execute(
                update(games)
                .where(games.c.status.in_([str(s) for s in UNFINISHED]))
                .values(
                    status=GameStatus.ABORTED,
                    termination="aborted",
                    reason=check_text(reason, "reason"),
                    finished_at=stamp,
                )
            )
            return int(result.rowcount or 0)

    async def mark_unfinished_as_interrupted(self) -> tuple[int, int]:
        """End every game an earlier server left ``pending`` or ``running``; returns (interrupted, aborted).

        Games with stored moves become ``interrupted`` (the moves stay: the game can be replayed and exported),
        games without any become ``aborted`` (they never really started). Call once at server start, after the
        recorder replayed its journal (a journaled result must win over this). Not while another server
        process shares the database and is playing games (several instances, ``--redis-url``, skip it: their
        failover scan, ``server.failover``, ends or continues only the games nobody holds a lease on).
        """
        stamp = now()
        has_moves = exists().where(moves_table.c.game_id == games.c.id)
        unfinished = games.c.status.in_([str(s) for s in UNFINISHED])
        async with self._write("mark_unfinished_as_interrupted") as conn:
            interrupted = await conn.execute(
                update(games)
                .where(unfinished, has_moves)
                .values(
                    status=GameStatus.INTERRUPTED,
                    termination="interrupted",
                    reason=INTERRUPT_REASON,
                    finished_at=stamp,
                )
            )
            aborted = await conn.execute(
                update(games)
                .where(unfinished)
                .values(
                    status=GameStatus.ABORTED, termination="aborted", reason=NEVER_STARTED_REASON, finished_at=stamp
                )
            )
            return int(interrupted.rowcount or 0), int(aborted.rowcount or 0)

    async def ping(self) -> None:
        """One round trip to the database; StoreError when it does not answer (health checks, recovery)."""
        async with self._read("ping") as conn:
            await conn.execute(select(literal(1)))

    async def get_game(self, game_id: str) -> GameRecord | None:
        """A game with its players and moves, or None if there is no such game."""
        async with self._read("get_game") as conn:
            row = (await conn.execute(select(games).where(games.c.id == game_id))).mappings().first()
            if row is None:
                return None
            players = await self._players(conn, [game_id])
            move_rows = (
                await conn.execute(
                    select(moves_table).where(moves_table.c.game_id == game_id).order_by(moves_table.c.ply)
                )
            ).mappings()
            return GameRecord(**_game_fields(row, players.get(game_id, ())), moves=tuple(_move(m) for m in move_rows))

    async def get_moves(self, game_id: str, *, after_ply: int = -1) -> list[MoveRecord]:
        """Stored moves with ``ply > after_ply`` in order (a spectator catching up); [] for an unknown game."""
        async with self._read("get_moves") as conn:
            result = await conn.execute(
                select(moves_table)
                .where(moves_table.c.game_id == game_id, moves_table.c.ply > after_ply)
                .order_by(moves_table.c.ply)
            )
            return [_move(m) for m in result.mappings()]

    async def list_games(
        self,
        *,
        game: str | None = None,
        player: str | None = None,
        status: GameStatus | str | Sequence[GameStatus | str] | None = None,
        winner_name: str | None = None,
        contest_id: str | None = None,
        tournament_id: str | None = None,
        limit: int = 50,
        offset: int = 0,
    ) -> list[GameSummary]:
        """Games matching every given filter, newest first. ``player`` and ``winner_name`` match display names."""
        limit = check_int(limit, "limit")
        offset = check_int(offset, "offset")
        if limit > MAX_LIMIT:
            raise InvalidRecord(f"limit {limit!r} is above {MAX_LIMIT}")
        where = _game_filters(game, player, status, winner_name, contest_id, tournament_id)
        count = (
            select(func.count()).select_from(moves_table).where(moves_table.c.game_id == games.c.id).scalar_subquery()
        )
        stmt = (
            select(games, count.label("move_count"))
            .where(*where)
            .order_by(games.c.created_at.desc(), games.c.id.desc())
            .limit(limit)
            .offset(offset)
        )
        async with self._read("list_games") as conn:
            rows = (await conn.execute(stmt)).mappings().all()
            players = await self._players(conn, [r["id"] for r in rows])
        return [GameSummary(**_game_fields(r, players.get(r["id"], ())), move_count=int(r["move_count"])) for r in rows]

    async def count_games(
        self,
        *,
        game: str | None = None,
        player: str | None = None,
        status: GameStatus | str | Sequence[GameStatus | str] | None = None,
        winner_name: str | None = None,
        contest_id: str | None = None,
        tournament_id: str | None = None,
    ) -> int:
        """How many games :meth:`list_games` would find without a limit."""
        where = _game_filters(game, player, status, winner_name, contest_id, tournament_id)
        async with self._read("count_games") as conn:
            return int(await conn.scalar(select(func.count()).select_from(games).where(*where)) or 0)

    async def _players(self, conn: AsyncConnection, ids: list[str]) -> dict[str, tuple[PlayerRecord, ...]]:
        if not ids:
            return {}
        result = await conn.execute(
            select(game_players)
            .where(game_players.c.game_id.in_(ids))
            .order_by(game_players.c.game_id, game_players.c.seat)
        )
        out: dict[str, list[PlayerRecord]] = {}
        for r in result.mappings():
            out.setdefault(r["game_id"], []).append(PlayerRecord(r["name"], r["kind"], r["spec"]))
        return {k: tuple(v) for k, v in out.items()}


# -- row <-> record helpers ----------------------------------------------------------------------------------


def _status(value: GameStatus | str, *, allowed: Sequence[GameStatus]) -> GameStatus:
    try:
        status = GameStatus(value)
    except ValueError:
        raise InvalidRecord(f"status {value!r} is not one of {', '.join(GameStatus)}") from None
    if status not in allowed:
        raise InvalidRecord(f"status {value!r} is not allowed here (use {', '.join(allowed)})")
    return status


def check_new_game(new: NewGame) -> None:
    """InvalidRecord if the store would refuse to create ``new`` (what ``create_games`` checks, without IO)."""
    _game_rows(
        new.game_id,
        new.game,
        new.params,
        new.players,
        GameStatus.RUNNING,
        new.contest_id,
        new.tournament_id,
        new.created_at,
    )


def _game_rows(
    game_id: str,
    game: str,
    params: Mapping[str, ParamValue],
    players: Sequence[PlayerRecord],
    status: GameStatus | str,
    contest_id: str | None,
    tournament_id: str | None,
    created_at: datetime | None,
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A new game's row and its seats' rows, checked (InvalidRecord names what is wrong)."""
    game_id = check_id(game_id, "game id")
    values: dict[str, object] = {
        "id": game_id,
        "game": check_name(game, "game name"),
        "params": json_object(params, "params"),
        "status": _status(status, allowed=UNFINISHED),
        "winner": None,
        "termination": None,
        "reason": "",
        "contest_id": None if contest_id is None else check_id(contest_id, "contest id"),
        "tournament_id": None if tournament_id is None else check_id(tournament_id, "tournament id"),
    }
    created = now() if created_at is None else utc(created_at, "created_at")
    values["created_at"] = created
    values["started_at"] = created if values["status"] == GameStatus.RUNNING else None
    seats = [_player_row(game_id, seat, p) for seat, p in enumerate(players)]
    if not seats:
        raise InvalidRecord(f"game {game_id!r} needs at least one player")
    return values, seats


def _player_row(game_id: str, seat: int, player: PlayerRecord) -> dict[str, object]:
    if not isinstance(player, PlayerRecord):
        raise InvalidRecord(f"seat {seat} of game {game_id!r} must be a PlayerRecord, not {player!r}")
    return {
        "game_id": game_id,
        "seat": seat,
        "name": check_text(player.name, f"name of seat {seat}"),
        # An unknown kind is stored as "" rather than refused: a missing label must not lose a game.
        "kind": check_name(player.kind, f"player kind of seat {seat}") if player.kind != "" else "",
        "spec": redact_spec(check_text(player.spec, f"spec of seat {seat}")),
    }


_UNFINISHED_VALUES = [str(s) for s in UNFINISHED]


@dataclass(frozen=True, slots=True)
class _Finish:
    """A finish checked and turned into rows before its transaction starts (bad input: no SQL runs)."""

    game_id: str
    values: dict[str, Any]
    rows: list[dict[str, Any]] | None
    kept_plies: int
    rate: RatedGame | None


def _prepare_finish(end: GameFinish) -> _Finish:
    final = _status(end.status, allowed=ENDED)
    values: dict[str, object] = {
        "status": final,
        "winner": None if end.winner is None else check_int(end.winner, "winner seat"),
        "termination": check_name(str(end.termination), "termination"),
        "reason": check_text(end.reason, "reason"),
        "finished_at": now() if end.finished_at is None else utc(end.finished_at, "finished_at"),
    }
    kept = check_int(end.kept_plies, "kept plies")
    rate = end.rate
    if rate is not None:  # the keys as stored: the ratings read and written in the transaction are found by them
        rate = replace(rate, keys=(check_key(rate.keys[0], "rating key"), check_key(rate.keys[1], "rating key")))
    rows = None if end.moves is None else [_move_row(end.game_id, m) for m in end.moves if m.ply >= kept]
    if rows is not None and len({r["ply"] for r in rows}) != len(rows):
        raise InvalidRecord(f"moves of game {end.game_id!r} repeat a ply")
    return _Finish(end.game_id, values, rows, kept, rate)


async def _finish_all_in(conn: AsyncConnection, finishes: Sequence[_Finish]) -> list[bool | None]:
    """Games' ends inside the caller's transaction (per game as :func:`_finish_in`), then the ratings of those
    this call ended and that are rated, all at once (:func:`_rate_all`)."""
    ended = [await _finish_in(conn, f) for f in finishes]
    rated = [
        (f.rate, f.values["winner"], f.values["finished_at"])
        for f, done in zip(finishes, ended, strict=True)
        if done and f.rate is not None
    ]
    await _rate_all(conn, rated)
    return ended


def _finish_statements() -> tuple[Update, Update, Delete]:
    """A game's end as statements built once (building them per game costs more CPU than running
    them): the conditional UPDATE, the same with the winner checked against the game's seats, and the DELETE of
    the stored moves a finish replaces. Every parameter is typed as its column, so values are converted exactly
    as when they were written inline."""
    game = bindparam("f_game", type_=games.c.id.type)
    winner = bindparam("f_winner", type_=games.c.winner.type)
    finished = bindparam("f_finished_at", type_=games.c.finished_at.type)
    end = (
        update(games)
        .where(game == games.c.id, games.c.status.in_(_UNFINISHED_VALUES))
        .values(
            status=bindparam("f_status", type_=games.c.status.type),
            winner=winner,
            termination=bindparam("f_termination", type_=games.c.termination.type),
            reason=bindparam("f_reason", type_=games.c.reason.type),
            finished_at=finished,
            started_at=func.coalesce(games.c.started_at, finished),
        )
    )
    seats = select(func.count()).select_from(game_players).where(game_players.c.game_id == game).scalar_subquery()
    drop = delete(moves_table).where(
        moves_table.c.game_id == bindparam("f_game", type_=moves_table.c.game_id.type),
        moves_table.c.ply >= bindparam("f_ply", type_=moves_table.c.ply.type),
    )
    return end, end.where(seats > winner), drop


_FINISH_GAME, _FINISH_WON_GAME, _DROP_MOVES_FROM = _finish_statements()


async def _finish_in(conn: AsyncConnection, f: _Finish) -> bool | None:
    """One game's end inside the caller's transaction: True if it ended it, False if already ended, None if no
    such game (the caller rates it). One conditional UPDATE both locks the row (PostgreSQL) and decides who ended
    the game: a second finish waits for the first, then finds the game no longer unfinished and changes nothing.
    The winner must be a seat of the game (checked in the same statement); why nothing changed is asked only when
    nothing did."""
    game_id, values = f.game_id, f.values
    params = {f"f_{name}": value for name, value in values.items()}
    params["f_game"] = game_id
    ended = await conn.execute(_FINISH_GAME if values["winner"] is None else _FINISH_WON_GAME, params)
    if ended.rowcount != 1:
        status = await conn.scalar(select(games.c.status).where(games.c.id == game_id))
        if status is None:
            return None
        if status in _UNFINISHED_VALUES:
            raise InvalidRecord(f"winner seat {values['winner']!r} is not a seat of game {game_id!r}")
        return False
    if f.rows is not None:
        await conn.execute(_DROP_MOVES_FROM, {"f_game": game_id, "f_ply": f.kept_plies})
        await _INSERT_MOVES.execute(conn, f.rows)
    return True


async def _rate_all(conn: AsyncConnection, results: Sequence[tuple[RatedGame, int | None, datetime]]) -> None:
    """Apply rated games' results (rating keys, winner seat, end time), in order, to their players' Glicko-2
    ratings inside the finishing transaction (a player without a rating starts as a newcomer): every rating read
    in one SELECT and written in one upsert, a player who played several of these games rated after each in
    turn, as one by one would. Each game is a rating period (:func:`hexarena.core.glicko2.rate_game`); the days
    a player sat idle since its last rated result widen its deviation first."""
    results = await admit_people_in(conn, results)  # people stored, and a full table's newcomers not rated
    if not results:
        return
    wanted = sorted({(rate.game, key) for rate, _, _ in results for key in rate.keys})
    rows = await conn.execute(
        select(ratings_table).where(tuple_(ratings_table.c.game, ratings_table.c.key).in_(wanted))
    )
    current = {(row["game"], row["key"]): RatingRecord(**row) for row in rows.mappings()}
    updates: list[RatingRecord] = []
    for rate, winner, stamp in results:
        first, second = (current.get((rate.game, key)) or RatingRecord(key=key, game=rate.game) for key in rate.keys)
        score = 0.5 if winner is None else (1.0 if winner == 0 else 0.0)
        rated = rate_game(_before(first, stamp), _before(second, stamp), score, rate.tau)
        for old, new in zip((first, second), rated, strict=True):
            record = RatingRecord(
                key=old.key,
                game=rate.game,
                rating=new.rating,
                rd=new.rd,
                sigma=new.sigma,
                games=old.games + 1,
                updated_at=stamp,
            )
            current[(rate.game, old.key)] = record
            updates.append(record)
    await upsert_ratings_in(conn, updates)


def _before(record: RatingRecord, stamp: datetime) -> Glicko:
    """A player's standing just before a game ending at ``stamp``: its deviation grown by the idle days."""
    standing = Glicko(record.rating, record.rd, record.sigma)
    if record.updated_at is None:
        return standing
    return idle(standing, idle_periods((stamp - record.updated_at).total_seconds() / 86400.0))


def _append_moves_stmt(dialect: Dialect) -> Insert:
    """``INSERT INTO moves ... ON CONFLICT (game_id, ply) DO NOTHING``: a move already stored is skipped."""
    return upsert_insert(dialect, moves_table).on_conflict_do_nothing(index_elements=["game_id", "ply"])


#: the recorder's batches of moves, and a finished game's moves not stored yet (see :mod:`hexarena.store.bulk_insert`)
_APPEND_MOVES = BulkInsert(_append_moves_stmt)
_INSERT_MOVES = BulkInsert(lambda _dialect: insert(moves_table))


def _move_row(game_id: str, move: MoveRecord) -> dict[str, Any]:
    """A move's row, every field checked; the error names the field, the ply and the game.

    Runs for every move the recorder writes, so the labels are plain words and the ply and game are added only
    to an error (an f-string per field per move was most of this function's cost)."""
    if not isinstance(move, MoveRecord):
        raise InvalidRecord(f"a move of game {game_id!r} must be a MoveRecord, not {move!r}")
    try:
        return {
            "game_id": game_id,
            "ply": check_int(move.ply, "ply"),
            "seat": check_int(move.seat, "seat"),
            "move": check_text(move.move, "move"),
            "timestamp": utc(move.timestamp, "timestamp"),
            "think_time": check_float(move.think_time, "think time"),
            "evaluation": clean_json(move.evaluation, "evaluation"),
            "considerations": clean_json(move.considerations, "considerations"),
        }
    except InvalidRecord as exc:
        raise InvalidRecord(f"ply {move.ply!r} of game {game_id!r}: {exc}") from None


def _append_if_running(row: dict[str, Any]) -> Insert:
    """``INSERT INTO moves SELECT <row> FROM games WHERE id = :id AND status = 'running' FOR SHARE``."""
    columns = list(moves_table.c)
    source = (
        select(games.c.id, *(literal(row[c.name], c.type) for c in columns[1:]))
        .where(games.c.id == row["game_id"], games.c.status == GameStatus.RUNNING.value)
        .with_for_update(read=True)
    )
    return insert(moves_table).from_select([c.name for c in columns], source)


def _game_filters(
    game: str | None,
    player: str | None,
    status: GameStatus | str | Sequence[GameStatus | str] | None,
    winner_name: str | None,
    contest_id: str | None,
    tournament_id: str | None,
) -> list[ColumnElement[bool]]:
    where: list[ColumnElement[bool]] = []
    if game is not None:
        where.append(games.c.game == game)
    if status is not None:
        wanted = [status] if isinstance(status, str) else list(status)
        where.append(games.c.status.in_([str(_status(s, allowed=tuple(GameStatus))) for s in wanted]))
    if player is not None:
        where.append(exists().where(game_players.c.game_id == games.c.id, game_players.c.name == player))
    if winner_name is not None:
        where.append(
            exists().where(
                and_(
                    game_players.c.game_id == games.c.id,
                    game_players.c.seat == games.c.winner,
                    game_players.c.name == winner_name,
                )
            )
        )
    if contest_id is not None:
        where.append(games.c.contest_id == contest_id)
    if tournament_id is not None:
        where.append(games.c.tournament_id == tournament_id)
    return where


def _game_fields(row: RowMapping, players: tuple[PlayerRecord, ...]) -> dict[str, Any]:
    return {
        "game_id": row["id"],
        "game": row["game"],
        "params": row["params"],
        "players": players,
        "status": GameStatus(row["status"]),
        "winner": row["winner"],
        "termination": row["termination"],
        "reason": row["reason"],
        "created_at": row["created_at"],
        "started_at": row["started_at"],
        "finished_at": row["finished_at"],
        "contest_id": row["contest_id"],
        "tournament_id": row["tournament_id"],
    }


def _move(row: RowMapping) -> MoveRecord:
    return MoveRecord(
        ply=row["ply"],
        seat=row["seat"],
        move=row["move"],
        timestamp=row["timestamp"],
        think_time=row["think_time"],
        evaluation=row["evaluation"],
        considerations=row["considerations"],
    )
