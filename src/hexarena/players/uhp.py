"""UHP host side: any Universal Hive Protocol engine executable (Mzinga, nokamute, ours) as a player.

The engine prints its ``id`` banner and ``ok`` when it starts; every answer ends with ``ok``. We send the
starting position with ``newgame <GameString>``, ask ``bestmove time hh:mm:ss`` for a move (``bestmove`` does not
play it), and tell the engine every move that the referee accepted with ``play``. ``err`` or ``invalidmove``
answers, a missing ``ok`` or silence lose with the engine's own message as the reason.
"""

from __future__ import annotations

import math
import shlex
from typing import Any

from hexarena.core.contract import MatchInfo, MoveReply, MoveRequest, PlayerResult
from hexarena.core.errors import ConfigError, ProtocolViolation
from hexarena.core.types import Seat
from hexarena.players.base import BasePlayer
from hexarena.players.process import BotProcess, Limits, split_command

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

    async def _answer(self, timeout: float | None) -> list[str]:
        lines: list[str] = []
        while True:
            line = (await self.process.read_line(timeout)).strip()
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

    async def quit(self) -> None:
        try:
            await self.process.send("exit")
        except Exception:
            pass
        await self.process.close(1.0)


class UhpPlayer(BasePlayer):
    """A UHP engine as a Hive player."""

    kind = "uhp"

    def __init__(self, command: str, name: str | None = None, limits: Limits | None = None) -> None:
        super().__init__()
        self.command = command
        self.name = name or f"uhp:{shlex.split(command)[0] if command.strip() else command}"
        self.limits = limits or Limits()
        self.engine: UhpEngineProcess | None = None

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind, "spec": self.command}

    async def start(self, info: MatchInfo) -> None:
        if info.game.name != "hive":
            raise ConfigError(f"UHP engines play Hive, not {info.game.name}")
        self.info = info
        self.engine = UhpEngineProcess(self.command, self.limits, label=self.name)
        self.engine.process.on_failure = self.fail
        await self.engine.start(self.limits.startup_timeout)
        ident = next((b for b in self.engine.banner if b.startswith("id ")), None)
        if ident and self.name.startswith("uhp:"):
            self.name = ident[3:]
        await self.engine.command(f"newgame {info.game.game_string(info.initial_state)}")

    async def move(self, request: MoveRequest) -> MoveReply:
        assert self.engine is not None
        think = DEFAULT_THINK if request.time_limit is None else request.time_limit * 0.9
        lines = await self.engine.command(f"bestmove time {uhp_time(think)}", timeout=None)
        if len(lines) != 1:
            raise ProtocolViolation(f"bestmove must answer one MoveString, got {len(lines)} lines")
        return MoveReply(move=self.info.game.parse(lines[0]))

    async def observe(self, seat: Seat, move: Any, state: Any) -> None:
        assert self.engine is not None
        text = state.moves[-1] if getattr(state, "moves", None) else self.info.game.format(move)
        await self.engine.command("pass" if text == "pass" else f"play {text}")

    async def finish(self, result: PlayerResult) -> None:
        if self.engine is not None:
            await self.engine.quit()


async def _make(game: str, command: str) -> BasePlayer:
    if not command.strip():
        raise ConfigError("uhp: needs the engine's command, e.g. uhp:'hexarena uhp --bot greedy'")
    return UhpPlayer(command)


def _register() -> None:
    from hexarena.players.spec import register_scheme

    register_scheme(
        "uhp",
        _make,
        "uhp:COMMAND  a UHP Hive engine (Mzinga, nokamute, `hexarena uhp`)",
        starts_program=True,
        remote=False,
    )


_register()
