"""Rules engines. Importing this package registers every built-in game.

Each game module registers itself; a game whose module fails to import is a bug, not an optional feature.
"""

from hexarena.games import htttx  # noqa: F401
from hexarena.games import hexdots  # noqa: F401
from hexarena.games import hex, numberwang, tictactoe  # noqa: F401
from hexarena.games import hive  # noqa: F401
