"""Errors the store raises on purpose; each quotes the input it could not use.

Driver errors (a lost connection, a full disk) are wrapped in :class:`StoreError` with the operation named, so
callers can catch one type without importing SQLAlchemy.
"""

from __future__ import annotations

from hexarena.core.errors import HexarenaError


class StoreError(HexarenaError):
    """Something went wrong reading or writing the database."""


class NotFound(StoreError, LookupError):
    """The game, bot, contest or tournament named does not exist."""


class Conflict(StoreError):
    """The write contradicts what is stored: a duplicate id, a move after the end, a repeated ply."""


class InvalidRecord(StoreError, ValueError):
    """A value the store refuses before touching the database: an empty id, a naive timestamp, bad JSON..."""


class SchemaError(StoreError):
    """The database schema cannot be brought to this version of hexarena (e.g. it is newer)."""
