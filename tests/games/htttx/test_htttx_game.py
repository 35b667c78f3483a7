"""HtttxGame: the immutable API the referee uses."""

from __future__ import annotations

import random

import pytest
from htttx_helpers import scratch_legal, scratch_winner, scratch_zobrist
from hypothesis import given, settings
from hypothesis import strategies as st

from hexarena.core.errors import ConfigError, IllegalMove, InvalidMove
from hexarena.core.game import Game
from hexarena.core.registry import get_game
from hexarena.core.types import Termination
from hexarena.games.htttx import HTTTX, HtttxState, Move


def facts(s: HtttxState) -> tuple:
    return (dict(s.cells), s.to_move_seat, s.zobrist, s.winner, s.win_line, s.turns, s.history)


def test_registered_and_described() -> None:
    assert get_game("htttx") is HTTTX
    assert isinstance(HTTTX, Game)
    d = HTTTX.describe()
    assert d["seats"] == ["x", "o"]
    assert {p["name"]: p["default"] for p in d["params"]} == {
        "view_distance": 8,
        "win_distance": 6,
        "turn_limit": None,
    }


def test_new_position() -> None:
    s = HTTTX.new()
    assert dict(s.cells) == {(0, 0): 0}
    assert HTTTX.to_move(s) == 1 and HTTTX.ply(s) == 0 and HTTTX.outcome(s) is None
    assert s.history == ()
    assert HTTTX.params_of(s) == {"view_distance": 8, "win_distance": 6, "turn_limit": None}
    assert HTTTX.new(turn_limit="none").turn_limit is None
    with pytest.raises(ConfigError, match="view_distance"):
        HTTTX.new(view_distance=0)
    with pytest.raises(ConfigError, match="unknown"):
        HTTTX.new(board_size=5)


def test_turn_order_and_errors_name_the_cell() -> None:
    s = HTTTX.new()
    s1 = HTTTX.play(s, ((1, 0), (2, 0)))
    assert dict(s1.cells) == {(0, 0): 0, (1, 0): 1, (2, 0): 1} and s1.to_move_seat == 0 and s1.turns == 1
    with pytest.raises(IllegalMove, match=r"cell \(1, 0\) is occupied"):
        HTTTX.play(s1, ((1, 0), (3, 0)))
    with pytest.raises(IllegalMove, match=r"cell \(40, 2\) is more than 8 from every stone"):
        HTTTX.play(s1, ((3, 0), (40, 2)))
    with pytest.raises(IllegalMove, match=r"the two pieces are the same cell \(1, 1\)"):
        HTTTX.play(s1, ((1, 1), (1, 1)))
    with pytest.raises(InvalidMove):
        HTTTX.play(s1, ((1, 1), (1, "a")))  # type: ignore[arg-type]
    # the failed attempts left nothing behind: the same state still plays normally
    s2 = HTTTX.play(s1, ((3, 0), (10, 0)))
    assert dict(s2.cells) == {(0, 0): 0, (1, 0): 1, (2, 0): 1, (3, 0): 0, (10, 0): 0}
    assert s2.zobrist == scratch_zobrist(list(s2.stones))


def test_first_stone_wins_and_second_is_ignored_unchecked() -> None:
    stones = [(0, 0, 0), *((q, 2, 1) for q in range(5)), (0, 5, 0), (1, 5, 0)]
    s = HTTTX.from_cells(stones, 1)
    end = HTTTX.play(s, ((5, 2), (500, 500)))
    assert end.winner == 1 and end.to_move_seat is None
    assert (500, 500) not in end.cells and end.cells[(5, 2)] == 1
    assert end.history == (((5, 2), (500, 500)),)
    assert set(end.win_line or ()) == {(q, 2) for q in range(6)}
    out = HTTTX.outcome(end)
    assert out is not None and out.winner == 1 and out.termination is Termination.NORMAL
    assert out.reason == "6 in a row"
    with pytest.raises(IllegalMove, match="over"):
        HTTTX.play(end, ((9, 9), (9, 8)))
    with pytest.raises(IllegalMove, match="same cell"):
        HTTTX.play(s, ((5, 2), (5, 2)))
    # the second stone can complete the line too
    end2 = HTTTX.play(s, ((3, 3), (5, 2)))
    assert end2.winner == 1 and (3, 3) in end2.cells


def test_turn_limit_draw() -> None:
    s = HTTTX.new(turn_limit=2)
    s = HTTTX.play(s, ((1, 0), (2, 0)))
    assert HTTTX.outcome(s) is None
    s = HTTTX.play(s, ((0, 1), (0, 2)))
    out = HTTTX.outcome(s)
    assert out is not None and out.winner is None and out.termination is Termination.TURN_LIMIT
    assert HTTTX.to_move(s) is None
    with pytest.raises(IllegalMove):
        HTTTX.play(s, ((3, 0), (4, 0)))


