"""``hexarena_sdk.models`` under its former name: the SDK is the ``hexarena-sdk`` distribution (sdk/), and code
written against ``hexarena.bots.sdk``'s modules keeps working."""

from hexarena_sdk.models import (
    Cell,
    Coord,
    GameStatus,
    Match,
    Player,
    cell_mutations,
)

__all__ = [
    "Cell",
    "Coord",
    "GameStatus",
    "Match",
    "Player",
    "cell_mutations",
]
