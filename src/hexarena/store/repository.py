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
- Every write is one short transaction. On SQLite, writes in this process also queue on an ``asyncio.Lock``
  (SQLite has one writer anyway; queueing in the event loop beats threads spinning on the file lock) and begin
  with ``BEGIN IMMEDIATE`` so other processes wait on the busy timeout instead of failing (see ``engine.py``).
  On PostgreSQL, a game's row is locked (``SELECT ... FOR UPDATE``) before it changes, so two finishes of the
  same game cannot both win.
- ``finish_game`` is idempotent: only the first call on an unfinished game changes it; later calls return False.
  Given ``moves``, it replaces the stored move list in the same transaction, so a result is never half-written.
- Driver errors become :class:`StoreError` naming the operation; bad input raises :class:`InvalidRecord`
  before any SQL runs; unknown ids give ``None`` from getters and :class:`NotFound` from writers.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager, nullcontext
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import ColumnElement, Insert, and_, delete, exists, func, insert, literal, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import URL, RowMapping
from sqlalchemy.exc import DBAPIError, IntegrityError, SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from hexarena.store import migrate
from hexarena.store.engine import WRITE_OPTION, create_engine, is_memory, resolve_url
from hexarena.store.errors import Conflict, InvalidRecord, NotFound, StoreError
from hexarena.store.models import KEY_LENGTH, bots, contests, game_players, games, ratings, tournaments
from hexarena.store.models import moves as moves_table
from hexarena.store.records import (
    JSON,
    UNFINISHED,
    BotRecord,
    ContestRecord,
    GameRecord,
    GameStatus,
    GameSummary,
    MoveRecord,
    PlayerRecord,
    RatingRecord,
    TournamentRecord,
)
from hexarena.store.validate import (
    check_float,
    check_id,
    check_int,
    check_name,
    check_text,
    clean_json,
    new_id,
    redact_spec,
    utc,
)

MAX_LIMIT = 1000
ABORT_REASON = "the server stopped before the game finished"


def _now() -> datetime:
    return datetime.now(UTC)


