"""Any built-in Hive bot as a UHP engine on stdin/stdout: ``hexarena uhp --bot alphabeta``.

Speaks the Universal Hive Protocol (Mzinga, nokamute): ``info``, ``newgame [GameType|GameString]``,
``play MoveString``, ``pass``, ``validmoves``, ``bestmove [time hh:mm:ss | depth N]``, ``undo [N]``,
``options``, ``exit``. Every answer ends with a line ``ok``; errors are ``err <message>`` and rejected moves
``invalidmove <message>``, so our bots work in any UHP host (e.g. Mzinga's viewer).
"""

from __future__ import annotations

import random
import re
import sys
from typing import Any, TextIO

from hexarena import __version__
from hexarena.bots.base import MatchMemory, think
from hexarena.bots.registry import make_builtin
from hexarena.core.errors import HexarenaError, IllegalMove, InvalidMove
from hexarena.games.hive import GAME as HIVE
from hexarena.games.hive import HiveGame

CAPABILITIES = "Mosquito;Ladybug;Pillbug"
DEFAULT_THINK = 5.0
_TIME = re.compile(r"^(\d+):(\d\d):(\d\d)$")


class UhpEngine:
    """The UHP state machine around a built-in EngineBot."""

    def __init__(self, bot: Any, bot_name: str, seed: int | None = None) -> None:
        self.game: HiveGame = HIVE  # the Hive engine itself: UHP is a Hive protocol
        self.bot = bot
        self.bot_name = bot_name
        self.rng = random.Random(seed)
        self.states: list[Any] = []

    @property
    def state(self) -> Any:
        return self.states[-1] if self.states else None

    def banner(self) -> list[str]:
        return [f"id hexarena-{self.bot_name} {__version__}", CAPABILITIES]

    def handle(self, line: str) -> list[str]:
        """The answer lines to one command, without the final ``ok``."""
        parts = line.strip().split(maxsplit=1)
        if not parts:
            return []
        cmd, arg = parts[0].lower(), (parts[1].strip() if len(parts) > 1 else "")
        try:
            if cmd == "info":
                return self.banner()
            if cmd == "newgame":
                self.states = [self.game.from_game_string(arg) if arg else self.game.new()]
                if isinstance(self.bot, MatchMemory):
                    self.bot.new_match()  # one engine process plays game after game: each starts afresh
                return [self.game.game_string(self.state)]
            if cmd == "options":
                return []
            if self.state is None:
                return ["err no game in progress: send newgame first"]
            if cmd in ("play", "pass"):
                text = "pass" if cmd == "pass" else arg
                if not text:
                    return ["err play needs a MoveString"]
                try:
                    move = self.game.parse(text)
                    self.states.append(self.game.play(self.state, move))
                except (InvalidMove, IllegalMove) as exc:
                    return [f"invalidmove {exc}"]
                return [self.game.game_string(self.state)]
            if cmd == "validmoves":
                return [self.game.valid_moves(self.state)]
            if cmd == "undo":
                n = int(arg) if arg else 1
                if n < 1 or n >= len(self.states):
                    return [f"err cannot undo {n} move(s): {len(self.states) - 1} played"]
                del self.states[-n:]
                return [self.game.game_string(self.state)]
            if cmd == "bestmove":
                return [self._bestmove(arg)]
        except HexarenaError as exc:
            return [f"err {exc}"]
        except ValueError as exc:
            return [f"err {exc}"]
        return [f"err unknown command {cmd!r}"]

    def _bestmove(self, arg: str) -> str:
        if self.game.to_move(self.state) is None:
            return "err the game is over"
        words = arg.split()
        limit = DEFAULT_THINK
        if len(words) == 2 and words[0] == "time":
            m = _TIME.match(words[1])
            if not m:
                return f"err bestmove time needs hh:mm:ss, got {words[1]!r}"
            limit = int(m[1]) * 3600 + int(m[2]) * 60 + int(m[3])
        elif len(words) == 2 and words[0] == "depth":
            if not words[1].isdigit():
                return f"err bestmove depth needs a number, got {words[1]!r}"
            if hasattr(self.bot, "max_depth"):
                self.bot.max_depth = int(words[1])
        elif words:
            return "err usage: bestmove [time hh:mm:ss | depth N]"
        move = think(self.bot, self.game, self.state, max(0.05, limit * 0.9), self.rng)
        return str(self.game.format(move))


def run_uhp(bot_name: str, stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout) -> int:
    """Serve UHP until ``exit`` or end of input."""
    engine = UhpEngine(make_builtin("hive", bot_name), bot_name)

    def emit(lines: list[str]) -> None:
        for text in lines:
            stdout.write(text + "\n")
        stdout.write("ok\n")
        stdout.flush()

    emit(engine.banner())
    for line in stdin:
        if line.strip().lower() == "exit":
            return 0
        if not line.strip():
            continue
        emit(engine.handle(line))
    return 0
