"""basic_websocket v1-alpha: hexarena (the spec's "client") connects out to a bot server.

One connection per match. A reader task runs for the whole match, so a closed socket, garbage or an
unrequested packet is noticed the moment it arrives (Hivemaker only noticed at the next heartbeat), and every
violation is answered with ``nope{reason}`` before the connection is closed.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import secrets
from collections.abc import Callable, Mapping
from typing import Any, Literal, overload

import msgspec
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI
from websockets.frames import Frame, Opcode
from websockets.protocol import Event, State

from hexarena.core.contract import MatchInfo, MoveReply, MoveRequest, PlayerResult
from hexarena.core.errors import BotCrashed, BotError, BotTimeout, ConfigError, ProtocolViolation
from hexarena.core.jsonvalue import JsonObject, JsonValue
from hexarena.games.htttx import HtttxState
from hexarena.players.base import BasePlayer
from hexarena.players.htttx_common import (
    BoardJson,
    board_of,
    bot_capabilities,
    capabilities_url,
    check_board_size,
    check_setup_size,
    considerations_of,
    end_packet,
    evaluation_of,
    move_of,
    move_request_json,
    resolve,
    rule_extras,
    untold_rules,
    wire_move,
)
from hexarena.wire import htttx as w
from hexarena.wire.ws_frames import MISSING, parser_between_frames, text_frame, whole_text_frame

log = logging.getLogger(__name__)

#: Frames from the bot above this are refused by the socket layer itself (close 1009); between
#: ``w.MAX_BOT_PACKET_BYTES`` (the largest legitimate bot packet) and this we still read the frame and answer with
#: a readable ``nope`` that names the limit. What we send is bounded by ``w.MAX_SERVER_PACKET_BYTES`` instead.
FRAME_LIMIT = 16 * w.MAX_BOT_PACKET_BYTES

#: Seconds ``analyse`` waits beyond its time limit: the network round trip on top of the bot's thinking.
ANALYSIS_GRACE = 0.25


def _is_origin_only(state: HtttxState) -> bool:
    return dict(state.cells) == {(0, 0): 0}


class _ReplyConnection(ClientConnection):
    """A client connection that hands each whole text message to ``on_text`` as it is parsed.

    Why: the bot's reply is what the referee waits for; through websockets' own path it is queued in the
    connection's assembler, a reader task wakes to take it and only then resolves the referee's wait (one more
    task step and the queue's work on every move). Here the frame goes straight from the connection's
    ``data_received`` to the adapter. Fragmented messages (rare: bots send one frame) and the end of the
    connection still go through websockets' ``recv``, which the adapter's reader task keeps waiting on.
    """

    on_text: Callable[[bytes], None] | None = None

    async def send_text(self, data: bytes) -> None:
        """Send ``data`` as one text frame: at once while the connection is open and its buffer has room.

        websockets' ``send`` wraps every message in an async context manager (~3 us of CPU a message, most of
        the send); what it guards against is checked here first, and anything else (closing, paused for flow
        control, a fragmented send under way) takes ``send`` itself, with its waiting and its errors. The frame
        is built here too (``ws_frames.text_frame``, with a fresh key from the OS as websockets draws it) when
        websockets would add nothing to it (no extension, no debug log). It is queued
        behind whatever the protocol has to send, as ``send_frame`` queues it."""
        protocol = self.protocol
        # websockets' private state: where this version lacks it, ``send`` does it all
        ready = getattr(self, "send_in_progress", MISSING) is None and protocol.state is State.OPEN
        ready = ready and not getattr(self, "paused", True) and not getattr(protocol, "expect_continuation_frame", True)
        if ready and not self.transport.is_closing():
            if protocol.extensions or protocol.debug:
                protocol.send_text(data)
            else:
                protocol.writes.append(text_frame(data, secrets.token_bytes(4)))
            self.send_data()
            return
        await self.send(data, text=True)

    def data_received(self, data: bytes) -> None:
        """Hand whole unfragmented text frames at the front of ``data`` straight to ``on_text``; the rest, if any,
        goes to websockets' parser as before.

        Why: websockets parses every frame with a generator that reads the header and the payload a few bytes at a
        time, several times the CPU of reading a whole reply frame here (``bench/bws_frame_cost.py`` prints both),
        one reply a move. A reply is one frame from the bot's server, unmasked (``hexarena.wire.ws_frames`` finds it). Such a
        frame is read here only while websockets' parser sits between frames with nothing buffered, in the middle
        of no fragmented message, with no extension and within ``max_size``: reading it changes nothing the parser
        keeps (a whole data frame leaves its state as it was). Anything else (a control frame, a fragment, a masked
        or oversized frame, a frame cut by TCP, the bytes after one) goes to the parser in order, which answers it
        (pong, close, 1002, 1009) exactly as before.
        """
        on_text = self.on_text
        protocol = self.protocol
        if on_text is None or not parser_between_frames(protocol):
            super().data_received(data)
            return
        limit, at = protocol.max_message_size, 0
        while (frame := whole_text_frame(data, at, False, limit)) is not None:
            start, at = frame
            on_text(data[start:at])
        if at < len(data):
            super().data_received(data[at:] if at else data)

    def process_event(self, event: Event) -> None:
        on_text = self.on_text
        if on_text is not None and type(event) is Frame and event.opcode is Opcode.TEXT and event.fin:
            data = event.data
            on_text(data if type(data) is bytes else bytes(data))
        else:
            super().process_event(event)


class BwsPlayer(BasePlayer):
    """A bot server speaking bws v1-alpha, reached at ``url`` (its folder or its capabilities.json)."""

    kind = "bws"
    #: A move request is sent, then its reply awaited on a future created for it: never answered in the same step.
    suspends_every_move = True

    def __init__(
        self,
        url: str,
        name: str | None = None,
        depth: int | None = None,
        extras: Mapping[str, JsonValue] | None = None,
        connect_timeout: float = 10.0,
    ) -> None:
        super().__init__()
        capabilities_url(url)  # a malformed URL is the caller's error (ConfigError, HTTP 400), not a forfeit
        self.url = url
        self.name = name or url
        self.depth = depth
        self.extras = extras or {}
        #: A match must tell the bot non-default rules or not be played; an analysis only asks for an opinion and
        #: takes a bot without ``config`` as it is (it evaluates by the default rules, as before).
        self.rules_required = True
        self.connect_timeout = connect_timeout
        self.caps: w.BwsV1Alpha | None = None
        self.meta: w.Meta | None = None
        self.ws: _ReplyConnection | None = None
        self._pending: asyncio.Future[w.BotPacket] | None = None
        self._pending_kind = ""
        self._cursor = 0
        self._tasks: list[asyncio.Task[None]] = []
        self._violation: str | None = None
        self._board: BoardJson | None = None
        self._setup_stones = 0  # stones of the starting position (see check_board_size)

    def describe(self) -> JsonObject:
        # the spec that builds this player again, over the protocol it was played over (not a bare URL)
        out: JsonObject = {"name": self.name, "kind": self.kind, "spec": f"bws:{self.url}"}
        if self.meta is not None and self.meta.name:
            out["bot_name"] = self.meta.name
        return out

    # ----- lifecycle -----

    async def start(self, info: MatchInfo) -> None:
        self.info = info
        self.seat = info.seat
        self._cursor = info.played  # a continued match: the moves so far are on the board set up below
        self._setup_stones = check_setup_size(info.initial_state)
        caps_url, caps = await bot_capabilities(self.url, self.connect_timeout)
        bws = caps.basic_websocket.versions.v1_alpha if caps.basic_websocket else None
        if bws is None:
            raise ConfigError(f"the bot at {caps_url} does not declare basic_websocket v1-alpha")
        self.caps, self.meta = bws, caps.meta
        if self.meta is not None and self.meta.name and self.name == self.url:
            self.name = self.meta.name
        if not bws.free_setup and not _is_origin_only(info.initial_state):
            raise ConfigError("the bot does not declare free_setup, so it can't start from an opening position")
        rules = rule_extras(info.params)
        if rules and bws.config is None and self.rules_required:
            raise untold_rules(rules, "the bot declares no config")
        socket_url = resolve(caps_url, bws.api_root, w.DEFAULT_BWS_API_ROOT, "game", websocket=True)
        try:
            ws = await connect(
                socket_url,
                open_timeout=self.connect_timeout,
                max_size=FRAME_LIMIT,
                ping_interval=None,
                compression=None,
                create_connection=_ReplyConnection,
                **_proxy_kwargs(socket_url),
            )
        except (OSError, InvalidHandshake, InvalidURI, TimeoutError) as exc:
            raise BotCrashed(f"could not open {socket_url}: {exc}") from None
        assert isinstance(ws, _ReplyConnection)
        self.ws = ws
        ws.on_text = self._on_message
        if bws.config is not None and (self.depth is not None or self.extras or rules):
            config: JsonObject = {"type": "config"}
            if self.depth is not None:
                config["depth"] = self.depth
            config.update({k: v for k, v in self.extras.items() if k.startswith("x-")})
            config.update(rules)  # the match's rules win over a caller's extras
            await self._send(config)
        await self._send(w.Setup(board=board_of(info.initial_state)))
        self._tasks.append(asyncio.create_task(self._reader(), name=f"bws-reader-{self.name}"))
        if info.heartbeat_ms > 0:
            self._tasks.append(
                asyncio.create_task(self._heartbeats(info.heartbeat_ms / 1000), name=f"bws-heartbeat-{self.name}")
            )

    async def move(self, request: MoveRequest) -> MoveReply:
        check_board_size(self._setup_stones, len(request.history) - self.info.played)
        history = request.history
        previous = [wire_move(seat, mv) for seat, mv in history[self._cursor :]]
        self._cursor = len(history)  # spec: next time, our own reply comes first, then the opponent's
        limit = request.time_limit if (self.caps and self.caps.move_time_limit) else None
        if self._board is None:
            self._board = BoardJson(self.info.initial_state, self.info.played)
        packet = move_request_json(w.side_of(self.seat), previous, self._board.parts(history), limit)
        reply: w.MoveResponse = await self._request(packet, "move")
        move = move_of(reply.move)
        return MoveReply(
            move=move,
            evaluation=evaluation_of(reply.move),
            considerations=considerations_of(reply.considerations),
        )

    async def evaluate(self, time_limit: float | None = None) -> dict[str, float | int] | None:
        """Ask for an evaluation of the current position (only if the bot declares ``evaluation``)."""
        if not (self.caps and self.caps.evaluation):
            return None
        limit = time_limit if self.caps.evaluation_time_limit else None
        reply: w.EvalResponse = await self._request(
            w.EvalRequest(side=w.side_of(self.seat), evaluation_time_limit=limit), "eval"
        )
        ev = reply.evaluation
        return {k: v for k, v in (("heuristic", ev.heuristic), ("win_in", ev.win_in)) if v is not None}

    async def analyse(self, state: HtttxState, time_limit: float = 10.0) -> dict[str, float | int]:
        """Evaluate ``state`` for its side to move on a connection of its own, with no referee or match.

        Why here: the capabilities fetch, the socket, the reader and the packet checks are the match adapter's;
        analysis only differs in asking ``eval_request`` instead of ``move_request`` and in owning its deadline
        (``time_limit`` plus ``ANALYSIS_GRACE`` for the network; the bot is told ``time_limit`` when it declares
        ``evaluation_time_limit``). Raises ConfigError when the bot lacks ``evaluation`` or ``free_setup`` (the
        message names it), BotTimeout past the deadline, BotCrashed / ProtocolViolation for a broken bot. The
        socket and every task are closed before this returns or raises (``nope`` first on a violation).
        """
        from hexarena.games.htttx import HTTTX

        seat = state.to_move_seat
        if seat is None:
            raise ConfigError("the position is already decided: there is no side to move to evaluate")
        info = MatchInfo(match_id="analysis", game=HTTTX, params=HTTTX.params_of(state), seat=seat, initial_state=state)
        self.rules_required = False
        try:
            async with asyncio.timeout(time_limit + ANALYSIS_GRACE):
                await self.start(info)
                assert self.caps is not None
                if not self.caps.evaluation:
                    raise ConfigError(f"the bot {self.name!r} does not declare the evaluation capability")
                if not self.caps.free_setup and seat != 1:
                    raise ConfigError(
                        "the bot does not declare free_setup, so it can only evaluate the opening for o to move"
                    )
                evaluation = await self.evaluate(time_limit)
        except TimeoutError:
            raise BotTimeout(f"the bot {self.name!r} did not answer within {time_limit:g} s") from None
        finally:
            for task in self._tasks:
                task.cancel()
            await asyncio.gather(*self._tasks, return_exceptions=True)
            self._tasks.clear()
            if self.ws is not None:
                with contextlib.suppress(Exception):
                    if self._violation is not None:
                        await self._send(w.Nope(reason=self._violation))
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(self.ws.close(), 2.0)
        assert evaluation is not None  # evaluate() only returns None without the capability, checked above
        return evaluation

    async def finish(self, result: PlayerResult) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self._tasks.clear()  # a cancelled task's traceback holds this player: no cycle through the list
        if self.ws is None:
            return
        with contextlib.suppress(Exception):
            if result.violated or self._violation is not None:
                await self._send(w.Nope(reason=self._violation or result.outcome.reason))
            else:
                await self._send(end_packet(result, board_of(result.final_state)))
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.ws.close(), 2.0)
        # the connection refers to this player (``on_text``) and this player to it: a cycle only the cyclic
        # collector would free, with the connection's buffers and the match's positions in it
        self.ws.on_text = None
        self.ws = None
        self._board = None

    # ----- internals -----

    async def _send(self, packet: msgspec.Struct | JsonObject | bytes) -> None:
        """Send a packet (a wire struct, a dict, or JSON bytes already encoded) as a text frame."""
        assert self.ws is not None
        data = packet if isinstance(packet, bytes) else w.encode(packet)
        try:
            await self.ws.send_text(data)
        except ConnectionClosed as exc:
            raise BotCrashed(f"the bot closed the connection ({exc})") from None

    @overload
    async def _request(self, packet: msgspec.Struct | bytes, kind: Literal["move"]) -> w.MoveResponse: ...
    @overload
    async def _request(self, packet: msgspec.Struct | bytes, kind: Literal["eval"]) -> w.EvalResponse: ...
    async def _request(self, packet: msgspec.Struct | bytes, kind: Literal["move", "eval"]) -> w.BotPacket:
        """Send a request and wait for its answer: a MoveResponse to ``move``, an EvalResponse to ``eval``
        (``_on_message`` takes nothing else)."""
        if self.failure is not None:
            raise self.failure
        assert self.ws is not None
        self._pending = self.ws.loop.create_future()  # not get_running_loop(): a getpid syscall a call in 3.11
        self._pending_kind = kind
        try:
            await self._send(packet)
            return await self._pending
        finally:
            self._pending = None

    def _violate(self, error: BotError) -> None:
        if isinstance(error, ProtocolViolation):
            self._violation = error.reason
        if self._pending is not None and not self._pending.done():
            self._pending.set_exception(error)
        self.fail(error)

    def _on_message(self, message: bytes) -> None:
        """One whole message from the bot: resolve the pending request with it, or end the match as a violation.

        Called from the connection's ``data_received`` (most messages) or the reader task (fragmented ones);
        never raises. Nothing is read after a violation."""
        if self._violation is not None or self.failure is not None:
            return
        try:
            packet = w.decode_bot_packet(message)
        except ProtocolViolation as exc:
            self._violate(exc)
            return
        pending = self._pending
        expected = w.MoveResponse if self._pending_kind == "move" else w.EvalResponse
        if pending is None or pending.done():
            self._violate(ProtocolViolation(f"{_type_of(packet)} sent without a pending request"))
        elif not isinstance(packet, expected):
            self._violate(ProtocolViolation(f"expected {_type_name(expected)}, got {_type_of(packet)}"))
        else:
            pending.set_result(packet)

    async def _reader(self) -> None:
        """Wait for what the connection does not hand over at once: fragmented messages and its end."""
        assert self.ws is not None
        try:
            while self._violation is None and self.failure is None:
                self._on_message(await self.ws.recv(decode=False))  # bytes: msgspec reads them without a copy
        except ConnectionClosed as exc:
            code = exc.rcvd.code if exc.rcvd else 1006
            reason = f": {exc.rcvd.reason}" if exc.rcvd and exc.rcvd.reason else ""
            if code == 1009 or (exc.sent is not None and exc.sent.code == 1009):  # we refused an oversized frame
                self._violate(ProtocolViolation(f"message larger than {FRAME_LIMIT} bytes"))
                return
            self._violate(BotCrashed(f"the bot closed the connection (code {code}{reason})"))

    async def _heartbeats(self, period: float) -> None:
        while True:
            await asyncio.sleep(period)
            try:
                await self._send(w.Heartbeat(waiting=self._pending is not None))
            except BotError as exc:
                self._violate(exc)
                return


@functools.lru_cache(maxsize=256)
def _proxy_kwargs(socket_url: str) -> dict[str, Any]:
    """The proxy ``connect`` would pick from the environment for ``socket_url``, looked up once per URL.

    websockets looks it up on every connection (``urllib``'s proxy scan of the whole environment, ~0.4 ms);
    the environment does not change under a running server. Empty for websockets versions without proxies.
    """
    try:
        from websockets.proxy import get_proxy
        from websockets.uri import parse_uri
    except ImportError:  # pragma: no cover - websockets < 15 has no proxy support
        return {}
    try:
        return {"proxy": get_proxy(parse_uri(socket_url))}
    except Exception:  # an odd URL: let connect() decide (and report) as usual
        return {}


def _type_name(cls: type) -> str:
    return str(getattr(cls, "__struct_config__").tag)  # noqa: B009


def _type_of(packet: object) -> str:
    return _type_name(type(packet))


__all__ = ["BotTimeout", "BwsPlayer"]
