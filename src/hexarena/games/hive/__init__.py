"""Hive with the Mosquito, Ladybug and Pillbug: a perft-exact rules engine with UHP notation.

``board`` is the fast mutable core (play/undo, Zobrist, perft), ``notation`` reads and writes UHP,
``game`` is the immutable face the referee uses, ``trylobot`` converts to and from Trylobot's AI wire.
"""

from hexarena.games.hive.board import Board, perft
from hexarena.games.hive.game import GAME, HiveGame, HiveMove, HiveState

__all__ = ["GAME", "Board", "HiveGame", "HiveMove", "HiveState", "perft"]
