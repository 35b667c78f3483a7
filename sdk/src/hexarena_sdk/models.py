"""Hivemaker's data types (``models.py``), field for field, so a Hivemaker bot runs by changing imports only.

They are pydantic models like Hivemaker's (bots may call ``model_dump``, ``to_wire``, ``from_wire``, put
``Coord``/``Cell`` in sets). The wire itself is handled with the msgspec structs of ``hexarena_sdk.wire.htttx``;
these models are only the face the bot author sees.
"""

from __future__ import annotations

from enum import Enum
from typing import Any

from pydantic import BaseModel


class Player(str, Enum):  # noqa: UP042  (as Hivemaker: str() differs on StrEnum)
    """A side: X moves first (its first stone is at the origin), O answers."""

    X = "x"
    O = "o"  # noqa: E741  (Hivemaker's name)

    @property
    def other(self) -> Player:
        return Player.O if self is Player.X else Player.X


class Coord(BaseModel):
    """Axial coordinate: +q right, +r top-right. Hashes and compares by (q, r) like Hivemaker's."""

    q: int
    r: int

    def __hash__(self) -> int:
        return hash((self.q, self.r))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Coord | Cell):
            return self.q == other.q and self.r == other.r
        return NotImplemented

    def to_wire(self) -> dict[str, int]:
        return {"q": self.q, "r": self.r}

    @classmethod
    def from_wire(cls, d: dict[str, Any]) -> Coord:
        return cls(q=d["q"], r=d["r"])


#: Attribute assignments and deletions on any ``Cell`` so far (see ``cell_mutations``).
_CELL_MUTATIONS = [0]


def cell_mutations() -> int:
    """How many times any ``Cell``'s attributes were assigned or deleted: the SDK hands a bot the same cell
    models move after move and rebuilds them only when this moved during the bot's call (an O(1) check)."""
    return _CELL_MUTATIONS[0]


class Cell(BaseModel):
    """An occupied cell. Hashes by (q, r) like Hivemaker's (equality compares all fields)."""

    q: int
    r: int
    p: Player

    def __hash__(self) -> int:
        return hash((self.q, self.r))

    def __setattr__(self, name: str, value: Any) -> None:
        _CELL_MUTATIONS[0] += 1
        super().__setattr__(name, value)

    def __delattr__(self, name: str) -> None:
        _CELL_MUTATIONS[0] += 1
        super().__delattr__(name)

    def to_wire(self) -> dict[str, Any]:
        return {"q": self.q, "r": self.r, "p": self.p.value}

    @classmethod
    def from_wire(cls, d: dict[str, Any]) -> Cell:
        return cls(q=d["q"], r=d["r"], p=Player(d["p"]))


class Match(BaseModel):
    """Match parameters visible to ``choose_move``.

    Hivemaker's fields plus hexarena's: ``increment`` (Fischer clocks), and per request ``move_time_limit``
    (seconds, as the server sent it) and ``deadline`` (a ``time.monotonic()`` instant by which the SDK must
    have answered; ``None`` when unlimited). The bws wire does not carry view/win distance: the defaults match
    the spec, and a ``config`` packet with ``x-view_distance`` / ``x-win_distance`` updates them.
    """

    heartbeat: int = 5000
    view_distance: int = 8
    win_distance: int = 6
    turn_limit: int | None = None
    clock_type: str = "none"
    clock: float | None = None
    increment: float | None = None
    move_time_limit: float | None = None
    deadline: float | None = None


class GameStatus(str, Enum):  # noqa: UP042
    IN_PROGRESS = "in_progress"
    X_WINS = "x_wins"
    O_WINS = "o_wins"
    DRAW = "draw"
    FORFEIT = "forfeit"
