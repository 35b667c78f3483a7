"""What spectators receive, for every game.

HTTTX spectators get Hivemaker's packets (``setup{board}``, ``board_update{board, to_move, status}``,
``end{winner, reason, board}``: the game's ``spectator_extras`` add ``board``); every packet also carries the generic fields (``game``, ``state``, ``move``,
``ply``, ``evaluation``, ``considerations``, ``clocks``) that the web UI uses for all games. Clients ignore
fields they don't know, so one stream serves both.

A spectator that keeps its own position (``/spectate/{id}?updates=moves``) gets ``board_update`` without
``state`` and ``board``: the setup's position and the moves rebuild it, and a move then costs the same to send at
1,000 stones as at 10.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from hexarena.core.game import Game
from hexarena.core.jsonvalue import JsonObject
from hexarena.core.types import Outcome, Seat, Termination
from hexarena.referee.result import MatchResult, PlayedMove

S = TypeVar("S")
M = TypeVar("M")


def _seat_label(game: Game[S, M], seat: Seat | None) -> str | None:
    return None if seat is None else str(game.seat_names[seat])


def _status(game: Game[S, M], state: S, outcome: Outcome | None = None) -> str:
    outcome = outcome if outcome is not None else game.outcome(state)
    if outcome is None:
        return "in_progress"
    if outcome.winner is None:
        return "draw"
    return f"{_seat_label(game, outcome.winner)}_wins"


def snapshot(
    match_id: str,
    game: Game[S, M],
    state: S,
    moves: list[PlayedMove],
    players: Sequence[JsonObject],
    clocks: list[float | None] | None = None,
) -> JsonObject:
    state_json = game.to_json(state)
    msg: JsonObject = {
        "type": "setup",
        "game_id": match_id,
        "game": game.name,
        "players": players,
        "state": state_json,
        "to_move": _seat_label(game, game.to_move(state)),
        "moves": [_move_json(m, game) for m in moves],
        "clocks": clocks,
    }
    msg.update(game.spectator_extras(state, state_json))
    return msg


def _move_json(record: PlayedMove, game: Game[S, M]) -> JsonObject:
    return {
        "ply": record.ply,
        "seat": record.seat,
        "side": _seat_label(game, record.seat),
        "move": record.move,
        "think_time": round(record.think_time, 6),
        "timestamp": record.timestamp,
        "evaluation": record.evaluation,
        "considerations": record.considerations,
    }


def update(
    match_id: str,
    game: Game[S, M],
    record: PlayedMove,
    state: S,
    clocks: list[float | None] | None = None,
    *,
    board: bool = True,
) -> JsonObject:
    """One move for spectators; without ``board`` (a spectator that asked for moves only, ``?updates=moves``)
    neither the position nor the game's extras (HTTTX's ``board``): what costs more the fuller the board is."""
    msg: JsonObject = {
        "type": "board_update",
        "game_id": match_id,
        "game": game.name,
        "to_move": _seat_label(game, game.to_move(state)),
        "status": _status(game, state),
        "clocks": clocks,
        **_move_json(record, game),
    }
    if board:
        state_json = game.to_json(state)
        msg["state"] = state_json
        msg.update(game.spectator_extras(state, state_json))
    return msg


def end(game: Game[S, M], result: MatchResult[S]) -> JsonObject:
    outcome = result.outcome
    final = result.final_state
    if final is None:
        raise ValueError(f"match {result.match_id}: its result no longer holds the final position (released)")
    if outcome.winner is None:
        reason = "draw"
    elif outcome.termination == Termination.NORMAL:
        reason = "win"
    else:
        reason = "forfeit"
    msg: JsonObject = {
        "type": "end",
        "game_id": result.match_id,
        "game": game.name,
        "winner": _seat_label(game, outcome.winner),
        "winner_seat": outcome.winner,
        # the side the winner plays at the end, which is not its seat's name after a Hex swap
        "winner_side": None if outcome.winner is None else game.side_name(final, outcome.winner),
        "reason": reason,
        "termination": str(outcome.termination),
        "detail": outcome.reason,
        "state": game.to_json(final),
    }
    msg.update(game.spectator_extras(final, None))
    return msg
