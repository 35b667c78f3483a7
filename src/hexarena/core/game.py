"""The Game protocol every rules engine implements.

A ``Game`` object is stateless; states are immutable values the referee may keep, share and replay. Moves are
game-specific values with a text notation (``parse`` / ``format``) used for storage, replays and several wires.
Engines also offer a fast mutable core for bots; this protocol is the safe, immutable face used by the referee.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Protocol, TypeVar, runtime_checkable

from hexarena.core.errors import ConfigError
from hexarena.core.types import Outcome, Seat

S = TypeVar("S")
M = TypeVar("M")


@dataclass(frozen=True, slots=True)
class Param:
    """One game parameter, described so the CLI, the API and the lobby UI can offer and validate it."""

    name: str
    kind: type  # int, bool, str or float
    default: Any
    help: str
    minimum: int | float | None = None
    maximum: int | float | None = None
    choices: Sequence[Any] | None = None
    nullable: bool = False

    def coerce(self, value: Any) -> Any:
        """Validate ``value`` (possibly a string from a CLI or a form) and return it in the right type."""
        if value is None or (isinstance(value, str) and value.strip().lower() in ("", "none", "null")):
            if self.nullable:
                return None
            if value is None:
                raise ConfigError(f"parameter {self.name!r} may not be null")
        if self.kind is bool:
            if isinstance(value, bool):
                out: Any = value
            elif isinstance(value, str) and value.lower() in ("1", "true", "yes", "on"):
                out = True
            elif isinstance(value, str) and value.lower() in ("0", "false", "no", "off"):
                out = False
            else:
                raise ConfigError(f"parameter {self.name!r} must be true or false, got {value!r}")
        elif self.kind is int:
            if isinstance(value, bool) or not isinstance(value, int | str):
                raise ConfigError(f"parameter {self.name!r} must be an integer, got {value!r}")
            try:
                out = int(value)
            except ValueError:
                raise ConfigError(f"parameter {self.name!r} must be an integer, got {value!r}") from None
        elif self.kind is float:
            if isinstance(value, bool) or not isinstance(value, int | float | str):
                raise ConfigError(f"parameter {self.name!r} must be a number, got {value!r}")
            try:
                out = float(value)
            except ValueError:
                raise ConfigError(f"parameter {self.name!r} must be a number, got {value!r}") from None
            if not math.isfinite(out):  # NaN passes every range check, and JSON cannot carry it
                raise ConfigError(f"parameter {self.name!r} must be a finite number, got {value!r}")
        else:
            if not isinstance(value, str):
                raise ConfigError(f"parameter {self.name!r} must be a string, got {value!r}")
            out = value
        if self.choices is not None and out not in self.choices:
            raise ConfigError(f"parameter {self.name!r} must be one of {list(self.choices)}, got {out!r}")
        if self.minimum is not None and out < self.minimum:
            raise ConfigError(f"parameter {self.name!r} must be >= {self.minimum}, got {out!r}")
        if self.maximum is not None and out > self.maximum:
            raise ConfigError(f"parameter {self.name!r} must be <= {self.maximum}, got {out!r}")
        return out

    def describe(self) -> dict[str, Any]:
        """JSON description for the API and the lobby UI."""
        return {
            "name": self.name,
            "type": self.kind.__name__,
            "default": self.default,
            "help": self.help,
            "minimum": self.minimum,
            "maximum": self.maximum,
            "choices": list(self.choices) if self.choices is not None else None,
            "nullable": self.nullable,
        }


@runtime_checkable
class Game(Protocol[S, M]):
    """What the referee, the protocol adapters and the conformance suite need from a game."""

    name: ClassVar[str]  # registry key: "htttx", "hex", "hexdots", "hive", "tictactoe", "numberwang"
    title: ClassVar[str]  # human-readable name
    seat_names: ClassVar[tuple[str, str]]  # names of seat 0 and seat 1 in the initial position
    params: ClassVar[tuple[Param, ...]]

    def new(self, **params: Any) -> S:
        """The initial state; unknown or invalid params raise ConfigError."""
        ...

    def to_move(self, state: S) -> Seat | None:
        """The seat whose move it is, or None when the game is over."""
        ...

    def legal(self, state: S) -> Iterable[M]:
        """Every legal move (may be lazy for games with very many moves)."""
        ...

    def play(self, state: S, move: M) -> S:
        """The state after ``move``; raises IllegalMove(reason). Never mutates ``state``."""
        ...

    def outcome(self, state: S) -> Outcome | None:
        """The result when the game is over by its rules, else None."""
        ...

    def parse(self, text: str) -> M:
        """Read a move in the game's notation; raises InvalidMove."""
        ...

    def format(self, move: M) -> str:
        """Write a move in the game's notation; ``parse(format(m)) == m``."""
        ...

    def random_move(self, state: S, rng: random.Random) -> M:
        """A uniformly random legal move (fast path for playouts)."""
        ...

    def params_of(self, state: S) -> dict[str, Any]:
        """The validated parameters the state was created with (stored with every game)."""
        ...

    def to_json(self, state: S) -> dict[str, Any]:
        """A JSON view of the position for the UI and spectators."""
        ...

    def ply(self, state: S) -> int:
        """Moves played since the start (the referee's move counter)."""
        ...

    def side_name(self, state: S, seat: Seat) -> str:
        """What ``seat`` plays as in ``state``, for people ("white" for seat 0 after a Hex swap)."""
        ...

    def validate_params(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """``given`` with defaults filled in and values coerced; ConfigError for an unknown or invalid one (the
        CLI, the API and tournaments check a match's parameters before they start it)."""
        ...

    def describe(self) -> dict[str, Any]:
        """JSON metadata (name, title, seats, parameters) for the API and the UI's lobby."""
        ...


class RuleGame(Generic[S, M]):
    """Convenience base: parameter validation and a default random_move. Games may override anything."""

    name: ClassVar[str]
    title: ClassVar[str]
    seat_names: ClassVar[tuple[str, str]]
    params: ClassVar[tuple[Param, ...]] = ()
    #: Other names the registry accepts for the game (e.g. the wire ids of other systems).
    aliases: ClassVar[tuple[str, ...]] = ()
    #: Plies after which the referee calls a draw unless a match sets its own cap: only for games whose rules
    #: allow endless play (Hive has no repetition rule); None means the rules always end the game.
    max_plies: ClassVar[int | None] = None

    def validate_params(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """Fill defaults, coerce types and reject unknown names with a message listing the known ones."""
        known = {p.name: p for p in self.params}
        unknown = sorted(set(given) - set(known))
        if unknown:
            raise ConfigError(f"unknown parameter(s) {unknown} for {self.name}; known: {sorted(known) or 'none'}")
        out: dict[str, Any] = {}
        for p in self.params:
            out[p.name] = p.coerce(given[p.name]) if p.name in given else p.default
        return out

    def legal(self, state: S) -> Iterable[M]:
        raise NotImplementedError

    def random_move(self, state: S, rng: random.Random) -> M:
        moves = list(self.legal(state))
        if not moves:
            raise ValueError("no legal move in this position")
        return rng.choice(moves)

    def side_name(self, state: S, seat: Seat) -> str:
        """The seat's name: in most games a seat plays the same side all game. Games whose seats change sides
        (Hex's swap) override this, so pages and messages name the side a person really plays."""
        return self.seat_names[seat]

    def describe(self) -> dict[str, Any]:
        """JSON metadata for the API and the UI."""
        return {
            "name": self.name,
            "title": self.title,
            "seats": list(self.seat_names),
            "params": [p.describe() for p in self.params],
        }
