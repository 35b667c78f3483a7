"""Nim: players take turns removing stones from one heap; whoever takes the last stone wins.

A move is ``HEAP:COUNT`` (heaps numbered from 1), e.g. ``2:3`` takes three stones from the second heap.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from hexarena.core import (
    ClockPreset,
    ConfigError,
    Game,
    IllegalMove,
    InvalidMove,
    Outcome,
    Param,
    RuleGame,
    Termination,
    state_view,
)

Move = tuple[int, int]  # (heap index from 0, stones taken)


@dataclass(frozen=True, slots=True)
class NimState:
    heaps: tuple[int, ...]
    start: str  # the ``heaps`` parameter, kept for params_of
    ply: int = 0


class NimGame(RuleGame[NimState, Move]):
    name: ClassVar[str] = "nim"
    title: ClassVar[str] = "Nim"
    seat_names: ClassVar[tuple[str, str]] = ("first", "second")
    params: ClassVar[tuple[Param, ...]] = (
        Param("heaps", str, "3,4,5", "stones in each heap, comma-separated: more stones, a longer game", label="Heaps"),
    )
    # A short game: the lobby offers quick clocks, half a minute each by default. No ``board_module``: the web UI
    # shows the generic board (the heaps as a table, the legal moves as buttons).
    clock_presets: ClassVar[tuple[ClockPreset, ...]] = (
        ClockPreset("30 s", "match", 30),
        ClockPreset("1+1", "incremental", 60, 1),
        ClockPreset("10 s a move", "turn", 10),
        ClockPreset("No clock", "none"),
    )
    default_clock: ClassVar[tuple[str, float, float]] = ("match", 30.0, 0.0)

    def new(self, **params: Any) -> NimState:
        start = self.validate_params(params)["heaps"]
        try:
            heaps = tuple(int(h) for h in start.split(","))
        except ValueError:
            raise ConfigError(f"heaps must be integers separated by commas, got {start!r}") from None
        if not 1 <= len(heaps) <= 10 or not all(1 <= h <= 99 for h in heaps):
            raise ConfigError(f"heaps: 1 to 10 heaps of 1 to 99 stones, got {start!r}")
        return NimState(heaps, start)

    def params_of(self, state: NimState) -> dict[str, Any]:
        return {"heaps": state.start}

    def to_move(self, state: NimState) -> int | None:
        return None if not any(state.heaps) else state.ply % 2

    def legal(self, state: NimState) -> list[Move]:
        return [(i, n) for i, h in enumerate(state.heaps) for n in range(1, h + 1)]

    def play(self, state: NimState, move: Move) -> NimState:
        heap, count = move
        if not any(state.heaps):
            raise IllegalMove(f"{self.format(move)}: the game is over")
        if not 0 <= heap < len(state.heaps) or not 1 <= count <= state.heaps[heap]:
            raise IllegalMove(f"{self.format(move)}: heap {heap + 1} does not have {count} stone(s) to take")
        heaps = (*state.heaps[:heap], state.heaps[heap] - count, *state.heaps[heap + 1 :])
        return NimState(heaps, state.start, state.ply + 1)

    def outcome(self, state: NimState) -> Outcome | None:
        if any(state.heaps):
            return None
        winner = (state.ply - 1) % 2  # whoever made the last move took the last stone
        return Outcome(winner, Termination.NORMAL, f"{self.seat_names[winner]} took the last stone")

    def parse(self, text: str) -> Move:
        heap, sep, count = text.strip().partition(":")
        if not (sep and heap.isascii() and heap.isdigit() and count.isascii() and count.isdigit()):
            raise InvalidMove(f"cannot read nim move {text!r}: expected HEAP:COUNT such as '2:3'")
        if len(heap) > 3 or len(count) > 3:
            raise InvalidMove(f"nim move {text!r} is out of range")
        return int(heap) - 1, int(count)

    def format(self, move: Move) -> str:
        return f"{move[0] + 1}:{move[1]}"

    def to_json(self, state: NimState) -> dict[str, Any]:
        """Every game's view starts with ``to_move`` (a seat) and ``sides``: ``state_view`` writes them."""
        return state_view(self, state, heaps=list(state.heaps), ply=state.ply)

    def ply(self, state: NimState) -> int:
        return state.ply

    def render(self, state: NimState) -> str:
        """The heaps, for ``hexarena play``'s terminal output."""
        return "  ".join(f"{i + 1}:{'|' * h or '-'}" for i, h in enumerate(state.heaps))


GAME: Game[NimState, Move] = NimGame()  # annotated: mypy checks NimGame against hexarena's Game protocol
