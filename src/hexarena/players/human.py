"""A person as a player of HTTTX, over the same packets a bws bot gets (``WS /ws?token=``).

Hivemaker's UI answers each move request with one piece, twice per turn; a two-piece answer works too. The
server attaches the person's socket to this player; the referee sees a player like any other, with the same
clocks. A token is single-use: a second connection with it is refused with a ``nope`` (the seat is untouched:
the refused socket neither acts nor forfeits), and leaving forfeits, so the seat never changes hands.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable
from typing import Any

from hexarena.core.contract import MatchInfo, MoveReply, MoveRequest, PlayerResult
from hexarena.core.errors import BotCrashed, BotTimeout, ProtocolViolation
from hexarena.players.base import BasePlayer
from hexarena.players.htttx_common import board_of, end_packet, wire_move
from hexarena.wire import htttx as w

Send = Callable[[str], Awaitable[None]]


class HtttxHumanPlayer(BasePlayer):
    """A human seat; ``attach`` is called by the server when the person's socket connects."""

    kind = "human"

    def __init__(self, name: str = "human", join_timeout: float = 600.0) -> None:
        super().__init__()
        self.name = name
        self.join_timeout = join_timeout
        self._send: Send | None = None
        self._joined = asyncio.Event()
        self._inbox: asyncio.Queue[Any] = asyncio.Queue()
        self._cursor = 0
        self._used = False
        self._setup_sent = False
        self._asking = False  # a move request is open: only then may the person send a move_response
        #: set once the person has been told how the match ended; the server then closes the socket
        self.done = asyncio.Event()

    @property
    def attached(self) -> bool:
        return self._send is not None

    async def attach(self, send: Send) -> bool:
        """Bind the person's socket; False, after a ``nope`` on that socket, if the seat was already taken
        (single-use token)."""
        if self._used:
            await send(w.encode(w.Nope(reason="this seat's token was already used: one connection per seat")).decode())
            return False
        self._used = True
        self._send = send
        if hasattr(self, "info"):
            await self._send_setup()
        self._joined.set()  # after the setup, so no move_request can overtake it
        return True

    def receive(self, text: str | bytes) -> None:
        """A frame from the person's socket: garbage, a wrong packet or a move nobody asked for fails the
        player at once (the referee is watching ``failed()``), so nothing is ever dropped silently."""
        try:
            packet = w.decode_bot_packet(text)
        except ProtocolViolation as exc:
            self.fail(exc)
            return
        if not self._asking:
            self.fail(ProtocolViolation(f"{_type_of(packet)} sent without a pending request"))
            return
        self._inbox.put_nowait(packet)

    def detach(self) -> None:
        """The person's socket closed."""
        self._send = None
        self.fail(BotCrashed("the player left the game"))

    async def start(self, info: MatchInfo) -> None:
        self.info = info
        self.seat = info.seat
        if self._send is not None:
            await self._send_setup()

    async def _send_setup(self) -> None:
        if not self._setup_sent:
            self._setup_sent = True
            await self._emit(w.Setup(board=board_of(self.info.initial_state)))

    async def _emit(self, packet: Any) -> None:
        if self._send is not None:
            await self._send(w.encode(packet).decode())

    async def _next_packet(self) -> w.MoveResponse:
        self._asking = True
        try:
            packet = await self._inbox.get()
        finally:
            self._asking = False
        if not isinstance(packet, w.MoveResponse):
            raise ProtocolViolation(f"expected move_response, got {_type_of(packet)}")
        return packet

    async def seated(self) -> None:
        """Return once the person's socket has taken the seat (within ``join_timeout``): the referee starts no
        clock before every seat is taken."""
        if not self._joined.is_set():
            try:
                await asyncio.wait_for(self._joined.wait(), self.join_timeout)
            except TimeoutError:
                raise BotTimeout(f"nobody joined within {self.join_timeout:g} s") from None

    async def move(self, request: MoveRequest) -> MoveReply:
        await self.seated()  # already taken when a referee runs the match
        previous = [wire_move(seat, mv) for seat, mv in request.history[self._cursor :]]
        self._cursor = len(request.history)  # spec: own previous move first, then the opponent's
        side = w.side_of(self.seat)
        asked = time.monotonic()
        await self._emit(
            w.MoveRequestPacket(
                side=side,
                previous=previous,
                board=board_of(request.state),
                move_time_limit=request.time_limit,
            )
        )
        first = await self._next_packet()
        pieces = [(p.q, p.r) for p in first.move.pieces]
        if len(pieces) == 2:
            return MoveReply(move=(pieces[0], pieces[1]))
        if len(pieces) != 1:
            raise ProtocolViolation(f"a move must have 1 or 2 pieces, got {len(pieces)}")
        a = pieces[0]
        board = request.state.board()
        wins = board.place(a[0], a[1], self.seat)  # IllegalMove: the referee records the rules' own reason
        if wins:  # the rules ignore the second stone; any other cell completes the move
            try:
                return MoveReply(move=(a, board.random_legal(random.Random(0))))
            except Exception:
                return MoveReply(move=(a, (a[0] + 1, a[1])))
        cells = [w.Cell(q=q, r=r, p=w.side_of(s)) for (q, r), s in board.cells.items()]
        left = None if request.time_limit is None else max(0.0, request.time_limit - (time.monotonic() - asked))
        await self._emit(w.MoveRequestPacket(side=side, previous=[], board=w.Board(cells=cells), move_time_limit=left))
        second = await self._next_packet()
        if len(second.move.pieces) != 1:
            raise ProtocolViolation(f"expected the second piece alone, got {len(second.move.pieces)} pieces")
        b = second.move.pieces[0]
        return MoveReply(move=(a, (b.q, b.r)))

    async def finish(self, result: PlayerResult) -> None:
        try:
            if result.violated:
                await _quiet(self._emit(w.Nope(reason=result.outcome.reason)))
            else:
                await _quiet(self._emit(end_packet(result, board_of(result.final_state))))
        finally:
            self.done.set()


def _type_of(packet: Any) -> str:
    return str(type(packet).__struct_config__.tag)


async def _quiet(aw: Awaitable[None]) -> None:
    try:
        await aw
    except Exception:
        return
