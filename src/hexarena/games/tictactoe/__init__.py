"""Noughts and crosses, registered as ``tictactoe`` (alias ``noughtsandcrosses``, the battlebot wire id)."""

from hexarena.core.registry import register_game
from hexarena.games.tictactoe.game import GAME, TicTacToeGame, TicTacToeState

register_game(GAME, aliases=("noughtsandcrosses", "noughts_and_crosses", "tic_tac_toe"))

__all__ = ["GAME", "TicTacToeGame", "TicTacToeState"]
