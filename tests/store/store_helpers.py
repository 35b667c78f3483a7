"""Record builders shared by the store tests (a plain module: conftest is not importable)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hexarena.store import MoveRecord, PlayerRecord

T0 = datetime(2026, 1, 2, 3, 4, 5, 678901, tzinfo=UTC)


def players(a: str = "alice", b: str = "bob") -> list[PlayerRecord]:
    return [PlayerRecord(a, "bws", f"ws://{a}.example:8080/"), PlayerRecord(b, "builtin", "random")]


def move(ply: int, text: str | None = None, **extra: object) -> MoveRecord:
    return MoveRecord(
        ply=ply,
        seat=ply % 2,
        move=text if text is not None else f"m{ply}",
        timestamp=T0 + timedelta(seconds=ply),
        think_time=0.25 * ply,
        **extra,
    )
