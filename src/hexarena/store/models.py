"""The schema, as SQLAlchemy 2 declarative models.

These classes describe the tables; the repository (``repository.py``) runs Core statements against them and
returns records, never these rows. The Alembic migrations in ``migrations/versions`` create exactly this schema
(a test compares the two), so a change here needs a new migration.

Types are chosen so SQLite and PostgreSQL behave the same: identifiers are bounded ``String`` (lengths are
checked in Python before a write, because SQLite would not), free text is ``Text``, JSON is ``JSONB`` on
PostgreSQL and text on SQLite, and timestamps go through :class:`UTCDateTime` so both return aware UTC values.

Every string and JSON column binds its values through :mod:`hexarena.store.storable` (:class:`Storable`,
:class:`StorableText`, :func:`json_type`): the one boundary that makes text storable, applied to every statement
(inserts, updates, the ``WHERE`` of a lookup), so a NUL or a lone surrogate from anywhere can never reach the
database and make it refuse a row. The DDL is that of the plain types.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, cast

from sqlalchemy import (
    JSON,
    CheckConstraint,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    TypeDecorator,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from hexarena.core.jsonvalue import JsonValue
from hexarena.store.storable import storable, storable_json

ID_LENGTH = 64
NAME_LENGTH = 32  # game names, player kinds, statuses, terminations
KEY_LENGTH = 200  # rating keys (bot ids or display names)
STATUS_LENGTH = 16  # game and tournament statuses
PERSON_NAME_LENGTH = 64  # a person's display name (the web UI allows 32 characters)
GAME_STATUSES = ("pending", "running", "finished", "aborted", "interrupted")

# Named constraints make later ALTERs (Alembic batch mode on SQLite) reproducible.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class UTCDateTime(TypeDecorator[datetime]):
    """A timestamp that is stored in UTC and always read back timezone-aware.

    SQLite has no timezone type and returns naive values; PostgreSQL's ``timestamptz`` returns aware ones.
    Normalising here keeps ``created_at < finished_at`` comparisons and JSON output identical on both.
    Naive datetimes are refused on the way in (the repository checks first, with a clearer message).
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError(f"timestamp {value.isoformat()!r} has no timezone; pass an aware UTC datetime")
        if value.tzinfo is not UTC:
            value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class _StorableString(TypeDecorator[str]):
    """A string column whose bound values are made storable (see the module docstring).

    The bind processor is :func:`_bind_storable` itself, not the generic wrapper around ``process_bind_param``:
    it runs for the game id and the text of every move the recorder writes, where each call counts."""

    cache_ok = True

    def bind_processor(self, dialect: Dialect) -> Any:
        inner = self.load_dialect_impl(dialect).bind_processor(dialect)
        if inner is None:  # both backends' drivers take str as it is
            return _bind_storable
        return lambda value: inner(_bind_storable(value))


def _bind_storable(value: object) -> object:
    return storable(value) if value.__class__ is str else value


class Storable(_StorableString):
    """A bounded string (``VARCHAR(n)``) whose bound values are made storable."""

    impl = String
    cache_ok = True


class StorableText(_StorableString):
    """Free text (``TEXT``) whose bound values are made storable."""

    impl = Text
    cache_ok = True


class StorableJSON(TypeDecorator[JsonValue]):
    """JSON whose strings (keys too) are made storable: JSONB refuses ``\\u0000`` and lone surrogates.

    Checked on the serialized text, which escapes every character outside ASCII: a value without ``\\u0000``
    or ``\\ud...`` there (nearly all: a bot's evaluation, already cleaned by the validators) costs one scan of
    that text; only one with them is walked (:func:`storable_json`) and serialized again. A character beyond
    the BMP is escaped as a surrogate pair, so it is walked too, and kept."""

    impl = JSON(none_as_null=True)
    cache_ok = True

    def load_dialect_impl(self, dialect: Dialect) -> Any:
        if dialect.name == "postgresql":
            return dialect.type_descriptor(JSONB(none_as_null=True))
        return dialect.type_descriptor(JSON(none_as_null=True))

    def bind_processor(self, dialect: Dialect) -> Any:
        serialize = self.load_dialect_impl(dialect).bind_processor(dialect)
        if serialize is None:  # pragma: no cover - both dialects serialize JSON in Python
            return _walked

        def process(value: JsonValue) -> object:
            if value is None:  # (a move without analysis: most of them)
                return None
            out = serialize(value)
            if isinstance(out, str) and ("\\u0000" in out or "\\ud" in out):
                out = serialize(_walked(value))
            return out

        return process


def _walked(value: object) -> object:
    try:
        return storable_json(value)
    except RecursionError:  # nested too deeply: the validators refuse it first, the driver would anyway
        return value


def json_type() -> StorableJSON:
    """JSON that stores Python ``None`` as SQL NULL; JSONB on PostgreSQL (indexable, compact)."""
    return StorableJSON()


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


