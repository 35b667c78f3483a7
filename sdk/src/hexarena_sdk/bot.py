"""``BaseBot``: Hivemaker's bot base class, with the protocol handled by hexarena's bot server.

A bot author subclasses ``BaseBot`` and implements ``choose_move``; the SDK (``hexarena_sdk.server``) does
every protocol detail: setup, config, ``previous`` in both dialects, heartbeats while thinking, interrupts,
evaluation requests, request ids and time limits. Unlike Hivemaker, ``choose_move`` always runs in a worker
thread, so a slow bot never stops the connection from answering heartbeats.

Cooperative extras (not in Hivemaker, optional): ``self.should_stop()`` turns true when the SDK gave up on the
current request (interrupt, deadline reached, session closed) and ``self.time_left()`` returns the seconds left
before the SDK answers on the bot's behalf. ``choose_move`` may also return a ``MoveResult`` to send an
evaluation and considerations along with the move.
"""

from __future__ import annotations

import logging
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any

from hexarena_sdk.capabilities import BwsV1AlphaCapability, Capabilities, Meta, default_capabilities
from hexarena_sdk.game import hex_distance, valid_placement_cells
from hexarena_sdk.models import Cell, Coord, Match, Player
from hexarena_sdk.stopsignal import StopFlag, StopSignal
from hexarena_sdk.wire import htttx as wire

log = logging.getLogger("hexarena.bots.sdk")


class PositionEvaluation:
    """Evaluation of a position: ``heuristic`` (+ favours X), ``win_in`` (+N: X wins in N moves, -N: O)."""

    def __init__(self, heuristic: float | None = None, win_in: int | None = None) -> None:
        self.heuristic = heuristic
        self.win_in = win_in

    def to_wire(self) -> dict[str, Any]:
        d: dict[str, Any] = {}
        if self.heuristic is not None:
            d["heuristic"] = self.heuristic
        if self.win_in is not None:
            d["win_in"] = self.win_in
        return d

    def to_struct(self) -> wire.PositionEvaluation:
        return wire.PositionEvaluation(
            heuristic=None if self.heuristic is None else float(self.heuristic),
            win_in=None if self.win_in is None else int(self.win_in),
        )

    def __repr__(self) -> str:
        return f"PositionEvaluation(heuristic={self.heuristic!r}, win_in={self.win_in!r})"


@dataclass
class MoveResult:
    """What ``choose_move`` may return instead of a bare pair: the move plus optional analysis."""

    pieces: tuple[Coord, Coord]
    evaluation: PositionEvaluation | None = None
    considerations: list[tuple[tuple[Coord, Coord], PositionEvaluation | None]] = field(default_factory=list)


class JobContext:
    """The request a bot instance is working on; set by the SDK before each call into the bot.

    ``stop`` is a ``threading.Event`` the SDK sets when it no longer wants the answer (a ``StopSignal``, whose
    ``flag`` a native engine can read without the GIL). A call that runs in a
    worker thread gets it made up front (both threads use it); an instant bot's call runs inline on the event
    loop's thread, where nothing can set it meanwhile, so its event is only made if someone asks (an Event and
    its Condition were ~3 % of an instant bot server's CPU, made for every move). The constructor takes what
    the dataclass it was took, in the same order.
    """

    __slots__ = ("_stop", "deadline")

    def __init__(self, stop: StopSignal | None = None, deadline: float | None = None) -> None:
        self._stop = stop
        self.deadline = deadline  # time.monotonic() instant

    @property
    def stop(self) -> StopSignal:
        if self._stop is None:  # an inline job: made and read on one thread (see the class docstring)
            self._stop = StopSignal()
        return self._stop


class BaseBot(ABC):
    """Abstract bot implementing bws-v1-alpha (and stateless v1-alpha) through hexarena's bot server.

    One instance per game session (as Hivemaker: its server built a new bot per connection), one call into
    the bot at a time per instance. Override ``capabilities`` to declare features, ``on_config`` to receive
    ``config`` packets and ``evaluate`` to answer ``eval_request`` (declare ``evaluation=True``).
    """

    _job: JobContext | None = None

    @classmethod
    def capabilities(cls) -> Capabilities:
        return default_capabilities(BwsV1AlphaCapability(move_time_limit=True))

    @abstractmethod
    def choose_move(self, cells: list[Cell], player: Player, match: Match) -> tuple[Coord, Coord]:
        """Return two coords to place this turn (or a ``MoveResult``)."""
        ...

    def evaluate(self, cells: list[Cell], player: Player, match: Match) -> PositionEvaluation:
        return PositionEvaluation()

    def on_config(self, depth: int | None, extras: dict[str, Any]) -> None:  # noqa: B027  (optional hook)
        """``config`` packet: ``depth`` (if an int) and the ``x-*`` fields. Default: ignore."""

    # ----- cooperative helpers (hexarena extension) -----

    def should_stop(self) -> bool:
        """True once the SDK no longer wants this answer: return anything quickly."""
        job = self._job
        return job is not None and job.stop.is_set()

    def stop_flag(self) -> StopFlag:
        """``should_stop`` as one byte of memory (nonzero: stop), for a search in native code to read without the
        GIL: taking the GIL back to call ``should_stop`` waits for whichever thread holds it, and on a busy machine
        that wait can outlast the move's deadline."""
        job = self._job
        return StopFlag(1) if job is None else job.stop.flag

    def time_left(self) -> float | None:
        """Seconds before the SDK answers on the bot's behalf; None when the request has no time limit."""
        job = self._job
        if job is None or job.deadline is None:
            return None
        return max(0.0, job.deadline - time.monotonic())

    async def handle(self, websocket: Any) -> None:
        """Run one bws session on a ``websockets`` server connection (Hivemaker's ``bot/serve.py`` calls
        ``CenterBot().handle(websocket)`` from ``websockets.serve``; that keeps working unchanged)."""
        from hexarena_sdk.connection import BwsSession, WebsocketsTransport

        await BwsSession(WebsocketsTransport(websocket), self, type(self).capabilities()).run()

    def _log(self, msg: str) -> None:
        log.info("[%s] %s", self.__class__.__name__, msg)


class CenterBot(BaseBot):
    """Placeholder: places the two valid cells closest to (0,0) (ties broken by q, then r)."""

    @classmethod
    def capabilities(cls) -> Capabilities:
        caps = default_capabilities(BwsV1AlphaCapability(move_time_limit=True))
        caps.meta = Meta(
            name="CenterBot",
            description="Places pieces closest to the origin. Placeholder implementation.",
            tags=["placeholder"],
        )
        return caps

    def choose_move(self, cells: list[Cell], player: Player, match: Match) -> tuple[Coord, Coord]:
        candidates = valid_placement_cells(cells, match.view_distance)
        candidates.sort(key=lambda c: (hex_distance(0, 0, c.q, c.r), c.q, c.r))
        return candidates[0], candidates[1]
