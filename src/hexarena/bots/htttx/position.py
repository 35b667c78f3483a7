"""What an HTTTX bot reads of a position: its ``board()`` and the seat to move.

Why a protocol and not ``HtttxState``: the SDK's bot server also hands bots positions that the game's
constructor refuses (free setups normal play cannot reach) as a stand-in with just these two
(``bots.sdk.adapter``), and a bot needs nothing else.
"""

from __future__ import annotations

from typing import Protocol

from hexarena.games.htttx.board import Board


class Position(Protocol):
    """An HTTTX position as the bots see it (``HtttxState`` is one)."""

    @property
    def to_move_seat(self) -> int | None: ...

    def board(self) -> Board: ...


def seat_to_move(position: Position) -> int:
    """The seat to move; a bot asked to move in a finished game is its host's bug, said plainly."""
    seat = position.to_move_seat
    if seat is None:
        raise ValueError("the game is over: nobody is to move")
    return seat
