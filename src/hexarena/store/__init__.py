"""Persistence: SQLAlchemy 2 models and repositories; SQLite by default, PostgreSQL by URL.

Everything callers need is exported here::

    from hexarena.store import Store, PlayerRecord, MoveRecord

    store = await Store.open()   # runs the packaged Alembic migrations; see repository.py for the API

Records are frozen dataclasses (``records.py``); errors derive from :class:`StoreError` (``errors.py``).
Operators upgrade a database by hand with ``python -m hexarena.store upgrade --database-url URL``.
"""

from hexarena.store.engine import resolve_url
from hexarena.store.errors import Conflict, InvalidRecord, NotFound, SchemaError, StoreError
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
    as_json,
)
from hexarena.store.repository import Store
from hexarena.store.validate import new_id, redact_spec

__all__ = [
    "JSON",
    "UNFINISHED",
    "BotRecord",
    "Conflict",
    "ContestRecord",
    "GameRecord",
    "GameStatus",
    "GameSummary",
    "InvalidRecord",
    "MoveRecord",
    "NotFound",
    "PlayerRecord",
    "RatingRecord",
    "SchemaError",
    "Store",
    "StoreError",
    "TournamentRecord",
    "as_json",
    "new_id",
    "redact_spec",
    "resolve_url",
]
