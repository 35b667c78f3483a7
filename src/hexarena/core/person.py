"""A person's identity without accounts or passwords: a secret their browser makes once and keeps, and the public
key the server derives from it.

The browser makes 32 random bytes and keeps them (base64url, :data:`SECRET_LENGTH` characters) in its
``localStorage``; it sends the secret only when it takes a seat. The server keeps nothing of the secret but its
hash: the person's public key (:func:`person_key`, ``person:`` and 32 hex digits of a SHA-256), which is their
rating key and the ``spec`` of their seats. Knowing someone's key does not let anyone play as them (the hash
cannot be turned back into the secret), and the name a person shows is only a display name: two people who choose
the same name are two keys, two rows on the leaderboard.
"""

from __future__ import annotations

import hashlib
import re

#: base64url of 32 random bytes, without padding
SECRET_LENGTH = 43
SECRET_PATTERN = r"^[A-Za-z0-9_-]{43}$"
#: what every person's key starts with; no bot's rating key may (:func:`is_person_key`)
PREFIX = "person:"
_KEY = re.compile(r"^person:[0-9a-f]{32}$")
_SECRET = re.compile(SECRET_PATTERN)
#: hashed before the secret, so a person key is not the plain SHA-256 of anything used elsewhere
_DOMAIN = b"hexarena person\0"


def person_key(secret: str) -> str:
    """The public key of the person holding ``secret``; ValueError (saying what a secret looks like) otherwise."""
    if not isinstance(secret, str) or _SECRET.fullmatch(secret) is None:
        raise ValueError(f"a person's identity is {SECRET_LENGTH} characters of A-Z, a-z, 0-9, '-' and '_'")
    return PREFIX + hashlib.sha256(_DOMAIN + secret.encode("ascii")).hexdigest()[:32]


def is_person_key(key: str) -> bool:
    """Whether ``key`` is a person's key as :func:`person_key` makes them."""
    return _KEY.fullmatch(key) is not None


def claims_person(key: str) -> bool:
    """Whether ``key`` looks like a person's (starts with ``person:``): a bot named so is never rated, so that no
    bot can play under a person's key."""
    return key.startswith(PREFIX)


__all__ = ["PREFIX", "SECRET_LENGTH", "SECRET_PATTERN", "claims_person", "is_person_key", "person_key"]
