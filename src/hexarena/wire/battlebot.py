"""Battlebot state and turn shapes for every hexarena game (docs/protocols/battlebot.md).

Every ``state`` holds ``players`` (the two bot ids, seat 0 first), ``nextPlayer`` (the bot id to move),
``complete`` and, once complete, ``victor`` (a bot id or null) and ``reason``. The rest is per game:

==================  ===========================================================================================
wire id             state keys / turn a bot sends
==================  ===========================================================================================
numberwang          ``board: {n}``; turn ``{"n": int}`` (the original's shape)
noughtsandcrosses   ``board`` 3x3 of ""/"X"/"O", ``marks: {X, O}``; turn ``{"mark": "X", "space": [row, col]}``
htttx               ``board``: ``{cells: [{q, r, p: "x"|"o"}], turns, view_distance, win_distance, turn_limit}``,
                    ``marks: {x, o}`` (x's stone at (0,0) is placed for it; o moves first);
                    turn ``{"pieces": [[q, r], [q, r]]}``
hex                 ``board``: ``{size, swap, swapped, board: ["..B", ...] (rows, top first), ...}``,
                    ``colours: {black, white}`` (who plays which colour now; swapping exchanges them);
                    turn ``{"space": [row, col]}`` (0-based) or ``{"swap": true}``
hexdots             ``board``: the dots protocol's Game object (lines, hexagons, players with the bot ids);
                    turn ``{"line": [{"row": r, "col": c}, {"row": r, "col": c}]}`` (a capture moves again)
hive                ``board``: ``{game_type, board: [{q, r, stack}], hands, game_string, ...}``,
                    ``colours: {white, black}``; turn ``{"move": "<UHP MoveString>"}`` e.g. ``"wS1 -bQ"``
==================  ===========================================================================================

Every game also accepts ``{"move": "<the game's notation>"}`` (``b2`` for noughts and crosses, ``[1,0][0,1]``
for HTTTX, ``a1``/``swap`` for Hex, ``0,0-0,1`` for hexagon dots, a MoveString for Hive). For the games the
original had, ``nextPlayer`` keeps alternating after the end as the original's reducer did; for the others it
names the seat the rules would ask next, or the other seat of the last mover once the game is over.

``reason`` words: ``complete`` (the rules decided), ``timeout``, ``disconnect``, ``Didn't write unit tests``
(three invalid turns: the original server's own words), ``error`` (a server error: a draw), ``aborted``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hexarena.core.errors import ConfigError, IllegalMove, InvalidMove
from hexarena.core.registry import get_game
from hexarena.core.types import Outcome, Seat, Termination

#: The original server's reason for a bot that made three invalid turns.
STRIKES_REASON = "Didn't write unit tests"
REASONS: dict[Termination, str] = {
    Termination.NORMAL: "complete",
    Termination.TURN_LIMIT: "complete",
    Termination.TIME: "timeout",
    Termination.DISCONNECT: "disconnect",
    Termination.ILLEGAL_MOVE: STRIKES_REASON,
    Termination.PROTOCOL: STRIKES_REASON,
    Termination.ERROR: "error",
    Termination.ABORTED: "aborted",
    Termination.RESIGN: "resign",
}
MAX_NOTATION = 256  # longest ``move`` string read from a turn


def wire_reason(outcome: Outcome) -> str:
    return REASONS.get(outcome.termination, str(outcome.termination))


Players = tuple[str, str]


@dataclass(frozen=True)
class Shape:
    """How one game looks on the battlebot wire."""

    wire_id: str
    game: Any
    extra: Callable[[Any, Players], dict[str, Any]]  # game-specific state keys
    read: Callable[[dict[str, Any], Seat, Any], Any]  # turn -> move (shape only; legality is game.play's)
    write: Callable[[Any, Seat, Any], dict[str, Any]]  # move, seat, state before -> turn
    alternating: bool = False  # nextPlayer = players[ply % 2] (the original's games)

    def state(
        self, state: Any, players: Players, outcome: Outcome | None = None, last_seat: Seat | None = None
    ) -> dict[str, Any]:
        """The ``state`` object; ``outcome`` (e.g. a timeout decided by the referee) overrides the rules."""
        game = self.game
        result = outcome if outcome is not None else game.outcome(state)
        if self.alternating:
            nxt: str | None = players[game.ply(state) % 2]
        else:
            seat = game.to_move(state)
            if seat is None and last_seat is not None:
                seat = 1 - last_seat
            nxt = players[seat] if seat is not None else None
        out: dict[str, Any] = {"players": [players[0], players[1]], "complete": result is not None, "nextPlayer": nxt}
        out.update(self.extra(state, players))
        if result is not None:
            out["victor"] = None if result.winner is None else players[result.winner]
            out["reason"] = wire_reason(result)
        return out

    def parse(self, turn: Any, seat: Seat, state: Any) -> Any:
        """The move a turn names (InvalidMove for a bad shape); legality is checked by ``game.play``."""
        if not isinstance(turn, dict):
            raise InvalidMove(f"turn {_short(turn)}: a turn is a JSON object")
        if "move" in turn:
            text = turn["move"]
            if not isinstance(text, str) or len(text) > MAX_NOTATION:
                raise InvalidMove(f"turn {_short(turn)}: 'move' must be a string in the game's notation")
            return self.game.parse(text)
        return self.read(turn, seat, state)

    def turn(self, move: Any, seat: Seat, before: Any) -> dict[str, Any]:
        """The turn a bot would have sent for ``move`` (echoes moves of players of other protocols)."""
        return self.write(move, seat, before)


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 120 else text[:117] + "..."


def _int(x: Any) -> int | None:
    if isinstance(x, float) and x.is_integer():
        return int(x)
    return x if type(x) is int else None


def _pair(value: Any, what: str, turn: Any) -> tuple[int, int]:
    if isinstance(value, dict):
        value = [value.get("q", value.get("row")), value.get("r", value.get("col"))]
    if isinstance(value, list | tuple) and len(value) == 2:
        a, b = _int(value[0]), _int(value[1])
        if a is not None and b is not None:
            return (a, b)
    raise InvalidMove(f"turn {_short(turn)}: {what} must be a pair of integers, got {_short(value)}")


# ----- the original's games -----


def _numberwang() -> Shape:
    from hexarena.games.numberwang import battlebot as nw

    return Shape(
        "numberwang",
        get_game("numberwang"),
        extra=lambda s, p: {"board": {"n": s.n}},
        read=lambda t, seat, s: nw.battlebot_turn(t, seat),
        write=lambda m, seat, s: nw.battlebot_turn_of(m, seat),
        alternating=True,
    )


def _noughts() -> Shape:
    from hexarena.games.tictactoe import GAME as game
    from hexarena.games.tictactoe import battlebot as tt

    return Shape(
        "noughtsandcrosses",
        game,
        extra=lambda s, p: {"board": game.rows(s), "marks": {"X": p[0], "O": p[1]}},
        read=lambda t, seat, s: tt.battlebot_turn(t, seat),
        write=lambda m, seat, s: tt.battlebot_turn_of(m, seat),
        alternating=True,
    )


# ----- the other hexarena games -----


def _htttx() -> Shape:
    game = get_game("htttx")

    def extra(s: Any, p: Players) -> dict[str, Any]:
        board = game.to_json(s)
        for key in ("to_move", "winner"):
            board.pop(key, None)
        return {"board": board, "marks": {"x": p[0], "o": p[1]}}

    def read(t: dict[str, Any], seat: Seat, s: Any) -> Any:
        pieces = t.get("pieces")
        if not isinstance(pieces, list) or len(pieces) != 2:
            raise InvalidMove(f"turn {_short(t)}: expected {{'pieces': [[q, r], [q, r]]}}")
        return (_pair(pieces[0], "a piece", t), _pair(pieces[1], "a piece", t))

    return Shape(
        "htttx",
        game,
        extra=extra,
        read=read,
        write=lambda m, seat, s: {"pieces": [[m[0][0], m[0][1]], [m[1][0], m[1][1]]]},
    )


def _hex() -> Shape:
    from hexarena.games.hex import SWAP, HexAction

    game = get_game("hex")

    def extra(s: Any, p: Players) -> dict[str, Any]:
        board = game.to_json(s)
        for key in ("toMove", "winner"):
            board.pop(key, None)
        colours = board["colours"]
        return {"board": board, "colours": {colours[0]: p[0], colours[1]: p[1]}}

    def read(t: dict[str, Any], seat: Seat, s: Any) -> Any:
        if t.get("swap") is True:
            return SWAP
        if "space" not in t:
            raise InvalidMove(f"turn {_short(t)}: expected {{'space': [row, col]}} or {{'swap': true}}")
        return _pair(t["space"], "space", t)

    def write(m: Any, seat: Seat, s: Any) -> dict[str, Any]:
        if isinstance(m, HexAction):
            return {m.value: True}
        return {"space": [m[0], m[1]]}

    return Shape("hex", game, extra=extra, read=read, write=write)


def _hexdots() -> Shape:
    from hexarena.games.hexdots import wire

    game = get_game("hexdots")

    def read(t: dict[str, Any], seat: Seat, s: Any) -> Any:
        if "line" not in t:
            raise InvalidMove(f"turn {_short(t)}: expected {{'line': [{{row, col}}, {{row, col}}]}}")
        return wire.parse_move_body(t["line"])

    return Shape(
        "hexdots",
        game,
        extra=lambda s, p: {"board": wire.game_json(s, list(p))},
        read=read,
        write=lambda m, seat, s: {"line": wire.move_body(m)},
    )


def _hive() -> Shape:
    game = get_game("hive")

    def extra(s: Any, p: Players) -> dict[str, Any]:
        board = game.to_json(s)
        board.pop("to_move", None)
        return {"board": board, "colours": {"white": p[0], "black": p[1]}}

    def read(t: dict[str, Any], seat: Seat, s: Any) -> Any:
        raise InvalidMove(f"turn {_short(t)}: expected {{'move': '<UHP MoveString>'}}, e.g. {{'move': 'wS1'}}")

    return Shape("hive", game, extra=extra, read=read, write=lambda m, seat, s: {"move": game.format(m)})


_BUILDERS: dict[str, Callable[[], Shape]] = {
    "numberwang": _numberwang,
    "tictactoe": _noughts,
    "htttx": _htttx,
    "hex": _hex,
    "hexdots": _hexdots,
    "hive": _hive,
}
_CACHE: dict[str, Shape] = {}


def shape_for(name: str) -> Shape:
    """The shape of a game by wire id, hexarena name or alias; ConfigError names the known ids."""
    try:
        game = get_game(name)
    except ConfigError:
        raise ConfigError(f"game {name!r} not recognised; known: {', '.join(wire_ids())}") from None
    key = game.name
    if key not in _CACHE:
        if key not in _BUILDERS:
            raise ConfigError(f"game {name!r} is not offered over the battlebot protocol")
        _CACHE[key] = _BUILDERS[key]()
    return _CACHE[key]


def wire_ids() -> list[str]:
    """Every battlebot game id, the original's first."""
    return ["numberwang", "noughtsandcrosses", "htttx", "hex", "hexdots", "hive"]


def wire_id_of(game_name: str) -> str:
    return "noughtsandcrosses" if game_name == "tictactoe" else game_name


def check_turn(shape: Shape, turn: Any, seat: Seat, state: Any) -> tuple[Any, Any]:
    """(move, new state) for a turn, or InvalidMove/IllegalMove with the reason (validation as the original's)."""
    move = shape.parse(turn, seat, state)
    game = shape.game
    if game.to_move(state) != seat:
        raise IllegalMove("it is not your turn")
    return move, game.play(state, move)
