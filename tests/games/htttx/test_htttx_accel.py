"""The C Board against the pure-Python reference: the same operations, compared after every step.

Every observable thing must agree: results, legal cells in list order (random choices depend on it), cells and
stones in order, Zobrist hash, winner and win line, and for errors the exception type and reason text.
"""

from __future__ import annotations

import copy
import os
import pickle
import random
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hexarena.core.errors import IllegalMove
from hexarena.games.htttx import accel
from hexarena.games.htttx.board import COORD_LIMIT, PyBoard

_cboard = pytest.importorskip("hexarena_sdk.htttx._cboard", reason="the C extension is not built")
CBoard: Any = _cboard.Board

HUGE = [10**12, -(10**12), 2**31, -(2**31), 2**32 + 3, 2**63 - 1, -(2**63), 2**63, 2**64 + 1, 10**100, -(10**100)]


def call(board: Any, name: str, *args: Any) -> tuple[Any, ...]:
    """The result of a method, or the type and text of what it raised."""
    try:
        return ("ok", getattr(board, name)(*args))
    except Exception as exc:
        return ("err", type(exc), str(exc))


def snapshot(b: Any) -> tuple[Any, ...]:
    return (
        b.legal_cells(),
        list(b.cells.items()),
        list(b.stones),
        b.zobrist,
        b.winner,
        b.win_line,
        b.legal_count(),
        len(b),
        repr(b),
        b.view_distance,
        b.win_distance,
    )


class Pair:
    """A Python and a C board driven in lockstep; every call is checked to agree."""

    def __init__(self, view: int, win: int) -> None:
        self.py: Any = PyBoard(view, win)
        self.c: Any = CBoard(view, win)

    def same(self, name: str, *args: Any) -> tuple[Any, ...]:
        a = call(self.py, name, *args)
        b = call(self.c, name, *args)
        assert a == b, (name, args)
        return a

    def same_rng(self, name: str, seed: int) -> tuple[Any, ...]:
        """A method taking an rng: both get an identical one and must consume it identically."""
        r1, r2 = random.Random(seed), random.Random(seed)
        a = call(self.py, name, r1)
        b = call(self.c, name, r2)
        assert a == b, (name, seed)
        assert r1.random() == r2.random()
        return a

    def check(self) -> None:
        assert snapshot(self.py) == snapshot(self.c)


def drive(pair: Pair, rng: random.Random, steps: int) -> None:
    """Random place / setup / undo / query sequences, legal and illegal, compared step by step."""
    for _ in range(steps):
        op = rng.random()
        seat = rng.randrange(2)
        stones = pair.py.stones
        if op < 0.4:
            got = pair.same_rng("random_legal", rng.randrange(10**9))
            if got[0] == "ok":
                pair.same("place", *got[1], seat)
        elif op < 0.55:
            # near a stone, sometimes occupied, sometimes beyond the view distance
            q0, r0, _ = stones[rng.randrange(len(stones))] if stones else (0, 0, 0)
            d = pair.py.view_distance + 2
            pair.same("place", q0 + rng.randint(-d, d), r0 + rng.randint(-d, d), seat)
        elif op < 0.6:
            pair.same("setup", rng.randint(-40, 40), rng.randint(-40, 40), seat)
        elif op < 0.75:
            pair.same("undo")
        elif op < 0.8:
            pair.same_rng("random_pair", rng.randrange(10**9))
        elif op < 0.85:
            cells = pair.py.legal_cells()
            q, r = cells[rng.randrange(len(cells))] if cells else (rng.randint(-20, 20), rng.randint(-20, 20))
            pair.same("newly_covered", q, r)
        elif op < 0.9:
            q, r = rng.randint(-15, 15), rng.randint(-15, 15)
            pair.same("line_length", q, r, seat)
            pair.same("is_legal", q, r)
            pair.same("seat_at", q, r)
        elif op < 0.93:
            keep_py, keep_c = pair.py, pair.c
            pair.py, pair.c = pair.py.copy(), pair.c.copy()
            pair.check()
            before = snapshot(keep_c)
            pair.same("undo")
            assert snapshot(keep_c) == before == snapshot(keep_py)
        else:
            got = pair.same_rng("random_legal", rng.randrange(10**9))
            if got[0] == "ok":
                pair.same("newly_covered", *got[1])
        pair.check()