class Store:
    """Async repository over the hexarena database. Create with :meth:`open`; safe for concurrent use."""

    def __init__(self, engine: AsyncEngine, url: URL) -> None:
        """Wrap an engine made by :func:`hexarena.store.engine.create_engine`; prefer :meth:`open`."""
        self._engine = engine
        self._url = url
        self._closed = False
        sqlite_db = url.get_backend_name() == "sqlite"
        self._write_lock: asyncio.Lock | None = asyncio.Lock() if sqlite_db else None
        # An in-memory SQLite database is one shared connection: reads must queue behind writes too.
        self._read_lock = self._write_lock if is_memory(url) else None

    @classmethod
    async def open(
        cls, url: str | URL | None = None, *, migrate_schema: bool = True, echo: bool = False, pool_size: int = 10
    ) -> Store:
        """Connect and bring the schema up to date (Alembic ``upgrade head``).

        ``url`` may be any of ``sqlite:///path``, ``postgresql://user@host/db``, their async spellings, or a bare
        file path; ``None`` means ``$HEXARENA_DATABASE_URL`` or ``./data/hexarena.sqlite3``.
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
                f"cannot open database {resolved.render_as_string(hide_password=True)!r}: {_describe(exc)}"
            ) from exc
        return cls(engine, resolved)

    async def close(self) -> None:
        """Release every connection. Idempotent; the store refuses work afterwards."""
        if not self._closed:
            self._closed = True
            await self._engine.dispose()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def url(self) -> str:
        """The database URL with any password hidden."""
        return self._url.render_as_string(hide_password=True)

    @property
    def backend(self) -> str:
        """``sqlite`` or ``postgresql``."""
        return self._url.get_backend_name()

    def __repr__(self) -> str:
        return f"Store({self.url!r})"

    async def schema_revision(self) -> str | None:
        """The Alembic revision the database is at."""
        return await migrate.current_revision(self._engine)

    # -- plumbing ----------------------------------------------------------------------------------------

    @asynccontextmanager
    async def _tx(self, what: str, *, write: bool) -> AsyncIterator[AsyncConnection]:
        if self._closed:
            raise StoreError(f"{what}: the store is closed")
        lock = self._write_lock if write else self._read_lock
        async with lock or nullcontext():
            try:
                async with self._engine.connect() as conn:
                    if write:
                        await conn.execution_options(**{WRITE_OPTION: True})
                    async with conn.begin():
                        yield conn
            except StoreError:
                raise
            except SQLAlchemyError as exc:
                raise StoreError(f"{what} failed: {_describe(exc)}") from exc

    def _read(self, what: str) -> AbstractAsyncContextManager[AsyncConnection]:
        return self._tx(what, write=False)

    def _write(self, what: str) -> AbstractAsyncContextManager[AsyncConnection]:
        return self._tx(what, write=True)

    async def _lock_game(self, conn: AsyncConnection, game_id: str) -> RowMapping | None:
        stmt = select(games.c.status, games.c.started_at).where(games.c.id == game_id).with_for_update()
        return (await conn.execute(stmt)).mappings().first()

    # -- games -------------------------------------------------------------------------------------------

    async def create_game(
        self,
        *,
        game_id: str,
        game: str,
        params: dict[str, Any],
        players: Sequence[PlayerRecord],
        status: GameStatus | str = GameStatus.RUNNING,
        contest_id: str | None = None,
        tournament_id: str | None = None,
        created_at: datetime | None = None,
    ) -> None:
        """Record a new game (``running`` by default; ``pending`` if it waits to start). Conflict if the id exists."""
        game_id = check_id(game_id, "game id")
        values: dict[str, Any] = {
            "id": game_id,
            "game": check_name(game, "game name"),
            "params": _json_object(params, "params"),
            "status": _status(status, allowed=UNFINISHED),
            "winner": None,
            "termination": None,
            "reason": "",
            "contest_id": None if contest_id is None else check_id(contest_id, "contest id"),
            "tournament_id": None if tournament_id is None else check_id(tournament_id, "tournament id"),
        }
        created = _now() if created_at is None else utc(created_at, "created_at")
        values["created_at"] = created
        values["started_at"] = created if values["status"] == GameStatus.RUNNING else None
        seats = [_player_row(game_id, seat, p) for seat, p in enumerate(players)]
        if not seats:
            raise InvalidRecord(f"game {game_id!r} needs at least one player")
        async with self._write("create_game") as conn:
            try:
                await conn.execute(insert(games), values)
            except IntegrityError:
                raise Conflict(f"game {game_id!r} already exists") from None
            await conn.execute(insert(game_players), seats)

    async def start_game(self, game_id: str) -> bool:
        """Move a ``pending`` game to ``running`` (stamping ``started_at``); False if it was not pending."""
        async with self._write("start_game") as conn:
            row = await self._lock_game(conn, game_id)
            if row is None:
                raise NotFound(f"no game {game_id!r}")
            if row["status"] != GameStatus.PENDING:
                return False
            await conn.execute(
                update(games).where(games.c.id == game_id).values(status=GameStatus.RUNNING, started_at=_now())
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
    ) -> bool:
        """Record how a game ended; True if this call ended it, False if it had already ended (no change).

        ``winner`` is a seat index or None (draw, or no result); ``termination`` a stable string such as
        :class:`hexarena.core.types.Termination`; ``status`` is ``finished`` or ``aborted``. With ``moves``, the
        stored moves are replaced by these in the same transaction.
        """
        final = _status(status, allowed=(GameStatus.FINISHED, GameStatus.ABORTED))
        values: dict[str, Any] = {
            "status": final,
            "winner": None if winner is None else check_int(winner, "winner seat"),
            "termination": check_name(str(termination), "termination"),
            "reason": check_text(reason, "reason"),
            "finished_at": _now() if finished_at is None else utc(finished_at, "finished_at"),
        }
        rows = None if moves is None else [_move_row(game_id, m) for m in moves]
        if rows is not None and len({r["ply"] for r in rows}) != len(rows):
            raise InvalidRecord(f"moves of game {game_id!r} repeat a ply")
        async with self._write("finish_game") as conn:
            state = await self._lock_game(conn, game_id)
            if state is None:
                raise NotFound(f"no game {game_id!r}")
            if state["status"] not in UNFINISHED:
                return False
            if winner is not None:
                seats = await conn.scalar(
                    select(func.count()).select_from(game_players).where(game_players.c.game_id == game_id)
                )
                if winner >= (seats or 0):
                    raise InvalidRecord(f"winner seat {winner!r} is not a seat of game {game_id!r}")
            if state["started_at"] is None:
                values["started_at"] = values["finished_at"]
            if rows is not None:
                await conn.execute(delete(moves_table).where(moves_table.c.game_id == game_id))
                if rows:
                    await conn.execute(insert(moves_table), rows)
            await conn.execute(update(games).where(games.c.id == game_id).values(**values))
            return True

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
        now = _now()
        async with self._write("mark_unfinished_as_aborted") as conn:
            result = await conn.execute(
                update(games)
                .where(games.c.status.in_([str(s) for s in UNFINISHED]))
                .values(
                    status=GameStatus.ABORTED,
                    termination="aborted",
                    reason=check_text(reason, "reason"),
                    finished_at=now,
                )
            )
            return int(result.rowcount or 0)

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

    # -- bots --------------------------------------------------------------------------------------------

    async def register_bot(
        self,
        *,
        bot_id: str,
        game: str,
        owner: str,
        kind: str = "battlebot",
        spec: JSON = None,
        pass_hash: str | None = None,
    ) -> str:
        """Register a bot and return its ``pass_hash`` (64 hex characters, generated unless given).

        Bot ids are unique across games: Conflict if ``bot_id`` is taken.
        """
        secret = secrets.token_hex(32) if pass_hash is None else check_id(pass_hash, "pass_hash")
        if not owner:
            raise InvalidRecord(f"bot {bot_id!r} needs an owner")
        row = {
            "bot_id": check_id(bot_id, "bot id"),
            "game": check_name(game, "game name"),
            "owner": check_text(owner, "owner"),
            "pass_hash": secret,
            "kind": check_name(kind, "bot kind"),
            "spec": clean_json(spec, "bot spec"),
            "date_registered": _now(),
        }
        async with self._write("register_bot") as conn:
            try:
                await conn.execute(insert(bots), row)
            except IntegrityError:
                raise Conflict(f"bot {bot_id!r} is already registered") from None
        return secret

    async def get_bot(self, bot_id: str) -> BotRecord | None:
        """A bot (without its secret), or None."""
        async with self._read("get_bot") as conn:
            row = (await conn.execute(select(*_BOT_COLUMNS).where(bots.c.bot_id == bot_id))).mappings().first()
        return None if row is None else BotRecord(**row)

    async def list_bots(self, *, game: str | None = None, owner: str | None = None) -> list[BotRecord]:
        """Registered bots (never their secrets), oldest first."""
        stmt = select(*_BOT_COLUMNS).order_by(bots.c.date_registered, bots.c.bot_id)
        if game is not None:
            stmt = stmt.where(bots.c.game == game)
        if owner is not None:
            stmt = stmt.where(bots.c.owner == owner)
        async with self._read("list_bots") as conn:
            return [BotRecord(**r) for r in (await conn.execute(stmt)).mappings()]

    async def bot_pass_hash(self, bot_id: str) -> str | None:
        """The bot's login secret, for checking ``sha256(pass_hash + salt)``; the only method that reveals it."""
        async with self._read("bot_pass_hash") as conn:
            value = await conn.scalar(select(bots.c.pass_hash).where(bots.c.bot_id == bot_id))
        return None if value is None else str(value)

    # -- contests ----------------------------------------------------------------------------------------

    async def create_contest(self, *, game: str, name: str, contest_id: str | None = None) -> ContestRecord:
        """A new contest (id generated unless given; Conflict if taken)."""
        record = ContestRecord(
            contest_id=check_id(new_id() if contest_id is None else contest_id, "contest id"),
            game=check_name(game, "game name"),
            name=check_text(name, "contest name"),
            created_at=_now(),
        )
        async with self._write("create_contest") as conn:
            try:
                await conn.execute(
                    insert(contests),
                    {
                        "id": record.contest_id,
                        "game": record.game,
                        "name": record.name,
                        "created_at": record.created_at,
                    },
                )
            except IntegrityError:
                raise Conflict(f"contest {record.contest_id!r} already exists") from None
        return record

    async def get_contest(self, contest_id: str) -> ContestRecord | None:
        async with self._read("get_contest") as conn:
            row = (await conn.execute(select(contests).where(contests.c.id == contest_id))).mappings().first()
        return None if row is None else _contest(row)

    async def list_contests(self, *, game: str | None = None) -> list[ContestRecord]:
        """Contests, oldest first."""
        stmt = select(contests).order_by(contests.c.created_at, contests.c.id)
        if game is not None:
            stmt = stmt.where(contests.c.game == game)
        async with self._read("list_contests") as conn:
            return [_contest(r) for r in (await conn.execute(stmt)).mappings()]

    # -- ratings -----------------------------------------------------------------------------------------

    async def get_rating(self, key: str, game: str) -> RatingRecord | None:
        async with self._read("get_rating") as conn:
            row = (
                (await conn.execute(select(ratings).where(ratings.c.key == key, ratings.c.game == game)))
                .mappings()
                .first()
            )
        return None if row is None else RatingRecord(**row)

    async def list_ratings(self, game: str, *, limit: int = 100) -> list[RatingRecord]:
        """The leaderboard of ``game``: highest rating first."""
        limit = min(check_int(limit, "limit"), MAX_LIMIT)
        stmt = (
            select(ratings).where(ratings.c.game == game).order_by(ratings.c.rating.desc(), ratings.c.key).limit(limit)
        )
        async with self._read("list_ratings") as conn:
            return [RatingRecord(**r) for r in (await conn.execute(stmt)).mappings()]

    async def upsert_ratings(self, records: Iterable[RatingRecord]) -> None:
        """Insert or replace ratings in one transaction (both players of a game update together)."""
        rows = [_rating_row(r) for r in records]
        if not rows:
            return
        async with self._write("upsert_ratings") as conn:
            dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
            stmt = dialect.insert(ratings)
            stmt = stmt.on_conflict_do_update(
                index_elements=[ratings.c.game, ratings.c.key],
                set_={c: stmt.excluded[c] for c in ("rating", "rd", "sigma", "games", "updated_at")},
            )
            await conn.execute(stmt, rows)

    async def upsert_rating(self, record: RatingRecord) -> None:
        await self.upsert_ratings([record])

    # -- tournaments -------------------------------------------------------------------------------------

    async def create_tournament(
        self,
        *,
        name: str,
        game: str,
        config: dict[str, Any],
        tournament_id: str | None = None,
        status: str = "pending",
        state: JSON = None,
    ) -> TournamentRecord:
        """A new tournament (id generated unless given; Conflict if taken)."""
        now = _now()
        record = TournamentRecord(
            tournament_id=check_id(new_id() if tournament_id is None else tournament_id, "tournament id"),
            name=check_text(name, "tournament name"),
            game=check_name(game, "game name"),
            config=_json_object(config, "tournament config"),
            state=clean_json(state, "tournament state"),
            status=check_name(status, "tournament status", 16),
            created_at=now,
            updated_at=now,
        )
        row = {
            "id": record.tournament_id,
            "name": record.name,
            "game": record.game,
            "config": record.config,
            "state": record.state,
            "status": record.status,
            "created_at": now,
            "updated_at": now,
        }
        async with self._write("create_tournament") as conn:
            try:
                await conn.execute(insert(tournaments), row)
            except IntegrityError:
                raise Conflict(f"tournament {record.tournament_id!r} already exists") from None
        return record

    async def get_tournament(self, tournament_id: str) -> TournamentRecord | None:
        async with self._read("get_tournament") as conn:
            stmt = select(tournaments).where(tournaments.c.id == tournament_id)
            row = (await conn.execute(stmt)).mappings().first()
        return None if row is None else _tournament(row)

    async def update_tournament_state(self, tournament_id: str, state: JSON, *, status: str | None = None) -> None:
        """Save a tournament's state (and optionally its status); NotFound for an unknown id."""
        values: dict[str, Any] = {"state": clean_json(state, "tournament state"), "updated_at": _now()}
        if status is not None:
            values["status"] = check_name(status, "tournament status", 16)
        async with self._write("update_tournament_state") as conn:
            result = await conn.execute(update(tournaments).where(tournaments.c.id == tournament_id).values(**values))
            if not result.rowcount:
                raise NotFound(f"no tournament {tournament_id!r}")

    async def list_tournaments(self, *, game: str | None = None, status: str | None = None) -> list[TournamentRecord]:
        """Tournaments, newest first."""
        stmt = select(tournaments).order_by(tournaments.c.created_at.desc(), tournaments.c.id)
        if game is not None:
            stmt = stmt.where(tournaments.c.game == game)
        if status is not None:
            stmt = stmt.where(tournaments.c.status == status)
        async with self._read("list_tournaments") as conn:
            return [_tournament(r) for r in (await conn.execute(stmt)).mappings()]


