"""API tokens in the store, on SQLite and PostgreSQL: only the hash is kept, names are unique, revoking deletes,
use is noted at most once a minute, and strings that are not tokens never reach the database."""

from __future__ import annotations

import hashlib
from datetime import timedelta

import pytest
from sqlalchemy import select, update

from hexarena.store import Conflict, InvalidRecord, Store
from hexarena.store.models import api_tokens


async def test_create_check_list_revoke(store: Store) -> None:
    record, token = await store.create_api_token(" ops ")
    assert record.name == "ops" and record.last_used_at is None
    assert token.startswith("hxa_") and len(token) == 47
    async with store._read("test") as conn:
        rows = (await conn.execute(select(api_tokens))).mappings().all()
    assert [dict(r)["token_hash"] for r in rows] == [hashlib.sha256(token.encode()).hexdigest()]
    assert all(token not in str(v) for r in rows for v in r.values())

    checked = await store.check_api_token(token)
    assert checked is not None and checked.name == "ops"
    [listed] = await store.list_api_tokens()
    assert listed.name == "ops" and listed.last_used_at is not None
    for wrong in (token + "x", token[:-1], "hxa_", "", "Bearer " + token, token.replace("hxa_", "hxb_"), "\ud800"):
        assert await store.check_api_token(wrong) is None

    with pytest.raises(Conflict, match="exists already"):
        await store.create_api_token("ops")
    with pytest.raises(InvalidRecord, match="1 to 64"):
        await store.create_api_token("x" * 65)
    assert await store.revoke_api_token("ops") is True
    assert await store.revoke_api_token("ops") is False
    assert await store.check_api_token(token) is None
    assert await store.list_api_tokens() == []


async def test_last_use_is_noted_at_most_once_a_minute(store: Store) -> None:
    _, token = await store.create_api_token("busy")
    await store.check_api_token(token)
    [first] = await store.list_api_tokens()
    await store.check_api_token(token)
    [again] = await store.list_api_tokens()
    assert again.last_used_at == first.last_used_at  # no write for a use within the minute
    assert first.last_used_at is not None
    async with store._write("test") as conn:  # as if the last use was two minutes ago
        old = first.last_used_at - timedelta(minutes=2)
        await conn.execute(update(api_tokens).values(last_used_at=old))
    await store.check_api_token(token)
    [later] = await store.list_api_tokens()
    assert later.last_used_at is not None and later.last_used_at > old + timedelta(minutes=1)
