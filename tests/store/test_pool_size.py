"""``HEXARENA_DATABASE_POOL_SIZE``: how many connections one store keeps, so an operator can fit the instances
of a deployment (and the test suite its workers) under PostgreSQL's ``max_connections``."""

from __future__ import annotations

import pytest

from hexarena.store import Store
from hexarena.store.engine import ENV_POOL_SIZE, pool_size_from_env
from hexarena.store.errors import InvalidRecord


def test_the_pool_size_is_read_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_POOL_SIZE, raising=False)
    assert pool_size_from_env() == 10
    monkeypatch.setenv(ENV_POOL_SIZE, " 3 ")
    assert pool_size_from_env() == 3


@pytest.mark.parametrize("bad", ["0", "-2", "many", "1.5", "100000"])
def test_a_bad_pool_size_says_what_is_allowed(monkeypatch: pytest.MonkeyPatch, bad: str) -> None:
    monkeypatch.setenv(ENV_POOL_SIZE, bad)
    with pytest.raises(InvalidRecord, match=f"{ENV_POOL_SIZE}=.*a whole number from 1 to"):
        pool_size_from_env()


async def test_a_store_opened_without_a_size_takes_the_environments(
    monkeypatch: pytest.MonkeyPatch, migrated_database_url: str
) -> None:
    monkeypatch.setenv(ENV_POOL_SIZE, "3")
    store = await Store.open(migrated_database_url)
    try:
        pool = store._engine.pool
        # PostgreSQL: the size plus twice as many overflow connections; a SQLite file: all kept open (size * 1.5)
        limit = pool.size() + max(0, pool._max_overflow)  # type: ignore[attr-defined]
        assert limit in (9, 5), (pool.size(), pool._max_overflow)  # type: ignore[attr-defined]
    finally:
        await store.close()
