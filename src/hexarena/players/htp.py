"""HTP (the GTP dialect of Hex engines such as MoHex) on stdin/stdout.

Commands: ``boardsize N N``, ``clear_board``, ``play b|w CELL``, ``genmove b|w``, ``quit``; answers ``= ...`` or
``? error`` followed by a blank line. HTP cells name the column by letter and the row by number (the converse of
UAIS); ``HexGame.to_htp``/``from_htp`` translate. Engines that swap with ``swap-pieces`` reflect the stone and keep
colours, while hexarena keeps the board and exchanges colours; so after any swap we simply resend the whole
board with ``clear_board`` and ``play``, in hexarena's frame, and keep asking for the colour the seat now has.
"""

from __future__ import annotations

import shlex

from hexarena.core.contract import MatchInfo, MoveReply, MoveRequest, PlayerResult
from hexarena.core.errors import ConfigError, ProtocolViolation
from hexarena.core.jsonvalue import JsonObject
from hexarena.core.types import Seat
from hexarena.games.hex import HexGame, HexMove, HexState
from hexarena.players.base import BasePlayer
from hexarena.players.process import BotProcess, Limits, split_command
from hexarena.players.scheme import Scheme


class GtpEngine:
    """One GTP conversation: ``command`` sends a line and returns the answer text (ProtocolViolation on ``?``)."""

    def __init__(self, command: str, limits: Limits | None = None, label: str = "engine") -> None:
        self.process = BotProcess(split_command(command), limits, label=label)

    async def start(self) -> None:
        await self.process.start()

    async def command(self, line: str, timeout: float | None = 30.0) -> str:
        await self.process.say(line, "engine")
        first = (await self.process.read_line(timeout)).strip()
        if not first or first[0] not in "=?":
            raise ProtocolViolation(f"answer to {line!r} must start with '=' or '?', got {first[:80]!r}")
        body = [first[1:].lstrip("0123456789").strip()]
        while True:  # the answer ends with a blank line
            more = await self.process.read_line(timeout, skip_blank=False)
            if not more.strip():
                break
            body.append(more.strip())
            if len(body) > 200:
                raise ProtocolViolation(f"answer to {line!r} is too long")
        text = "\n".join(b for b in body if b)
        if first[0] == "?":
            raise ProtocolViolation(f"the engine refused {line!r}: {text or 'error'}")
        return text

    async def quit(self) -> None:
        try:
            await self.process.send("quit")
        except Exception:
            pass
        await self.process.close(1.0)


class HtpPlayer(BasePlayer[HexState, HexMove]):
    """An HTP Hex engine as a player."""

    kind = "htp"

    def __init__(self, command: str, name: str | None = None, limits: Limits | None = None) -> None:
        super().__init__()
        self.command = command
        self.name = name or f"htp:{shlex.split(command)[0] if command.strip() else command}"
        self.limits = limits or Limits()
        self.engine: GtpEngine | None = None

    @property
    def engine_process(self) -> BotProcess | None:
        return None if self.engine is None else self.engine.process

    def describe(self) -> JsonObject:
        return {"name": self.name, "kind": self.kind, "spec": self.command}

    async def start(self, info: MatchInfo[HexState, HexMove]) -> None:
        game = info.game
        if not isinstance(game, HexGame):
            raise ConfigError(f"HTP engines play Hex, not {game.name}")
        self.info = info
        self.game = game
        self.engine = GtpEngine(self.command, self.limits, label=self.name)
        self.engine.process.on_failure = self.fail
        await self.engine.start()
        size = info.initial_state.size
        try:
            await self.engine.command(f"boardsize {size} {size}")
        except ProtocolViolation:
            await self.engine.command(f"boardsize {size}")
        await self._resync(info.initial_state)

    async def _resync(self, state: HexState) -> None:
        assert self.engine is not None
        await self.engine.command("clear_board")
        game = self.game
        for r, row in enumerate(game.rows(state)):
            for c, ch in enumerate(row):
                if ch in "BW":
                    await self.engine.command(f"play {'b' if ch == 'B' else 'w'} {game.to_htp((r, c))}")

    async def move(self, request: MoveRequest[HexState, HexMove]) -> MoveReply[HexMove]:
        assert self.engine is not None
        colour = self.game.htp_colour(request.state, self.info.seat)
        answer = await self.engine.command(f"genmove {colour}", timeout=None)
        return MoveReply(move=self.game.from_htp(answer))

    async def observe(self, seat: Seat, move: HexMove, state: HexState) -> None:
        assert self.engine is not None
        game = self.game
        if game.format(move) == "swap":
            await self._resync(state)
        elif seat != self.info.seat and isinstance(move, tuple):
            await self.engine.command(f"play {game.htp_colour(state, seat)} {game.to_htp(move)}")

    async def finish(self, result: PlayerResult[HexState]) -> None:
        if self.engine is not None:
            await self.engine.quit()


async def _make(game: str, command: str) -> BasePlayer:
    if not command.strip():
        raise ConfigError("htp: needs the engine's command, e.g. htp:'mohex --use-logfile=0'")
    return HtpPlayer(command)


SCHEME = Scheme("htp", _make, "htp:COMMAND  an HTP/GTP Hex engine (e.g. MoHex)", starts_program=True, remote=False)
