"""Checks and clean-ups applied before anything reaches the database.

Both backends must store the same things and fail the same way, and SQLite enforces almost nothing (lengths,
types), so limits are checked here with messages that quote the bad value. Data that comes from bots is
cleaned rather than refused, because a game must never be lost over a bot's odd evaluation:

- non-finite floats (NaN, inf) in JSON become ``null`` (PostgreSQL's JSONB and strict JSON reject them);
- NUL characters and lone surrogates become U+FFFD (:mod:`hexarena.store.storable`, the boundary every column
  applies too; here so that the values the store keeps and compares are the ones stored);
- a player spec loses URL passwords and token-like parameters, so no secret is ever stored with a game.
"""

from __future__ import annotations

import math
import re
import uuid
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from hexarena.store.errors import InvalidRecord
from hexarena.store.models import ID_LENGTH, KEY_LENGTH, NAME_LENGTH
from hexarena.store.storable import storable

REDACTED = "REDACTED"
#: A player scheme before a URL (``stateless:http://...``, ``bws:https://...``): the URL after it is redacted.
_SCHEME_BEFORE_URL = re.compile(r"^([a-z][a-z0-9_-]*:)(?=[a-z][a-z0-9+.-]*://)", re.I)
_SECRET_WORD = re.compile(r"token|secret|passw|pass_hash|api[_-]?key|auth|signature|sig$|^key$", re.I)
#: The largest integer an ``Integer`` column holds on PostgreSQL (SQLite: 2**63 - 1; larger crashes its driver).
MAX_INT = 2**31 - 1
_SECRET_FLAG = re.compile(
    r"(--?[\w-]*(?:token|secret|password|passwd|api[_-]?key)[\w-]*(?:=|\s+))(\S+)",
    re.I,
)


def new_id() -> str:
    """A fresh identifier: 32 lowercase hex digits (a UUID4)."""
    return uuid.uuid4().hex


def check_id(value: object, what: str) -> str:
    """An identifier: a non-empty string of at most 64 printable characters."""
    return _bounded(value, what, ID_LENGTH)


def check_name(value: object, what: str, limit: int = NAME_LENGTH) -> str:
    """A short machine name (game, kind, status, termination)."""
    return _bounded(value, what, limit)


def _bounded(value: object, what: str, limit: int) -> str:
    if not isinstance(value, str):
        raise InvalidRecord(f"{what} must be a string, not {value!r}")
    if not value or len(value) > limit:
        raise InvalidRecord(f"{what} {value[:80]!r} must have 1 to {limit} characters")
    if not value.isprintable():
        raise InvalidRecord(f"{what} {value[:80]!r} contains control characters")
    return value


def check_text(value: object, what: str) -> str:
    """Free text (names, reasons, moves): any string, NULs and lone surrogates replaced."""
    if not isinstance(value, str):
        raise InvalidRecord(f"{what} must be a string, not {value!r}")
    return storable(value)


def check_key(value: object, what: str, limit: int = KEY_LENGTH) -> str:
    """A rating key (a player's display name): storable text of 1 to ``limit`` characters. Unlike machine
    names, control characters are kept: a display name is whatever the bot or client called itself, and its
    game's result must not be lost over it."""
    if not isinstance(value, str):
        raise InvalidRecord(f"{what} must be a string, not {value!r}")
    if not value or len(value) > limit:
        raise InvalidRecord(f"{what} {value[:80]!r} must have 1 to {limit} characters")
    return storable(value)


def check_int(value: object, what: str, *, minimum: int = 0, maximum: int = MAX_INT) -> int:
    """An integer within what both databases' ``Integer`` columns hold (the driver refuses more, row by row)."""
    if isinstance(value, bool) or not isinstance(value, int) or not minimum <= value <= maximum:
        raise InvalidRecord(f"{what} must be an integer from {minimum} to {maximum}, not {value!r}")
    return value


def check_float(value: object, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise InvalidRecord(f"{what} must be a finite number, not {value!r}")
    return float(value)


def utc(value: object, what: str) -> datetime:
    """An aware datetime converted to UTC; naive datetimes are refused (their zone is a guess)."""
    if not isinstance(value, datetime):
        raise InvalidRecord(f"{what} must be a datetime, not {value!r}")
    if value.tzinfo is UTC:  # already UTC (every timestamp hexarena makes): nothing to convert
        return value
    if value.tzinfo is None or value.utcoffset() is None:
        raise InvalidRecord(f"{what} {value.isoformat()!r} has no timezone; use datetime.now(UTC)")
    return value.astimezone(UTC)


def clean_json(value: Any, what: str) -> Any:
    """``value`` as plain JSON data (see the module docstring); refuses what JSON cannot hold, and nesting deeper
    than :data:`MAX_JSON_DEPTH` (a bound of its own, not the interpreter's recursion limit, which a library may
    raise for the whole process)."""
    return _clean(value, what)


#: Deepest nesting of lists and objects a stored JSON value may have (evaluations and parameters nest a few levels).
MAX_JSON_DEPTH = 100


def _clean(value: Any, what: str, depth: int = 0) -> Any:
    if depth > MAX_JSON_DEPTH:
        raise InvalidRecord(f"{what} is nested too deeply to store (more than {MAX_JSON_DEPTH} levels)")
    if value is None or isinstance(value, (bool, int)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, str):
        return storable(value)
    if isinstance(value, Mapping):
        out: dict[str, Any] = {}
        for key, item in value.items():
            if not isinstance(key, (str, int, float, bool)) and key is not None:
                raise InvalidRecord(f"{what} has a key {key!r} that JSON cannot hold")
            out[_clean(key if isinstance(key, str) else str(key), what, depth + 1)] = _clean(item, what, depth + 1)
        return out
    if isinstance(value, (list, tuple)):
        return [_clean(item, what, depth + 1) for item in value]
    raise InvalidRecord(f"{what} holds {value!r} ({type(value).__name__}), which is not JSON")


def redact_spec(spec: str) -> str:
    """``spec`` without secrets: URL passwords, token-like query parameters and ``--token X`` flags."""
    spec = storable(spec)
    scheme = _SCHEME_BEFORE_URL.match(spec)
    if scheme is not None:
        return scheme.group(1) + redact_spec(spec[scheme.end() :])
    if "://" in spec:
        try:
            parts = urlsplit(spec)
            netloc = parts.netloc
            if parts.password is not None:
                host = netloc.rsplit("@", 1)[1]
                netloc = f"{parts.username}:{REDACTED}@{host}" if parts.username else f"{REDACTED}@{host}"
            query = parts.query
            if query:
                pairs = parse_qsl(query, keep_blank_values=True)
                if any(_SECRET_WORD.search(k) for k, _ in pairs):
                    query = urlencode([(k, REDACTED if _SECRET_WORD.search(k) else v) for k, v in pairs])
            spec = urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))
        except ValueError:
            pass  # not a URL after all; the flag rule below still applies
    return _SECRET_FLAG.sub(lambda m: m.group(1) + REDACTED, spec)
