"""Hexagon dots (instructure/contests 2011-mebipenny finals): dots and boxes on a triangular lattice.

Registered as ``hexdots`` (entry point in pyproject.toml). ``GAME`` is the rules object (immutable states),
``DotsBoard`` the mutable core for bots, ``wire`` the original HTTP protocol's JSON shapes.
"""

from hexarena.games.hexdots.board import DotsBoard, Line
from hexarena.games.hexdots.game import GAME, DotsState, HexDotsGame, normalize_line
from hexarena.games.hexdots.geometry import MAX_SIZE, Geometry, geometry, line_count

__all__ = [
    "GAME",
    "MAX_SIZE",
    "DotsBoard",
    "DotsState",
    "Geometry",
    "HexDotsGame",
    "Line",
    "geometry",
    "line_count",
    "normalize_line",
]
