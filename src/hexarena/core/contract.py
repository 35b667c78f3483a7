"""The player-referee contract: everything the referee and a player adapter say to each other, in one place.

Both sides import this module and nothing of each other: the referee (``hexarena.referee``) sends a ``MatchInfo``
at the start, a ``MoveRequest`` per move and a ``PlayerResult`` at the end; a player (``hexarena.players``)
answers a ``MoveReply``, and may end the match at any moment by raising or reporting a ``MatchEnded``. A player
whose connection dies reports it through ``FailureReporter.failure_signal`` so the referee notices at once,
even while the opponent is thinking. It lives in ``core`` because it is pure data and protocols (no IO): the
layer every side may import (see ``[tool.importlinter]`` in pyproject.toml).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Generic, Protocol, TypeVar, runtime_checkable

from hexarena.core.game import Game, ParamValue
from hexarena.core.jsonvalue import JsonObject, JsonValue
from hexarena.core.types import Outcome, Seat, Termination

if TYPE_CHECKING:  # typing only: core stays free of asyncio at run time
    import asyncio

#: The game's state and move types: a match of ``Game[S, M]`` passes its players ``S`` and ``M`` values; a player
#: that plays any game (most adapters) sees them unparametrized. The generic classes below have no ``__slots__``:
#: on Python 3.11 a slotted frozen dataclass cannot be made through its parametrized alias (``MoveReply[int](1)``
#: fails setting ``__orig_class__``).
S = TypeVar("S")
M = TypeVar("M")


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


@dataclass(frozen=True)  # no slots: see S and M
class MatchInfo(Generic[S, M]):
    """What a player learns when a match starts."""

    match_id: str
    game: Game[S, M]  # the Game object
    params: dict[str, ParamValue]
    seat: Seat
    initial_state: S
    clock: ClockConfig = ClockConfig()
    heartbeat_ms: int = 5000
    opponent: str = ""
    meta: JsonObject = field(default_factory=dict)
    #: whether this seat may ask to take back its last move (a person in a casual game, facing a built-in bot,
    #: which grants it at once, or another person, who is asked): see :class:`Offers`
    takebacks: bool = False
    #: moves of ``MoveRequest.history`` already on ``initial_state``: a match continued from moves played
    #: elsewhere (another server instance took it over) starts from its position with its history so far
    played: int = 0
    #: the referee's desk for draw offers and takeback requests (None where no referee lends one: a player
    #: started on its own)
    offers: Offers | None = None


@dataclass(frozen=True)  # no slots: see S and M
class MoveRequest(Generic[S, M]):
    """A request for one move.

    ``history`` holds every move since the initial state as ``(seat, move)``; adapters that send only what
    changed (bws ``previous``) keep their own cursor into it. It is the referee's own list, lent for the call
    (copying it every move would make a long game quadratic): read it, slice it, never keep or mutate it.
    ``time_limit`` is the seconds this player may think for this move (None: unlimited); the referee enforces
    it, adapters only pass it on.
    """

    state: S
    history: Sequence[tuple[Seat, M]]
    time_limit: float | None
    time_left: float | None = None


@dataclass(frozen=True)  # no slots: see S and M
class MoveReply(Generic[M]):
    """A parsed move with the optional analysis a bot sent along with it."""

    move: M
    evaluation: JsonObject | None = None
    considerations: list[JsonValue] | None = None


@dataclass(frozen=True)  # no slots: see S and M
class PlayerResult(Generic[S]):
    """How the match ended, as told to one player."""

    outcome: Outcome
    seat: Seat
    final_state: S
    culprit: Seat | None = None  # the seat that broke a rule, timed out or went away, if any

    @property
    def violated(self) -> bool:
        """True when this player lost by breaking the rules or its protocol (bws answers it with ``nope``)."""
        return self.culprit == self.seat and self.outcome.termination in (
            Termination.ILLEGAL_MOVE,
            Termination.PROTOCOL,
        )


class MatchEnded(Exception):
    """Ends the match with ``outcome`` when raised from a player's ``move`` (or inside the referee's loop).

    Adapters whose protocol has its own ending rules (e.g. battlebot's "both bots left within 500 ms is a draw")
    raise it; the referee records the outcome exactly as given. Reported through a player's failure signal
    (``BasePlayer.fail``) it ends the match the same way at any moment, even while the opponent is thinking (a
    person resigning from the browser).
    """

    def __init__(self, outcome: Outcome, culprit: Seat | None = None) -> None:
        super().__init__(outcome.reason)
        self.outcome = outcome
        self.culprit = culprit


class Takeback(Exception):
    """Raised from a player's ``move`` to ask, on its own turn, for its last move and the opponent's replies to it
    back: the same request as ``Offers.ask(seat, "takeback")``, for a player that holds no desk.

    Only a seat told ``MatchInfo.takebacks`` may: once the opponent grants it (a built-in bot does at once) the
    referee restores the position and both clocks to what they were before that move, tells the listener
    (``on_takeback``: the store deletes the moves taken back) and asks the same seat again. Refused, the seat is
    simply asked again.
    """


#: What a seat may ask the other for during a game: a draw (accepted, the match ends ``draw`` by ``agreement``) or
#: a takeback (accepted, the asker's last move and every move after it are undone, whoever's turn it is).
OFFER_KINDS = ("draw", "takeback")


@dataclass(frozen=True, slots=True)
class OfferNews:
    """What happened to an offer, as told to one seat (``Player.offer_news``).

    ``event``: ``offered`` (yours stands, the other seat was asked), ``declined``, ``lapsed`` (a move was played
    instead of an answer) or ``withdrawn`` (the game moved on without it). ``mine``: whether this seat made the
    offer. ``by``: who declined (``you`` / ``opponent``); ``reason``: why, when the other seat is a bot.
    """

    kind: str
    event: str
    mine: bool
    by: str = ""
    reason: str = ""


class Offers(Protocol):
    """The referee's desk for requests between the two seats (lichess's "Offer draw" and "Takeback").

    The referee owns every offer: a seat asks here, the referee asks the other seat (``Player.offered``: a
    person answers later through :meth:`answer`, a bot at once), and carries the result out itself (ends the
    match, or undoes the moves). Each method answers None when done, else the reason it was refused, in words
    for the person who asked.
    """

    async def ask(self, seat: Seat, kind: str) -> str | None:
        """Offer a draw or ask for a takeback from ``seat``."""
        ...

    async def answer(self, seat: Seat, kind: str, accept: bool) -> str | None:
        """Accept or decline the other seat's standing offer of ``kind``."""
        ...

    def refusal(self, seat: Seat, kind: str) -> str | None:
        """Why ``ask(seat, kind)`` would be refused now, or None (a page enables its button by this)."""
        ...

    def standing(self, seat: Seat) -> dict[str, str]:
        """The offers standing, by kind, as ``seat`` sees them: ``mine`` or ``theirs`` (for a page that reloads)."""
        ...


