"""How a game looks on the battlebot wire (docs/protocols/battlebot.md), as each game's package describes it.

A game that is offered over the battlebot protocol returns a ``BattlebotShape`` from ``Game.battlebot_shape``:
its wire id and its game-specific state keys and turn shapes. The protocol's common part (``players``,
``nextPlayer``, ``complete``, ``victor``, ``reason``, the ``{"move": notation}`` turn every game accepts) is the
wire layer's (``hexarena.wire.battlebot``), so a new game brings only what is its own. The helpers below read
the pieces of a turn the same way for every game.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from hexarena.core.errors import InvalidMove
from hexarena.core.jsonvalue import JsonObject
from hexarena.core.types import Seat

S = TypeVar("S")
M = TypeVar("M")

#: The two bot ids of a battlebot game, seat 0 first.
Players = tuple[str, str]


@dataclass(frozen=True, slots=True)
class BattlebotShape(Generic[S, M]):
    """One game's part of the battlebot wire."""

    wire_id: str  # the game type id on the wire (``noughtsandcrosses`` for tictactoe)
    extra: Callable[[S, Players], JsonObject]  # game-specific state keys
    read: Callable[[JsonObject, Seat, S], M]  # turn -> move (shape only; legality is game.play's)
    write: Callable[[M, Seat, S], JsonObject]  # move, seat, state before -> turn
    alternating: bool = False  # nextPlayer = players[ply % 2] (the original server's games)


def short(value: object) -> str:
    """``repr(value)`` cut to 120 characters, for error messages that quote what a bot sent."""
    text = repr(value)
    return text if len(text) <= 120 else text[:117] + "..."


def _int(x: object) -> int | None:
    if isinstance(x, float) and x.is_integer():
        return int(x)
    return x if type(x) is int else None


def pair(value: Any, what: str, turn: Any) -> tuple[int, int]:
    """Two integers from ``[a, b]``, ``{"q", "r"}`` or ``{"row", "col"}`` (JSON numbers like ``2.0`` too)."""
    if isinstance(value, dict):
        value = [value.get("q", value.get("row")), value.get("r", value.get("col"))]
    if isinstance(value, list | tuple) and len(value) == 2:
        a, b = _int(value[0]), _int(value[1])
        if a is not None and b is not None:
            return (a, b)
    raise InvalidMove(f"turn {short(turn)}: {what} must be a pair of integers, got {short(value)}")
