"""Every built-in game, typed as ``Game``: mypy --strict checks each engine against the protocol here.

The registry finds games through entry points (pyproject.toml), which are strings mypy cannot follow; this
tuple is what makes a built-in engine that drifts from the protocol a type error. Nothing imports it at run
time except the test that checks it names the same games as the entry points (tests/core/test_registry.py).
"""

from __future__ import annotations

from hexarena.core.game import AnyGame
from hexarena.games.hex.game import GAME as HEX
from hexarena.games.hexdots.game import GAME as HEXDOTS
from hexarena.games.hive.game import GAME as HIVE
from hexarena.games.htttx.game import HTTTX
from hexarena.games.numberwang.game import GAME as NUMBERWANG
from hexarena.games.tictactoe.game import GAME as TICTACTOE

BUILTIN: tuple[AnyGame, ...] = (HEX, HEXDOTS, HIVE, HTTTX, NUMBERWANG, TICTACTOE)
