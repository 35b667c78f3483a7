"""The mutable core against slow, obviously-right reference computations on random positions."""

from __future__ import annotations

import random

import pytest
from hive_reference import connected

from hexarena.games.hive.board import DIRS, PASS, Board, zkey


def _positions(expansions: str, seed: int, games: int = 4, plies: int = 80) -> list[Board]:
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        b = Board(expansions)
        for _ in range(plies):
            moves = b.moves()
            if not moves:
                break
            b.play(rng.choice(moves))
            out.append(b.copy())
    return out


@pytest.mark.parametrize("expansions", ["", "MLP"])
def test_cut_cells_match_brute_force(expansions: str) -> None:
    for b in _positions(expansions, 1):
        cells = set(b.stacks)
        cut = b.cut_cells()
        for c in cells:
            if len(b.stacks[c]) == 1:
                assert (c in cut) == (not connected(cells - {c}))
            else:
                assert c not in cut


@pytest.mark.parametrize("expansions", ["", "MLP"])
def test_incremental_hash_and_placements_match_recomputation(expansions: str) -> None:
    for b in _positions(expansions, 2):
        zh = 0
        for c, st in b.stacks.items():
            for level, pid in enumerate(st):
                zh ^= zkey(pid, c, level)
        assert zh == b.zh
        assert connected(set(b.stacks))  # the one-hive rule held along the whole game
        for pid, where in enumerate(b.pos):
            if where is not None:
                assert pid in b.stacks[where]
        if b.ply >= 2 and b.result() < 0:
            color = b.ply & 1
            own = {c + d for c, st in b.stacks.items() if st[-1] >> 4 == color for d in DIRS}
            bad = {c + d for c, st in b.stacks.items() if st[-1] >> 4 != color for d in DIRS}
            assert set(b.placement_cells()) == own - bad - set(b.stacks)


def test_every_move_keeps_one_hive_and_undo_restores() -> None:
    for b in _positions("MLP", 3, games=2, plies=70)[::5]:
        before = (dict(b.stacks), list(b.pos), b.ply, b.stunned, b.zh)
        for m in b.moves():
            b.play(m)
            assert connected(set(b.stacks)), m
            if m != PASS:
                assert b.stunned == m[0]
            b.undo()
            assert (dict(b.stacks), list(b.pos), b.ply, b.stunned, b.zh) == before
        assert b.count_moves() == len(b.moves()) == len(set(b.moves()))


def test_pillbug_stun_rules_in_random_games() -> None:
    """The piece moved last can't move or be thrown on the next turn; a thrown enemy piece stays put a turn."""
    rng = random.Random(8)
    throws_of_enemy = would_move = 0
    for _ in range(12):
        b = Board("P")
        for _ in range(120):
            moves = b.moves()
            if not moves:
                break
            color = b.ply & 1
            if b.stunned >= 0:
                assert all(pid != b.stunned for pid, _ in moves)  # neither moved nor thrown
            for pid, dest in moves:
                if pid >= 0 and pid >> 4 != color and b.pos[pid] is not None:  # a throw of an enemy piece
                    throws_of_enemy += 1
                    b.play((pid, dest))
                    assert all(p != pid for p, _ in b.moves())
                    b.stunned = -1  # without the stun, the victim would often have had a move
                    would_move += any(p == pid for p, _ in b.moves())
                    b.stunned = pid
                    b.undo()
            b.play(rng.choice(moves))
    assert throws_of_enemy > 10 and would_move > 0
