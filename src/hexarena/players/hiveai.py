"""Trylobot Hive AI modules, host side: a module reached over TCP or on stdin/stdout becomes a player.

Over TCP each request opens its own connection (``<length>#<json>``, answer, close), which works whether the
module keeps connections open or not. Over stdio the module is a subprocess speaking one JSON object per line.
Requests carry ``possible_turns`` both at the top level (the seed's form) and in ``game_state`` (API 0.1.0),
with ``request_id``, ``request_timestamp``, ``response_deadline``, ``turn_history`` and
``creation_parameters``. The answer must name one of the possible turns; ``Forfeit`` only when nothing else is.
"""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from typing import Any

from hexarena import __version__
from hexarena.core.contract import MatchInfo, MoveReply, MoveRequest, PlayerResult
from hexarena.core.errors import BotCrashed, ConfigError, IllegalMove, InvalidMove, ProtocolViolation
from hexarena.core.jsonvalue import JsonObject
from hexarena.core.types import Seat
from hexarena.games.hive import HiveGame, HiveMove, HiveState, trylobot
from hexarena.games.hive.notation import resolve
from hexarena.players.base import BasePlayer
from hexarena.players.process import BotProcess, Limits, split_command
from hexarena.players.scheme import Scheme
from hexarena.wire import trylobot as tw

DEFAULT_TIMEOUT = 30.0


def split_address(address: str) -> tuple[str, int]:
    """``HOST:PORT`` as (host, port); ConfigError quoting the address when the port is not 1-65535 (asyncio
    would raise OverflowError, which reads as a server error)."""
    host, sep, port = address.rpartition(":")
    if not sep:
        raise ConfigError(f"hiveai: needs host:port, e.g. hiveai:127.0.0.1:8100, got {address!r}")
    if not (port.isascii() and port.isdigit() and 1 <= int(port) <= 65535):
        raise ConfigError(f"hiveai: {address!r}: port must be a number from 1 to 65535")
    return host.strip("[]") or "127.0.0.1", int(port)


def _checked(reply: dict[str, Any]) -> dict[str, Any]:
    """``reply`` itself, unless it is json-socket's error answer: then the module's own text is the reason."""
    error = tw.module_error(reply)
    if error is not None:
        raise ProtocolViolation(f"the module failed: {error}")
    return reply


