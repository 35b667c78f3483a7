"""``hexarena_sdk.game`` under its former name: the SDK is the ``hexarena-sdk`` distribution (sdk/), and code
written against ``hexarena.bots.sdk``'s modules keeps working."""

from hexarena_sdk.game import (
    DIRECTIONS,
    SEAT_OF,
    board_of,
    board_of_cells,
    check_win,
    evaluate_status,
    hex_distance,
    is_valid_placement,
    place_piece,
    valid_placement_cells,
)

__all__ = [
    "DIRECTIONS",
    "SEAT_OF",
    "board_of",
    "board_of_cells",
    "check_win",
    "evaluate_status",
    "hex_distance",
    "is_valid_placement",
    "place_piece",
    "valid_placement_cells",
]
