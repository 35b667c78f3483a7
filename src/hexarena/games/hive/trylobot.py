"""Trylobot's Hive AI wire, as pure conversions (no IO): positions, ``possible_turns``, ``game_state``, replies.

Trylobot addresses flat-topped hexes as ``"row,col"`` with doubled rows (neighbours (r-2,c), (r-1,c+1),
(r+1,c+1), (r+2,c), (r+1,c-1), (r-1,c-1); docs/protocols/trylobot.md), so ``row + col`` is always even. Our axial
``(q, r)`` maps to ``row = 2q + r, col = r``: a rotation of the grid, which Hive's rules cannot tell apart, and
the six Trylobot neighbours are exactly the six axial ones. The transport adapters live in ``players/``;
this module only builds and reads the JSON-shaped dicts.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hexarena.core.errors import IllegalMove, InvalidMove
from hexarena.core.jsonvalue import JsonObject
from hexarena.games.hive.board import (
    FIRST_INDEX,
    KIND,
    KIND_COUNT,
    PASS,
    Board,
    Move,
    cell_at,
    kinds_of,
    qr,
    zkey,
)

WIRE_NAMES = ("Queen Bee", "Spider", "Beetle", "Grasshopper", "Soldier Ant", "Mosquito", "Ladybug", "Pillbug")
KIND_OF_WIRE = {n: k for k, n in enumerate(WIRE_NAMES)}
COLORS = ("White", "Black")
TURN_TYPES = ("Placement", "Movement", "Special Ability", "Forfeit")


def position(cell: int) -> str:
    """Trylobot ``"row,col"`` of a cell."""
    q, r = qr(cell)
    return f"{2 * q + r},{r}"


def cell_of_position(text: object) -> int:
    """The cell of a Trylobot ``"row,col"``; InvalidMove quoting the text when it is not one."""
    if not isinstance(text, str):
        raise InvalidMove(f'position must be a string "row,col", got {text!r}')
    parts = text.split(",")
    try:
        if len(parts) != 2:
            raise ValueError
        row, col = int(parts[0].strip()), int(parts[1].strip())
    except ValueError:
        raise InvalidMove(f'position {text!r} is not "row,col"') from None
    if (row - col) % 2:
        raise InvalidMove(f"position {text!r} is not a cell (row + col must be even)")
    return cell_at((row - col) // 2, col)


def split_movements(board: Board) -> tuple[dict[int, set[int]], dict[int, dict[int, set[int]]]]:
    """Normal movements by source cell, and Pillbug-ability throws by user cell then source cell.

    Generation runs on a copy: ``board`` is often a referee state's shared snapshot, which generation would
    briefly mutate (it lifts pieces off ``stacks``) and reorder.
    """
    throws_by_user: dict[int, dict[int, set[int]]] = {}
    normal = board.copy().movement_dests(throws_by_user)
    pos = board.pos
    by_src: dict[int, set[int]] = {}
    for pid, dests in normal.items():
        src = pos[pid]
        assert src is not None
        by_src[src] = dests
    abil: dict[int, dict[int, set[int]]] = {}
    for user, victims in throws_by_user.items():
        abil[user] = {pos[v]: d for v, d in victims.items() if pos[v] is not None}  # type: ignore[misc]
    return by_src, abil


def possible_turns(board: Board) -> JsonObject:
    """Trylobot's ``possible_turns`` for the side to move (sections without any turn are left out)."""
    out: JsonObject = {}
    if board.result() >= 0:
        return out
    kinds = board.placement_kinds()
    if kinds:
        cells = board.placement_cells()
        if cells:
            out["Placement"] = {
                "piece_types": [WIRE_NAMES[KIND[p]] for p in kinds],
                "positions": sorted(position(c) for c in cells),
            }
    if board.ply >= 2:
        normal, abil = split_movements(board)
        if normal:
            out["Movement"] = {position(s): sorted(position(d) for d in ds) for s, ds in sorted(normal.items())}
        if abil:
            out["Special Ability"] = {
                position(u): {position(s): sorted(position(d) for d in ds) for s, ds in sorted(v.items())}
                for u, v in sorted(abil.items())
            }
    return out


def game_state(board: Board, with_possible_turns: bool = True) -> JsonObject:
    """Trylobot's ``game_state``: board, hands, turn, result, creation parameters (and possible turns)."""
    pieces = {
        position(c): [{"color": COLORS[p >> 4], "type": WIRE_NAMES[KIND[p]]} for p in st]
        for c, st in sorted(board.stacks.items())
    }
    hands: dict[str, dict[str, int]] = {}
    for color, name in enumerate(COLORS):
        hands[name] = {WIRE_NAMES[k]: n for k in board.kinds if (n := board.in_hand(color, k))}
    r = board.result()
    state: JsonObject = {
        "board": {"pieces": pieces},
        "hands": hands,
        "player_turn": COLORS[board.ply & 1],
        "turn_number": board.ply,
        "game_over": r >= 0,
        "winner": COLORS[r] if r in (0, 1) else None,
        "is_draw": r == 2,
        "creation_parameters": {
            "use_mosquito": "M" in board.expansions,
            "use_ladybug": "L" in board.expansions,
            "use_pillbug": "P" in board.expansions,
        },
    }
    if with_possible_turns:
        state["possible_turns"] = possible_turns(board)
    return state


