"""The mutable Board: rules, exact undo, and agreement with from-scratch recomputation."""

from __future__ import annotations

import random

import pytest
from htttx_helpers import scratch_legal, scratch_winner, scratch_zobrist, splitmix64
from hypothesis import given, settings
from hypothesis import strategies as st

from hexarena.core.errors import IllegalMove
from hexarena.games.htttx import Board, hex_distance, zobrist_key


def snapshot(b: Board) -> tuple:
    """Everything a place/undo round trip must restore, including the order of the legal list."""
    return (
        list(b.legal_cells()),
        dict(b.cells),
        list(b.stones),
        b.zobrist,
        b.winner,
        b.win_line,
        b.legal_count(),
    )


def origin_board(view: int = 8, win: int = 6) -> Board:
    b = Board(view, win)
    b.place(0, 0, 0)
    return b


def test_hex_distance() -> None:
    assert hex_distance(0, 0, 0, 0) == 0
    assert hex_distance(0, 0, 3, -3) == 3
    assert hex_distance(0, 0, 4, 4) == 8
    assert hex_distance(2, -1, -1, 2) == 3
    assert hex_distance(-5, 0, 5, 0) == 10


def test_origin_covers_a_hexagon_of_radius_8() -> None:
    b = origin_board()
    assert b.legal_count() == 3 * 8 * 9
    assert set(b.legal_cells()) == scratch_legal(b.stones, 8)


@pytest.mark.parametrize(
    ("cell", "legal"),
    [((8, 0), True), ((9, 0), False), ((4, 4), True), ((5, 4), False), ((-8, 8), True), ((0, -9), False)],
)
def test_view_distance_edge(cell: tuple[int, int], legal: bool) -> None:
    b = origin_board()
    assert b.is_legal(*cell) is legal
    if legal:
        b.place(*cell, 1)
        assert b.cells[cell] == 1
    else:
        with pytest.raises(IllegalMove, match=rf"cell \({cell[0]}, {cell[1]}\) is more than 8 from every stone"):
            b.place(*cell, 1)
        assert len(b.stones) == 1


def test_second_stone_is_checked_against_the_first() -> None:
    b = origin_board()
    assert not b.is_legal(16, 0)
    b.place(8, 0, 1)
    assert b.is_legal(16, 0)
    b.place(16, 0, 1)
    assert not b.is_legal(25, 0)


def test_occupied_and_won_boards_reject() -> None:
    b = origin_board()
    with pytest.raises(IllegalMove, match=r"cell \(0, 0\) is occupied"):
        b.place(0, 0, 1)
    for q in range(1, 6):
        b.place(q, 0, 0)
    assert b.winner == 0
    with pytest.raises(IllegalMove, match="already won"):
        b.place(0, 3, 1)
    assert b.legal_count() == 0 and not b.is_legal(0, 3)


@pytest.mark.parametrize("axis", [(1, 0), (0, 1), (1, -1)])
def test_six_in_a_row_wins_on_every_axis(axis: tuple[int, int]) -> None:
    b = origin_board()
    dq, dr = axis
    # O stones beside the line must not count, the 5th X stone must not win
    for i in (2, 4, -1):
        b.place(i * dq + dr, i * dr - dq, 1)
    order = [3, 1, 5, 2]
    for i in order:
        assert b.place(i * dq, i * dr, 0) is False
    assert b.winner is None
    assert b.place(4 * dq, 4 * dr, 0) is True
    assert b.winner == 0
    assert b.win_line is not None and set(b.win_line) == {(i * dq, i * dr) for i in range(6)}
    assert scratch_winner(b.stones, 6) == 0


def test_longer_line_wins_and_reports_the_whole_line() -> None:
    b = origin_board()
    for q in (1, 2, 4, 5, 6):
        assert not b.place(q, 0, 0)
    assert b.place(3, 0, 0)
    assert b.win_line == tuple((q, 0) for q in range(7))


def test_the_other_seat_breaks_a_line() -> None:
    b = origin_board()
    for q in (1, 2, 4, 5, 6):
        b.place(q, 0, 0)
    b.place(3, 0, 1)
    assert b.winner is None
    assert b.line_length(7, 0, 0) == (4, 1, 1)
    assert b.line_length(3, 1, 1) == (1, 2, 1)


