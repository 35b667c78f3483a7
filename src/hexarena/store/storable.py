"""The one boundary text crosses into the store: whatever a bot, a client or a journal hands over, what reaches
the database is text both databases can hold.

Two kinds of character cannot be stored: NUL (PostgreSQL's ``text`` and ``jsonb`` refuse ``\\x00`` and
``\\u0000``), and lone surrogates (``"\\ud800"`` is valid JSON and a valid Python ``str``, but not Unicode: no
UTF-8 database can encode it, SQLite included). Both become U+FFFD, the replacement character, rather than being
refused: the text is a name, a reason or a move a bot sent, and a game must never be lost over one character.

:func:`storable` is applied by the column types (``hexarena.store.models``) to every bound parameter, in writes and
in lookups alike, so no statement can carry such a character whatever its caller forgot; the validators use it
too, so that values the store compares in Python (rating keys) are the ones stored.
"""

from __future__ import annotations

import math
import re

_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def storable(text: str) -> str:
    """``text`` with every NUL and lone surrogate replaced by U+FFFD (the same object when there is none)."""
    if text.isascii() and "\x00" not in text:  # (every move's text: two C scans instead of a regex substitution)
        return text
    return _UNSTORABLE.sub("\ufffd", text)


def storable_json(value: object) -> object:
    """A JSON value with every string (keys too) :func:`storable` and non-finite floats as null (strict JSON
    and ``jsonb`` refuse NaN and infinities). Never raises: what is not JSON is left for the driver to refuse."""
    if isinstance(value, str):
        return storable(value)
    if value is None or isinstance(value, (bool, int)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {storable(k) if isinstance(k, str) else k: storable_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [storable_json(v) for v in value]
    return value


__all__ = ["storable", "storable_json"]
