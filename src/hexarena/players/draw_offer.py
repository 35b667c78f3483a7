"""Draw offers between the two seats of one match (the web UI's "Offer draw", as on lichess).

Why a table of its own: a seat socket only reaches its own player, while an offer is made on one seat and answered
on the other. Each person's seat (``BrowserPlayer``) sits down at its match's table when the match starts; the
table holds the standing offer (one at a time: whose) and reaches the other seat to tell it. A seat with nobody
at the table opposite is a bot, which declines every offer (bots play on). Tables live as long as their seats
hold them (weak values by match id), so a finished match leaves nothing behind.
"""

from __future__ import annotations

import weakref
from typing import Any, Protocol

from hexarena.core.types import Seat, other


class DrawSeat(Protocol):
    """What the table needs of a seat: a way to tell its person about the offer."""

    async def draw_news(self, message: dict[str, Any]) -> None: ...


class DrawTable:
    """The people's seats of one match and the draw offer standing between them (``offer``: the seat that made
    it, or None)."""

    def __init__(self) -> None:
        self.seats: dict[Seat, DrawSeat] = {}
        self.offer: Seat | None = None

    def sit(self, seat: Seat, player: DrawSeat) -> None:
        self.seats[seat] = player

    def opposite(self, seat: Seat) -> DrawSeat | None:
        """The person in the other seat, or None when a bot plays it."""
        return self.seats.get(other(seat))


_TABLES: weakref.WeakValueDictionary[str, DrawTable] = weakref.WeakValueDictionary()


def table_for(match_id: str) -> DrawTable:
    """The match's table (made by the first seat that sits down)."""
    table = _TABLES.get(match_id)
    if table is None:
        table = _TABLES[match_id] = DrawTable()
    return table


__all__ = ["DrawSeat", "DrawTable", "table_for"]