def test_undo_restores_everything_exactly() -> None:
    rng = random.Random(7)
    b = origin_board(view=3, win=4)
    history = [snapshot(b)]
    seat = 1
    while b.winner is None:
        q, r = b.random_legal(rng)
        b.place(q, r, seat)
        seat ^= 1
        history.append(snapshot(b))
    while len(b.stones) > 1:
        history.pop()
        b.undo()
        assert snapshot(b) == history[-1]
    b.undo()
    assert b.stones == [] and b.zobrist == 0 and b.legal_count() == 1
    with pytest.raises(IndexError):
        b.undo()


def test_zobrist_is_deterministic_and_position_only() -> None:
    assert zobrist_key(0, 0, 0) == splitmix64(0)
    assert zobrist_key(-3, 5, 1) == splitmix64(((-3 & 0xFFFFFFFF) << 33) | (5 << 1) | 1)
    a = origin_board()
    for q, r, s in [(1, 0, 1), (2, 0, 1), (0, 1, 0)]:
        a.place(q, r, s)
    b = origin_board()
    for q, r, s in [(0, 1, 0), (2, 0, 1), (1, 0, 1)]:
        b.place(q, r, s)
    assert a.zobrist == b.zobrist == scratch_zobrist(a.stones)
    c = origin_board()
    for q, r, s in [(1, 0, 0), (2, 0, 1), (0, 1, 1)]:
        c.place(q, r, s)
    assert c.zobrist != a.zobrist


def test_copy_is_independent() -> None:
    b = origin_board()
    b.place(1, 0, 1)
    c = b.copy()
    c.place(2, 0, 1)
    c.undo()
    c.undo()
    assert len(b.stones) == 2 and b.cells == {(0, 0): 0, (1, 0): 1}
    assert set(b.legal_cells()) == scratch_legal(b.stones, 8)
    assert set(c.legal_cells()) == scratch_legal(c.stones, 8)


def test_setup_ignores_view_distance_but_not_occupancy() -> None:
    b = Board()
    b.setup(0, 0, 0)
    b.setup(30, 0, 1)
    assert set(b.legal_cells()) == scratch_legal(b.stones, 8)
    with pytest.raises(IllegalMove, match="occupied"):
        b.setup(30, 0, 0)
    b.undo()
    assert set(b.legal_cells()) == scratch_legal(b.stones, 8)


def test_newly_covered_and_random_pair() -> None:
    rng = random.Random(3)
    b = origin_board(view=4)
    for _ in range(30):
        q, r = b.random_legal(rng)
        before = set(b.legal_cells())
        new = set(b.newly_covered(q, r))
        b.place(q, r, len(b.stones) % 2)
        assert new == set(b.legal_cells()) - before
        (q1, r1), (q2, r2) = b.random_pair(rng)
        assert b.is_legal(q1, r1)
        b.place(q1, r1, 0)
        assert b.is_legal(q2, r2)
        b.undo()
        if b.winner is not None:
            break


def test_empty_board_accepts_any_first_stone() -> None:
    b = Board()
    assert b.legal_cells() == [(0, 0)] and b.is_legal(5, 5)
    b.place(5, 5, 0)
    assert set(b.legal_cells()) == scratch_legal(b.stones, 8)


ops = st.lists(st.tuples(st.sampled_from(["place", "place", "place", "undo"]), st.integers(0, 10**9)), max_size=60)


@settings(max_examples=60, deadline=None)
@given(view=st.integers(1, 4), win=st.integers(2, 5), ops=ops)
def test_random_place_undo_matches_scratch(view: int, win: int, ops: list[tuple[str, int]]) -> None:
    b = origin_board(view, win)
    for op, n in ops:
        if op == "undo" and len(b.stones) > 1:
            b.undo()
        elif op == "place" and b.winner is None:
            cells = sorted(b.legal_cells())
            q, r = cells[n % len(cells)]
            won = b.place(q, r, n % 2)
            assert won == (b.winner is not None)
        legal = set(b.legal_cells())
        if b.winner is None:
            assert legal == scratch_legal(b.stones, view)
            assert b.legal_count() == len(legal)
        assert b.zobrist == scratch_zobrist(b.stones)
        assert b.winner == scratch_winner(b.stones, win)
        assert b.cells == {(q, r): s for q, r, s in b.stones}
