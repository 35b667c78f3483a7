"""``EngineBot`` says which game a bot plays: ``EngineBot[S, M]`` chooses a move ``M`` from a state ``S`` of a
``Game[S, M]``, so mypy refuses a bot handed to a host of another game, and a plugin that writes a bare
``EngineBot`` (``examples/nim``) still means ``EngineBot[Any, Any]`` and type-checks as before.

Checked with mypy itself (its API, on a file written here) because what is tested is what the type checker sees.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from mypy_snippet import check

SNIPPET = """
from collections.abc import Callable
from hexarena.bots.base import EngineBot, think
from hexarena.bots.hex import RandomHexBot
from hexarena.bots.tictactoe import PerfectTicTacToeBot
from hexarena.games.hex.game import HexMove, HexState
from hexarena.games.tictactoe import GAME, TicTacToeState
from hexarena.games.tictactoe.game import Move
import random

hex_bot: EngineBot[HexState, HexMove] = RandomHexBot()
ttt_bot: EngineBot[TicTacToeState, Move] = PerfectTicTacToeBot()
move = think(ttt_bot, GAME, GAME.new(), None, random.Random(1))
reveal_type(move)
any_game: dict[str, Callable[[], EngineBot]] = {"hex": RandomHexBot, "ttt": PerfectTicTacToeBot}
wrong: EngineBot[TicTacToeState, Move] = RandomHexBot()  # WRONG
"""


@pytest.mark.slow
def test_mypy_sees_which_game_a_bot_plays(tmp_path: Path) -> None:
    errors, wrong, out = check(SNIPPET, tmp_path / "uses_bots.py")
    assert errors == wrong, out
    assert 'Revealed type is "tuple[int, int]"' in out, out
