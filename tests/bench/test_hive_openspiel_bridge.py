"""The bench's OpenSpiel bridge keeps both Hive engines on the same position, whatever numbers OpenSpiel uses.

Games are driven from both sides: random OpenSpiel actions (which place e.g. ``wA3`` before ``wA1``) read into
our moves, and random moves of ours written as OpenSpiel actions. After every ply the two legal-move sets must
agree, keyed by what a move does (placement of a colour+kind on a cell, or movement of a piece, by our name, to
a cell), allowing only OpenSpiel's documented one-hive extras (tests/games/hive/test_openspiel_crosscheck.py).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

pytest.importorskip("pyspiel")
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "openspiel"))

from hive_bridge import Bridge, OpenSpielMcts

from hexarena.games.hive import GAME
from hexarena.games.hive.board import NAME, PASS, Board, Move


def _what(b: Board, m: Move) -> tuple[object, ...]:
    if m == PASS:
        return ("pass",)
    if b.pos[m[0]] is None:
        return ("place", NAME[m[0]][:2], m[1])
    return ("move", NAME[m[0]], m[1])


@pytest.mark.parametrize("expansions", ["", "MLP"])
def test_bridge_follows_both_sides(expansions: str) -> None:
    rng = random.Random(7)
    out_of_order = 0
    for game in range(3):
        bridge = Bridge(expansions)
        for ply in range(90):
            b = bridge.board
            if b.result() >= 0 or bridge.state.is_terminal():
                break
            mine = {_what(b, m) for m in b.copy().moves()}
            theirs = {_what(b, bridge.to_ours(a)) for a in bridge.state.legal_actions()}
            assert mine <= theirs
            for extra in theirs - mine:
                assert extra[0] == "move"  # OpenSpiel's one-hive extras are movements, never placements
            if (ply + game) % 2:
                action = rng.choice(bridge.state.legal_actions())
                text = bridge.state.action_to_string(action)
                move = bridge.to_ours(action)
                if move not in b.copy().moves():
                    continue  # one of OpenSpiel's extras: not a move of ours
                out_of_order += text.split()[0] != NAME[move[0]] if move != PASS else 0
            else:
                move = rng.choice(b.copy().moves())
            bridge.apply(move)
    assert out_of_order > 0  # the renaming was exercised


def test_mcts_bot_plays_legal_moves_through_the_referee_state() -> None:
    bot = OpenSpielMcts(simulations=2)  # what is checked is the move the bridge hands back, not its strength
    rng = random.Random(3)
    s = GAME.new()
    for _ in range(30):
        if GAME.outcome(s) is not None:
            break
        m = bot.choose(GAME, s, None, rng)
        assert m in GAME.legal(s)
        s = GAME.play(s, m)
    assert bot.stats["moves"] == 30 and bot.stats["simulations"] >= 2 * 30
