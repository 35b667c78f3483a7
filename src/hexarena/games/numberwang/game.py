"""Numberwang: the battlebot server's protocol smoke-test "game", registered as ``numberwang``.

Each turn adds an integer to a running total ``n`` (starting at 0). ``n >= 10`` wins for seat 0 (the first
player), ``n <= -10`` for seat 1. The original server accepted any number; hexarena bounds one turn to an
integer in ``-10..10`` (``MIN_STEP..MAX_STEP``) so that the move set is finite and listable, and ends every
game: after ``ply_limit`` turns (default 100) without a decision the game is a draw
(``Termination.TURN_LIMIT``). Notation: the decimal integer, e.g. ``7``, ``-3``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from hexarena.core.battlebot import BattlebotShape
from hexarena.core.errors import IllegalMove, InvalidMove
from hexarena.core.game import Game, Param, ParamValue, RuleGame, state_view
from hexarena.core.jsonvalue import JsonObject
from hexarena.core.types import Outcome, Seat, Termination

MIN_STEP, MAX_STEP = -10, 10
TARGET = 10
_MOVES = tuple(range(MIN_STEP, MAX_STEP + 1))


@dataclass(frozen=True, slots=True)
class NumberwangState:
    n: int = 0
    ply: int = 0
    ply_limit: int = 100


class NumberwangGame(RuleGame[NumberwangState, int]):
    """The rules; stateless, one shared instance."""

    setup_refused: ClassVar[str] = (
        "a numberwang position is a running total, not stones on a board; reach the total by playing its moves"
    )

    name: ClassVar[str] = "numberwang"
    title: ClassVar[str] = "Numberwang"
    seat_names: ClassVar[tuple[str, str]] = ("first", "second")
    default_clock: ClassVar[tuple[str, float, float]] = ("match", 60.0, 0.0)  # the lobby's preset for the game
    board_module: ClassVar[str | None] = "hexarena:web/js/boards/numberwang.js"  # the web UI's board
    params: ClassVar[tuple[Param, ...]] = (
        Param(
            "ply_limit",
            int,
            100,
            "the game is a draw after this many moves if nobody has won",
            1,
            100000,
            label="Move limit",
        ),
    )

    def new(self, **params: object) -> NumberwangState:
        p = self.validate_params(params)
        return NumberwangState(0, 0, p["ply_limit"])

    def params_of(self, state: NumberwangState) -> dict[str, ParamValue]:
        return {"ply_limit": state.ply_limit}

    def outcome(self, state: NumberwangState) -> Outcome | None:
        if state.n >= TARGET:
            return Outcome(0, Termination.NORMAL, f"n reached {state.n} (>= {TARGET})")
        if state.n <= -TARGET:
            return Outcome(1, Termination.NORMAL, f"n reached {state.n} (<= {-TARGET})")
        if state.ply >= state.ply_limit:
            return Outcome(None, Termination.TURN_LIMIT, f"no decision after {state.ply_limit} turns")
        return None

    def _over(self, state: NumberwangState) -> bool:
        return abs(state.n) >= TARGET or state.ply >= state.ply_limit

    def to_move(self, state: NumberwangState) -> Seat | None:
        return None if self._over(state) else state.ply % 2

    def ply(self, state: NumberwangState) -> int:
        return state.ply

    def legal(self, state: NumberwangState) -> list[int]:
        return [] if self._over(state) else list(_MOVES)

    def random_move(self, state: NumberwangState, rng: random.Random) -> int:
        if self._over(state):
            raise ValueError("no legal move in this position")
        return rng.randint(MIN_STEP, MAX_STEP)

    def play(self, state: NumberwangState, move: int) -> NumberwangState:
        if type(move) is not int:
            raise InvalidMove(f"move {move!r}: a numberwang move is an integer")
        if self._over(state):
            raise IllegalMove(f"move {move!r}: the game is over")
        if not MIN_STEP <= move <= MAX_STEP:
            raise IllegalMove(f"move {move!r} is out of range: a turn adds an integer in {MIN_STEP}..{MAX_STEP}")
        return NumberwangState(state.n + move, state.ply + 1, state.ply_limit)

    def parse(self, text: str) -> int:
        if not isinstance(text, str):
            raise InvalidMove(f"move {text!r}: expected an integer such as '7' or '-3'")
        t = text.strip()
        body = t[1:] if t[:1] in ("-", "+") else t
        if not body or not body.isascii() or not body.isdigit() or len(body) > 12:
            raise InvalidMove(f"cannot read numberwang move {text!r}: expected an integer such as '7' or '-3'")
        return int(t)

    def format(self, move: int) -> str:
        return str(move)

    def render(self, state: NumberwangState) -> str:
        """The running total and what it takes to win, for a terminal."""
        first, second = self.seat_names
        return (
            f"n = {state.n} after {state.ply} turns ({first} wins at n >= {TARGET}, {second} at n <= {-TARGET}; "
            f"a draw after {state.ply_limit} turns)"
        )

    def to_json(self, state: NumberwangState) -> JsonObject:
        return state_view(self, state, n=state.n, ply=state.ply, plyLimit=state.ply_limit)

    def battlebot_shape(self) -> BattlebotShape[NumberwangState, int]:
        from hexarena.games.numberwang.battlebot import shape

        return shape()

    def legal_view(self, state: NumberwangState) -> JsonObject:
        """``kind: number``: any integer from ``min`` to ``max``."""
        if self.to_move(state) is None:
            return {"kind": "none", "moves": []}
        return {"kind": "number", "min": MIN_STEP, "max": MAX_STEP}


GAME = NumberwangGame()

if TYPE_CHECKING:  # mypy checks the engine against the Game protocol here
    _CHECKED: Game[NumberwangState, int] = GAME
