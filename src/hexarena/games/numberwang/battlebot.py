"""The battlebot wire shapes of numberwang (docs/protocols/battlebot.md).

State: ``{"players", "complete", "board": {"n": int}, "nextPlayer"}`` plus ``victor``/``reason`` when
complete. Turn: ``{"n": int}``; integral floats (``3.0``, as some JSON encoders write) are read as ints,
anything else is InvalidMove, and a value outside ``MIN_STEP..MAX_STEP`` is IllegalMove.
"""

from __future__ import annotations

from typing import Any

from hexarena.core.battlebot import BattlebotShape
from hexarena.core.errors import IllegalMove, InvalidMove
from hexarena.core.types import Outcome, Seat
from hexarena.games.numberwang.game import GAME, MAX_STEP, MIN_STEP, NumberwangState
from hexarena.games.tictactoe.battlebot import reason_of


def battlebot_state(state: NumberwangState, players: tuple[str, str], outcome: Outcome | None = None) -> dict[str, Any]:
    """The battlebot state dict. ``outcome`` overrides the rules' result (e.g. a timeout decided by the referee)."""
    result = outcome if outcome is not None else GAME.outcome(state)
    out: dict[str, Any] = {
        "players": [players[0], players[1]],
        "complete": result is not None,
        "board": {"n": state.n},
        "nextPlayer": players[state.ply % 2],
    }
    if result is not None:
        out["victor"] = None if result.winner is None else players[result.winner]
        out["reason"] = reason_of(result)
    return out


def battlebot_turn(turn: Any, seat: Seat) -> int:
    """Read a turn ``{"n": int}`` (``seat`` is unused: both players send the same shape)."""
    if not isinstance(turn, dict) or "n" not in turn:
        raise InvalidMove(f"turn {turn!r}: expected an object like {{'n': 3}}")
    n = turn["n"]
    if isinstance(n, float) and n.is_integer():
        n = int(n)
    if type(n) is not int:
        raise InvalidMove(f"turn {turn!r}: n must be an integer, got {n!r}")
    if not MIN_STEP <= n <= MAX_STEP:
        raise IllegalMove(f"turn {turn!r}: n must be in {MIN_STEP}..{MAX_STEP}, got {n}")
    return n


def battlebot_turn_of(move: int, seat: Seat) -> dict[str, Any]:
    """The turn a battlebot client would send for ``move``."""
    return {"n": move}


def shape() -> BattlebotShape[NumberwangState, int]:
    """Numberwang on the battlebot wire: the original server's smoke-test game, ``board: {n}``."""
    return BattlebotShape(
        "numberwang",
        extra=lambda s, p: {"board": {"n": s.n}},
        read=lambda t, seat, s: battlebot_turn(t, seat),
        write=lambda m, seat, s: battlebot_turn_of(m, seat),
        alternating=True,
    )
