"""A hexagon dots bot playing over the turn-token HTTP protocol (docs/protocols/hexdots.md), as a referee Player.

The bot is an HTTP client; each of its requests blocks until it is its turn. The adapter joins the two: when the
referee asks for a move, a fresh single-use token (``secrets.token_urlsafe``) is handed to the request that is
waiting (``POST /players`` or the previous ``POST /moves``); the line posted with that token is checked here with
the rules and, if legal, returned to the referee; if not, the bot is disqualified (403 with the reason) and the
referee records the loss. Time is the referee's: a bot that does not post within the turn limit is disqualified.
"""

from __future__ import annotations

import asyncio
import secrets
from typing import Protocol

from hexarena.core.contract import MatchInfo, MoveReply, MoveRequest, PlayerResult
from hexarena.core.errors import BotError, HexarenaError, IllegalMove, InvalidMove, ProtocolViolation
from hexarena.core.jsonvalue import JsonObject
from hexarena.core.types import Seat, Termination
from hexarena.games.hexdots import GAME, DotsState, Line
from hexarena.games.hexdots.wire import parse_move_body
from hexarena.players.base import BasePlayer


class Table(Protocol):
    """What the adapter needs from the server's table of this game (``hexarena.server.dots.tables``)."""

    current: dict[str, Seat]  # live tokens
    used: dict[str, Seat]  # spent or expired tokens

    def on_state(self, seat: Seat | None, state: DotsState) -> None: ...

    def on_end(self, result: PlayerResult[DotsState]) -> None: ...


class TurnTokenPlayer(BasePlayer[DotsState, Line]):
    """One seat of a dots table, driven by the bot's blocking HTTP requests."""

    kind = "turntoken"

    def __init__(self, name: str, table: Table, seat: Seat) -> None:
        super().__init__()
        self.name = name
        self.table = table
        self.seat = seat
        self.state: DotsState | None = None
        self.token: str | None = None
        self.over = False
        self._claimed = False
        self._changed = asyncio.Event()
        self._line: asyncio.Future[Line | HexarenaError] | None = None  # the line, or why the seat loses

    def describe(self) -> JsonObject:
        return {"name": self.name, "kind": self.kind, "spec": f"turntoken:{self.name}"}

    # ----- referee side -----

    async def start(self, info: MatchInfo[DotsState, Line]) -> None:
        self.info = info
        self.state = info.initial_state

    async def move(self, request: MoveRequest[DotsState, Line]) -> MoveReply[Line]:
        self.state = request.state
        token = secrets.token_urlsafe(24)
        self.token = token
        self.table.current[token] = self.seat
        self._line = asyncio.get_running_loop().create_future()
        self._give(token)
        try:
            line = await self._line
        finally:
            self._expire()
        if isinstance(line, BaseException):
            raise line
        return MoveReply(move=line)

    async def observe(self, seat: Seat, move: Line, state: DotsState) -> None:
        self.state = state
        if self.seat == 0:
            self.table.on_state(seat, state)

    async def finish(self, result: PlayerResult[DotsState]) -> None:
        self.over = True
        self.state = result.final_state
        self._expire()
        self.table.on_end(result)
        self._give(None)

    # ----- HTTP side -----

    async def wait_turn(self, timeout: float | None = None) -> str | None:
        """The token once it is this seat's turn (each token is handed out once); None when the game is over.

        TimeoutError after ``timeout`` seconds.
        """
        loop = asyncio.get_running_loop()
        deadline = None if timeout is None else loop.time() + timeout
        while True:
            if self.token is not None and not self._claimed:
                self._claimed = True
                return self.token
            if self.over:
                return None
            self._changed.clear()
            remaining = None if deadline is None else deadline - loop.time()
            if remaining is not None and remaining <= 0:
                raise TimeoutError
            await asyncio.wait_for(self._changed.wait(), remaining)

    def submit(self, token: str, body: bytes | None) -> tuple[str | None, int]:
        """Check the line posted with ``token`` (this seat's live token).

        Returns (error, ply before the line): an error disqualifies (the referee records the loss); None means
        the line was handed to the referee and the caller should ``wait_turn`` for the next token.
        """
        state = self.state
        before = 0 if state is None else GAME.ply(state)
        line_fut = self._line
        if line_fut is None or line_fut.done() or token != self.token or state is None:
            return "turn token is not live", before
        try:
            if body is None:
                raise InvalidMove("invalid line data: body too large")
            line = parse_move_body(body)
            GAME.line_id(state, line)
        except (InvalidMove, IllegalMove) as exc:
            line_fut.set_result(IllegalMove(exc.reason))
            return exc.reason, before
        self._expire()
        line_fut.set_result(line)
        return None, before

    def disqualify(self, reason: str) -> None:
        """A protocol offence outside the move in progress (a stale token): the referee ends the match."""
        if self._line is not None and not self._line.done():
            self._line.set_result(ProtocolViolation(reason))
        else:
            self.fail(ProtocolViolation(reason))

    # ----- helpers -----

    def _give(self, token: str | None) -> None:
        if token is not None:
            self._claimed = False
        self._changed.set()

    def _expire(self) -> None:
        token, self.token = self.token, None
        if token is not None:
            self.table.current.pop(token, None)
            self.table.used[token] = self.seat


def disqualified_seat(result: PlayerResult) -> Seat | None:
    """The seat shown as ``"disqualified"``: the culprit of a loss by rules, time, protocol or disconnect."""
    if result.culprit is not None and result.outcome.termination in (
        Termination.ILLEGAL_MOVE,
        Termination.PROTOCOL,
        Termination.TIME,
        Termination.DISCONNECT,
    ):
        return result.culprit
    return None


__all__ = ["BotError", "Table", "TurnTokenPlayer", "disqualified_seat"]
