"""Noughts and crosses, registered as ``tictactoe`` (alias ``noughtsandcrosses``, the battlebot wire id)."""

from hexarena.games.tictactoe.game import GAME, TicTacToeGame, TicTacToeState

__all__ = ["GAME", "TicTacToeGame", "TicTacToeState"]
