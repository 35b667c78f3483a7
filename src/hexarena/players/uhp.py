"""UHP host side: any Universal Hive Protocol engine executable (Mzinga, nokamute, ours) as a player.

The engine prints its ``id`` banner and ``ok`` when it starts; every answer ends with ``ok``. We send the
starting position with ``newgame <GameString>``, ask ``bestmove time hh:mm:ss`` for a move (``bestmove`` does not
play it), and tell the engine every move that the referee accepted with ``play``. ``err`` or ``invalidmove``
answers, a missing ``ok`` or silence lose with the engine's own message as the reason.
"""

from __future__ import annotations

import math
import shlex
from collections.abc import Callable
from typing import Any

from hexarena.core.contract import MatchInfo, MoveReply, MoveRequest, PlayerResult
from hexarena.core.errors import BotTimeout, ConfigError, ProtocolViolation
from hexarena.core.jsonvalue import JsonObject
from hexarena.core.types import Seat
from hexarena.games.hive import HiveGame, HiveMove, HiveState
from hexarena.players.base import BasePlayer
from hexarena.players.process import BotProcess, Limits, split_command
from hexarena.players.scheme import Scheme

#: Think time asked of the engine when the match has no clock.
DEFAULT_THINK = 5
MAX_ANSWER_LINES = 10_000


def uhp_time(seconds: float) -> str:
    s = max(1, math.floor(seconds))
    return f"{s // 3600:02d}:{s % 3600 // 60:02d}:{s % 60:02d}"


class UhpEngineProcess:
    """One UHP conversation."""

    def __init__(self, command: str, limits: Limits | None = None, label: str = "engine") -> None:
        self.process = BotProcess(split_command(command), limits, label=label)
        self.banner: list[str] = []

    async def start(self, timeout: float) -> None:
        await self.process.start()
        self.banner = await self._answer(timeout)

    async def _answer(self, timeout: float | None, lines: list[str] | None = None) -> list[str]:
        """The lines of one answer, up to its ``ok``. A program that printed something but no ``ok`` in time is
        no UHP engine (or lost its way): the reason quotes what it printed rather than claiming silence."""
        lines = [] if lines is None else lines
        while True:
            try:
                line = (await self.process.read_line(timeout)).strip()
            except BotTimeout:
                if not lines:
                    raise
                raise ProtocolViolation(
                    f"no 'ok' within {timeout:g} s; instead the program printed {len(lines)} line(s), "
                    f"the first {lines[0][:200]!r}"
                ) from None
            if line == "ok":
                return lines
            lines.append(line)
            if len(lines) > MAX_ANSWER_LINES:
                raise ProtocolViolation("answer without 'ok' after too many lines")

    async def command(self, line: str, timeout: float | None = 30.0) -> list[str]:
        await self.process.say(line, "engine")
        lines = await self._answer(timeout)
        for text in lines:
            if text.startswith(("err", "invalidmove")):
                raise ProtocolViolation(f"the engine answered {line!r} with {text[:200]!r}")
        return lines

    async def bestmove(self, line: str, parse: Callable[[str], Any]) -> tuple[str, Any]:
        """Ask ``line`` (a ``bestmove``) and return the MoveString and its move. The first line must be a
        MoveString: anything else (an ``err``, prose) loses at once, quoting it, instead of waiting out the
        clock for an ``ok``; then exactly ``ok`` must follow."""
        await self.process.say(line, "engine")
        first = (await self.process.read_line(None)).strip()
        if first == "ok":
            raise ProtocolViolation(f"the engine answered {line!r} with no MoveString")
        if first.startswith(("err", "invalidmove")):
            raise ProtocolViolation(f"the engine answered {line!r} with {first[:200]!r}")
        move = parse(first)  # InvalidMove quotes the text: a protocol loss
        rest = await self._answer(None)
        if rest:
            raise ProtocolViolation(f"bestmove must answer one MoveString, got {len(rest) + 1} lines")
        return first, move

    async def quit(self) -> None:
        try:
            await self.process.send("exit")
        except Exception:
            pass
        await self.process.close(1.0)


class UhpPlayer(BasePlayer[HiveState, HiveMove]):
    """A UHP engine as a Hive player."""

    kind = "uhp"

    def __init__(self, command: str, name: str | None = None, limits: Limits | None = None) -> None:
        super().__init__()
        self.command = command
        self.name = name or f"uhp:{shlex.split(command)[0] if command.strip() else command}"
        self.limits = limits or Limits()
        self.engine: UhpEngineProcess | None = None

    @property
    def engine_process(self) -> BotProcess | None:
        return None if self.engine is None else self.engine.process

    def describe(self) -> JsonObject:
        return {"name": self.name, "kind": self.kind, "spec": self.command}

    async def start(self, info: MatchInfo[HiveState, HiveMove]) -> None:
        game = info.game
        if not isinstance(game, HiveGame):
            raise ConfigError(f"UHP engines play Hive, not {game.name}")
        self.info = info
        self.game = game
        self.engine = UhpEngineProcess(self.command, self.limits, label=self.name)
        self.engine.process.on_failure = self.fail
        await self.engine.start(self.limits.startup_timeout)
        ident = next((b for b in self.engine.banner if b.startswith("id ")), None)
        if ident and self.name.startswith("uhp:"):
            self.name = ident[3:]
        await self.engine.command(f"newgame {game.game_string(info.initial_state)}")

    async def move(self, request: MoveRequest[HiveState, HiveMove]) -> MoveReply[HiveMove]:
        assert self.engine is not None
        think = DEFAULT_THINK if request.time_limit is None else request.time_limit * 0.9
        _, move = await self.engine.bestmove(f"bestmove time {uhp_time(think)}", self.game.parse)
        return MoveReply(move=move)

    async def observe(self, seat: Seat, move: HiveMove, state: HiveState) -> None:
        assert self.engine is not None
        text = state.moves[-1] if state.moves else self.game.format(move)
        await self.engine.command("pass" if text == "pass" else f"play {text}")

    async def finish(self, result: PlayerResult[HiveState]) -> None:
        if self.engine is not None:
            await self.engine.quit()


async def _make(game: str, command: str) -> BasePlayer:
    if not command.strip():
        raise ConfigError("uhp: needs the engine's command, e.g. uhp:'hexarena uhp --bot greedy'")
    return UhpPlayer(command)


SCHEME = Scheme(
    "uhp",
    _make,
    "uhp:COMMAND  a UHP Hive engine (Mzinga, nokamute, `hexarena uhp`)",
    starts_program=True,
    remote=False,
)
