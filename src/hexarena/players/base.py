"""The one interface the referee talks to, whatever the wire behind it.

A Player adapter translates between the referee's typed requests and its protocol. It parses what the bot sent
into the game's move type and raises ``ProtocolViolation`` (with a reason) when the reply can't be read; the
referee then checks legality with the rules, owns every clock, and tells each player how the match ended.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from hexarena.core.types import Outcome, Seat, Termination


@dataclass(frozen=True, slots=True)
class ClockConfig:
    """A match clock.

    ``kind``: ``none`` (no limit), ``turn`` (``seconds`` per move), ``match`` (``seconds`` per side for the whole
    game), ``incremental`` (Fischer: ``seconds`` at the start plus ``increment`` after each move).
    """

    kind: str = "none"
    seconds: float | None = None
    increment: float = 0.0

    KINDS = ("none", "turn", "match", "incremental")


@dataclass(frozen=True, slots=True)
class MatchInfo:
    """What a player learns when a match starts."""

    match_id: str
    game: Any  # the Game object
    params: dict[str, Any]
    seat: Seat
    initial_state: Any
    clock: ClockConfig = ClockConfig()
    heartbeat_ms: int = 5000
    opponent: str = ""
    meta: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class MoveRequest:
    """A request for one move.

    ``history`` holds every move since the initial state as ``(seat, move)``; adapters that send only what
    changed (bws ``previous``) keep their own cursor into it. It is the referee's own list, lent for the call
    (copying it every move would make a long game quadratic): read it, slice it, never keep or mutate it. ``time_limit`` is the seconds this player may
    think for this move (None: unlimited); the referee enforces it, adapters only pass it on.
    """

    state: Any
    history: Sequence[tuple[Seat, Any]]
    time_limit: float | None
    time_left: float | None = None


@dataclass(frozen=True, slots=True)
class MoveReply:
    """A parsed move with the optional analysis a bot sent along with it."""

    move: Any
    evaluation: dict[str, Any] | None = None
    considerations: list[Any] | None = None
    comment: str | None = None


@dataclass(frozen=True, slots=True)
class PlayerResult:
    """How the match ended, as told to one player."""

    outcome: Outcome
    seat: Seat
    final_state: Any
    culprit: Seat | None = None  # the seat that broke a rule, timed out or went away, if any

    @property
    def violated(self) -> bool:
        """True when this player lost by breaking the rules or its protocol (bws answers it with ``nope``)."""
        return self.culprit == self.seat and self.outcome.termination in (
            Termination.ILLEGAL_MOVE,
            Termination.PROTOCOL,
        )


@runtime_checkable
class Player(Protocol):
    """What the referee needs from a player. Every method may raise BotError subclasses."""

    name: str

    async def start(self, info: MatchInfo) -> None:
        """Connect or launch, and tell the player about the match."""
        ...

    async def move(self, request: MoveRequest) -> MoveReply:
        """Ask for a move; the referee times this call and cancels it at the deadline."""
        ...

    async def observe(self, seat: Seat, move: Any, state: Any) -> None:
        """Learn about a move that was played (by either seat). Adapters may ignore it."""
        ...

    async def finish(self, result: PlayerResult) -> None:
        """Learn how the match ended, then release every resource. Must never raise."""
        ...


class BasePlayer:
    """Common plumbing for adapters: a name, and a way to tell the referee the player went away *now*.

    Adapters with a live connection call ``fail(error)`` from their reader task when the socket closes or the
    bot sends something unrequested; the referee waits on ``failed()`` alongside every move so a dead or
    misbehaving player is noticed at once, even while it is the opponent's turn.
    """

    name: str = "player"
    kind: str = "player"
    #: What a remote client called this player (``engine:NAME``), shown as its ``spec`` instead of the operator's
    #: command line: the command's paths and interpreter are the operator's business. Set by ``make_remote_player``.
    public_spec: str | None = None

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
        import asyncio

        self._failure: asyncio.Future[BaseException] | None = None
        self._asyncio = asyncio

    def _failure_future(self) -> Any:
        if self._failure is None:
            self._failure = self._asyncio.get_running_loop().create_future()
        return self._failure

    def fail(self, error: BaseException) -> None:
        """Report that this player can't go on (first report wins)."""
        fut = self._failure_future()
        if not fut.done():
            fut.set_result(error)

    async def failed(self) -> BaseException:
        """Completes with the error once the player has failed; never completes for a healthy player."""
        return await self._failure_future()  # type: ignore[no-any-return]

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

    async def finish(self, result: PlayerResult) -> None:
        return None
