"""Numberwang rules, bounds, ply cap and battlebot shapes."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hexarena.core import ConfigError, IllegalMove, InvalidMove, Termination, get_game
from hexarena.games.numberwang import GAME, MAX_STEP, MIN_STEP
from hexarena.games.numberwang.battlebot import battlebot_turn
from hexarena.wire.battlebot import shape_for


def test_first_player_wins_at_ten_second_at_minus_ten() -> None:
    assert get_game("numberwang") is GAME
    s = GAME.new()
    for m in (6, -2, 6):
        assert GAME.outcome(s) is None
        s = GAME.play(s, m)
    out = GAME.outcome(s)
    assert s.n == 10 and out is not None and out.winner == 0 and GAME.to_move(s) is None
    s = GAME.play(GAME.play(GAME.new(), 0), -10)
    out = GAME.outcome(s)
    assert out is not None and out.winner == 1


def test_bounds_and_ply_cap() -> None:
    s = GAME.new(ply_limit=4)
    assert GAME.legal(s) == list(range(MIN_STEP, MAX_STEP + 1))
    for bad in (MAX_STEP + 1, MIN_STEP - 1):
        with pytest.raises(IllegalMove, match=str(bad)):
            GAME.play(s, bad)
    for bad_type in (1.0, "3", True, None):
        with pytest.raises(InvalidMove):
            GAME.play(s, bad_type)  # type: ignore[arg-type]
    for m in (5, -5, 5, -5):
        s = GAME.play(s, m)
    out = GAME.outcome(s)
    assert out is not None and out.winner is None and out.termination is Termination.TURN_LIMIT
    assert GAME.legal(s) == [] and GAME.to_move(s) is None
    with pytest.raises(IllegalMove, match="over"):
        GAME.play(s, 1)
    with pytest.raises(ConfigError):
        GAME.new(ply_limit=0)


@settings(deadline=None)  # no flaky deadline on a loaded CI machine
@given(st.integers(-(10**12) + 1, 10**12 - 1))  # parse reads at most 12 digits
def test_notation_round_trips(n: int) -> None:
    assert GAME.parse(GAME.format(n)) == n


@settings(deadline=None)  # no flaky deadline on a loaded CI machine
@given(st.text(max_size=6))
def test_parse_only_raises_invalid_move(text: str) -> None:
    try:
        GAME.parse(text)
    except InvalidMove as e:
        assert e.reason


def test_battlebot_shapes() -> None:
    battlebot_state = shape_for("numberwang").state  # the wire layer around the game's own shape
    players = ("a", "b")
    s = GAME.new()
    assert battlebot_state(s, players) == {
        "players": ["a", "b"],
        "complete": False,
        "board": {"n": 0},
        "nextPlayer": "a",
    }
    s = GAME.play(s, battlebot_turn({"n": -7}, 0))
    s = GAME.play(s, battlebot_turn({"n": -3.0}, 1))
    assert battlebot_state(s, players) == {
        "players": ["a", "b"],
        "complete": True,
        "board": {"n": -10},
        "nextPlayer": "a",
        "victor": "b",
        "reason": "complete",
    }


@pytest.mark.parametrize(
    ("turn", "error"),
    [
        ({"n": 11}, IllegalMove),
        ({"n": -11}, IllegalMove),
        ({"n": 1e300}, IllegalMove),
        ({"n": 0.5}, InvalidMove),
        ({"n": float("nan")}, InvalidMove),
        ({"n": "3"}, InvalidMove),
        ({"n": True}, InvalidMove),
        ({"m": 3}, InvalidMove),
        ([3], InvalidMove),
    ],
)
def test_battlebot_turn_rejections(turn: Any, error: type[Exception]) -> None:
    with pytest.raises(error) as info:
        battlebot_turn(turn, 0)
    assert isinstance(info.value, IllegalMove | InvalidMove) and info.value.reason
