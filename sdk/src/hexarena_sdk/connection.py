"""One bws v1-alpha game session on the bot side, over any WebSocket-like transport.

Two tasks share the session: a *reader* that never stops reading (so heartbeats and interrupts are seen while
the bot thinks) and a *worker* that handles setup/config/requests strictly in arrival order. Packets that arrive
while a request is being answered are queued behind it, except ``heartbeat``, ``interrupt``, ``end`` and
``nope``, which act at once.

Heartbeat rule (spec): ``waiting: true`` while no request is open means the client lost track, and the bot
closes the connection. A request is open from the moment it is read until its answer is sent (or it is
interrupted). The client says ``waiting: true`` until it has read the reply, so those it sent before can arrive
after we replied: one crossing the reply on the wire, several when the client is slow to read or the reader here
was held up while the bot thought (they queue in the socket). They are tolerated within ``CROSSING_WINDOW`` of
our last reply, unless a ``waiting: false`` (the client's first heartbeat after reading) or a new request came
since; any other closes.

Requests may carry an integer ``request_id`` (newer spec revisions); it is echoed in the reply, and
``interrupt{request_id?}`` cancels that request (or the latest open one): its reply is never sent and the board
goes back to how it was before the request's ``previous``.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import time
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any, Protocol

import msgspec

from hexarena_sdk.bot import BaseBot
from hexarena_sdk.capabilities import Capabilities
from hexarena_sdk.errors import IllegalMove, ProtocolViolation
from hexarena_sdk.models import Player
from hexarena_sdk.moves import considerations_of, to_option
from hexarena_sdk.play import answer_eval, answer_move
from hexarena_sdk.runner import BotRunner, soft_deadline
from hexarena_sdk.session import BoardCache, CellsView, SessionState, cells_from_wire
from hexarena_sdk.wire import htttx as wire

log = logging.getLogger("hexarena.bots.sdk")

#: WebSocket close codes used by the bot side.
CLOSE_NORMAL = 1000
CLOSE_POLICY = 1008  # the client broke the protocol (bad packet, stray waiting heartbeat)
CLOSE_ERROR = 1011  # this server failed (a bug): the client learns it was not a normal end

_QUEUED = ("setup", "config", "move_request", "eval_request")

#: Seconds after our reply in which ``waiting: true`` with no request open is one the client sent before it read
#: the reply. Long enough for a loaded client to read it; a client that lost track says ``waiting: true`` at every
#: heartbeat, so it is caught soon after. hexarena's starter bots (starters/) keep the same rule and window.
CROSSING_WINDOW = 5.0


class Transport(Protocol):
    """The little the session needs from a WebSocket."""

    async def receive(self) -> str | bytes | None:
        """The next message, or None once the peer has closed."""
        ...

    async def send(self, text: str) -> None: ...

    async def close(self, code: int = CLOSE_NORMAL, reason: str = "") -> None: ...


class WebsocketsTransport:
    """``Transport`` over a connection of the ``websockets`` library (client or server side)."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws

    async def receive(self) -> str | bytes | None:
        from websockets.exceptions import ConnectionClosed

        try:
            data: str | bytes = await self.ws.recv()
        except ConnectionClosed:
            return None
        return data

    async def send(self, text: str) -> None:
        await self.ws.send(text)

    async def close(self, code: int = CLOSE_NORMAL, reason: str = "") -> None:
        await self.ws.close(code, reason)


@dataclass
class OpenRequest:
    """A move or evaluation request the client is waiting for."""

    packet: wire.MoveRequestPacket | wire.EvalRequest
    request_id: int | None
    received_at: float
    cancelled: asyncio.Event = field(default_factory=asyncio.Event)
    board: CellsView | None = None  # its board, decoded already (the session's BoardCache)


#: How our game server's move requests begin (``move_request_json``): such a packet is decoded in one pass.
_MOVE_REQUEST_HEAD = '{"type":"move_request",'
_MOVE_REQUEST_HEADS = (_MOVE_REQUEST_HEAD, _MOVE_REQUEST_HEAD.encode())
_BOARD_MEMBER = b',"board":{"cells":['


