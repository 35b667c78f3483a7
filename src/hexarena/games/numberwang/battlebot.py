"""The battlebot wire shapes of numberwang (docs/protocols/battlebot.md).

State: ``{"players", "complete", "board": {"n": int}, "nextPlayer"}`` plus ``victor``/``reason`` when
complete. Turn: ``{"n": int}``; integral floats (``3.0``, as some JSON encoders write) are read as ints,
anything else is InvalidMove, and a value outside ``MIN_STEP..MAX_STEP`` is IllegalMove.
"""

from __future__ import annotations

from typing import Any

from hexarena.core.battlebot import BattlebotShape
from hexarena.core.errors import IllegalMove, InvalidMove
from hexarena.core.types import Seat
from hexarena.games.numberwang.game import MAX_STEP, MIN_STEP, NumberwangState


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