def test_from_cells_validates() -> None:
    with pytest.raises(ConfigError, match=r"cell \(1, 1\) appears twice"):
        HTTTX.from_cells([(0, 0, 0), (1, 1, 1), (1, 1, 0)], 0)
    with pytest.raises(ConfigError, match="already has 6 in a row"):
        HTTTX.from_cells([(q, 0, 0) for q in range(6)], 1)
    with pytest.raises(ConfigError, match="to_move"):
        HTTTX.from_cells([(0, 0, 0)], 2)
    with pytest.raises(ConfigError, match="at least one"):
        HTTTX.from_cells([], 0)
    s = HTTTX.from_cells([(0, 0, 0), (20, 0, 1)], 0, view_distance=3)
    assert s.to_move_seat == 0 and s.view_distance == 3
    assert set(s.board().legal_cells()) == scratch_legal(list(s.stones), 3)


def test_to_json() -> None:
    s = HTTTX.play(HTTTX.new(turn_limit=9), ((1, -1), (2, 0)))
    assert HTTTX.to_json(s) == {
        "cells": [{"q": 0, "r": 0, "p": "x"}, {"q": 1, "r": -1, "p": "o"}, {"q": 2, "r": 0, "p": "o"}],
        "to_move": 0,
        "sides": ["x", "o"],
        "winner": None,
        "win_line": None,
        "turns": 1,
        "view_distance": 8,
        "win_distance": 6,
        "turn_limit": 9,
    }


def test_parse_and_format() -> None:
    assert HTTTX.parse("[3,-1][0,2]") == ((3, -1), (0, 2))
    assert HTTTX.parse("  [ 3 , -1 ]\t[0,\n2] ") == ((3, -1), (0, 2))
    assert HTTTX.format(((3, -1), (0, 2))) == "[3,-1][0,2]"
    for bad in ["", "[1,2]", "[1,2][3]", "[a,2][3,4]", "[1,2][3,4][5,6]", "1,2 3,4", "[1,2][3,4]x", "[1.5,2][3,4]"]:
        with pytest.raises(InvalidMove):
            HTTTX.parse(bad)


@settings(deadline=None)
@given(
    st.tuples(
        st.tuples(st.integers(-(10**6), 10**6), st.integers(-(10**6), 10**6)),
        st.tuples(st.integers(-(10**6), 10**6), st.integers(-(10**6), 10**6)),
    )
)
def test_parse_format_roundtrip(move: Move) -> None:
    assert HTTTX.parse(HTTTX.format(move)) == move


def _outcome_key(s: HtttxState) -> tuple:
    return (frozenset(s.cells.items()), s.winner)


@pytest.mark.parametrize("view", [1, 2])
def test_legal_agrees_with_play(view: int) -> None:
    s = HTTTX.from_cells([(0, 0, 0), (1, 0, 1), (0, 1, 1), (-1, 1, 0)], 1, view_distance=view, win_distance=3)
    moves = list(HTTTX.legal(s))
    assert len(moves) == len(set(moves))
    results = {}
    for m in moves:
        results[m] = _outcome_key(HTTTX.play(s, m))
    # no two listed moves reach the same position unless a single stone decided the game
    by_result: dict[tuple, list[Move]] = {}
    for m, k in results.items():
        by_result.setdefault(k, []).append(m)
    for k, ms in by_result.items():
        assert len(ms) == 1 or k[1] is not None, ms
    # every ordered pair that play accepts (second stone within reach) is listed or equivalent to a listed one
    window = [(q, r) for q in range(-5, 6) for r in range(-5, 6)]
    for a in window:
        for b in window:
            if a == b:
                continue
            try:
                after = HTTTX.play(s, (a, b))
            except IllegalMove:
                continue
            if after.winner is not None and len(after.cells) == len(s.cells) + 1:
                assert any(m[0] == a for m in moves)  # first stone won: second stone is free
                continue
            assert (a, b) in results or results.get((b, a)) == _outcome_key(after), (a, b)


def test_random_moves_are_legal_and_games_end() -> None:
    rng = random.Random(11)
    for _ in range(5):
        s = HTTTX.new(view_distance=2, win_distance=4, turn_limit=200)
        while HTTTX.outcome(s) is None:
            s = HTTTX.play(s, HTTTX.random_move(s, rng))
        assert scratch_winner(list(s.stones), 4) == s.winner
        assert s.zobrist == scratch_zobrist(list(s.stones))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 10**6), st.booleans()), min_size=1, max_size=40))