@pytest.mark.parametrize(("view", "win"), [(8, 6), (8, 3), (1, 2), (2, 3), (3, 4), (5, 5), (13, 4)])
def test_random_sequences_agree_step_by_step(view: int, win: int) -> None:
    # the widest view's every-step snapshot (thousands of legal cells) costs most: one sequence of it, three of
    # the others
    for seed in range(1 if view > 8 else 3):
        pair = Pair(view, win)
        drive(pair, random.Random(seed * 1000 + view * 10 + win), 400)


def test_full_random_games_agree() -> None:
    """Games to a natural win through random_legal + place, then undone to the empty board."""
    for seed in range(2):
        pair = Pair(8, 5)
        pair.same("place", 0, 0, 0)
        rng = random.Random(seed)
        placed = 0
        while pair.py.winner is None:
            got = pair.same_rng("random_legal", rng.randrange(10**9))
            pair.same("place", *got[1], (placed // 2 + 1) % 2)
            placed += 1
            if placed % 500 == 0:
                pair.check()
        pair.check()
        assert pair.c.win_line is not None and len(pair.c.win_line) >= 5
        for _ in range(len(pair.py.stones)):
            pair.same("undo")
        pair.check()
        assert pair.c.legal_cells() == [(0, 0)] and pair.c.zobrist == 0


def test_errors_agree() -> None:
    pair = Pair(8, 6)
    pair.same("undo")
    pair.same("place", 0, 0, 0)
    pair.same("place", 0, 0, 1)  # occupied
    pair.same("place", 9, 0, 1)  # out of view
    pair.same("setup", 0, 0, 1)  # occupied
    for q, r in [(0, 1), (0, 2), (0, 3), (0, 4), (0, 5)]:
        pair.same("place", q, r, 0)
    assert pair.c.winner == 0
    pair.same("place", 3, 3, 1)  # already won
    pair.same("setup", 30, 30, 1)
    pair.same_rng("random_legal", 1)
    pair.same_rng("random_pair", 1)
    pair.check()
    with pytest.raises(IllegalMove, match=r"cell \(3, 3\) cannot be played: the game is already won by x"):
        pair.c.place(3, 3, 1)
    for bad in [(0, 6), (1, 1), (0, 2), (-1, 5)]:
        assert call(PyBoard, "__call__", *bad) == call(CBoard, "__call__", *bad)
    assert call(CBoard(), "place", 1, 1, 2)[1] is ValueError  # a seat is 0 or 1 (the Python board does not check)


def test_empty_board_agrees() -> None:
    pair = Pair(8, 6)
    pair.check()
    pair.same("is_legal", 1000, -1000)
    pair.same_rng("random_legal", 3)
    pair.same_rng("random_pair", 3)
    pair.same("newly_covered", 2, 2)  # KeyError with the same key
    pair.same("place", 500, -7, 1)  # the first stone goes anywhere
    pair.check()


def test_huge_coordinates_are_rejected_cleanly() -> None:
    """Anything beyond the packing range is an IllegalMove naming the cell, never a crash or a wrapped key."""
    pair = Pair(8, 6)
    pair.same("place", 0, 0, 0)
    for big in [*HUGE, COORD_LIMIT, -COORD_LIMIT]:
        for q, r in [(big, 0), (0, big), (big, big), (big, -big)]:
            pair.same("place", q, r, 1)
            pair.same("setup", q, r, 1)
            pair.same("is_legal", q, r)
            got = call(pair.c, "place", q, r, 1)
            assert got[1] is IllegalMove and f"cell ({q}, {r})" in got[2]
            assert pair.c.line_length(q, r, 0) == (1, 1, 1)
            assert pair.c.seat_at(q, r) is None
            with pytest.raises(KeyError):
                pair.c.newly_covered(q, r)
    pair.check()


def inside(cell: tuple[int, int]) -> bool:
    return all(-COORD_LIMIT < v < COORD_LIMIT for v in cell)


@pytest.mark.parametrize("view", [1, 3, 8])
def test_no_cell_beyond_the_coordinate_limit_is_ever_a_candidate(view: int) -> None:
    """Stones next to the limit: every listed legal cell can be played, and nothing offers a cell beyond it (a bot
    drawing a random legal cell near the far corner of a setup must never draw one that place refuses)."""
    pair = Pair(view, 4)
    corners = [(COORD_LIMIT - 1, -(COORD_LIMIT - 1)), (-(COORD_LIMIT - 1), COORD_LIMIT - 1)]
    corners += [(COORD_LIMIT - 1, COORD_LIMIT - 1 - view), (-(COORD_LIMIT - 1), -(COORD_LIMIT - 1) + view)]
    for seat, (q, r) in enumerate(corners):
        pair.same("setup", q, r, seat % 2)
    pair.same("place", COORD_LIMIT - 2, -(COORD_LIMIT - 1), 0)  # a played stone at the edge covers nothing beyond
    pair.same("setup", COORD_LIMIT - 1 - view, 0, 1)  # one just inside the edge covers every cell around it
    pair.check()
    for board in (pair.py, pair.c):
        cells = board.legal_cells()
        assert cells and all(inside(c) for c in cells)
        assert board.legal_count() == len(cells)
        rng = random.Random(view)
        for _ in range(200):
            assert inside(board.random_legal(rng))
            assert all(inside(c) for c in board.random_pair(rng))
        for q, r in cells:
            assert board.is_legal(q, r)
            assert all(inside(c) for c in board.newly_covered(q, r))
    for q, r in pair.py.legal_cells():
        pair.same("newly_covered", q, r)
        pair.same("place", q, r, 0)
        pair.same("undo")
    pair.same("place", COORD_LIMIT, -(COORD_LIMIT - 1), 1)
    drive(pair, random.Random(7), 100)
    for board in (pair.py, pair.c):
        assert all(inside(c) for c in board.legal_cells())


def test_pickle_and_copies_rebuild_the_same_board() -> None:
    pair = Pair(8, 4)
    drive(pair, random.Random(11), 200)
    b = pair.c
    for clone in (pickle.loads(pickle.dumps(b)), copy.copy(b), copy.deepcopy(b), b.copy()):
        assert type(clone) is type(b)
        assert snapshot(clone) == snapshot(b)
        # same undo history: undoing everything agrees step by step
        twin = b.copy()
        while len(clone):
            clone.undo()
            twin.undo()
            assert snapshot(clone) == snapshot(twin)
    assert snapshot(b) == snapshot(pair.py)


def test_place_all_and_accessors() -> None:
    pair = Pair(8, 6)
    stones = [(0, 0, 0), (1, 0, 1), (2, -1, 1), (0, 3, 0)]
    pair.same("place_all", stones)
    pair.same("place_all", [(0, 0, 1)])
    pair.check()
    assert pair.c.cells is pair.c.cells and pair.c.stones is pair.c.stones  # the same live objects


def test_large_view_distances_go_to_the_fallback() -> None:
    seen: list[tuple[Any, ...]] = []

    def fake(*args: Any, **kwargs: Any) -> str:
        seen.append((args, kwargs))
        return "fallback"

    _cboard.set_fallback(fake)
    try:
        assert CBoard(_cboard.MAX_VIEW + 1, 6) == "fallback"
        assert CBoard(win_distance=5, view_distance=10**30) == "fallback"
        assert type(CBoard(_cboard.MAX_VIEW, 6)) is CBoard
    finally:
        _cboard.set_fallback(PyBoard)
    assert seen == [((_cboard.MAX_VIEW + 1, 6), {}), ((), {"win_distance": 5, "view_distance": 10**30})]


_coord = st.one_of(st.integers(-12, 12), st.sampled_from(HUGE), st.integers())
_op = st.tuples(
    st.sampled_from(["place", "setup", "undo", "line", "legal", "newly"]), _coord, _coord, st.integers(0, 1)
)


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 9), st.integers(2, 6), st.lists(_op, max_size=60))
def test_hypothesis_operations_agree(view: int, win: int, ops: list[tuple[str, int, int, int]]) -> None:
    pair = Pair(view, win)
    for kind, q, r, seat in ops:
        inside = abs(q) < COORD_LIMIT and abs(r) < COORD_LIMIT
        if kind in ("place", "setup"):
            pair.same(kind, q, r, seat)
        elif kind == "undo":
            pair.same("undo")
        elif kind == "legal":
            pair.same("is_legal", q, r)
        elif inside:  # the pure board packs keys without a range check here: compare where keys are unique
            pair.same(
                "line_length" if kind == "line" else "newly_covered", *((q, r, seat) if kind == "line" else (q, r))
            )
        pair.check()


def test_accel_picks_c_and_the_env_var_forces_python() -> None:
    from hexarena.games.htttx import Board

    if not accel.FORCED_PURE:
        assert accel.IMPLEMENTATION == "C" and Board is CBoard
    code = "from hexarena.games.htttx import accel, Board; print(accel.IMPLEMENTATION, Board.__name__, accel.Board is Board)"
    env = {**os.environ, "HEXARENA_PURE_PYTHON": "1", "PYTHONPATH": os.pathsep.join(sys.path)}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60, check=True)
    assert out.stdout.split() == ["Python", "PyBoard", "True"]
