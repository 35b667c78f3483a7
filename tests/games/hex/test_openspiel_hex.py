"""Hex against OpenSpiel (``pyspiel``), an independent C++ implementation.

Every random game is played in lockstep on both engines and compared move by move: the set of legal moves,
whether the game is over, and who won. OpenSpiel numbers a cell ``row * N + col`` and, with ``swap=True``,
offers action ``N*N`` as the second player's first move; its swap is HTP's ``swap-pieces`` (the stone is
reflected in the long diagonal and changes colour, players keep their colours) while ours exchanges colours
and keeps the board. The two are the same game through ``mirror``: after a swap, our cell ``(r, c)`` is
OpenSpiel's ``(c, r)`` and seats still match players, which is what ``_action`` encodes.

Size 1 is left out: OpenSpiel 1.x does not end a 1x1 game when Black fills the only cell (it then offers
action 1), whereas by the rules that stone touches both of Black's edges; ``test_hex_rules`` covers 1x1.
"""

from __future__ import annotations

import random
import statistics

import pytest

from hexarena.games.hex import GAME, SWAP, HexBoard, HexState
from hexarena.games.hex.geometry import BLACK, WHITE

pyspiel = pytest.importorskip("pyspiel")


def _action(state: HexState, move: object) -> int:
    n = state.size
    if move == SWAP:
        return n * n
    assert isinstance(move, tuple)
    r, c = move
    action: int = c * n + r if state.swapped else r * n + c
    return action


def _ours(state: HexState) -> set[int]:
    return {_action(state, m) for m in GAME.legal(state)}


def _lockstep(size: int, swap: bool, seed: int) -> int:
    """Play one random game on both engines, asserting agreement after every move; return its length."""
    rng = random.Random(seed)
    os_game = pyspiel.load_game("hex", {"board_size": size, "swap": swap})
    os_state = os_game.new_initial_state()
    state = GAME.new(size=size, swap=swap)
    while True:
        assert _ours(state) == set(os_state.legal_actions()), GAME.render(state)
        outcome = GAME.outcome(state)
        assert os_state.is_terminal() == (outcome is not None)
        if outcome is not None:
            returns = os_state.returns()
            assert outcome.winner == (0 if returns[0] > 0 else 1), GAME.render(state)
            assert GAME.to_move(state) is None
            return state.ply
        assert GAME.to_move(state) == os_state.current_player()
        move = GAME.random_move(state, rng)
        action = _action(state, move)
        if move != SWAP:  # OpenSpiel names cells in HTP notation in its swap-pieces frame
            seat = GAME.to_move(state)
            assert GAME.to_htp_frame(state, move) == os_state.action_to_string(seat, action)
            assert GAME.from_htp_frame(state, os_state.action_to_string(seat, action)) == move
        os_state.apply_action(action)
        state = GAME.play(state, move)


@pytest.mark.parametrize(
    ("size", "games"),
    [(2, 200), (3, 600), (4, 500), (5, 400), (7, 300), (9, 200), (11, 300), (13, 60)],
)
@pytest.mark.parametrize("swap", [False, True])
def test_random_games_agree_move_by_move(size: int, games: int, swap: bool) -> None:
    lengths = [_lockstep(size, swap, seed) for seed in range(games)]
    assert all(1 <= n <= size * size + 1 for n in lengths)


def test_swap_is_played_often_enough_to_be_checked() -> None:
    # Guard against the swap cross-check passing vacuously: random play picks swap ~1/N^2 of the time.
    rng = random.Random(7)
    swaps = 0
    for _ in range(300):
        s = GAME.play(GAME.new(size=3), GAME.random_move(GAME.new(size=3), rng))
        swaps += GAME.random_move(s, rng) == SWAP
    assert swaps > 10


def _average_length_openspiel(size: int, games: int, seed: int) -> list[int]:
    rng = random.Random(seed)
    os_game = pyspiel.load_game("hex", {"board_size": size})
    out = []
    for _ in range(games):
        s = os_game.new_initial_state()
        n = 0
        while not s.is_terminal():
            s.apply_action(rng.choice(s.legal_actions()))
            n += 1
        out.append(n)
    return out


def _average_length_ours(size: int, games: int, seed: int) -> list[int]:
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        s = GAME.new(size=size, swap=False)
        while GAME.outcome(s) is None:
            s = GAME.play(s, GAME.random_move(s, rng))
        out.append(s.ply)
    return out


def test_average_random_game_length_11x11_matches_openspiel() -> None:
    # Independent random streams: the means must agree within sampling error (4 standard errors).
    ours = _average_length_ours(11, 1500, seed=1)
    theirs = _average_length_openspiel(11, 1500, seed=2)
    se = (statistics.variance(ours) / len(ours) + statistics.variance(theirs) / len(theirs)) ** 0.5
    diff = abs(statistics.fmean(ours) - statistics.fmean(theirs))
    assert diff < 4 * se, (statistics.fmean(ours), statistics.fmean(theirs), se)
    # And neither is degenerate: a random 11x11 game fills most of the board before someone connects.
    assert 90 < statistics.fmean(ours) < 121


@pytest.mark.parametrize("size", [3, 8, 11, 19])
def test_htp_notation_matches_openspiel_action_names(size: int) -> None:
    os_game = pyspiel.load_game("hex", {"board_size": size})
    s = os_game.new_initial_state()
    for r in range(size):
        for c in range(size):
            assert GAME.to_htp((r, c)) == s.action_to_string(0, r * size + c)
            assert GAME.from_htp(s.action_to_string(0, r * size + c)) == (r, c)


@pytest.mark.parametrize("size", [2, 4, 7, 11])
def test_mutable_core_with_undo_agrees_with_openspiel(size: int) -> None:
    """Random walks of place and undo on ``HexBoard``; after each step compare the winner with OpenSpiel
    replaying the same stones from scratch (OpenSpiel has no undo of its own in this check)."""
    rng = random.Random(size)
    os_game = pyspiel.load_game("hex", {"board_size": size})
    board = HexBoard(size)
    for _ in range(400):
        if board.history and (board.winner or rng.random() < 0.3):
            board.undo()
        else:
            board.place(rng.choice(board.empties()))
        os_state = os_game.new_initial_state()
        for i in board.history:
            assert not os_state.is_terminal()
            os_state.apply_action(i)
        if os_state.is_terminal():
            expected = BLACK if os_state.returns()[0] > 0 else WHITE
            assert board.winner == expected
        else:
            assert board.winner == 0
