"""Setting a position up from its stones (``setup_position``, the analysis board's editor) gives the position the
moves reached: the same stones, side to move, legal moves and result on every later move, for random games of each
game that can be set up; and a game's sanity rules match its own games (every reachable unfinished position is
accepted, with the other side to move it is refused). A set-up Hex position has no swap, whatever the parameters.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from hexarena.core.errors import ConfigError
from hexarena.core.game import setup_refusal
from hexarena.core.registry import get_game

CASES = [("tictactoe", {}), ("hex", {"size": 5, "swap": True}), ("hex", {"size": 7, "swap": False}), ("htttx", {})]


def board_of(game: Any, state: Any) -> Any:
    view = game.to_json(state)
    return view.get("board") or sorted((c["q"], c["r"], c["p"]) for c in view["cells"])


@pytest.mark.parametrize(("name", "params"), CASES)
def test_a_set_up_position_plays_on_as_the_one_the_moves_reached(name: str, params: dict[str, Any]) -> None:
    game = get_game(name)
    assert setup_refusal(game) is None
    rng = random.Random(7)
    for _ in range(30):
        state = game.new(**params)
        for _ in range(rng.randrange(0, 12)):
            if game.to_move(state) is None:
                break
            state = game.play(state, game.random_move(state, rng))
        if game.to_move(state) is None:
            continue
        stones, to_move = game.setup_of(state)  # type: ignore[attr-defined]
        again = game.setup_position(params, stones, to_move)  # type: ignore[attr-defined]
        with pytest.raises(ConfigError, match="to move"):
            game.setup_position(params, stones, 1 - to_move)  # type: ignore[attr-defined]
        for _ in range(40):  # the same moves from both: the same positions, the same result
            assert board_of(game, again) == board_of(game, state)
            if game.to_move(state) is None:
                assert game.to_move(again) is None
                break
            assert game.side_name(again, game.to_move(again)) == game.side_name(state, game.to_move(state))
            if name != "htttx":
                # the same moves, but for the swap: a set-up Hex position is played without it (set-up stones are
                # no first move to swap; docs/guide/analysis.md), while one stone played as a first move has it
                assert [m for m in game.legal(state) if m != "swap"] == list(game.legal(again))
            move = game.random_move(again, rng)
            state, again = game.play(state, move), game.play(again, move)
            done, done_again = game.outcome(state), game.outcome(again)
            assert (done is None) == (done_again is None)
            if done is not None and done_again is not None:  # the same result, in words naming the side
                assert done_again.reason == done.reason
