"""Common plumbing for player adapters; the contract they implement is ``hexarena.core.contract``.

A Player adapter translates between the referee's typed requests and its protocol. It parses what the bot sent
into the game's move type and raises ``ProtocolViolation`` (with a reason) when the reply can't be read; the
referee then checks legality with the rules, owns every clock, and tells each player how the match ended.
"""

from __future__ import annotations

import asyncio
import functools
from typing import Any

from hexarena.core.contract import MatchInfo, MoveReply, MoveRequest, PlayerResult
from hexarena.core.types import Seat


class BasePlayer:
    """Common plumbing for adapters: a name, and a way to tell the referee the player went away *now*.

    Adapters with a live connection call ``fail(error)`` from their reader task when the socket closes or the
    bot sends something unrequested; the referee waits on ``failure_signal()`` alongside every move so a dead or
    misbehaving player is noticed at once, even while it is the opponent's turn.
    """

    name: str = "player"
    kind: str = "player"
    #: What a remote client called this player (``engine:NAME``), shown as its ``spec`` instead of the operator's
    #: command line: the command's paths and interpreter are the operator's business. Set by ``make_remote_player``.
    public_spec: str | None = None
    #: True when every ``move`` waits for an answer that can only arrive in a later step of the event loop (a
    #: request sent, then its reply read from a socket): the referee then skips the yield it makes after each
    #: move so that a player answering without awaiting cannot hold the loop. Leave False when unsure.
    suspends_every_move: bool = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Every adapter's own ``describe`` honours ``public_spec`` without each having to remember it."""
        super().__init_subclass__(**kwargs)
        own = cls.__dict__.get("describe")
        if own is None or getattr(own, "honours_public_spec", False):
            return

        @functools.wraps(own)
        def describe(self: BasePlayer) -> dict[str, Any]:
            return self._public(own(self))

        describe.honours_public_spec = True  # type: ignore[attr-defined]
        setattr(cls, "describe", describe)  # noqa: B010

    def _public(self, description: dict[str, Any]) -> dict[str, Any]:
        if self.public_spec is not None:
            description["spec"] = self.public_spec
        return description

    def __init__(self) -> None:
        self._failure: asyncio.Future[BaseException] | None = None

    def failure_signal(self) -> asyncio.Future[BaseException]:
        """The future the referee races every move against (``hexarena.core.contract.FailureReporter``)."""
        if self._failure is None:
            self._failure = asyncio.get_running_loop().create_future()
        return self._failure

    def fail(self, error: BaseException) -> None:
        """Report that this player can't go on (first report wins)."""
        fut = self.failure_signal()
        if not fut.done():
            fut.set_result(error)

    async def failed(self) -> BaseException:
        """Completes with the error once the player has failed; never completes for a healthy player."""
        return await self.failure_signal()

    @property
    def failure(self) -> BaseException | None:
        if self._failure is not None and self._failure.done():
            return self._failure.result()
        return None

    def describe(self) -> dict[str, Any]:
        """Public description stored with games: kind and spec, never a secret."""
        return self._public({"name": self.name, "kind": self.kind})

    async def start(self, info: MatchInfo) -> None:
        self.info = info

    async def move(self, request: MoveRequest) -> MoveReply:
        raise NotImplementedError

    async def observe(self, seat: Seat, move: Any, state: Any) -> None:
        return None

    #: The referee skips calling an ``observe`` marked so (two coroutines a move for nothing, on most adapters).
    observe.does_nothing = True  # type: ignore[attr-defined]

    async def finish(self, result: PlayerResult) -> None:
        return None


__all__ = ["BasePlayer"]
