"""The built-in opponents of a conformance run, kept quick: the check is of the bot, not of the opponent.

Why a cap on the opponent's time: under a turn clock of seconds a move, ``best`` would think for most of it and a
run of a dozen games would take many minutes; a fraction of a second is plenty to play varied, sensible moves.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from hexarena.core.contract import MoveReply, MoveRequest
from hexarena.players.spec import make_player

OPPONENT_SECONDS = 0.2


class Quick:
    """A player whose every request offers at most ``seconds`` (the rest goes to the wrapped player)."""

    def __init__(self, inner: Any, seconds: float) -> None:
        self.inner = inner
        self.name: str = inner.name
        self.seconds = seconds

    def __getattr__(self, attr: str) -> Any:
        return getattr(self.inner, attr)

    async def move(self, request: MoveRequest) -> MoveReply:
        limit = self.seconds if request.time_limit is None else min(request.time_limit, self.seconds)
        left = limit if request.time_left is None else min(request.time_left, limit)
        reply: MoveReply = await self.inner.move(dataclasses.replace(request, time_limit=limit, time_left=left))
        return reply


async def opponent_player(name: str, game: str) -> Any:
    """``random``, ``best`` or any built-in (or any spec with a scheme) of ``game``, kept quick."""
    spec = name if ":" in name else f"builtin:{name}"
    return Quick(await make_player(spec, game), OPPONENT_SECONDS)


__all__ = ["OPPONENT_SECONDS", "Quick", "opponent_player"]
