"""The match loop: the only clock in hexarena."""

from hexarena.referee.clock import Clock, clock_from
from hexarena.referee.match import MatchConfig, MatchListener, Referee, play_match
from hexarena.referee.result import MatchResult, PlayedMove

__all__ = [
    "Clock",
    "MatchConfig",
    "MatchListener",
    "MatchResult",
    "PlayedMove",
    "Referee",
    "clock_from",
    "play_match",
]
