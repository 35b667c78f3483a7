"""Dead letters: the writes the database refused, kept in a table of their own so the writes behind them go on.

Why a table: a refused write (a row that breaks a constraint, a value out of range, whatever the storable
boundary did not foresee) is refused again on every retry, so the recorder cannot keep it at the head of its
queue without stopping every result behind it, nor drop it without losing a game. Set aside here, it is out of
the way, counted in ``/healthz``, listed by :meth:`DeadLettersMixin.list_dead_letters`, and still whole for an
operator to mend and replay. Every field is bounded, and the entry is ASCII JSON, so this insert itself is never
refused for what the write carried.
"""

from __future__ import annotations

from sqlalchemy import delete, func, insert, select
from sqlalchemy.engine import RowMapping

from hexarena.store.base import MAX_LIMIT, StoreBase, now
from hexarena.store.models import NAME_LENGTH, dead_letters
from hexarena.store.records import DeadLetter
from hexarena.store.validate import check_int

#: Longest entry kept (characters); a longer one is cut, and says so (a game of 10,000 plies with the bots'
#: analysis fits).
MAX_ENTRY = 16 * 1024 * 1024
#: Longest error message and game id kept.
MAX_ERROR = 2000
MAX_GAME_ID = 200


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 20] + "... (cut to size)"


def _letter(r: RowMapping) -> DeadLetter:
    return DeadLetter(r["id"], r["kind"], r["game_id"], r["error"], r["entry"], r["created_at"])


class DeadLettersMixin(StoreBase):
    """The dead-letter half of :class:`hexarena.store.Store`."""

    async def add_dead_letter(self, kind: str, game_id: str, error: str, entry: str) -> None:
        """Keep a refused write (``entry``: its JSON) with why it was refused."""
        row = {
            "kind": _cut(str(kind), NAME_LENGTH),
            "game_id": _cut(str(game_id), MAX_GAME_ID),
            "error": _cut(str(error), MAX_ERROR),
            "entry": _cut(entry, MAX_ENTRY),
            "created_at": now(),
        }
        async with self._write("add_dead_letter") as conn:
            await conn.execute(insert(dead_letters), row)

    async def list_dead_letters(self, *, limit: int = 100) -> list[DeadLetter]:
        """The newest dead letters, newest first (at most ``limit``, itself at most MAX_LIMIT)."""
        limit = min(check_int(limit, "limit"), MAX_LIMIT)
        stmt = select(dead_letters).order_by(dead_letters.c.id.desc()).limit(limit)
        async with self._read("list_dead_letters") as conn:
            rows = (await conn.execute(stmt)).mappings().all()
        return [_letter(r) for r in rows]

    async def count_dead_letters(self) -> int:
        """How many dead letters wait for an operator."""
        async with self._read("count_dead_letters") as conn:
            return int(await conn.scalar(select(func.count()).select_from(dead_letters)) or 0)

    async def get_dead_letter(self, letter_id: int) -> DeadLetter | None:
        """One dead letter by its id, or None."""
        stmt = select(dead_letters).where(dead_letters.c.id == check_int(letter_id, "dead letter id"))
        async with self._read("get_dead_letter") as conn:
            r = (await conn.execute(stmt)).mappings().first()
        return None if r is None else _letter(r)

    async def drop_dead_letter(self, letter_id: int) -> bool:
        """Forget a dead letter (written at last, or given up by the operator); False if there was none."""
        stmt = delete(dead_letters).where(dead_letters.c.id == check_int(letter_id, "dead letter id"))
        async with self._write("drop_dead_letter") as conn:
            return bool((await conn.execute(stmt)).rowcount)
