"""Hexagon dots tables: games of the turn-token protocol before, during and after their refereed match.

A table exists from ``POST /`` (or ``GET /match``) on; it is ``initiating`` until two players joined, then a match
runs through the shared ``MatchManager`` (so clocks, the store and spectators are the same as for every other
protocol), and the table keeps the final position for ``GET /<id>`` and late observers.

A table nobody sits at expires ``waiting_seconds`` after it was created or last left (an anonymous ``POST /``
costs nothing, so unexpiring tables would let anyone fill ``max_tables`` for good). A first player waiting for an
opponent keeps the table until their own ``join_seconds`` run out; then it is empty and expires in turn.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from hexarena.core.contract import ClockConfig, PlayerResult
from hexarena.core.jsonvalue import JsonObject
from hexarena.core.types import Seat
from hexarena.games.hexdots import GAME, DotsState
from hexarena.games.hexdots.wire import COMPLETED, delta_json, game_json
from hexarena.players.turntoken import TurnTokenPlayer, disqualified_seat

if TYPE_CHECKING:
    from hexarena.server.live import MatchManager
    from hexarena.server.ratelimit import CreateLimiter

log = logging.getLogger(__name__)

OBSERVER_QUEUE = 4096


@dataclass
class DotsSettings:
    turn_seconds: float = 5.0  # the seed's limit (the original server used 30 s)
    join_seconds: float = 600.0  # a join blocks this long for an opponent, then 408
    match_rows: int = 5  # size of the games GET /match creates
    match_cols: int = 5
    max_tables: int = 10_000  # open tables (initiating or in play); more are refused (503)
    keep_finished: int = 1000  # finished tables kept in memory (the store keeps them all)
    max_body: int = 4096  # bytes of a request body
    waiting_seconds: float = 600.0  # a table nobody sits at is removed this long after it was created or left


@dataclass(eq=False)
class DotsTable:
    id: str
    rows: int
    cols: int
    state: DotsState
    names: list[str] = field(default_factory=list)
    players: list[TurnTokenPlayer] = field(default_factory=list)
    current: dict[str, Seat] = field(default_factory=dict)
    used: dict[str, Seat] = field(default_factory=dict)
    disqualified: set[Seat] = field(default_factory=set)
    reasons: dict[Seat, str] = field(default_factory=dict)
    observers: set[asyncio.Queue[JsonObject | None]] = field(default_factory=set)
    result: PlayerResult | None = None
    match_id: str | None = None
    handed_out: int = 0  # by GET /match
    created: float = field(default_factory=time.time)
    touched: float = field(default_factory=time.monotonic)  # created, or last left by a waiting player
    _ply: int = 0

    @property
    def over(self) -> bool:
        return self.result is not None

    def status(self) -> str | None:
        return COMPLETED if self.over else None

    def game(self) -> JsonObject:
        return game_json(self.state, self.names, self.status(), self.disqualified)

    def delta(self, since_ply: int) -> JsonObject:
        return delta_json(since_ply, self.state, self.names, self.status(), self.disqualified)

    def summary(self) -> JsonObject:
        return {"id": self.id, "state": self.game()["state"]}

    # ----- called by the adapters -----

    def on_state(self, seat: Seat | None, state: DotsState) -> None:
        before, self.state = self._ply, state
        self._ply = GAME.ply(state)
        self._publish(self.delta(before))

    def on_end(self, result: PlayerResult) -> None:
        if self.result is not None:
            return
        before = self._ply
        self.state = result.final_state
        self._ply = GAME.ply(self.state)
        seat = disqualified_seat(result)
        if seat is not None:
            self.disqualified.add(seat)
            self.reasons[seat] = result.outcome.reason
        self.result = result
        self.current.clear()
        self._publish(self.delta(before))
        self._publish(None)
        self.observers.clear()

    def _publish(self, message: JsonObject | None) -> None:
        for queue in list(self.observers):
            try:
                queue.put_nowait(message)
            except asyncio.QueueFull:
                self.observers.discard(queue)

    def observe(self) -> asyncio.Queue[JsonObject | None]:
        """A queue with the Game now, then a Delta per move, then None at the end."""
        queue: asyncio.Queue[JsonObject | None] = asyncio.Queue(OBSERVER_QUEUE)
        queue.put_nowait(self.game())
        if self.over:
            queue.put_nowait(None)
        else:
            self.observers.add(queue)
        return queue


class DotsLobby:
    """Every dots table of one server."""

    def __init__(
        self, manager: MatchManager, settings: DotsSettings | None = None, limiter: CreateLimiter | None = None
    ) -> None:
        self.manager = manager
        self.settings = settings or DotsSettings()
        self.tables: dict[str, DotsTable] = {}
        #: The server's per-client create limiter (``hexarena.server.ratelimit.CreateLimiter``), None: unlimited.
        self.limiter = limiter
        self._waiting_match: DotsTable | None = None
        #: Tables nobody sits at, oldest ``touched`` first: expiry pops from the front, O(1) per table.
        self._empty: dict[str, DotsTable] = {}

    def open_count(self) -> int:
        return sum(1 for t in self.tables.values() if not t.over)

    def create(self, rows: int, cols: int) -> DotsTable | None:
        """A new table, or None when too many are open."""
        self.expire()
        if self.open_count() >= self.settings.max_tables:
            return None
        self._trim()
        table = DotsTable(id=secrets.token_urlsafe(9), rows=rows, cols=cols, state=GAME.new(rows=rows, cols=cols))
        self.tables[table.id] = table
        self._empty[table.id] = table
        return table

    def expire(self, now: float | None = None) -> int:
        """Remove the tables nobody has sat at for ``waiting_seconds``; returns how many went."""
        now = time.monotonic() if now is None else now
        gone = 0
        while self._empty:
            table = next(iter(self._empty.values()))
            if now - table.touched < self.settings.waiting_seconds:
                break
            del self._empty[table.id]
            if not table.names and table.match_id is None and self.tables.get(table.id) is table:
                del self.tables[table.id]
                if self._waiting_match is table:
                    self._waiting_match = None
                gone += 1
        if gone:
            log.info("%d dots table(s) expired unjoined after %g s", gone, self.settings.waiting_seconds)
        return gone

    def match(self) -> DotsTable | None:
        """``GET /match``: the table handed to one client so far, or a new one (each table is handed out twice)."""
        table = self._waiting_match
        if table is None or table.over or table.handed_out >= 2 or len(table.names) >= 2:
            table = self.create(self.settings.match_rows, self.settings.match_cols)
            if table is None:
                return None
            self._waiting_match = table
        table.handed_out += 1
        if table.handed_out >= 2:
            self._waiting_match = None
        return table

    def get(self, table_id: str) -> DotsTable | None:
        return self.tables.get(table_id)

    async def join(self, table: DotsTable, name: str) -> TurnTokenPlayer | None:
        """Seat ``name`` at ``table`` (None when full); the second join starts the match."""
        if len(table.names) >= 2 or table.over:
            return None
        seat = len(table.names)
        self._empty.pop(table.id, None)
        player = TurnTokenPlayer(name, table, seat)
        table.names.append(name)
        table.players.append(player)
        if seat == 1:
            live = await self.manager.create(
                GAME,
                table.players,
                params={"rows": table.rows, "cols": table.cols},
                clock=ClockConfig(kind="turn", seconds=self.settings.turn_seconds),
                meta={"protocol": "turntoken", "dots_id": table.id},
            )
            table.match_id = live.match_id
        return player

    def leave(self, table: DotsTable, player: TurnTokenPlayer) -> None:
        """A first player who gave up waiting frees the seat again."""
        if table.match_id is None and player in table.players:
            idx = table.players.index(player)
            del table.players[idx]
            del table.names[idx]
            if not table.names:  # empty again: it expires like a new table
                table.touched = time.monotonic()
                self._empty[table.id] = table

    def _trim(self) -> None:
        finished = [t for t in self.tables.values() if t.over]
        for t in finished[: max(0, len(finished) - self.settings.keep_finished)]:
            del self.tables[t.id]