def test_play_never_changes_any_state(steps: list[tuple[int, int, bool]]) -> None:
    """Branch from random earlier states, also with illegal moves; every state keeps reporting what it did."""
    view = 2
    root = HTTTX.new(view_distance=view, win_distance=4)
    states = [root]
    recorded = [facts(root)]
    for pick, salt, illegal in steps:
        s = states[pick % len(states)]
        if s.to_move_seat is None:
            continue
        rng = random.Random(salt)
        if illegal:
            a = next(iter(s.cells))
            pair = HTTTX.random_move(s, rng)
            first = pair[0]
            if HTTTX.play(s, pair).winner is not None:
                continue  # the first stone may win, and then the rules ignore the second (docs/games/htttx.md)
            with pytest.raises(IllegalMove):
                HTTTX.play(s, (first, a))
            continue
        child = HTTTX.play(s, HTTTX.random_move(s, rng))
        states.append(child)
        recorded.append(facts(child))
    for s, before in zip(states, recorded, strict=True):
        assert facts(s) == before
        board = s.board()  # seeks the shared board back to this state
        assert board.cells == before[0] and board.zobrist == before[2] and board.winner == before[3]
        assert set(board.legal_cells()) == (scratch_legal(list(s.stones), view) if s.winner is None else set())
        # replaying the history from scratch reaches the same state
        replay = root
        for m in s.history:
            replay = HTTTX.play(replay, m)
        assert replay == s and hash(replay) == hash(s)


def test_pickle_and_deepcopy_rebuild_an_independent_state() -> None:
    import copy
    import pickle

    rng = random.Random(4)
    s = HTTTX.new(view_distance=3, turn_limit=30)
    for _ in range(10):
        s = HTTTX.play(s, HTTTX.random_move(s, rng))
    for clone in (pickle.loads(pickle.dumps(s)), copy.deepcopy(s)):
        assert clone == s and clone.history == s.history and clone.turn_limit == 30
        HTTTX.play(clone, HTTTX.random_move(clone, rng))
        assert facts(clone) == facts(s)
    free = HTTTX.from_cells([(0, 0, 0), (5, 5, 1)], 0, view_distance=2)
    assert pickle.loads(pickle.dumps(free)) == free


def test_branches_played_from_threads_stay_consistent() -> None:
    import threading

    root = HTTTX.new(view_distance=2, win_distance=5)
    mid = HTTTX.play(root, ((1, 0), (2, 0)))
    results: dict[int, HtttxState] = {}

    def worker(seed: int) -> None:
        rng = random.Random(seed)
        s = mid
        for _ in range(60):
            if s.to_move_seat is None:
                break
            s = HTTTX.play(s, HTTTX.random_move(s, rng))
            assert dict(s.cells) == dict(s.board().cells)
        results[seed] = s

    threads = [threading.Thread(target=worker, args=(seed,)) for seed in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 4
    for s in results.values():
        replay = mid
        for m in s.history[1:]:
            replay = HTTTX.play(replay, m)
        assert replay == s
        assert s.zobrist == scratch_zobrist(list(s.stones))
        assert s.winner == scratch_winner(list(s.stones), 5)


def test_from_cells_mid_game_counts_turns_against_the_limit() -> None:
    import pickle

    s = HTTTX.from_cells([(0, 0, 0), (1, 0, 1), (2, 0, 1)], 0, turns=1, turn_limit=2)
    assert s.turns == 1 and s.history == () and HTTTX.ply(s) == 1
    end = HTTTX.play(s, ((0, 1), (0, 2)))
    out = HTTTX.outcome(end)
    assert out is not None and out.termination is Termination.TURN_LIMIT and end.history == (((0, 1), (0, 2)),)
    assert pickle.loads(pickle.dumps(end)) == end
    assert HTTTX.from_cells([(0, 0, 0)], 1, turns=5, turn_limit=5).to_move_seat is None
    with pytest.raises(ConfigError, match="turns"):
        HTTTX.from_cells([(0, 0, 0)], 1, turns=-1)


def test_the_json_cells_are_built_move_by_move_and_always_match_the_stones() -> None:
    """``to_json``'s cells (every spectator update carries them) are the parent's plus the stones of the move,
    equal to a view built from all the stones, for wins by a turn's first stone too; only the newest viewed
    position keeps its list, and a caller changing its copy changes nothing."""

    from hexarena.games.htttx.board import SIDES

    for seed in range(6):
        rng = random.Random(seed)
        state = HTTTX.new(win_distance=3 if seed % 2 else 4)
        root = state
        while HTTTX.outcome(state) is None:
            parent, state = state, HTTTX.play(state, HTTTX.random_move(state, rng))
            cells = HTTTX.to_json(state)["cells"]
            assert cells == [{"q": q, "r": r, "p": SIDES[s]} for (q, r), s in state.cells.items()]
            assert HTTTX.spectator_extras(state, None)["board"]["cells"] == cells
            assert parent._view is None or parent is root
            cells.append({"q": 99, "r": 99, "p": "x"})
            assert len(HTTTX.to_json(state)["cells"]) == len(state.cells)