class HiveAiPlayer(BasePlayer[HiveState, HiveMove]):
    """A Trylobot AI module: ``address`` is ``host:port`` (TCP) or a command (stdio)."""

    kind = "hiveai"

    def __init__(
        self,
        address: str,
        stdio: bool = False,
        name: str | None = None,
        spelling: str = "new",
        limits: Limits | None = None,
    ) -> None:
        super().__init__()
        if spelling not in ("new", "old"):
            raise ConfigError("spelling must be 'new' (Greetings, Choose Turn) or 'old' (GREETINGS, CHOOSE_TURN)")
        if not stdio:
            split_address(address)  # a malformed address is the caller's error (ConfigError, HTTP 400)
        self.address = address
        self.stdio = stdio
        self.name = name or f"hiveai:{address}"
        self.spelling = spelling
        self.limits = limits or Limits()
        self.process: BotProcess | None = None
        self.greeting: dict[str, Any] = {}
        self.history: list[dict[str, Any]] = []
        self.game_id = uuid.uuid4().hex

    @property
    def engine_process(self) -> BotProcess | None:
        return self.process

    def describe(self) -> JsonObject:
        out: JsonObject = {
            "name": self.name,
            "kind": self.kind,
            "spec": ("stdio:" if self.stdio else "") + self.address,
        }
        if self.greeting.get("name"):
            out["module"] = str(self.greeting.get("name"))[:100]
        return out

    # ----- transport -----

    async def _exchange(self, message: dict[str, Any], timeout: float | None) -> dict[str, Any]:
        if self.stdio:
            assert self.process is not None
            await self.process.say(json.dumps(message, separators=(",", ":")), "module")
            return _checked(tw.decode(await self.process.read_line(timeout)))
        host, port = split_address(self.address)
        try:
            reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port), 10.0)
        except (OSError, ValueError, TimeoutError) as exc:
            raise BotCrashed(f"cannot reach the module at {self.address}: {exc}") from None
        try:
            writer.write(tw.frame(message))
            await writer.drain()
            return _checked(await asyncio.wait_for(tw.read_frame(reader), timeout))
        except TimeoutError:
            from hexarena.core.errors import BotTimeout

            raise BotTimeout(f"no answer within {timeout:g} s") from None
        except (ConnectionError, asyncio.IncompleteReadError) as exc:
            raise BotCrashed(f"the module closed the connection: {exc}") from None
        finally:
            writer.close()
            try:
                await writer.wait_closed()
            except Exception:
                pass

    def _request_type(self, kind: str) -> str:
        if kind == "greetings":
            return "Greetings" if self.spelling == "new" else "GREETINGS"
        return "Choose Turn" if self.spelling == "new" else "CHOOSE_TURN"

    # ----- player -----

    async def start(self, info: MatchInfo[HiveState, HiveMove]) -> None:
        game = info.game
        if not isinstance(game, HiveGame):
            raise ConfigError(f"Hive AI modules play Hive, not {game.name}")
        self.info = info
        self.game = game
        self.board = info.initial_state.board.copy()
        if self.stdio:
            self.process = BotProcess(split_command(self.address), self.limits, label=self.name)
            self.process.on_failure = self.fail
            await self.process.start()
        request: dict[str, Any] = {"request_type": self._request_type("greetings"), "system_version": __version__}
        if self.spelling == "new":
            request["request_id"] = uuid.uuid4().hex
        reply = await self._exchange(request, self.limits.startup_timeout)
        if tw.kind_of(reply, "response_type") != "greetings":
            raise ProtocolViolation(f"expected a Greetings response, got {reply.get('response_type')!r}")
        self.greeting = reply
        if isinstance(reply.get("name"), str) and self.name.startswith("hiveai:"):
            self.name = reply["name"][:100]

    async def move(self, request: MoveRequest[HiveState, HiveMove]) -> MoveReply[HiveMove]:
        board = request.state.board
        state = trylobot.game_state(board)
        state["turn_history"] = list(self.history)
        now = time.time()
        timeout = request.time_limit if request.time_limit is not None else DEFAULT_TIMEOUT
        req_id = uuid.uuid4().hex
        message: dict[str, Any] = {
            "request_type": self._request_type("choose_turn"),
            "game_id": self.game_id,
            "possible_turns": state["possible_turns"],
            "game_state": state,
        }
        if self.spelling == "new":
            message.update(
                request_id=req_id, request_timestamp=int(now * 1000), response_deadline=int((now + timeout) * 1000)
            )
        # With a clock the referee owns the deadline; without one, Trylobot's own 30 s default applies.
        reply = await self._exchange(message, None if request.time_limit is not None else timeout)
        if tw.kind_of(reply, "response_type") != "choose_turn":
            raise ProtocolViolation(f"expected a Choose Turn response, got {reply.get('response_type')!r}")
        echoed = reply.get("request_id", reply.get("response_id"))
        if self.spelling == "new" and echoed is not None and echoed != req_id:
            raise ProtocolViolation(f"response for request {echoed!r}, expected {req_id!r}")
        if reply.get("game_id") not in (None, self.game_id):
            raise ProtocolViolation(f"response for game {reply.get('game_id')!r}, expected {self.game_id!r}")
        try:
            engine_move = trylobot.move_from_reply(board, reply)
        except InvalidMove as exc:
            raise ProtocolViolation(f"unreadable turn: {exc}") from None
        except IllegalMove:
            raise
        return MoveReply(move=self.game.move_of(board, engine_move))

    async def observe(self, seat: Seat, move: HiveMove, state: HiveState) -> None:
        before = self.board
        try:
            text = state.moves[-1]
            self.history.append(trylobot.reply_for_move(before, resolve(before, text)))
        except Exception:
            self.history.append({"turn_type": "Unknown"})
        self.board = state.board.copy()

    async def finish(self, result: PlayerResult[HiveState]) -> None:
        if self.process is not None:
            await self.process.close(0.5)


async def _tcp(game: str, address: str) -> BasePlayer:
    """A module at ``HOST:PORT``, the port checked now: a bad one is the spec's error, not a failed match."""
    if ":" not in address:
        raise ConfigError("hiveai: needs host:port, e.g. hiveai:127.0.0.1:8100 (or hiveai-stdio:COMMAND)")
    split_address(address)
    return HiveAiPlayer(address)


async def _stdio(game: str, command: str) -> BasePlayer:
    if not command.strip():
        raise ConfigError("hiveai-stdio: needs the module's command")
    return HiveAiPlayer(command, stdio=True)


TCP_SCHEME = Scheme(
    "hiveai",
    _tcp,
    "hiveai:HOST:PORT  a Trylobot Hive AI module over TCP",
    starts_program=False,
    remote=True,
    address=True,
    plays=lambda game: isinstance(game, HiveGame),
    example="127.0.0.1:8100",
)
STDIO_SCHEME = Scheme(
    "hiveai-stdio",
    _stdio,
    "hiveai-stdio:COMMAND  a Trylobot Hive AI module on stdin/stdout",
    starts_program=True,
    remote=False,
)
