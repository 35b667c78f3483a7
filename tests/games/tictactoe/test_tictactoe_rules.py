"""Noughts and crosses: exhaustive enumeration, OpenSpiel agreement over every game, notation, battlebot shapes."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hexarena.core import IllegalMove, InvalidMove, Outcome, Termination, get_game
from hexarena.games.tictactoe import GAME, TicTacToeState
from hexarena.games.tictactoe.battlebot import battlebot_turn, battlebot_turn_of
from hexarena.wire.battlebot import shape_for


def test_registered_with_battlebot_alias() -> None:
    assert get_game("tictactoe") is GAME and get_game("noughtsandcrosses") is GAME


def _enumerate() -> tuple[int, set[TicTacToeState], dict[Any, int]]:
    games = 0
    positions: set[tuple[int, ...]] = set()
    results: dict[Any, int] = {0: 0, 1: 0, None: 0}

    def walk(s: TicTacToeState) -> None:
        nonlocal games
        positions.add(s.board)
        out = GAME.outcome(s)
        if out is not None:
            games += 1
            results[out.winner] += 1
            return
        for m in GAME.legal(s):
            walk(GAME.play(s, m))

    walk(GAME.new())
    return games, positions, results  # type: ignore[return-value]


def test_exhaustive_enumeration_counts() -> None:
    games, positions, results = _enumerate()
    assert games == 255_168
    assert len(positions) == 5_478  # empty board included
    assert results == {0: 131_184, 1: 77_904, None: 46_080}  # the well-known split of the 255,168 games


def test_every_game_agrees_with_openspiel() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    os_state = pyspiel.load_game("tic_tac_toe").new_initial_state()
    count = 0

    def walk(s: TicTacToeState) -> None:
        nonlocal count
        out = GAME.outcome(s)
        assert os_state.is_terminal() == (out is not None)
        if out is not None:
            count += 1
            r = os_state.returns()[0]
            assert out.winner == (None if r == 0 else 0 if r > 0 else 1)
            return
        assert GAME.to_move(s) == os_state.current_player()
        moves = GAME.legal(s)
        assert [m[0] * 3 + m[1] for m in moves] == os_state.legal_actions()
        for m in moves:
            a = m[0] * 3 + m[1]
            os_state.apply_action(a)
            walk(GAME.play(s, m))
            os_state.undo_action(s.ply % 2, a)

    walk(GAME.new())
    assert count == 255_168


def test_rules_and_reasons() -> None:
    s = GAME.new()
    for m in ("b2", "a1", "a2", "c3", "c2"):  # X fills the middle column
        assert GAME.outcome(s) is None
        s = GAME.play(s, GAME.parse(m))
    out = GAME.outcome(s)
    assert out is not None and out.winner == 0 and out.termination is Termination.NORMAL
    assert GAME.to_move(s) is None and GAME.legal(s) == [] and s.line == (1, 4, 7)
    with pytest.raises(IllegalMove, match="over"):
        GAME.play(s, (0, 0))
    s = GAME.play(GAME.new(), (1, 1))
    with pytest.raises(IllegalMove, match="'b2' is occupied"):
        GAME.play(s, (1, 1))
    with pytest.raises(IllegalMove, match="off the 3x3"):
        GAME.play(s, (3, 0))
    for bad in ((1,), ("1", 1), (True, 0), [0, 0], "a1"):
        with pytest.raises(InvalidMove):
            GAME.play(s, bad)  # type: ignore[arg-type]


def test_draw() -> None:
    s = GAME.new()
    for m in ("a1", "b2", "c3", "a2", "c2", "c1", "a3", "b3", "b1"):
        s = GAME.play(s, GAME.parse(m))
    out = GAME.outcome(s)
    assert out is not None and out.winner is None and s.ply == 9


def test_notation() -> None:
    assert GAME.parse("b2") == (1, 1) and GAME.parse("A3") == (0, 2) and GAME.format((2, 0)) == "c1"
    for bad in ("", "d1", "a4", "a0", "1,1", "b22", "bb"):
        with pytest.raises(InvalidMove, match=repr(bad)):
            GAME.parse(bad)


@settings(deadline=None)  # no flaky deadline on a loaded CI machine
@given(st.text(max_size=4))
def test_parse_only_raises_invalid_move(text: str) -> None:
    try:
        m = GAME.parse(text)
    except InvalidMove as e:
        assert e.reason
    else:
        assert GAME.parse(GAME.format(m)) == m


def test_battlebot_state_shapes() -> None:
    battlebot_state = shape_for("tictactoe").state  # the wire layer around the game's own shape
    players = ("IdiotBot2", "IdiotBot")
    s = GAME.new()
    assert battlebot_state(s, players) == {
        "players": ["IdiotBot2", "IdiotBot"],
        "complete": False,
        "board": [["", "", ""], ["", "", ""], ["", "", ""]],
        "nextPlayer": "IdiotBot2",
        "marks": {"X": "IdiotBot2", "O": "IdiotBot"},
    }
    # The final position of the original README's example: X wins with [1, 2].
    for seat_move in (
        (0, (0, 2)),
        (1, (0, 0)),
        (0, (1, 0)),
        (1, (0, 1)),
        (0, (2, 1)),
        (1, (1, 1)),
        (0, (2, 2)),
        (1, (2, 0)),
    ):
        s = GAME.play(s, battlebot_turn(battlebot_turn_of(seat_move[1], seat_move[0]), seat_move[0]))
    s = GAME.play(s, battlebot_turn({"mark": "X", "space": [1, 2]}, 0))
    assert battlebot_state(s, players) == {
        "players": ["IdiotBot2", "IdiotBot"],
        "complete": True,
        "reason": "complete",
        "board": [["O", "O", "X"], ["X", "O", "X"], ["O", "X", "X"]],
        "marks": {"X": "IdiotBot2", "O": "IdiotBot"},
        "nextPlayer": "IdiotBot",
        "victor": "IdiotBot2",
    }
    timeout = battlebot_state(GAME.new(), players, Outcome(1, Termination.TIME, "slow"))
    assert timeout["complete"] and timeout["victor"] == "IdiotBot" and timeout["reason"] == "timeout"


@pytest.mark.parametrize(
    ("turn", "seat", "error"),
    [
        ({"mark": "O", "space": [0, 0]}, 0, IllegalMove),
        ({"mark": "X", "space": [0, 0]}, 1, IllegalMove),
        ({"mark": "X", "space": [3, 0]}, 0, IllegalMove),
        ({"mark": "X", "space": [0, -1]}, 0, IllegalMove),
        ({"mark": "x", "space": [0, 0]}, 0, InvalidMove),
        ({"mark": "X", "space": [0]}, 0, InvalidMove),
        ({"mark": "X", "space": "a1"}, 0, InvalidMove),
        ({"mark": "X", "space": [0, "1"]}, 0, InvalidMove),
        ({"mark": "X", "space": [0, True]}, 0, InvalidMove),
        ({"mark": "X", "space": [0, 0.5]}, 0, InvalidMove),
        ({"mark": ["X"], "space": [0, 0]}, 0, InvalidMove),
        ({"space": [0, 0]}, 0, InvalidMove),
        ([0, 0], 0, InvalidMove),
        (None, 0, InvalidMove),
    ],
)
def test_battlebot_turn_rejections(turn: Any, seat: int, error: type[Exception]) -> None:
    with pytest.raises(error) as info:
        battlebot_turn(turn, seat)
    assert isinstance(info.value, IllegalMove | InvalidMove) and info.value.reason


def test_battlebot_turn_accepts_integral_floats() -> None:
    assert battlebot_turn({"mark": "O", "space": [2.0, 1]}, 1) == (2, 1)