def board_from_game_state(state: Mapping[str, Any], last_moved: str | None = None) -> Board:
    """Rebuild a Board from a Trylobot ``game_state`` (bugs of one kind are numbered in cell order).

    ``last_moved`` is the Trylobot position of the piece moved last, when known (it may not move or be thrown
    on this turn). Inconsistent states raise InvalidMove quoting the offending part.
    """
    try:
        params = state.get("creation_parameters") or {}
        exp = "".join(x for x, n in (("M", "mosquito"), ("L", "ladybug"), ("P", "pillbug")) if params.get(f"use_{n}"))
        pieces = state["board"]["pieces"]
        turn = state["turn_number"]
        player = state["player_turn"]
    except (KeyError, TypeError, AttributeError) as exc:
        raise InvalidMove(f"game_state lacks {exc}") from None
    if not isinstance(turn, int) or turn < 0:
        raise InvalidMove(f"turn_number {turn!r} is not a non-negative integer")
    if player not in COLORS or COLORS[turn & 1] != player:
        raise InvalidMove(f"player_turn {player!r} does not match turn_number {turn!r}")
    board = Board(exp)
    kinds = kinds_of(exp)
    used = [[0] * 8, [0] * 8]
    for ptext in sorted(pieces, key=lambda t: cell_of_position(t)):
        cell = cell_of_position(ptext)
        stack = pieces[ptext]
        if not isinstance(stack, list) or not stack:
            raise InvalidMove(f"stack at {ptext!r} must be a non-empty list")
        for item in stack:
            color = COLORS.index(item.get("color")) if item.get("color") in COLORS else -1
            kind = KIND_OF_WIRE.get(item.get("type"), -1)
            if color < 0 or kind < 0 or kind not in kinds:
                raise InvalidMove(f"piece {item!r} at {ptext!r} is not a piece of this game")
            if used[color][kind] >= KIND_COUNT[kind]:
                raise InvalidMove(f"too many {COLORS[color]} {WIRE_NAMES[kind]} pieces (at {ptext!r})")
            pid = color << 4 | (FIRST_INDEX[kind] + used[color][kind])
            used[color][kind] += 1
            board.pos[pid] = cell
            board.stacks[cell] = (*board.stacks.get(cell, ()), pid)
    for cell, st in board.stacks.items():
        for level, pid in enumerate(st):
            board.zh ^= zkey(pid, cell, level)
    board.ply = turn
    if last_moved is not None:
        last = board.stacks.get(cell_of_position(last_moved))
        board.stunned = last[-1] if last else -1
    return board


def move_from_reply(board: Board, reply: Mapping[str, Any]) -> Move:
    """The engine move a Trylobot ``Choose Turn`` reply names, checked against the legal turns.

    InvalidMove: the reply has the wrong shape (unknown turn_type, missing or malformed fields).
    IllegalMove: well formed, but not among this position's possible turns.
    """
    turn_type = reply.get("turn_type")
    if turn_type not in TURN_TYPES:
        raise InvalidMove(f"turn_type {turn_type!r} is not one of {list(TURN_TYPES)}")
    if turn_type == "Forfeit":
        if board.copy().moves() != [PASS]:
            raise IllegalMove("Forfeit (pass) is only legal when no other turn is")
        return PASS
    dest = cell_of_position(reply.get("destination"))
    if turn_type == "Placement":
        ptype = reply.get("piece_type")
        if ptype not in KIND_OF_WIRE:
            raise InvalidMove(f"piece_type {ptype!r} is not one of {list(WIRE_NAMES)}")
        kind = KIND_OF_WIRE[ptype]
        pid = board.next_piece(board.ply & 1, kind)
        if pid < 0 or pid not in board.placement_kinds():
            raise IllegalMove(f"{ptype!r} may not be placed now")
        if dest not in board.placement_cells():
            raise IllegalMove(f"{ptype!r} may not be placed at {reply.get('destination')!r}")
        return pid, dest
    src = cell_of_position(reply.get("source"))
    normal, abil = split_movements(board) if board.ply >= 2 else ({}, {})
    if turn_type == "Movement":
        if dest not in normal.get(src, ()):
            raise IllegalMove(f"no Movement from {reply.get('source')!r} to {reply.get('destination')!r}")
    else:
        user = cell_of_position(reply.get("ability_user"))
        if dest not in abil.get(user, {}).get(src, ()):
            raise IllegalMove(
                f"no Special Ability by {reply.get('ability_user')!r} moving {reply.get('source')!r}"
                f" to {reply.get('destination')!r}"
            )
    return board.stacks[src][-1], dest


def reply_for_move(board: Board, move: Move) -> JsonObject:
    """A Trylobot reply (turn fields only) for a legal engine move; a throw is sent as Special Ability."""
    pid, dest = move
    if pid < 0:
        return {"turn_type": "Forfeit"}
    src = board.pos[pid]
    if src is None:
        return {"turn_type": "Placement", "piece_type": WIRE_NAMES[KIND[pid]], "destination": position(dest)}
    normal, abil = split_movements(board)
    if dest in normal.get(src, ()):
        return {"turn_type": "Movement", "source": position(src), "destination": position(dest)}
    for user, victims in sorted(abil.items()):
        if dest in victims.get(src, ()):
            return {
                "turn_type": "Special Ability",
                "ability_user": position(user),
                "source": position(src),
                "destination": position(dest),
            }
    raise IllegalMove(f"move of piece {pid} to {position(dest)!r} is not legal here")
