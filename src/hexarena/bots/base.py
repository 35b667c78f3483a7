"""The shared in-process bot interface.

Reference bots of every game implement ``EngineBot``: they receive the immutable game object and state the
referee uses and return a legal move of that game. Keeping bots on the rules engine's own types (instead of a
wire format) lets the in-process player, the tournament runner and the SDK's bot server all reuse them.

Every host asks a bot for a move through :func:`think` (the in-process player, the SDK's bot server, the UAIS,
UHP and Trylobot engines), so what a host owes a thinking bot is done in one place.
"""

from __future__ import annotations

import contextlib
import random
from typing import Any, Protocol, runtime_checkable

from typing_extensions import TypeVar

from hexarena.bots.stopping import StopSignal, stoppable
from hexarena.bots.timing import collector_paused
from hexarena.core.game import Game
from hexarena.core.jsonvalue import JsonObject, JsonValue

#: The game's state and move types; a bare ``EngineBot`` (a plugin written before they were spelled out, or a
#: registry of bots of any game) means ``EngineBot[Any, Any]``.
S = TypeVar("S", default=Any)
M = TypeVar("M", default=Any)


@runtime_checkable
class EngineBot(Protocol[S, M]):
    """A bot that plays directly on a rules engine's state: ``EngineBot[HexState, HexMove]`` plays Hex."""

    name: str

    def choose(self, game: Game[S, M], state: S, time_limit: float | None, rng: random.Random) -> M:
        """A legal move for the seat to move in ``state``; ``time_limit`` is the seconds it may think."""
        ...


@runtime_checkable
class MatchMemory(Protocol):
    """A bot that learns something in a match which must not carry into the next one (how late its searches
    returned: one stalled search would make a whole new game think at the floor).

    A separate protocol rather than a member of ``EngineBot`` so that a bot which remembers nothing (a plugin's,
    a test's) stays an ``EngineBot`` as it is; a host that plays one bot in match after match calls
    ``new_match`` on the bots that have it before each match's first move.
    """

    def new_match(self) -> None:
        """Forget what the last match taught: the next move is the first of a new match."""
        ...


@runtime_checkable
class ReportsSearch(Protocol):
    """A bot that says what its last ``choose`` saw: the evaluation of the position after its move (``heuristic``,
    ``pv``, ``win_in`` ...) and the moves it weighed, each ``{"move": ..., "evaluation": {...}}``.

    A separate protocol rather than members of ``EngineBot`` so that a bot which reports nothing (a random one, a
    plugin's) stays an ``EngineBot`` as it is; a host (the in-process player, the SDK adapter, the analysis board)
    passes them on with the move when the bot has them. Read-only here: hosts only read them.
    """

    @property
    def last_evaluation(self) -> JsonObject | None:
        """The evaluation after the last move chosen; None before one, or when the search saw nothing."""
        ...

    @property
    def last_considerations(self) -> list[JsonValue] | None:
        """The moves the last search weighed, best first; None when it weighed none."""
        ...


def think(
    bot: EngineBot[S, M],
    game: Game[S, M],
    state: S,
    time_limit: float | None,
    rng: random.Random,
    stop: StopSignal | None = None,
) -> M:
    """``bot.choose`` as every host runs it: with the cyclic collector held off for a short budget
    (``timing.collector_paused``: its pauses cost searches their deadlines) and, given ``stop``, a search the host
    can stop (``stopping.stoppable``)."""
    with collector_paused(time_limit) as collecting, stoppable(stop) if stop is not None else contextlib.nullcontext():
        if time_limit is not None and collecting:  # a collection ran on this move's clock
            time_limit = max(0.0, time_limit - collecting)
        return bot.choose(game, state, time_limit, rng)
