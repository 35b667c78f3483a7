"""The UAIS Hex protocol: a bot executable on stdin/stdout, started once per match as ``<path> <black|white>``.

Messages (docs/protocols/uais.md): ``init_board N``, ``make_move`` (one reply line: a cell such as ``a1`` or ``swap``),
``seto X`` (the opponent played X), ``sety X`` (you played X: restoring a game), ``unset X``, ``swap``,
``show_board``, ``check_win``, ``quit``. Blank lines are skipped. A bot may answer ``error`` to a message that
conflicts with its state; we treat that as the bot being out of step and it loses with that reason. Anything
printed without being asked (extra lines) is a protocol violation too, noticed at the next exchange.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence

from hexarena.core.contract import MatchInfo, MoveReply, MoveRequest, PlayerResult
from hexarena.core.errors import ConfigError, ProtocolViolation
from hexarena.core.jsonvalue import JsonObject
from hexarena.core.types import Seat
from hexarena.games.hex import HexGame, HexMove, HexState
from hexarena.players.base import BasePlayer
from hexarena.players.process import BotProcess, Limits, split_command
from hexarena.players.scheme import Scheme

BLACK_CHAR, WHITE_CHAR = "B", "W"


class UaisBot:
    """The UAIS conversation with one bot process; used by the player adapter and the central program."""

    def __init__(
        self, command: str | Sequence[str], colour: str, limits: Limits | None = None, label: str = "bot"
    ) -> None:
        if colour not in ("black", "white"):
            raise ConfigError(f"colour must be black or white, got {colour!r}")
        self.argv = [*split_command(command), colour]
        self.process = BotProcess(self.argv, limits, label=label)
        self.label = label

    async def start(self, size: int) -> None:
        await self.process.start()
        await self.tell(f"init_board {size}")

    async def tell(self, line: str) -> None:
        """Send a message that needs no answer; an ``error`` or any unasked output so far is a violation."""
        self._check_unasked()
        await self.process.send(line)

    async def ask(self, line: str, timeout: float | None) -> str:
        """Send a message and read its one-line answer."""
        self._check_unasked()
        await self.process.send(line)
        answer = (await self.process.read_line(timeout)).strip()
        if answer.lower() == "error":
            raise ProtocolViolation(f"the bot answered 'error' to {line!r}")
        return answer

    def _check_unasked(self) -> None:
        extra = self.process.unread_lines()
        if not extra:
            return
        if any(x.strip().lower() == "error" for x in extra):
            raise ProtocolViolation("the bot answered 'error' (its board is out of step with the game)")
        shown = "; ".join(repr(x[:80]) for x in extra[:3])
        raise ProtocolViolation(f"the bot printed {len(extra)} unexpected line(s): {shown}")

    async def quit(self, grace: float = 1.0) -> int | None:
        try:
            self._check_unasked()
        except ProtocolViolation:
            pass
        try:
            await self.process.send("quit")
        except Exception:
            pass
        return await self.process.close(grace)


def restore_lines(game: HexGame, state: HexState, colour_char: str) -> list[str]:
    """``sety``/``seto`` messages that rebuild ``state``'s stones for the bot playing ``colour_char``."""
    lines = []
    for r, row in enumerate(game.rows(state)):
        for c, ch in enumerate(row):
            if ch in (BLACK_CHAR, WHITE_CHAR):
                verb = "sety" if ch == colour_char else "seto"
                lines.append(f"{verb} {game.format((r, c))}")
    return lines


class UaisPlayer(BasePlayer[HexState, HexMove]):
    """A UAIS Hex bot executable as a player."""

    kind = "uais"

    def __init__(self, command: str, name: str | None = None, limits: Limits | None = None) -> None:
        super().__init__()
        self.command = command
        self.name = name or f"uais:{shlex.split(command)[0] if command.strip() else command}"
        self.limits = limits or Limits()
        self.bot: UaisBot | None = None

    def describe(self) -> JsonObject:
        return {"name": self.name, "kind": self.kind, "spec": self.command}

    async def start(self, info: MatchInfo[HexState, HexMove]) -> None:
        game = info.game
        if not isinstance(game, HexGame):
            raise ConfigError(f"UAIS bots play Hex, not {game.name}")
        self.info = info
        self.game = game
        state: HexState = info.initial_state
        colour = "black" if game.htp_colour(state, info.seat) == "b" else "white"
        self.colour_char = BLACK_CHAR if colour == "black" else WHITE_CHAR
        self.bot = UaisBot(self.command, colour, self.limits, label=self.name)
        self.bot.process.on_failure = self.fail
        await self.bot.start(state.size)
        for line in restore_lines(game, state, self.colour_char):
            await self.bot.tell(line)

    async def move(self, request: MoveRequest[HexState, HexMove]) -> MoveReply[HexMove]:
        assert self.bot is not None
        answer = await self.bot.ask("make_move", None)  # the referee owns the deadline
        return MoveReply(move=self.game.parse(answer))

    async def observe(self, seat: Seat, move: HexMove, state: HexState) -> None:
        assert self.bot is not None
        if seat == self.info.seat:
            return  # the bot already set its own move
        text = self.game.format(move)
        await self.bot.tell("swap" if text == "swap" else f"seto {text}")

    async def finish(self, result: PlayerResult[HexState]) -> None:
        if self.bot is not None:
            await self.bot.quit()

    @property
    def engine_process(self) -> BotProcess | None:
        return None if self.bot is None else self.bot.process

    @property
    def stderr(self) -> str:
        return self.bot.process.stderr_excerpt() if self.bot else ""


async def _make(game: str, command: str) -> BasePlayer:
    if not command.strip():
        raise ConfigError("uais: needs the bot's command, e.g. uais:./mybot or uais:'python3 bot.py'")
    return UaisPlayer(command)


SCHEME = Scheme(
    "uais",
    _make,
    "uais:COMMAND  a UAIS Hex bot executable (started as COMMAND black|white)",
    starts_program=True,
    remote=False,
)