# -- row <-> record helpers ----------------------------------------------------------------------------------

_BOT_COLUMNS = (bots.c.bot_id, bots.c.game, bots.c.owner, bots.c.kind, bots.c.spec, bots.c.date_registered)


def _describe(exc: BaseException) -> str:
    """The driver's own message (first line), without SQLAlchemy's statement dump."""
    inner = exc.orig if isinstance(exc, DBAPIError) and exc.orig is not None else exc
    text = str(inner).strip().splitlines()
    return f"{type(inner).__name__}: {text[0] if text else ''}"


def _status(value: GameStatus | str, *, allowed: Sequence[GameStatus]) -> GameStatus:
    try:
        status = GameStatus(value)
    except ValueError:
        raise InvalidRecord(f"status {value!r} is not one of {', '.join(GameStatus)}") from None
    if status not in allowed:
        raise InvalidRecord(f"status {value!r} is not allowed here (use {', '.join(allowed)})")
    return status


def _json_object(value: Any, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise InvalidRecord(f"{what} must be a dict, not {value!r}")
    cleaned: dict[str, Any] = clean_json(value, what)
    return cleaned


def _player_row(game_id: str, seat: int, player: PlayerRecord) -> dict[str, Any]:
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


def _move_row(game_id: str, move: MoveRecord) -> dict[str, Any]:
    if not isinstance(move, MoveRecord):
        raise InvalidRecord(f"a move of game {game_id!r} must be a MoveRecord, not {move!r}")
    return {
        "game_id": game_id,
        "ply": check_int(move.ply, "ply"),
        "seat": check_int(move.seat, "seat"),
        "move": check_text(move.move, "move"),
        "timestamp": utc(move.timestamp, f"timestamp of ply {move.ply}"),
        "think_time": check_float(move.think_time, f"think time of ply {move.ply}"),
        "evaluation": clean_json(move.evaluation, f"evaluation of ply {move.ply}"),
        "considerations": clean_json(move.considerations, f"considerations of ply {move.ply}"),
    }


def _append_if_running(row: dict[str, Any]) -> Insert:
    """``INSERT INTO moves SELECT <row> FROM games WHERE id = :id AND status = 'running' FOR SHARE``."""
    columns = list(moves_table.c)
    source = (
        select(games.c.id, *(literal(row[c.name], c.type) for c in columns[1:]))
        .where(games.c.id == row["game_id"], games.c.status == GameStatus.RUNNING.value)
        .with_for_update(read=True)
    )
    return insert(moves_table).from_select([c.name for c in columns], source)


def _rating_row(record: RatingRecord) -> dict[str, Any]:
    if not isinstance(record, RatingRecord):
        raise InvalidRecord(f"a rating must be a RatingRecord, not {record!r}")
    return {
        "key": check_name(record.key, "rating key", KEY_LENGTH),
        "game": check_name(record.game, "game name"),
        "rating": check_float(record.rating, f"rating of {record.key!r}"),
        "rd": check_float(record.rd, f"rd of {record.key!r}"),
        "sigma": check_float(record.sigma, f"sigma of {record.key!r}"),
        "games": check_int(record.games, f"games of {record.key!r}"),
        "updated_at": _now() if record.updated_at is None else utc(record.updated_at, "updated_at"),
    }


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


def _contest(row: RowMapping) -> ContestRecord:
    return ContestRecord(contest_id=row["id"], game=row["game"], name=row["name"], created_at=row["created_at"])


def _tournament(row: RowMapping) -> TournamentRecord:
    return TournamentRecord(
        tournament_id=row["id"],
        name=row["name"],
        game=row["game"],
        config=row["config"],
        state=row["state"],
        status=row["status"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
    )
