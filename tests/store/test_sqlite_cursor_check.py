"""The one-call SQLite cursor builds on private parts of SQLAlchemy and aiosqlite: it serves on the releases
pyproject.toml allows, its check names what a release lacks, and without it the engine keeps SQLAlchemy's own
cursor (the store's tests run on that path too: ``tests/test_private_internals_fallback.py``)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import aiosqlite.core
import pytest
from sqlalchemy.dialects.sqlite.aiosqlite import AsyncAdapt_aiosqlite_connection, AsyncAdapt_aiosqlite_cursor
from store_helpers import players

from hexarena.store import Store, new_id, sqlite_cursor
from hexarena.store.engine import one_call_cursors
from hexarena.store.records import NewGame


def _defining(cls: type, name: str) -> type:
    """The class of ``cls``'s MRO that defines ``name`` (what deleting it from ``cls`` must delete)."""
    return next(klass for klass in cls.__mro__ if name in klass.__dict__)


async def _changed_shape(self: Any, fn: Any, args: Any) -> Any:  # _execute taking a tuple, not *args
    return await fn(*args)


def _no_execute(mp: pytest.MonkeyPatch) -> None:
    mp.delattr(aiosqlite.core.Connection, "_execute")


def _other_execute(mp: pytest.MonkeyPatch) -> None:
    mp.setattr(aiosqlite.core.Connection, "_execute", _changed_shape)


def _no_in_transaction(mp: pytest.MonkeyPatch) -> None:
    mp.delattr(aiosqlite.core.Connection, "in_transaction")


def _no_execute_async(mp: pytest.MonkeyPatch) -> None:
    mp.delattr(_defining(AsyncAdapt_aiosqlite_cursor, "_execute_async"), "_execute_async")


def _other_cursor_cls(mp: pytest.MonkeyPatch) -> None:
    mp.setattr(AsyncAdapt_aiosqlite_connection, "_cursor_cls", object)


def _slot_gone(mp: pytest.MonkeyPatch) -> None:  # a slot renamed: the module expects one the class lacks
    mp.setattr(sqlite_cursor, "_CURSOR_SLOTS", (*sqlite_cursor._CURSOR_SLOTS, "_rows_renamed"))


@pytest.fixture
def fresh_check() -> Iterator[None]:
    """:func:`one_call_cursors` checks once a process: forget it before and after the test."""
    one_call_cursors.cache_clear()
    yield
    one_call_cursors.cache_clear()


async def test_the_one_call_cursor_serves_on_the_releases_allowed(tmp_path: Path) -> None:
    assert sqlite_cursor.missing() == []
    assert one_call_cursors()
    store = await Store.open(str(tmp_path / "one.sqlite3"))
    try:
        await store.create_games([NewGame(game_id=new_id(), game="hex", params={}, players=tuple(players()))])
        async with store._engine.connect() as conn:
            raw = await conn.get_raw_connection()
            assert isinstance(raw.dbapi_connection, sqlite_cursor.OneCallConnection)
        assert len(await store.list_games()) == 1
    finally:
        await store.close()


@pytest.mark.parametrize(
    ("change", "named"),
    [
        (_no_execute, "Connection._execute"),
        (_other_execute, "Connection._execute"),
        (_no_in_transaction, "Connection.in_transaction"),
        (_no_execute_async, "._execute_async"),
        (_other_cursor_cls, "._cursor_cls"),
        (_slot_gone, "slot _rows_renamed"),
    ],
    ids=["no-_execute", "_execute-other-shape", "no-in_transaction", "no-_execute_async", "cursor_cls", "slot"],
)
def test_the_check_names_what_a_release_lacks(
    change: Callable[[pytest.MonkeyPatch], None], named: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with monkeypatch.context() as mp:
        change(mp)
        gaps = sqlite_cursor.missing()
    assert len(gaps) == 1 and named in gaps[0], gaps
    assert sqlite_cursor.missing() == []  # (and all is back)


@pytest.mark.usefixtures("fresh_check")
async def test_without_them_the_engine_keeps_sqlalchemys_cursor_and_says_so_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(sqlite_cursor, "missing", lambda: ["aiosqlite Connection._execute (the test's)"])
    caplog.set_level(logging.INFO, logger="hexarena.store.engine")
    stores = [await Store.open(str(tmp_path / f"{i}.sqlite3")) for i in range(2)]
    try:
        for store in stores:
            gid = new_id()
            await store.create_games([NewGame(game_id=gid, game="hex", params={}, players=tuple(players()))])
            async with store._engine.connect() as conn:
                raw = await conn.get_raw_connection()
                assert type(raw.dbapi_connection) is AsyncAdapt_aiosqlite_connection
            game = await store.get_game(gid)
            assert game is not None and [p.name for p in game.players] == ["alice", "bob"]
    finally:
        for store in stores:
            await store.close()
    said = [r for r in caplog.records if "own aiosqlite cursor" in r.getMessage()]
    assert len(said) == 1 and "Connection._execute (the test's)" in said[0].getMessage(), caplog.text
