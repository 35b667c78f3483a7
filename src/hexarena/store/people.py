"""People on the leaderboard: the ``people`` table names the person keys that ratings are kept under.

A person (:mod:`hexarena.core.person`) gets a row here when a rated game of theirs ends, in the same transaction
as the ratings (:func:`admit_people_in`), and their display name is refreshed with each rated game. Until then
nothing of them is stored, so identities made up by the thousand and never played cost nothing.

The table is bounded by :data:`MAX_PEOPLE`: once full, a game that would add a person no longer moves anyone's
rating (it is kept, as a casual game is); people already rated go on being rated.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncConnection

from hexarena.core.person import is_person_key
from hexarena.store.base import MAX_LIMIT, StoreBase, upsert_insert
from hexarena.store.models import PERSON_NAME_LENGTH, people
from hexarena.store.records import RatedGame
from hexarena.store.validate import check_key

log = logging.getLogger(__name__)

#: Most people the store rates; a game that would add one more is kept unrated.
MAX_PEOPLE = 100_000


async def admit_people_in(
    conn: AsyncConnection, results: Sequence[tuple[RatedGame, int | None, datetime]]
) -> list[tuple[RatedGame, int | None, datetime]]:
    """The rated games that may move ratings, inside the finishing transaction: every game whose people are known
    or fit under :data:`MAX_PEOPLE`; the people of those games stored (a newcomer added, a name refreshed)."""
    wanted = {key for rate, _, _ in results for key in rate.keys if is_person_key(key)}
    if not wanted:
        return list(results)
    known = set((await conn.execute(select(people.c.key).where(people.c.key.in_(sorted(wanted))))).scalars())
    room = MAX_PEOPLE - int(await conn.scalar(select(func.count()).select_from(people)) or 0) if wanted - known else 0
    admitted: list[tuple[RatedGame, int | None, datetime]] = []
    rows: dict[str, dict[str, object]] = {}
    for result in results:
        rate, _, stamp = result
        fresh = {key for key in rate.keys if is_person_key(key) and key not in known}
        if len(fresh) > room:
            log.warning("game of %s not rated: the store rates at most %d people", rate.game, MAX_PEOPLE)
            continue
        room -= len(fresh)
        known |= fresh
        admitted.append(result)
        for key, name in zip(rate.keys, rate.names, strict=True):
            if is_person_key(key):
                shown = check_key((name or "human")[:PERSON_NAME_LENGTH], "person's name", PERSON_NAME_LENGTH)
                rows[key] = {"key": key, "name": shown, "created_at": stamp, "updated_at": stamp}
    if rows:
        stmt = upsert_insert(conn.dialect, people)
        stmt = stmt.on_conflict_do_update(
            index_elements=[people.c.key], set_={"name": stmt.excluded.name, "updated_at": stmt.excluded.updated_at}
        )
        await conn.execute(stmt, list(rows.values()))
    return admitted


class PeopleMixin(StoreBase):
    """The people half of :class:`hexarena.store.Store`."""

    async def person_names(self, keys: Iterable[str]) -> dict[str, str]:
        """The display name of each of ``keys`` that is a rated person (at most ``MAX_LIMIT`` keys)."""
        wanted = sorted({k for k in keys if isinstance(k, str) and is_person_key(k)})[:MAX_LIMIT]
        if not wanted:
            return {}
        async with self._read("person_names") as conn:
            rows = await conn.execute(select(people.c.key, people.c.name).where(people.c.key.in_(wanted)))
            return {row.key: row.name for row in rows}


__all__ = ["MAX_PEOPLE", "PeopleMixin", "admit_people_in"]
