"""Common plumbing for player adapters; the contract they implement is ``hexarena.core.contract``.

A Player adapter translates between the referee's typed requests and its protocol. It parses what the bot sent
into the game's move type and raises ``ProtocolViolation`` (with a reason) when the reply can't be read; the
referee then checks legality with the rules, owns every clock, and tells each player how the match ended.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import random
from collections.abc import Iterable
from typing import TYPE_CHECKING, Generic

from hexarena.core.contract import M, MatchInfo, MoveReply, MoveRequest, OfferNews, PlayerResult, S
from hexarena.core.jsonvalue import JsonObject
from hexarena.core.types import Seat

if TYPE_CHECKING:
    from hexarena.players.process import BotProcess

log = logging.getLogger(__name__)


class BasePlayer(Generic[S, M]):
    """Common plumbing for adapters: a name, and a way to tell the referee the player went away *now*.

    ``S`` and ``M`` are the state and move types of the game it plays: an adapter for one game's protocol names
    them (``BasePlayer[HiveState, HiveMove]``), one that plays any game leaves them open.

    Adapters with a live connection call ``fail(error)`` from their reader task when the socket closes or the
    bot sends something unrequested; the referee waits on ``failure_signal()`` alongside every move so a dead or
    misbehaving player is noticed at once, even while it is the opponent's turn.
    """

    #: Who plays, shown in results and to the opponent (``hexarena.core.contract.Player.name``). Set by the adapter
    #: from its spec; a tournament or the server may rename the seat before the match starts.
    name: str = "player"
    #: What sort of player this is (``builtin``, ``human`` or the bot protocol's name): a class attribute of each
    #: adapter, read by the referee (takebacks) and the server (tokens, metrics, resuming), see ``Player.kind``.
    kind: str = "player"
    #: True for a seat created open to anyone (the ``open`` spec of a browser seat): the match manager gives it no
    #: token until somebody joins it, and ends the match when nobody has within its time. Set by the adapter's
    #: constructor (``BrowserPlayer(open_seat=True)``).
    open_seat: bool = False
    #: Seconds an open seat waits for somebody to join it before its match ends ``aborted``; the match manager sets
    #: it to its own expiry of open seats. Players that are never open seats leave it alone.
    join_timeout: float = 600.0
    #: The seeded random source of a bot that draws random numbers in the server's process (``InProcessPlayer``),
    #: None for every other player. A tournament replaces it with one seeded by the match so a rerun plays alike.
    rng: random.Random | None = None
    #: What a remote client called this player (``engine:NAME``), shown as its ``spec`` instead of the operator's
    #: command line: the command's paths and interpreter are the operator's business. Set by ``make_remote_player``.
    public_spec: str | None = None
    #: True when every ``move`` waits for an answer that can only arrive in a later step of the event loop (a
    #: request sent, then its reply read from a socket): the referee then skips the yield it makes after each
    #: move so that a player answering without awaiting cannot hold the loop. Leave False when unsure.
    suspends_every_move: bool = False

    def __init_subclass__(cls, **kwargs: object) -> None:
        """Every adapter's own ``describe`` honours ``public_spec`` without each having to remember it."""
        super().__init_subclass__(**kwargs)
        own = cls.__dict__.get("describe")
        if own is None or getattr(own, "honours_public_spec", False):
            return

        @functools.wraps(own)
        def describe(self: BasePlayer[S, M]) -> JsonObject:
            return self._public(own(self))

        describe.honours_public_spec = True  # type: ignore[attr-defined]
        setattr(cls, "describe", describe)  # noqa: B010

    def _public(self, description: JsonObject) -> JsonObject:
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

    def describe(self) -> JsonObject:
        """Public description stored with games: kind and spec, never a secret."""
        return self._public({"name": self.name, "kind": self.kind})

    async def start(self, info: MatchInfo[S, M]) -> None:
        self.info = info

    @property
    def attached(self) -> bool:
        """Whether somebody sits at this seat: True for every player except a person's seat nobody has taken yet
        (``BrowserPlayer`` says so); the match manager expires an open seat that is not attached in time."""
        return True

    @property
    def engine_process(self) -> BotProcess | None:
        """The program this adapter started and talks to over its standard input and output (``uais:``, ``htp:``,
        ``uhp:``, a ``hiveai:`` module run as a command), once started: ``hexarena checkbot`` reads how it exited.
        None for every other player (a network bot's process is its operator's)."""
        return None

    @property
    def stderr(self) -> str:
        """What this adapter shows of its program's standard error, for a report on how it failed (UAIS: the last
        lines); empty where it shows none."""
        return ""

    @property
    def adapter(self) -> type[BasePlayer]:
        """The adapter class that played this seat: its own class, or the class a kept seat stood for
        (``FinishedSeat``), so a rematch can tell two people from a person and a bot after the match."""
        return type(self)

    async def seated(self) -> None:
        """Complete once somebody sits at this seat (``Player.seated``): at once here, so the referee skips it."""
        return None

    seated.does_nothing = True  # type: ignore[attr-defined]

    async def move(self, request: MoveRequest[S, M]) -> MoveReply[M]:
        raise NotImplementedError

    async def observe(self, seat: Seat, move: M, state: S) -> None:
        return None

    #: The referee skips calling an ``observe`` marked so (two coroutines a move for nothing, on most adapters).
    observe.does_nothing = True  # type: ignore[attr-defined]

    async def taken_back(self, ply: int, state: S) -> None:
        """Learn that the moves from ``ply`` on were taken back (``Player.taken_back``); most adapters keep no
        position of their own and ignore it."""
        return None

    async def offered(self, kind: str, by: str) -> bool | None:
        """Declines at once (``Player.offered``): a bot plays on, and no bot protocol here can be asked for a draw
        or a takeback. The built-in bots grant takebacks (``InProcessPlayer``); a person is asked on their page."""
        return False

    async def offer_news(self, news: OfferNews) -> None:
        """What became of an offer (``Player.offer_news``): nobody to tell for a bot."""
        return None

    async def finish(self, result: PlayerResult[S]) -> None:
        return None

    async def close(self) -> None:
        """Release whatever the constructor acquired, for a player whose match will never start (``finish`` does
        it for one that played). Adapters acquire their connection or process in ``start``: nothing to do here."""
        return None


async def close_players(players: Iterable[BasePlayer]) -> None:
    """Release the players of a match that will not be played (``BasePlayer.close``); one that fails to close is
    logged and the others are still closed, since the caller is already giving up on the match."""
    for player in players:
        try:
            await player.close()
        except Exception:
            log.debug("closing %s failed", player, exc_info=True)


__all__ = ["BasePlayer", "close_players"]
