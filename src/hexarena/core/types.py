"""Seats, outcomes and termination reasons.

Seats are plain ints: 0 is the seat a game names first in its ``seat_names``, 1 the other. Seat 0 usually
moves first, but need not: in HTTTX X's origin stone is placed automatically, so O (seat 1) makes the first
move; ask ``Game.to_move`` rather than assume. Colours (X/O, Black/White) belong to each game, which keeps seat
and colour apart so that rules like Hex's swap are just moves.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

Seat = int


def other(seat: Seat) -> Seat:
    """The opponent's seat."""
    return 1 - seat


class Termination(StrEnum):
    """Why a match ended. Stored with every result; stable strings."""

    NORMAL = "normal"  # the rules decided: a win or a draw on the board
    TURN_LIMIT = "turn_limit"  # the configured number of turns was reached: a draw
    TIME = "time"  # a player ran out of time
    ILLEGAL_MOVE = "illegal_move"  # a player sent a move the rules reject
    PROTOCOL = "protocol"  # a player broke its wire protocol (garbage, wrong packet...)
    DISCONNECT = "disconnect"  # a player went away
    RESIGN = "resign"  # a player resigned
    AGREEMENT = "agreement"  # both players agreed to a draw (one offered, the other accepted)
    ABORTED = "aborted"  # the match never really started (unreachable bot, setup failure); no result
    INTERRUPTED = "interrupted"  # the server stopped mid-game (shutdown, crash); moves kept, no result
    ERROR = "error"  # hexarena itself failed; no result

    @property
    def is_result(self) -> bool:
        """Whether a game ended this way says who played better: a win, a draw or a forfeit.

        Aborted, interrupted and errored games are not results: no winner, no points, no Elo, no SPRT. This is
        the one place that decides it; standings, ratings, leaderboards and the store all ask here.
        """
        return self not in NO_RESULT


#: Terminations that are not a result (see :attr:`Termination.is_result`).
NO_RESULT = frozenset({Termination.ABORTED, Termination.INTERRUPTED, Termination.ERROR})


def is_result(termination: str | None) -> bool:
    """:attr:`Termination.is_result` for a stored string; unknown or missing terminations are not results."""
    try:
        return Termination(termination or "").is_result
    except ValueError:
        return False


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a game: the winning seat (``None`` for a draw), how it ended and a readable reason."""

    winner: Seat | None
    termination: Termination = Termination.NORMAL
    reason: str = ""

    @property
    def is_draw(self) -> bool:
        return self.winner is None

    def score(self, seat: Seat) -> float:
        """1 for a win, 0.5 for a draw, 0 for a loss, from ``seat``'s point of view."""
        if self.winner is None:
            return 0.5
        return 1.0 if self.winner == seat else 0.0
