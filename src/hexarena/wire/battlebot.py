"""Battlebot state and turn shapes for every hexarena game (docs/protocols/battlebot.md).

The protocol's common part is here; each game's own part (wire id, state keys, turn shape) is the
``BattlebotShape`` its package gives (``Game.battlebot_shape``), summed up in this table:

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

import hashlib
from dataclasses import dataclass
from typing import Generic

from hexarena.core.battlebot import BattlebotShape, M, Players, S, short
from hexarena.core.errors import ConfigError, IllegalMove, InvalidMove
from hexarena.core.game import Game
from hexarena.core.jsonvalue import JsonObject, JsonValue
from hexarena.core.registry import available_games, get_game
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


def login_hash(pass_hash: str, salt: str) -> str:
    """The login's proof of the pass_hash: ``sha256_hex(pass_hash + salt)`` (lowercase hex)."""
    return hashlib.sha256((pass_hash + salt).encode()).hexdigest()


def wire_reason(outcome: Outcome) -> str:
    return REASONS.get(outcome.termination, str(outcome.termination))


@dataclass(frozen=True)
class Shape(Generic[S, M]):
    """How one game looks on the battlebot wire: the protocol's common part around the game's own."""

    game: Game[S, M]
    own: BattlebotShape[S, M]

    @property
    def wire_id(self) -> str:
        return self.own.wire_id

    def state(
        self, state: S, players: Players, outcome: Outcome | None = None, last_seat: Seat | None = None
    ) -> JsonObject:
        """The ``state`` object; ``outcome`` (e.g. a timeout decided by the referee) overrides the rules."""
        game = self.game
        result = outcome if outcome is not None else game.outcome(state)
        if self.own.alternating:
            nxt: str | None = players[game.ply(state) % 2]
        else:
            seat = game.to_move(state)
            if seat is None and last_seat is not None:
                seat = 1 - last_seat
            nxt = players[seat] if seat is not None else None
        out: JsonObject = {"players": [players[0], players[1]], "complete": result is not None, "nextPlayer": nxt}
        out.update(self.own.extra(state, players))
        if result is not None:
            out["victor"] = None if result.winner is None else players[result.winner]
            out["reason"] = wire_reason(result)
        return out

    def parse(self, turn: JsonValue, seat: Seat, state: S) -> M:
        """The move a turn names (InvalidMove for a bad shape); legality is checked by ``game.play``."""
        if not isinstance(turn, dict):
            raise InvalidMove(f"turn {short(turn)}: a turn is a JSON object")
        if "move" in turn:
            text = turn["move"]
            if not isinstance(text, str) or len(text) > MAX_NOTATION:
                raise InvalidMove(f"turn {short(turn)}: 'move' must be a string in the game's notation")
            return self.game.parse(text)
        return self.own.read(turn, seat, state)

    def turn(self, move: M, seat: Seat, before: S) -> JsonObject:
        """The turn a bot would have sent for ``move`` (echoes moves of players of other protocols)."""
        return self.own.write(move, seat, before)


_CACHE: dict[str, Shape] = {}


def _shape_of(game: Game[S, M]) -> Shape[S, M] | None:
    if game.name not in _CACHE:
        own = game.battlebot_shape()
        if own is None:
            return None
        _CACHE[game.name] = Shape(game, own)
    return _CACHE[game.name]


def shapes() -> list[Shape]:
    """The shape of every registered game offered over the battlebot protocol, the original server's first."""
    found = [s for s in (_shape_of(g) for g in available_games().values()) if s is not None]
    return sorted(found, key=lambda s: (not s.own.alternating, s.game.name))


def shape_for(name: str) -> Shape:
    """The shape of a game by wire id, hexarena name or alias; ConfigError names the known ids."""
    try:
        game = get_game(name)
    except ConfigError:
        by_wire = {s.wire_id: s for s in shapes()}
        if name in by_wire:
            return by_wire[name]
        raise ConfigError(f"game {name!r} not recognised; known: {', '.join(by_wire)}") from None
    shape = _shape_of(game)
    if shape is None:
        raise ConfigError(f"game {name!r} is not offered over the battlebot protocol")
    return shape


def wire_id_of(game_name: str) -> str:
    """The wire id of a game stored under its hexarena name (the name itself for a game not on the wire)."""
    try:
        shape = _shape_of(get_game(game_name))
    except ConfigError:
        return game_name
    return game_name if shape is None else shape.wire_id


def check_turn(shape: Shape[S, M], turn: JsonValue, seat: Seat, state: S) -> tuple[M, S]:
    """(move, new state) for a turn, or InvalidMove/IllegalMove with the reason (validation as the original's)."""
    move = shape.parse(turn, seat, state)
    game = shape.game
    if game.to_move(state) != seat:
        raise IllegalMove("it is not your turn")
    return move, game.play(state, move)
