"""The C accelerator (``_chex`` via ``accel.py``) against the pure-Python reference ``HexGame``, move by move.

Both implementations are driven with identically seeded rngs, so ``random_move`` must consume the rng the same
way to stay in step; every state is compared slot by slot (private union-find included), and every illegal
move must raise the same exception class with the same message.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from typing import Any

import pytest

from hexarena.core import IllegalMove, InvalidMove
from hexarena.games.hex import GAME, RESIGN, SWAP, HexGame, HexMove, HexState, accel

pytestmark = pytest.mark.skipif(not accel.available(), reason="the _chex extension is not built")

REF = HexGame()
FAST = accel.make_game(accelerated=True) if accel.available() else REF

_SLOTS = ("size", "swap", "ply", "swapped", "last", "winner", "termination", "hash")


def assert_same_state(a: HexState, b: HexState) -> None:
    for name in _SLOTS:
        assert getattr(a, name) == getattr(b, name), name
        assert type(getattr(a, name)) is type(getattr(b, name)), name
    assert a._geo is b._geo
    assert bytes(a._cells) == bytes(b._cells)
    assert type(a._parent) is type(b._parent) and a._parent == b._parent
    assert a == b and hash(a) == hash(b)


def assert_same_view(a: HexState, b: HexState) -> None:
    assert FAST.to_move(a) == REF.to_move(b)
    assert FAST.outcome(a) == REF.outcome(b)
    assert FAST.legal(a) == REF.legal(b)
    assert FAST.to_json(a) == REF.to_json(b)


def outcome_of_call(game: HexGame, fn: str, *args: Any) -> tuple[str, Any]:
    """``('ok', result)`` or ``(exception class name, message)`` of ``game.<fn>(*args)``."""
    try:
        return "ok", getattr(game, fn)(*args)
    except (IllegalMove, InvalidMove, ValueError, IndexError, TypeError, OverflowError) as e:
        return type(e).__name__, str(e)


BAD_MOVES: list[Any] = [
    (0, 0),
    (-1, 0),
    (0, -1),
    (99, 0),
    (0, 99),
    (2**70, 0),
    (0, -(2**70)),
    (True, 0),
    (0, False),
    (1.0, 0),
    ("a", 1),
    (1,),
    (1, 2, 3),
    [0, 0],
    "a1",
    "SWAP",
    5,
    None,
    SWAP,
    RESIGN,
    "swap",
    "resign",
]


def check_moves_agree(fast: HexState, ref: HexState) -> None:
    """Every move in BAD_MOVES (plus an occupied cell) does the same thing on both implementations."""
    occupied = [(i // fast.size, i % fast.size) for i, v in enumerate(fast.cells) if v]
    for move in BAD_MOVES + occupied[:3]:
        got = outcome_of_call(FAST, "play", fast, move)
        want = outcome_of_call(REF, "play", ref, move)
        assert got[0] == want[0], move
        if got[0] == "ok":
            assert_same_state(got[1], want[1])
        else:
            assert got[1] == want[1], move


def play_pair(size: int, swap: bool, seed: int, resign_at: int | None = None) -> int:
    """One random game on both implementations in lock step; returns its length."""
    fast, ref = FAST.new(size=size, swap=swap), REF.new(size=size, swap=swap)
    rng_fast, rng_ref = random.Random(seed), random.Random(seed)
    assert_same_state(fast, ref)
    while True:
        assert_same_view(fast, ref)
        if REF.outcome(ref) is not None:
            assert outcome_of_call(FAST, "random_move", fast, rng_fast) == outcome_of_call(
                REF, "random_move", ref, rng_ref
            )
            check_moves_agree(fast, ref)
            return ref.ply
        if ref.ply in (0, 1, 2) or ref.ply % 17 == 0:
            check_moves_agree(fast, ref)
        move_fast: HexMove
        move_ref: HexMove
        if resign_at is not None and ref.ply == resign_at:
            move_fast = move_ref = RESIGN
        else:
            move_fast, move_ref = FAST.random_move(fast, rng_fast), REF.random_move(ref, rng_ref)
        assert move_fast == move_ref and type(move_fast) is type(move_ref)
        before = (bytes(fast._cells), bytes(fast._parent), fast.hash, fast.ply)
        nxt_fast, nxt_ref = FAST.play(fast, move_fast), REF.play(ref, move_ref)
        assert (bytes(fast._cells), bytes(fast._parent), fast.hash, fast.ply) == before  # never mutated
        assert_same_state(nxt_fast, nxt_ref)
        # States are interchangeable: the reference continues a C-made state identically and vice versa.
        assert_same_view(nxt_ref, nxt_fast)
        fast, ref = nxt_fast, nxt_ref


def test_game_uses_the_accelerated_class_unless_disabled() -> None:
    assert accel.enabled() == (os.environ.get(accel.PURE_PYTHON_ENV) != "1")
    assert (type(GAME) is accel.AcceleratedHexGame) == accel.enabled()
    assert isinstance(GAME, HexGame)
    assert type(FAST).play is not HexGame.play and type(FAST).random_move is not HexGame.random_move


def test_pure_python_env_var_forces_the_reference() -> None:
    code = "from hexarena.games.hex import GAME, HexGame, accel; print(type(GAME) is HexGame, accel.enabled())"
    env = {**os.environ, accel.PURE_PYTHON_ENV: "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True, timeout=120)
    assert out.stdout.split() == ["True", "False"]


@pytest.mark.parametrize("size", [1, 2, 3, 4, 5, 7, 11, 13, 15])
def test_random_games_agree_move_by_move(size: int) -> None:
    games = 150 if size <= 7 else 50
    lengths = [play_pair(size, swap=seed % 2 == 0, seed=1000 * size + seed) for seed in range(games)]
    assert all(1 <= n <= size * size + 1 for n in lengths)


def test_boards_beyond_the_byte_union_find_fall_back_and_agree() -> None:
    # 16x16 and up keep the union-find in array('H'): the C code hands those to the reference.
    for size, seed in ((16, 1), (19, 2), (26, 3)):
        play_pair(size, swap=True, seed=seed)


def test_swap_and_resign_agree() -> None:
    swapped = 0
    for seed in range(60):
        rng = random.Random(seed)
        fast, ref = FAST.new(size=5), REF.new(size=5)
        fast, ref = FAST.play(fast, (2, 2)), REF.play(ref, (2, 2))
        assert FAST.legal(fast)[-1] is SWAP
        move_fast, move_ref = FAST.random_move(fast, rng), REF.random_move(ref, random.Random(seed))
        assert move_fast == move_ref
        swapped += move_fast == SWAP
        play_pair(5, swap=True, seed=seed, resign_at=seed % 7)
    assert swapped > 0  # random_move really offers SWAP at ply 1
    s_fast = FAST.play(FAST.play(FAST.new(size=5), (0, 0)), SWAP)
    s_ref = REF.play(REF.play(REF.new(size=5), (0, 0)), SWAP)
    assert_same_state(s_fast, s_ref)
    s_fast, s_ref = FAST.play(s_fast, (4, 4)), REF.play(s_ref, (4, 4))
    assert_same_state(s_fast, s_ref)
    assert s_fast.cells[24] == 2  # seat 0 plays White after the swap


class ScriptedRng(random.Random):
    """An rng whose ``random()`` replays a script, including values a real one never returns."""

    def __init__(self, values: list[float]) -> None:
        super().__init__(0)
        self.values = list(values)

    def random(self) -> float:
        return self.values.pop(0)


@pytest.mark.parametrize(
    "values",
    [
        [0.0],
        [0.999999999],
        [1.0, 0.5],  # index n2 is an edge node: occupied, so sampling goes on
        [1.02, 0.5],  # index past the edge nodes
        [-0.01, 0.5],  # negative: Python indexes from the end
        [-0.3],
        [1e30],  # beyond any index
        [float("nan")],
        [float("inf")],
        [],  # the script runs dry: the rng's own error
    ],
)
def test_odd_rngs_behave_like_the_reference(values: list[float]) -> None:
    fast, ref = FAST.new(size=5, swap=False), REF.new(size=5, swap=False)
    got = outcome_of_call(FAST, "random_move", fast, ScriptedRng(values))
    want = outcome_of_call(REF, "random_move", ref, ScriptedRng(values))
    assert got == want


def test_unusual_arguments_go_to_the_reference() -> None:
    s_fast, s_ref = FAST.new(size=5), REF.new(size=5)

    class Cell(tuple[int, int]):
        pass

    got = outcome_of_call(FAST, "play", s_fast, Cell((1, 2)))
    assert got == outcome_of_call(REF, "play", s_ref, Cell((1, 2)))
    assert got[0] == "InvalidMove"  # the reference wants an exact tuple
    for fn, args in (("play", (None, (0, 0))), ("to_move", (None,)), ("outcome", (None,)), ("legal", (None,))):
        with pytest.raises(AttributeError):
            getattr(FAST, fn)(*args)
        with pytest.raises(AttributeError):
            getattr(REF, fn)(*args)
    with pytest.raises(TypeError):
        FAST.play(s_fast)  # type: ignore[call-arg]
