"""What a match leaves behind: every move with its timing and analysis, and the outcome with its reason."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hexarena.core.types import Outcome, Seat


@dataclass(frozen=True, slots=True)
class PlayedMove:
    """One move as the referee accepted it."""

    ply: int  # 0 for the first move
    seat: Seat
    move: str  # the game's notation
    timestamp: float  # seconds since the epoch when the move arrived
    think_time: float  # seconds between the request and the reply
    evaluation: dict[str, Any] | None = None
    considerations: list[Any] | None = None


@dataclass(slots=True)
class MatchResult:
    """The full record of a finished match."""

    match_id: str
    game: str
    params: dict[str, Any]
    players: list[dict[str, Any]]
    outcome: Outcome
    moves: list[PlayedMove]
    final_state: Any
    started: float
    finished: float
    culprit: Seat | None = None
    clocks: list[float | None] = field(default_factory=list)

    @property
    def winner(self) -> Seat | None:
        return self.outcome.winner
