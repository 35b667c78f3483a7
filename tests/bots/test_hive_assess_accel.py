"""The alpha-beta bot's leaf evaluation in C (``_chive.assess``) against the pure-Python ``assess_py``.

Positions come from seeded random games with every expansion set (won ones included); at each the C value, the
dispatching ``assess`` on a ``CBoard`` and on a ``PyBoard``, and ``assess_py`` must be the same number for both
colours. Then the search itself: ``AlphaBeta`` at a fixed depth must pick the same move with the same score
after the same number of nodes whichever evaluation it uses.
"""

from __future__ import annotations

import random

import pytest

from hexarena.bots.hive.alphabeta import AlphaBeta
from hexarena.bots.hive.evaluation import C_WEIGHTS, WIN, assess, assess_py
from hexarena.games.hive import accel
from hexarena.games.hive.board import CBoard, K, PyBoard
from hive_positions import EXPANSIONS, walk

pytestmark = pytest.mark.skipif(not accel.available(), reason="the _chive extension is not built")


def _py(b: CBoard) -> PyBoard:
    p = PyBoard(b.expansions)
    p.stacks, p.pos, p.ply, p.stunned, p.zh = dict(b.stacks), list(b.pos), b.ply, b.stunned, b.zh
    return p


@pytest.mark.parametrize("expansions", EXPANSIONS)
def test_c_and_python_assess_agree_on_random_positions(expansions: str) -> None:
    assert accel.chive is not None
    positions = walk(expansions, seed=len(expansions) * 31 + 5, games=5, plies=120)
    assert len(positions) > 400
    values = set()
    for b in positions:
        white = accel.chive.assess(b.stacks, b.pos, b.kinds, C_WEIGHTS)
        assert white is not None, "the C code handed a game position back"
        ref = _py(b)
        for color in (0, 1):
            want = assess_py(ref, color)
            assert assess(b, color) == want == (white if color == 0 else -white), (expansions, b.ply, color)
            assert assess(ref, color) == want
        values.add(white)
    assert len(values) > 50  # the positions differ in what the evaluation sees
    assert any(len(st) > 1 for b in positions for st in b.stacks.values())  # beetles climbed


def test_won_positions_and_stacked_queens_agree() -> None:
    """Surrounded queens (the ``WIN`` score, a draw counts white's queen first) and buried queens."""
    positions = [b for e in EXPANSIONS for b in walk(e, seed=3, games=6, plies=160)]
    won = [b for b in positions if b.result() >= 0]
    buried = [b for b in positions if any(len(b.stacks[b.pos[c << 4]]) > 1 for c in (0, 1) if b.pos[c << 4])]
    assert len(won) >= 4 and buried
    for b in won + buried:
        for color in (0, 1):
            assert assess(b, color) == assess_py(_py(b), color)
    assert {abs(assess(b, 0)) for b in won} == {WIN}


def test_a_board_the_c_code_cannot_take_falls_back_to_python() -> None:
    """A hand-built hive wider than the C grid: ``_chive.assess`` answers None and ``assess`` runs Python."""
    assert accel.chive is not None
    b = CBoard("")
    b.play((0, 0))
    b.play((16, 1))
    b.play((1, 2))
    far = 200 * K
    b.stacks[far] = (17,)
    b.pos[17] = far
    assert accel.chive.assess(b.stacks, b.pos, b.kinds, C_WEIGHTS) is None
    assert assess(b, 0) == assess_py(_py(b), 0) == -assess(b, 1)


def test_bad_weights_are_refused_with_the_reason() -> None:
    assert accel.chive is not None
    b = CBoard("")
    with pytest.raises(ValueError, match="tuple of 17 ints"):
        accel.chive.assess(b.stacks, b.pos, b.kinds, C_WEIGHTS[:-1])
    with pytest.raises(ValueError, match="out of range"):
        accel.chive.assess(b.stacks, b.pos, b.kinds, (1 << 50, *C_WEIGHTS[1:]))


def test_alphabeta_picks_the_same_move_with_either_evaluation() -> None:
    rng = random.Random(11)
    positions = []
    for expansions in ("", "MLP", "LP"):
        walked = walk(expansions, seed=rng.randrange(1000), games=2, plies=40)
        positions += [b for b in walked[14::6] if b.result() < 0]
    assert len(positions) >= 8
    for b in positions:
        runs = []
        for leaf in (assess, assess_py):
            search = AlphaBeta(None, 2, random.Random(0), leaf)
            move = search.best_move(b.copy())
            runs.append((move, search.score, search.nodes))
        assert runs[0] == runs[1], (b.expansions, b.ply)