class Inbox:
    """The reader's hand-over to the worker: a FIFO for one waiting consumer.

    ``asyncio.Queue`` does the same with a bound, ``join`` bookkeeping and a check of the running loop on every
    wait; on an instant bot's server that was a few per cent of the CPU, once a packet."""

    __slots__ = ("_items", "_loop", "_waiter")

    def __init__(self) -> None:
        self._items: collections.deque[tuple[Any, dict[str, Any] | None]] = collections.deque()
        self._waiter: asyncio.Future[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None  # the consumer's, looked up once: see get()

    def put_nowait(self, item: tuple[Any, dict[str, Any] | None]) -> None:
        self._items.append(item)
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def get_nowait(self) -> tuple[Any, dict[str, Any] | None]:
        """The oldest item; IndexError when there is none."""
        return self._items.popleft()

    async def get(self) -> tuple[Any, dict[str, Any] | None]:
        while not self._items:
            if self._loop is None:  # get_running_loop() costs a getpid syscall a call in 3.11: once, not a packet
                self._loop = asyncio.get_running_loop()
            self._waiter = self._loop.create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        return self._items.popleft()


def _request_id(rid: Any) -> int | None:
    return rid if isinstance(rid, int) and not isinstance(rid, bool) else None


class BwsSession:
    """Drives one connection until ``end``/``nope``, a protocol error, or the client going away."""

    def __init__(
        self,
        transport: Transport,
        bot: BaseBot,
        caps: Capabilities,
        executor: Executor | None = None,
        fast_streak: int = 0,
    ) -> None:
        self.transport = transport
        self.bot = bot
        self.state = SessionState(caps.bws)
        self.runner = BotRunner(bot, executor, fast_streak)
        self.boards = BoardCache()
        self.queue = Inbox()
        self.open: list[OpenRequest] = []
        self.replied_at: float | None = None  # our last reply, until the client shows it read it (monotonic)
        self.closed = False
        self.close_reason = ""
        self.replies = 0

    async def run(self) -> None:
        reader = asyncio.create_task(self._read(), name="bws-reader")
        worker = asyncio.create_task(self._work(), name="bws-worker")
        try:
            done, _ = await asyncio.wait({reader, worker}, return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                exc = task.exception()
                if exc is not None:
                    log.error("bot session failed: %r", exc, exc_info=exc)
                    await self.close(CLOSE_ERROR, f"bot server error: {exc!r}")  # not a normal end
        finally:
            for task in (reader, worker):
                task.cancel()
            await asyncio.gather(reader, worker, return_exceptions=True)
            for req in self.open:
                req.cancelled.set()
            self.runner.stop()
            await self.close(CLOSE_NORMAL, self.close_reason or "session over")

    async def close(self, code: int, reason: str) -> None:
        if self.closed:
            return
        self.closed = True
        self.close_reason = self.close_reason or reason
        with contextlib.suppress(Exception):
            await self.transport.close(code, reason[:120])

    # ----- reading -----

    async def _read(self) -> None:
        while True:
            raw = await self.transport.receive()
            if raw is None:
                self.close_reason = "client closed the connection"
                return
            if len(raw) > wire.MAX_SERVER_PACKET_BYTES:  # no legitimate server packet is larger (see its docstring)
                limit = wire.MAX_SERVER_PACKET_BYTES
                await self.close(CLOSE_POLICY, f"packet too large: {len(raw)} bytes (limit {limit})")
                return
            if raw[: len(_MOVE_REQUEST_HEAD)] in _MOVE_REQUEST_HEADS and self._fast_move_request(raw):
                continue
            try:
                head = wire.decode_head(raw)  # type and request_id only: the board is decoded once, typed, later
            except ProtocolViolation as exc:
                if exc.reason.startswith("packet is not valid JSON"):
                    await self.close(CLOSE_POLICY, exc.reason)
                else:
                    await self.close(CLOSE_POLICY, f"packet without a string 'type': {raw[:80]!r}")
                return
            kind = head.type
            if not isinstance(kind, str):
                await self.close(CLOSE_POLICY, f"packet without a string 'type': {raw[:80]!r}")
                return
            try:
                if not await self._dispatch(kind, raw, head):
                    return
            except ProtocolViolation as exc:
                await self.close(CLOSE_POLICY, exc.reason)
                return

    async def _dispatch(self, kind: str, raw: str | bytes, head: wire.PacketHead) -> bool:
        """Handle one packet; False ends the session."""
        if kind == "heartbeat":
            beat = wire.decode_server_packet(raw)
            if not beat.waiting:
                self.replied_at = None  # the client has read our reply
            elif not self.open and not self._crossing_reply():
                log.warning("heartbeat waiting=true with no open request: closing (spec error state)")
                await self.close(CLOSE_POLICY, "heartbeat waiting=true but no request is open")
                return False
            return True
        if kind == "interrupt":
            self._interrupt(_request_id(head.request_id))
            return True
        if kind in ("end", "nope"):
            msg = msgspec.json.decode(raw)
            self.close_reason = f"{kind}: {msg.get('reason')}"
            log.info("session %s", self.close_reason)
            return False
        if kind == "move_request":
            self._queue_move_request(raw, head)
            return True
        if kind in _QUEUED:
            packet = wire.decode_server_packet(raw)
            if isinstance(packet, wire.MoveRequestPacket | wire.EvalRequest):
                req = OpenRequest(packet, _request_id(head.request_id), time.monotonic())
                self.open.append(req)
                self.replied_at = None  # asked again: the client read our last reply
                self.queue.put_nowait((req, None))
            else:
                self.queue.put_nowait((packet, msgspec.json.decode(raw) if kind == "config" else None))
            return True
        log.debug("ignoring packet of unknown type %r", kind)
        return True

    def _crossing_reply(self) -> bool:
        """Whether a ``waiting: true`` read now can be one the client sent before it read our reply."""
        return self.replied_at is not None and time.monotonic() - self.replied_at <= CROSSING_WINDOW

    def _fast_move_request(self, raw: str | bytes) -> bool:
        """Queue a move request laid out as our game server writes them without reading its board as JSON.

        Decoding a packet reads all of it, and its board grows with the game (~50 us a request at 1,000 stones,
        twice that with a head decoded first). Our server writes ``{<type, side, previous>,"board":{"cells":[
        ...]}<, move_time_limit>}``, so the board is cut out by position: the part before it must decode, closed
        with ``}``, as a whole object (so the board is a member of the packet itself, not of something nested),
        the packet without it must decode as a move request with no board, and the board goes to the
        ``BoardCache``, which parses only its new cells and checks that the rest is the last board's bytes.
        Anything else returns False: the packet takes the usual path, which decodes all of it and reports what
        is wrong in its usual words.
        """
        data = raw.encode() if isinstance(raw, str) else raw
        start = data.find(_BOARD_MEMBER)
        end = data.rfind(b"]}") + 2
        if start < 0 or end < start + len(_BOARD_MEMBER):
            return False
        try:
            wire.decode_lazy_move_request(data[:start] + b"}")
            lazy = wire.decode_lazy_move_request(data[:start] + data[end:])
        except ProtocolViolation:
            return False
        if lazy.board:  # a second board member: leave it to the usual path
            return False
        board = self.boards.cells_of(data[start + len(b',"board":') : end])
        if board is None:
            return False
        self._queue(lazy, lazy.request_id, board)
        return True

    def _queue_move_request(self, raw: str | bytes, head: wire.PacketHead) -> None:
        """Decode a move request, its board through the cache (only new cells are parsed), and queue it."""
        lazy = wire.decode_lazy_move_request(raw)
        board: CellsView | None = None
        raw_board = bytes(lazy.board)
        if raw_board and raw_board != b"null":
            board = self.boards.cells_of(raw_board)
            if board is None:  # not a valid board: the full decoder says why, in its usual words
                full = wire.decode_server_packet(raw)
                board = cells_from_wire(full.board.cells) if full.board is not None else None
        self._queue(lazy, head.request_id, board)

    def _queue(self, lazy: wire.LazyMoveRequest, request_id: Any, board: CellsView | None) -> None:
        packet = wire.MoveRequestPacket(
            side=lazy.side, previous=lazy.previous, board=None, move_time_limit=lazy.move_time_limit
        )
        req = OpenRequest(packet, _request_id(request_id), time.monotonic(), board=board)
        self.open.append(req)
        self.replied_at = None  # asked again: the client read our last reply
        self.queue.put_nowait((req, None))

    def _interrupt(self, request_id: int | None) -> None:
        target: OpenRequest | None = None
        if request_id is None:
            target = self.open[-1] if self.open else None
        else:
            target = next((r for r in self.open if r.request_id == request_id), None)
        if target is None:
            return
        target.cancelled.set()
        self.open.remove(target)

    # ----- working -----

    async def _work(self) -> None:
        while True:
            item, msg = await self.queue.get()
            if isinstance(item, OpenRequest):
                if item.cancelled.is_set():
                    continue
                if isinstance(item.packet, wire.MoveRequestPacket):
                    try:
                        await self._move(item, item.packet)
                    except ProtocolViolation as exc:
                        await self.close(CLOSE_POLICY, exc.reason)
                        return
                else:
                    await self._eval(item, item.packet)
            elif isinstance(item, wire.Setup):
                self.state.apply_setup(item.board)
            elif isinstance(item, wire.Config) and msg is not None:
                depth, extras = self.state.apply_config(msg)
                call = await self.runner.call(self.bot.on_config, depth, extras)
                if call.kind == "error":
                    log.error("on_config raised %r", call.error, exc_info=call.error)

    async def _move(self, req: OpenRequest, packet: wire.MoveRequestPacket) -> None:
        before = self.state.begin_move_request(packet, req.board)
        side = Player(packet.side)
        limit = packet.move_time_limit
        hard = None if limit is None else req.received_at + limit
        match = self.state.match_for(limit, soft_deadline(req.received_at, limit))
        cells = self.state.cells
        try:
            board = self.state.engine_board(match)
        except IllegalMove as exc:  # a cell the engine cannot hold: the client's board is no position
            raise ProtocolViolation(f"move request's board: {exc}") from exc
        models = self.state.cell_list()
        result = await answer_move(self.runner, cells, side, match, hard, req.cancelled, board, models)
        if self.runner.busy:
            self.state.forget_cell_models()
        else:
            self.state.cells_untouched()
        if result is None or req.cancelled.is_set():
            self.state.rollback(before)
            return
        self.state.commit_own_move(side, result.pieces)
        reply = wire.MoveResponse(
            move=to_option(result.pieces, result.evaluation), considerations=considerations_of(result)
        )
        await self._reply(req, reply)

    async def _eval(self, req: OpenRequest, packet: wire.EvalRequest) -> None:
        limit = packet.evaluation_time_limit
        match = self.state.match_for(limit, soft_deadline(req.received_at, limit))
        ev = await answer_eval(self.runner, dict(self.state.cells), Player(packet.side), match, req.cancelled)
        if ev is None or req.cancelled.is_set():
            return
        await self._reply(req, wire.EvalResponse(evaluation=ev.to_struct()))

    async def _reply(self, req: OpenRequest, packet: wire.MoveResponse | wire.EvalResponse) -> None:
        if req in self.open:
            self.open.remove(req)
        self.replied_at = time.monotonic()  # before the send, so never later than the client got the reply
        if req.request_id is None:
            text = wire.encode(packet).decode()
        else:
            data = msgspec.to_builtins(packet)
            data["request_id"] = req.request_id
            text = msgspec.json.encode(data).decode()
        try:
            await self.transport.send(text)
        except Exception as exc:  # the client went away mid-reply; the reader sees the close next
            log.info("could not send the reply: %r", exc)
            return
        self.replies += 1
