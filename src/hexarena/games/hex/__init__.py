"""Hex (N x N, swap rule as a move) registered as ``hex``; see ``game.py`` for the rules and notation."""

from hexarena.games.hex.board import HexBoard
from hexarena.games.hex.game import GAME, RESIGN, SWAP, HexAction, HexGame, HexMove, HexState
from hexarena.games.hex.geometry import BLACK, EMPTY, WHITE, mirror

__all__ = [
    "BLACK",
    "EMPTY",
    "GAME",
    "RESIGN",
    "SWAP",
    "WHITE",
    "HexAction",
    "HexBoard",
    "HexGame",
    "HexMove",
    "HexState",
    "mirror",
]
