"""Player adapters: one module per wire protocol, each turning wire messages into the ``Player`` interface.

Importing this package registers every built-in player spec scheme (``builtin:``, ``bws:``, ``uais:``...).
"""

from hexarena.core.contract import MatchInfo, MoveReply, MoveRequest, Player, PlayerResult
from hexarena.players import hiveai, htp, spec, uais, uhp  # noqa: F401  (register their schemes)

__all__ = ["MatchInfo", "MoveReply", "MoveRequest", "Player", "PlayerResult"]
