"""Trylobot wire conversions: positions, possible_turns, game_state round trips and reply checking."""

from __future__ import annotations

import random

import pytest

from hexarena.core.errors import IllegalMove, InvalidMove
from hexarena.games.hive.board import DIRS, PASS, Board, cell_at
from hexarena.games.hive.notation import parse_game_string
from hexarena.games.hive.trylobot import (
    WIRE_NAMES,
    board_from_game_state,
    cell_of_position,
    game_state,
    move_from_reply,
    position,
    possible_turns,
    reply_for_move,
)

TRYLOBOT_NEIGHBOURS = {(-2, 0), (-1, 1), (1, 1), (2, 0), (1, -1), (-1, -1)}


def _rc(text: str) -> tuple[int, int]:
    a, b = text.split(",")
    return int(a), int(b)


def test_positions_round_trip_and_neighbours_match() -> None:
    for q in range(-4, 5):
        for r in range(-4, 5):
            c = cell_at(q, r)
            assert cell_of_position(position(c)) == c
            row, col = _rc(position(c))
            assert (row + col) % 2 == 0
            offsets = set()
            for d in DIRS:
                nr, nc = _rc(position(c + d))
                offsets.add((nr - row, nc - col))
            assert offsets == TRYLOBOT_NEIGHBOURS
    assert position(0) == "0,0"


@pytest.mark.parametrize("bad", ["1,0", "a,b", "1,2,3", 5, None, ""])
def test_bad_positions(bad: object) -> None:
    with pytest.raises(InvalidMove, match="position"):
        cell_of_position(bad)


def _turns_as_moves(board: Board) -> set[tuple[int, int]]:
    pt = possible_turns(board)
    out = set()
    for ptype in pt.get("Placement", {}).get("piece_types", []):
        for p in pt["Placement"]["positions"]:
            out.add(move_from_reply(board, {"turn_type": "Placement", "piece_type": ptype, "destination": p}))
    for src, dsts in pt.get("Movement", {}).items():
        for d in dsts:
            out.add(move_from_reply(board, {"turn_type": "Movement", "source": src, "destination": d}))
    for user, srcs in pt.get("Special Ability", {}).items():
        for src, dsts in srcs.items():
            for d in dsts:
                reply = {"turn_type": "Special Ability", "ability_user": user, "source": src, "destination": d}
                out.add(move_from_reply(board, reply))
    return out


@pytest.mark.parametrize("expansions", ["", "MLP", "P"])
def test_possible_turns_equal_legal_moves_in_random_games(expansions: str) -> None:
    rng = random.Random(11)
    abilities = 0
    for _ in range(2):
        b = Board(expansions)
        for _ply in range(70):
            moves = b.moves()
            if not moves:
                break
            if moves == [PASS]:
                assert possible_turns(b) == {}
                assert move_from_reply(b, {"turn_type": "Forfeit"}) == PASS
            else:
                assert _turns_as_moves(b) == set(moves)
                with pytest.raises(IllegalMove, match="Forfeit"):
                    move_from_reply(b, {"turn_type": "Forfeit"})
            for m in moves:
                reply = reply_for_move(b, m)
                abilities += reply["turn_type"] == "Special Ability"
                assert move_from_reply(b, reply) == m
            # game_state -> board keeps every possible turn (bug numbering may differ)
            last = position(b.pos[b.stunned]) if b.stunned >= 0 else None  # type: ignore[arg-type]
            again = board_from_game_state(game_state(b), last_moved=last)
            assert possible_turns(again) == possible_turns(b)
            assert again.result() == b.result()
            b.play(rng.choice(moves))
    if "P" in expansions:
        assert abilities > 0


def test_game_state_shape() -> None:
    b, _ = parse_game_string("Base+MLP;InProgress;White[2];wP;bS1 wP-")
    gs = game_state(b)
    assert gs["player_turn"] == "White" and gs["turn_number"] == 2
    assert gs["board"]["pieces"]["0,0"] == [{"color": "White", "type": "Pillbug"}]
    assert gs["board"]["pieces"]["2,0"] == [{"color": "Black", "type": "Spider"}]
    assert gs["hands"]["White"]["Soldier Ant"] == 3 and "Pillbug" not in gs["hands"]["White"]
    assert gs["hands"]["Black"]["Spider"] == 1 and gs["hands"]["Black"]["Queen Bee"] == 1
    assert gs["creation_parameters"] == {"use_mosquito": True, "use_ladybug": True, "use_pillbug": True}
    assert (gs["game_over"], gs["winner"], gs["is_draw"]) == (False, None, False)
    assert set(gs["possible_turns"]) == {"Placement"}
    assert set(gs["possible_turns"]["Placement"]["piece_types"]) <= set(WIRE_NAMES)


def test_bad_replies() -> None:
    b, _ = parse_game_string("Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-")
    with pytest.raises(InvalidMove, match="'Dance'"):
        move_from_reply(b, {"turn_type": "Dance"})
    with pytest.raises(InvalidMove, match="'Dragon'"):
        move_from_reply(b, {"turn_type": "Placement", "piece_type": "Dragon", "destination": "0,0"})
    with pytest.raises(IllegalMove, match="'Mosquito'"):
        move_from_reply(b, {"turn_type": "Placement", "piece_type": "Mosquito", "destination": "-3,-1"})
    with pytest.raises(IllegalMove, match="'0,0'"):
        move_from_reply(b, {"turn_type": "Placement", "piece_type": "Soldier Ant", "destination": "0,0"})
    with pytest.raises(IllegalMove, match="no Movement"):
        move_from_reply(b, {"turn_type": "Movement", "source": "0,0", "destination": "4,0"})
    with pytest.raises(InvalidMove, match="position"):
        move_from_reply(b, {"turn_type": "Movement", "source": "0,0"})
    with pytest.raises(IllegalMove, match="Special Ability"):
        move_from_reply(
            b, {"turn_type": "Special Ability", "ability_user": "0,0", "source": "2,0", "destination": "-1,-1"}
        )


def test_board_from_bad_game_state() -> None:
    with pytest.raises(InvalidMove, match="player_turn"):
        board_from_game_state({"board": {"pieces": {}}, "turn_number": 1, "player_turn": "White"})
    with pytest.raises(InvalidMove, match="Dragon"):
        board_from_game_state(
            {
                "board": {"pieces": {"0,0": [{"color": "White", "type": "Dragon"}]}},
                "turn_number": 1,
                "player_turn": "Black",
            }
        )
