"""Rules engines. Importing this package registers every built-in game.

Each game module registers itself; a game whose module fails to import is a bug, not an optional feature.
"""

from hexarena.games import (  # noqa: F401
    hex,
    hexdots,
    hive,
    htttx,
    numberwang,
    tictactoe,
)
