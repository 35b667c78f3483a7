"""Property tests: play/undo restores the mutable board, states are never mutated, random games end."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from hexarena.games.hexdots import GAME, DotsBoard, DotsState, geometry

sizes = st.sampled_from([(3, 3), (3, 4), (5, 5), (5, 7), (7, 7), (9, 5)])


def snapshot(b: DotsBoard) -> tuple[object, ...]:
    return (
        bytes(b.line_owner),
        bytes(b.hex_owner),
        bytes(b.hex_count),
        bytes(b.hex_blocked),
        b.alive,
        b.turn,
        tuple(b.scores),
        frozenset(b.legal_ids()),
    )


@settings(max_examples=60, deadline=None)
@given(size=sizes, seed=st.integers(0, 2**32 - 1), cut=st.floats(0.0, 1.0))
def test_undo_restores_every_earlier_position(size: tuple[int, int], seed: int, cut: float) -> None:
    rng = random.Random(seed)
    board = DotsBoard(geometry(*size))
    snaps = [snapshot(board)]
    while not board.over:
        board.play(board.random_id(rng))
        snaps.append(snapshot(board))
    # Undo part of the game, checking each position on the way back, then replay differently.
    back = int(cut * (len(snaps) - 1))
    for i in range(back):
        board.undo()
        assert snapshot(board) == snaps[-2 - i]
    while not board.over:
        board.play(board.random_id(rng))
    assert board.n_legal() == 0


@settings(max_examples=40, deadline=None)
@given(size=sizes, seed=st.integers(0, 2**32 - 1))
def test_immutable_states_and_board_agree(size: tuple[int, int], seed: int) -> None:
    rng = random.Random(seed)
    s = GAME.new(rows=size[0], cols=size[1])
    board = s.board()
    history: list[tuple[DotsState, tuple[object, ...]]] = []
    while GAME.to_move(s) is not None:
        history.append((s, (s.line_owner, s.hex_owner, s.hex_count, s.hex_blocked, s.alive, s.turn, s.scores)))
        lid = board.random_id(rng)
        mv = s.geo.line_coords[lid]
        nxt = GAME.play(s, mv)
        caps = board.play(lid)
        assert tuple(nxt.last_captured) == caps
        assert (nxt.line_owner, nxt.hex_owner, nxt.alive, nxt.turn) == (
            bytes(board.line_owner),
            bytes(board.hex_owner),
            board.alive,
            board.turn,
        )
        assert nxt.n_legal == board.n_legal() or nxt.over
        # The rebuilt board of any state equals the incrementally maintained one.
        if nxt.ply % 9 == 0:
            assert snapshot(nxt.board()) == snapshot(board)
        s = nxt
    # No earlier state changed while the game was played on top of it.
    for old, fields in history:
        assert (
            old.line_owner,
            old.hex_owner,
            old.hex_count,
            old.hex_blocked,
            old.alive,
            old.turn,
            old.scores,
        ) == fields
    assert board.over and GAME.outcome(s) is not None


@settings(max_examples=30, deadline=None)
@given(size=st.tuples(st.sampled_from([3, 5, 7, 9, 11]), st.integers(3, 12)), seed=st.integers(0, 10**9))
def test_random_games_end_with_a_consistent_score(size: tuple[int, int], seed: int) -> None:
    rng = random.Random(seed)
    s = GAME.new(rows=size[0], cols=size[1])
    limit = s.geo.n_lines
    while GAME.to_move(s) is not None:
        s = GAME.play(s, GAME.random_move(s, rng))
        assert s.ply <= limit
    assert sum(s.scores) == sum(1 for x in s.hex_owner if x) >= 1
    captured = [h for h, _ in s.captured()]
    # Captured centres are never neighbours, and every other hexagon touches a captured one (nothing left).
    for h in range(s.geo.n_hexes):
        near = set(s.geo.hex_adjacent[h]) & set(captured)
        if h in captured:
            assert not near
        else:
            assert near
    out = GAME.outcome(s)
    assert out is not None
    a, b = s.scores
    assert out.winner == (None if a == b else 0 if a > b else 1)
