"""HTTTX: infinite hexagonal tic-tac-toe (Connect-6 on hexes), rules per docs/games/htttx.md.

``Board`` is the fast mutable core for bots and search; ``HtttxGame`` / ``HTTTX`` the immutable face the referee
uses; ``notation`` reads and writes Hexagonal Tic Tac Toe Notation v1 records.
"""

from hexarena.games.htttx.board import COORD_LIMIT, SIDES, Board, Coord, O, X, hex_distance, zobrist_key
from hexarena.games.htttx.game import HTTTX, HtttxGame, coerce_move
from hexarena.games.htttx.notation import GameRecord, read_record, record_from_state, replay_record, write_record
from hexarena.games.htttx.state import HtttxState, Move

__all__ = [
    "COORD_LIMIT",
    "HTTTX",
    "SIDES",
    "Board",
    "Coord",
    "GameRecord",
    "HtttxGame",
    "HtttxState",
    "Move",
    "O",
    "X",
    "coerce_move",
    "hex_distance",
    "read_record",
    "record_from_state",
    "replay_record",
    "write_record",
    "zobrist_key",
]