class GameRow(Base):
    """One game: who played what, and how it ended. Moves live in :class:`MoveRow`."""

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(Storable(ID_LENGTH), primary_key=True)
    game: Mapped[str] = mapped_column(Storable(NAME_LENGTH))
    params: Mapped[JsonValue] = mapped_column(json_type(), nullable=False)
    status: Mapped[str] = mapped_column(Storable(STATUS_LENGTH))
    winner: Mapped[int | None] = mapped_column(Integer)
    termination: Mapped[str | None] = mapped_column(Storable(NAME_LENGTH))
    reason: Mapped[str] = mapped_column(StorableText)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    started_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    contest_id: Mapped[str | None] = mapped_column(Storable(ID_LENGTH), index=True)
    tournament_id: Mapped[str | None] = mapped_column(Storable(ID_LENGTH), index=True)

    __table_args__ = (
        CheckConstraint(
            "status IN ('pending', 'running', 'finished', 'aborted', 'interrupted')",
            name="status",
        ),
        Index("ix_games_created_at", "created_at"),
        Index("ix_games_game_created_at", "game", "created_at"),
        Index("ix_games_status", "status"),
    )


class GamePlayerRow(Base):
    """One seat of a game; a separate table so games can be listed by player name."""

    __tablename__ = "game_players"

    game_id: Mapped[str] = mapped_column(
        Storable(ID_LENGTH), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(StorableText, index=True)
    kind: Mapped[str] = mapped_column(Storable(NAME_LENGTH))
    spec: Mapped[str] = mapped_column(StorableText)


class MoveRow(Base):
    """One move; one row each so a live game appends as it plays and a crash loses at most one move."""

    __tablename__ = "moves"

    game_id: Mapped[str] = mapped_column(
        Storable(ID_LENGTH), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    ply: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    move: Mapped[str] = mapped_column(StorableText)
    timestamp: Mapped[datetime] = mapped_column(UTCDateTime())
    think_time: Mapped[float] = mapped_column(Float)
    evaluation: Mapped[JsonValue] = mapped_column(json_type(), nullable=True)
    considerations: Mapped[JsonValue] = mapped_column(json_type(), nullable=True)


class BotRow(Base):
    """A registered bot. ``pass_hash`` is a shared secret (battlebot login); only ``bot_pass_hash`` reads it."""

    __tablename__ = "bots"

    bot_id: Mapped[str] = mapped_column(Storable(ID_LENGTH), primary_key=True)
    game: Mapped[str] = mapped_column(Storable(NAME_LENGTH), index=True)
    owner: Mapped[str] = mapped_column(StorableText, index=True)
    pass_hash: Mapped[str] = mapped_column(Storable(128))
    kind: Mapped[str] = mapped_column(Storable(NAME_LENGTH))
    spec: Mapped[JsonValue] = mapped_column(json_type(), nullable=True)
    date_registered: Mapped[datetime] = mapped_column(UTCDateTime())


class ContestRow(Base):
    __tablename__ = "contests"

    id: Mapped[str] = mapped_column(Storable(ID_LENGTH), primary_key=True)
    game: Mapped[str] = mapped_column(Storable(NAME_LENGTH), index=True)
    name: Mapped[str] = mapped_column(StorableText)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())


class RatingRow(Base):
    __tablename__ = "ratings"

    game: Mapped[str] = mapped_column(Storable(NAME_LENGTH), primary_key=True)
    key: Mapped[str] = mapped_column(Storable(KEY_LENGTH), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    rd: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime())


class RatingHistoryRow(Base):
    """Every rating a player had in a game, one row per update (``ratings`` keeps only the latest): the
    leaderboard's rating-history plots read it. ``id`` orders the updates of one player."""

    __tablename__ = "rating_history"
    __table_args__ = (Index("ix_rating_history_game_key", "game", "key", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game: Mapped[str] = mapped_column(Storable(NAME_LENGTH))
    key: Mapped[str] = mapped_column(Storable(KEY_LENGTH))
    rating: Mapped[float] = mapped_column(Float)
    rd: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime())


class TournamentRow(Base):
    __tablename__ = "tournaments"

    id: Mapped[str] = mapped_column(Storable(ID_LENGTH), primary_key=True)
    name: Mapped[str] = mapped_column(StorableText)
    game: Mapped[str] = mapped_column(Storable(NAME_LENGTH), index=True)
    config: Mapped[JsonValue] = mapped_column(json_type(), nullable=False)
    state: Mapped[JsonValue] = mapped_column(json_type(), nullable=True)
    status: Mapped[str] = mapped_column(Storable(STATUS_LENGTH), index=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime())


class ApiTokenRow(Base):
    """An API token of a public server (``hexarena token create``): only its SHA-256 is kept, never the token.

    Tokens are 256 random bits, so a plain hash is enough (nothing to brute-force, no salt needed) and lets the
    server find a token by an indexed equality lookup. ``name`` is what the operator lists and revokes by.
    """

    __tablename__ = "api_tokens"

    name: Mapped[str] = mapped_column(Storable(ID_LENGTH), primary_key=True)
    token_hash: Mapped[str] = mapped_column(Storable(ID_LENGTH), unique=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    last_used_at: Mapped[datetime | None] = mapped_column(UTCDateTime())


class DeadLetterRow(Base):
    """A write the database refused, set aside by the recorder so that the writes queued behind it go on
    (``hexarena.store.dead_letters``). ``entry`` is the write as the journal holds it (ASCII JSON: every
    character escaped, so the text is storable whatever it carries), for an operator to mend and replay."""

    __tablename__ = "dead_letters"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    kind: Mapped[str] = mapped_column(Storable(NAME_LENGTH))
    game_id: Mapped[str] = mapped_column(StorableText)
    error: Mapped[str] = mapped_column(StorableText)
    entry: Mapped[str] = mapped_column(StorableText)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())


class LadderBotRow(Base):
    """A bot on the ladder (``hexarena.store.ladder``): registered once, paired until paused or removed. ``name``
    is its rating key too, so its ladder games move the server's one leaderboard."""

    __tablename__ = "ladder_bots"

    name: Mapped[str] = mapped_column(Storable(ID_LENGTH), primary_key=True)
    game: Mapped[str] = mapped_column(Storable(NAME_LENGTH), index=True)
    spec: Mapped[str] = mapped_column(StorableText)
    owner: Mapped[str] = mapped_column(StorableText)
    status: Mapped[str] = mapped_column(Storable(STATUS_LENGTH))
    max_concurrent: Mapped[int] = mapped_column(Integer)
    games_per_hour: Mapped[int | None] = mapped_column(Integer)
    games: Mapped[int] = mapped_column(Integer)
    wins: Mapped[int] = mapped_column(Integer)
    draws: Mapped[int] = mapped_column(Integer)
    losses: Mapped[int] = mapped_column(Integer)
    forfeits: Mapped[int] = mapped_column(Integer)
    failures_in_row: Mapped[int] = mapped_column(Integer)
    pause_reason: Mapped[str | None] = mapped_column(StorableText)
    report: Mapped[JsonValue] = mapped_column(json_type(), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime())

    __table_args__ = (CheckConstraint("status IN ('active', 'paused')", name="status"),)


class LadderGameRow(Base):
    """One ladder game: who played it and, once over, how it ended and which bot failed (if one did). The game
    itself is an ordinary match in ``games``; this row is the ladder's bookkeeping of it (its bots' records)."""

    __tablename__ = "ladder_games"
    __table_args__ = (Index("ix_ladder_games_started_at", "started_at"),)

    game_id: Mapped[str] = mapped_column(Storable(ID_LENGTH), primary_key=True)
    game: Mapped[str] = mapped_column(Storable(NAME_LENGTH))
    first: Mapped[str] = mapped_column(Storable(ID_LENGTH), index=True)
    second: Mapped[str] = mapped_column(Storable(ID_LENGTH), index=True)
    started_at: Mapped[datetime] = mapped_column(UTCDateTime())
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    winner: Mapped[int | None] = mapped_column(Integer)
    termination: Mapped[str | None] = mapped_column(Storable(NAME_LENGTH))
    reason: Mapped[str | None] = mapped_column(StorableText)
    failed: Mapped[str | None] = mapped_column(Storable(ID_LENGTH))


class PersonRow(Base):
    """A person who has finished a rated game: their key (``person:`` and a hash of the secret their browser
    keeps: :mod:`hexarena.core.person`; the secret itself is never stored) and the display name they last played a
    rated game under, for the leaderboard. A person appears here, and on the leaderboard, only once a rated game
    of theirs is over; the table is bounded (:data:`hexarena.store.people.MAX_PEOPLE`)."""

    __tablename__ = "people"

    key: Mapped[str] = mapped_column(Storable(ID_LENGTH), primary_key=True)
    name: Mapped[str] = mapped_column(Storable(PERSON_NAME_LENGTH))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime())


games = cast(Table, GameRow.__table__)
game_players = cast(Table, GamePlayerRow.__table__)
moves = cast(Table, MoveRow.__table__)
bots = cast(Table, BotRow.__table__)
contests = cast(Table, ContestRow.__table__)
ratings = cast(Table, RatingRow.__table__)
rating_history = cast(Table, RatingHistoryRow.__table__)
tournaments = cast(Table, TournamentRow.__table__)
api_tokens = cast(Table, ApiTokenRow.__table__)
dead_letters = cast(Table, DeadLetterRow.__table__)
ladder_bots = cast(Table, LadderBotRow.__table__)
ladder_games = cast(Table, LadderGameRow.__table__)
people = cast(Table, PersonRow.__table__)
