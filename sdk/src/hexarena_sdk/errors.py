"""The error hierarchy.

Rules only raise; the referee decides what an error costs (a forfeit, a counted invalid turn, a nope) and
records why. Every error carries a human-readable reason that quotes the offending input, because that reason
is shown to bot authors and stored with the game.
"""

from __future__ import annotations


class HexarenaError(Exception):
    """Base class of every error hexarena raises on purpose."""

    @property
    def reason(self) -> str:
        return str(self)


class ConfigError(HexarenaError, ValueError):
    """Game parameters, a match configuration or a player spec that cannot be used."""


class InvalidMove(HexarenaError, ValueError):
    """A move that cannot even be parsed or has the wrong shape (e.g. ``'[1,a]'``)."""


class IllegalMove(HexarenaError, ValueError):
    """A well-formed move that the rules do not allow in this position (occupied cell, out of range...)."""


class BotError(HexarenaError):
    """Something a player did wrong on its wire, as opposed to a rules violation."""


class BotTimeout(BotError):
    """The player did not answer within its time."""


class BotCrashed(BotError):
    """The player went away: closed socket, dead process, connection refused."""


class ProtocolViolation(BotError):
    """The player sent something its protocol does not allow (garbage, wrong type, oversized...)."""
