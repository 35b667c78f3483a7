"""The battlebot wire shapes of noughts and crosses (docs/protocols/battlebot.md; dprgarner/battlebot-server, 2017).

State: ``{"players", "complete", "board" (3x3 of ""/"X"/"O"), "nextPlayer", "marks": {"X", "O"}}`` plus
``victor`` (a bot id or None) and ``reason`` once complete (the common keys are ``hexarena.wire.battlebot``'s).
Turn: ``{"mark": "X", "space": [row, col]}``. Like the original reducer, ``nextPlayer`` keeps alternating after
the last move (the example final state of the original names the loser as ``nextPlayer``); bots must look at
``complete`` first.
"""

from __future__ import annotations

from typing import Any

from hexarena.core.battlebot import BattlebotShape
from hexarena.core.errors import IllegalMove, InvalidMove
from hexarena.core.types import Seat
from hexarena.games.tictactoe.game import Move, TicTacToeGame, TicTacToeState


def battlebot_turn(turn: Any, seat: Seat) -> Move:
    """Read a turn ``{"mark": "X"|"O", "space": [row, col]}`` sent by ``seat``.

    InvalidMove for a wrong shape or type (not an object, missing keys, non-integer coordinates);
    IllegalMove for a well-formed turn that is not allowed (the other player's mark, a space off the board).
    Occupied cells are left to ``GAME.play``, which knows the position.
    """
    if not isinstance(turn, dict):
        raise InvalidMove(f"turn {turn!r}: expected an object like {{'mark': 'X', 'space': [row, col]}}")
    if "mark" not in turn or "space" not in turn:
        raise InvalidMove(f"turn {turn!r}: needs both 'mark' and 'space'")
    mark, space = turn["mark"], turn["space"]
    if mark not in ("X", "O") or not isinstance(mark, str):
        raise InvalidMove(f"turn {turn!r}: mark must be 'X' or 'O', got {mark!r}")
    if not isinstance(space, list | tuple) or len(space) != 2:
        raise InvalidMove(f"turn {turn!r}: space must be [row, col], got {space!r}")
    coords: list[int] = []
    for x in space:
        if isinstance(x, float) and x.is_integer():
            x = int(x)
        if type(x) is not int:
            raise InvalidMove(f"turn {turn!r}: space coordinates must be integers 0..2, got {space!r}")
        coords.append(x)
    own = "X" if seat == 0 else "O"
    if mark != own:
        raise IllegalMove(f"turn {turn!r}: you play {own!r}, not {mark!r}")
    r, c = coords
    if not (0 <= r < 3 and 0 <= c < 3):
        raise IllegalMove(f"turn {turn!r}: space {space!r} is off the 3x3 board")
    return r, c


def battlebot_turn_of(move: Move, seat: Seat) -> dict[str, Any]:
    """The turn a battlebot client would send for ``move`` (used by reference clients and tests)."""
    return {"mark": "X" if seat == 0 else "O", "space": [move[0], move[1]]}


def shape(game: TicTacToeGame) -> BattlebotShape[TicTacToeState, Move]:
    """Noughts and crosses on the battlebot wire: the original server's game, under its own id."""
    return BattlebotShape(
        "noughtsandcrosses",
        extra=lambda s, p: {"board": game.rows(s), "marks": {"X": p[0], "O": p[1]}},
        read=lambda t, seat, s: battlebot_turn(t, seat),
        write=lambda m, seat, s: battlebot_turn_of(m, seat),
        alternating=True,
    )
