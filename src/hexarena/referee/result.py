"""What a match leaves behind: every move with its timing and analysis, and the outcome with its reason."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Generic, TypedDict

from hexarena.core.contract import S
from hexarena.core.game import ParamValue
from hexarena.core.jsonvalue import JsonObject, JsonValue
from hexarena.core.types import Outcome, Seat


@dataclass(frozen=True, slots=True)
class PlayedMove:
    """One move as the referee accepted it."""

    ply: int  # 0 for the first move
    seat: Seat
    move: str  # the game's notation
    timestamp: float  # seconds since the epoch when the move arrived
    think_time: float  # seconds between the request and the reply
    evaluation: JsonObject | None = None
    considerations: list[JsonValue] | None = None

    def to_json(self) -> PlayedMoveJson:
        """The move as plain data, as every record of a played move holds it (a tournament game's result, the
        move event another instance reads): one shape, built in one place. What the bot said about its move
        (``evaluation``, ``considerations``) goes with it wherever the move goes."""
        return {
            "ply": self.ply,
            "seat": self.seat,
            "move": self.move,
            "timestamp": self.timestamp,
            "think_time": self.think_time,
            "evaluation": self.evaluation,
            "considerations": self.considerations,
        }


class PlayedMoveJson(TypedDict):
    """One move of a played game as plain data (:meth:`PlayedMove.to_json`): it crosses processes."""

    ply: int
    seat: Seat
    move: str
    timestamp: float
    think_time: float
    evaluation: JsonObject | None
    considerations: list[JsonValue] | None


@dataclass(slots=True)
class MatchResult(Generic[S]):
    """The full record of a finished match of a game whose positions are ``S``."""

    match_id: str
    game: str
    params: dict[str, ParamValue]
    players: list[JsonObject]
    outcome: Outcome
    moves: list[PlayedMove]
    final_state: S | None  # None once released (``Referee.release``)
    started: float
    finished: float
    culprit: Seat | None = None
    clocks: list[float | None] = field(default_factory=list)

    @property
    def winner(self) -> Seat | None:
        return self.outcome.winner