@runtime_checkable
class Player(Protocol[S, M]):
    """What the referee needs from a player of a ``Game[S, M]``: every attribute and call it reads, each said here.

    ``hexarena.players.base.BasePlayer`` implements all of it with the defaults most adapters want; a player
    written without it declares each member itself. Every method may raise BotError subclasses.
    """

    #: Who plays, as shown in results and to the opponent (``MatchInfo.opponent``). Set by the adapter from its
    #: spec; a tournament or the server may rename the seat before the match starts.
    name: str
    #: What sort of player this is: ``builtin`` (a bot in the server's process), ``human`` (a person in a browser
    #: or terminal) or the protocol name of an external bot (``uhp``, ``bws``, ...). A class attribute of each
    #: adapter. The referee takes takeback requests only from a ``human`` facing a ``builtin`` or another ``human``;
    #: the server counts bot errors per kind and continues on another instance only a match whose kinds can be
    #: reached from anywhere.
    kind: str
    #: True when every ``move`` waits for an answer that can only arrive in a later step of the event loop (a
    #: request sent, then its reply read from a socket): the referee then skips the yield it makes after each move
    #: so that a player answering without awaiting cannot hold the loop. A class attribute of the adapter.
    suspends_every_move: bool

    def failure_signal(self) -> asyncio.Future[BaseException]:
        """The one future (same object on every call) that completes with this player's failure (see
        :class:`FailureReporter`): the referee races every move against both players' signals."""
        ...

    def describe(self) -> JsonObject:
        """What the store keeps about this seat (``name``, ``kind``, ``spec``): public, never a secret."""
        ...

    async def start(self, info: MatchInfo[S, M]) -> None:
        """Connect or launch, and tell the player about the match."""
        ...

    async def seated(self) -> None:
        """Complete once somebody sits at this seat; the referee awaits it before the first move so no clock runs
        for a seat nobody has taken (a person invited by link). It bounds its own wait. A player that is seated as
        soon as it is made marks it ``does_nothing`` (as ``BasePlayer`` does) and the referee skips it."""
        ...

    async def move(self, request: MoveRequest[S, M]) -> MoveReply[M]:
        """Ask for a move; the referee times this call and cancels it at the deadline."""
        ...

    async def observe(self, seat: Seat, move: M, state: S) -> None:
        """Learn about a move that was played (by either seat). Adapters may ignore it (marked ``does_nothing``:
        the referee then skips the call)."""
        ...

    async def taken_back(self, ply: int, state: S) -> None:
        """Learn that the moves from ``ply`` on were taken back and the position is ``state`` again (a person
        asked, :class:`Takeback`). Adapters that keep no position ignore it."""
        ...

    async def offered(self, kind: str, by: str) -> bool | None:
        """The other seat (``by``: the side it plays) offers a draw or asks for a takeback (``kind``): True
        accepts, False declines at once (a bot that plays on), None answers later through ``Offers.answer`` (a
        person, asked on their page)."""
        ...

    async def offer_news(self, news: OfferNews) -> None:
        """Learn what became of an offer this seat made or was asked (:class:`OfferNews`). Bots ignore it."""
        ...

    async def finish(self, result: PlayerResult[S]) -> None:
        """Learn how the match ended, then release every resource. Must never raise."""
        ...


@runtime_checkable
class FailureReporter(Protocol):
    """A player that can tell the referee it can't go on, at any moment (not only when asked for a move).

    The referee races every move request against both players' signals, so a bot whose socket closes while its
    opponent thinks loses at once. The future completes with the error: a ``BotError`` (the player loses by its
    kind), or a ``MatchEnded`` (recorded as given: a resignation). It never completes for a healthy player.
    """

    def failure_signal(self) -> asyncio.Future[BaseException]:
        """The one future (same object on every call) that completes with this player's failure."""
        ...


__all__ = [
    "OFFER_KINDS",
    "ClockConfig",
    "FailureReporter",
    "MatchEnded",
    "MatchInfo",
    "MoveReply",
    "MoveRequest",
    "OfferNews",
    "Offers",
    "Player",
    "PlayerResult",
    "Takeback",
]
