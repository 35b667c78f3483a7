"""Bots, contests, ratings and tournaments: the arena's directory, next to its games.

Kept simple on purpose (later issues extend them with new migrations). A bot's ``pass_hash`` is selected only by
:meth:`DirectoryMixin.bot_pass_hash`; every other query names its columns so the secret never leaves the table.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.engine import RowMapping
from sqlalchemy.ext.asyncio import AsyncConnection

from hexarena.store.base import MAX_LIMIT, StoreBase, json_object, now, upsert_insert
from hexarena.store.errors import InvalidRecord, NotFound
from hexarena.store.models import STATUS_LENGTH, bots, contests, rating_history, ratings, tournaments
from hexarena.store.records import JSON, BotRecord, ContestRecord, RatingRecord, TournamentRecord
from hexarena.store.validate import (
    check_float,
    check_id,
    check_int,
    check_key,
    check_name,
    check_text,
    clean_json,
    new_id,
    utc,
)

#: The most ratings :meth:`DirectoryMixin.rating_history` answers per player (the newest).
MAX_HISTORY_POINTS = 1000


class DirectoryMixin(StoreBase):
    """The directory half of :class:`hexarena.store.Store`."""

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
            "date_registered": now(),
        }
        await self._insert_new("register_bot", bots, row, f"bot {bot_id!r} is already registered")
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
            created_at=now(),
        )
        row = {"id": record.contest_id, "game": record.game, "name": record.name, "created_at": record.created_at}
        await self._insert_new("create_contest", contests, row, f"contest {record.contest_id!r} already exists")
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

    async def list_ratings(
        self, game: str, *, limit: int = 100, keys: Iterable[str] | None = None
    ) -> list[RatingRecord]:
        """The leaderboard of ``game``: highest rating first; with ``keys``, only those players' (wherever they
        stand on the board: the ladder pairs its bots by theirs)."""
        limit = min(check_int(limit, "limit"), MAX_LIMIT)
        stmt = (
            select(ratings).where(ratings.c.game == game).order_by(ratings.c.rating.desc(), ratings.c.key).limit(limit)
        )
        if keys is not None:
            stmt = stmt.where(ratings.c.key.in_([str(k) for k in keys][:MAX_LIMIT]))
        async with self._read("list_ratings") as conn:
            return [RatingRecord(**r) for r in (await conn.execute(stmt)).mappings()]

    async def rating_history(
        self, game: str, *, keys: Iterable[str] | None = None, points: int = MAX_HISTORY_POINTS
    ) -> dict[str, list[RatingRecord]]:
        """The newest ``points`` ratings each player of ``game`` (or of ``keys``) had, oldest first, keyed by
        player: the leaderboard's plots. Each update of :meth:`upsert_ratings` added one; a busy bot has one per
        rated game, so the answer is bounded per player (a window over each player's rows, newest first)."""
        points = check_int(points, "points", minimum=1)
        newest = func.row_number().over(partition_by=rating_history.c.key, order_by=rating_history.c.id.desc())
        inner = select(rating_history, newest.label("newest")).where(rating_history.c.game == game)
        if keys is not None:
            inner = inner.where(rating_history.c.key.in_([check_key(k, "rating key") for k in keys]))
        rows = inner.subquery()
        stmt = select(rows).where(rows.c.newest <= points).order_by(rows.c.key, rows.c.id)
        out: dict[str, list[RatingRecord]] = {}
        async with self._read("rating_history") as conn:
            for row in (await conn.execute(stmt)).mappings():
                values = dict(row)
                values.pop("id")
                values.pop("newest")
                out.setdefault(row["key"], []).append(RatingRecord(**values))
        return out

    async def upsert_ratings(self, records: Iterable[RatingRecord]) -> None:
        """Insert or replace ratings in one transaction (both players of a game update together)."""
        rows = [_rating_row(r) for r in records]
        if not rows:
            return
        async with self._write("upsert_ratings") as conn:
            await _upsert_rows(conn, rows)

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
        stamp = now()
        record = TournamentRecord(
            tournament_id=check_id(new_id() if tournament_id is None else tournament_id, "tournament id"),
            name=check_text(name, "tournament name"),
            game=check_name(game, "game name"),
            config=json_object(config, "tournament config"),
            state=clean_json(state, "tournament state"),
            status=check_name(status, "tournament status", STATUS_LENGTH),
            created_at=stamp,
            updated_at=stamp,
        )
        row = {
            "id": record.tournament_id,
            "name": record.name,
            "game": record.game,
            "config": record.config,
            "state": record.state,
            "status": record.status,
            "created_at": stamp,
            "updated_at": stamp,
        }
        await self._insert_new(
            "create_tournament", tournaments, row, f"tournament {record.tournament_id!r} already exists"
        )
        return record

    async def get_tournament(self, tournament_id: str) -> TournamentRecord | None:
        async with self._read("get_tournament") as conn:
            stmt = select(tournaments).where(tournaments.c.id == tournament_id)
            row = (await conn.execute(stmt)).mappings().first()
        return None if row is None else _tournament(row)

    async def update_tournament_state(self, tournament_id: str, state: JSON, *, status: str | None = None) -> None:
        """Save a tournament's state (and optionally its status); NotFound for an unknown id."""
        values: dict[str, Any] = {"state": clean_json(state, "tournament state"), "updated_at": now()}
        if status is not None:
            values["status"] = check_name(status, "tournament status", STATUS_LENGTH)
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


_BOT_COLUMNS = (bots.c.bot_id, bots.c.game, bots.c.owner, bots.c.kind, bots.c.spec, bots.c.date_registered)


async def upsert_ratings_in(conn: AsyncConnection, records: Iterable[RatingRecord]) -> None:
    """Insert or replace ratings inside a transaction the caller holds (a game's finish rates in its own)."""
    rows = [_rating_row(r) for r in records]
    if rows:
        await _upsert_rows(conn, rows)


async def _upsert_rows(conn: AsyncConnection, rows: list[dict[str, Any]]) -> None:
    """The latest rating replaces the old one in ``ratings``; ``rating_history`` keeps them all (same transaction).

    ``rows`` may hold one player's rating more than once (the games of a batch it played one after another):
    history gets each, ``ratings`` the last (one row a player, so no statement changes a row twice)."""
    await conn.execute(rating_history.insert(), rows)
    rows = list({(row["game"], row["key"]): row for row in rows}.values())
    stmt = upsert_insert(conn.dialect, ratings)
    stmt = stmt.on_conflict_do_update(
        index_elements=[ratings.c.game, ratings.c.key],
        set_={c: stmt.excluded[c] for c in ("rating", "rd", "sigma", "games", "updated_at")},
    )
    await conn.execute(stmt, rows)


def _rating_row(record: RatingRecord) -> dict[str, Any]:
    if not isinstance(record, RatingRecord):
        raise InvalidRecord(f"a rating must be a RatingRecord, not {record!r}")
    return {
        "key": check_key(record.key, "rating key"),
        "game": check_name(record.game, "game name"),
        "rating": check_float(record.rating, f"rating of {record.key!r}"),
        "rd": check_float(record.rd, f"rd of {record.key!r}"),
        "sigma": check_float(record.sigma, f"sigma of {record.key!r}"),
        "games": check_int(record.games, f"games of {record.key!r}"),
        "updated_at": now() if record.updated_at is None else utc(record.updated_at, "updated_at"),
    }


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
