"""API tokens: who may use the write endpoints of a public server (``hexarena serve --public``).

A token is ``hxa_`` plus 32 random bytes (``secrets.token_urlsafe``): the prefix makes a leaked token
recognisable (secret scanners, logs), the 256 random bits make it unguessable. The store keeps only its SHA-256
(a fast hash is enough for a high-entropy secret: there is nothing to brute-force, and an equality lookup on the
indexed hash finds it), so a copy of the database gives no usable token. The token itself exists once, in the
answer of :meth:`TokensMixin.create_api_token`, which ``hexarena token create`` prints and forgets.

Tokens are named (``--name``) so the operator can list and revoke them; revoking deletes the row, so the token is
refused from the next request on. ``last_used_at`` is updated at most once a minute per token, so a busy client
does not turn every request into a database write.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, select, update

from hexarena.store.base import StoreBase, now
from hexarena.store.models import api_tokens
from hexarena.store.validate import check_id

TOKEN_PREFIX = "hxa_"
#: Longest string taken as a token at all (a real one has 47 characters); longer ones are refused unhashed.
MAX_TOKEN_LENGTH = 100
#: ``last_used_at`` is refreshed when older than this.
LAST_USED_RESOLUTION = timedelta(minutes=1)


@dataclass(frozen=True, slots=True)
class ApiTokenRecord:
    """A token as listed: its name and dates, never the token or its hash."""

    name: str
    created_at: datetime
    last_used_at: datetime | None = None


def new_api_token() -> str:
    """A fresh token: the prefix and 256 random bits, URL-safe."""
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


def hash_api_token(token: str) -> str:
    """What the store keeps of a token: its SHA-256, 64 hex digits."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def looks_like_token(token: str) -> bool:
    """Whether ``token`` has a token's shape (checked before any database lookup)."""
    return token.startswith(TOKEN_PREFIX) and len(token) <= MAX_TOKEN_LENGTH and token.isascii() and token.isprintable()


class TokensMixin(StoreBase):
    """The API-token part of :class:`hexarena.store.Store`."""

    async def create_api_token(self, name: str) -> tuple[ApiTokenRecord, str]:
        """A new token named ``name``: its record and the token itself (the only time it is seen).

        Conflict if a token of that name exists (revoke it first, or choose another name).
        """
        name = check_id(name.strip() if isinstance(name, str) else name, "token name")
        token = new_api_token()
        record = ApiTokenRecord(name=name, created_at=now())
        row = {"name": name, "token_hash": hash_api_token(token), "created_at": record.created_at}
        conflict = f"a token named {name!r} exists already; revoke it first or choose another name"
        await self._insert_new("create_api_token", api_tokens, row, conflict)
        return record, token

    async def list_api_tokens(self) -> list[ApiTokenRecord]:
        """Every token (names and dates only), oldest first."""
        stmt = select(api_tokens.c.name, api_tokens.c.created_at, api_tokens.c.last_used_at).order_by(
            api_tokens.c.created_at, api_tokens.c.name
        )
        async with self._read("list_api_tokens") as conn:
            return [ApiTokenRecord(**r) for r in (await conn.execute(stmt)).mappings()]

    async def revoke_api_token(self, name: str) -> bool:
        """Delete the token named ``name``; False if there was none."""
        async with self._write("revoke_api_token") as conn:
            result = await conn.execute(delete(api_tokens).where(api_tokens.c.name == name))
        return bool(result.rowcount)

    async def check_api_token(self, token: str) -> ApiTokenRecord | None:
        """The record of a valid token (and note its use), or None for anything else."""
        if not looks_like_token(token):
            return None
        digest = hash_api_token(token)
        columns = (api_tokens.c.name, api_tokens.c.created_at, api_tokens.c.last_used_at)
        async with self._read("check_api_token") as conn:
            row = (await conn.execute(select(*columns).where(api_tokens.c.token_hash == digest))).mappings().first()
        if row is None:
            return None
        record = ApiTokenRecord(**row)
        used = now()
        if record.last_used_at is None or used - record.last_used_at >= LAST_USED_RESOLUTION:
            async with self._write("note_api_token_use") as conn:
                await conn.execute(
                    update(api_tokens).where(api_tokens.c.token_hash == digest).values(last_used_at=used)
                )
        return record


__all__ = [
    "TOKEN_PREFIX",
    "ApiTokenRecord",
    "TokensMixin",
    "hash_api_token",
    "looks_like_token",
    "new_api_token",
]
