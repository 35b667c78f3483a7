"""Player adapters: one module per wire protocol, each turning wire messages into the ``Player`` interface."""

from hexarena.players.base import MatchInfo, MoveReply, MoveRequest, Player, PlayerResult

__all__ = ["MatchInfo", "MoveReply", "MoveRequest", "Player", "PlayerResult"]
