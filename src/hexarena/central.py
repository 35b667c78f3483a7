"""The UAIS central program: a REPL on stdin that runs two UAIS Hex bots move by move.

Commands (each also by its first letter): ``run`` / ``run <savefile>``, ``next``, ``print``, ``undo``,
``save [file]``, ``show``, ``check``, ``help``, ``exit``. Results go to stdout, errors to stderr. A bot that
fails (crashes, times out, prints garbage or an illegal cell) loses: the program says why and stops the game,
and never crashes itself.

Save files (format ``hexarena-central-save``, version 1) are JSON::

    {"format": "hexarena-central-save", "version": 1, "size": 11, "swap": true,
     "black": "<command>", "white": "<command>", "moves": ["a1", "swap", "c3"]}

``moves`` are in UAIS notation in the order played; ``swap`` is the second player's swap. ``run <savefile>``
starts both bots afresh (``init_board``) and restores the game with ``sety`` (your stone) and ``seto`` (the
opponent's), telling both bots ``swap`` where the game had one. ``undo`` sends ``unset`` to both bots, or, to
undo a swap, restarts both boards and replays.

Whoever wins, the result is also announced in the original program's words, ``Black has won`` /
``White has won`` on a line of its own (on ``check``, and when ``run`` or ``next`` reach the end of a game, a
bot's failure included): scripts around the central program look for those lines (docs/protocols/uais.md).
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any, TextIO

from hexarena.core.errors import BotError, HexarenaError, IllegalMove, InvalidMove
from hexarena.games.hex import GAME as HEX
from hexarena.games.hex import HexGame
from hexarena.players.process import Limits
from hexarena.players.uais import UaisBot

SAVE_FORMAT = "hexarena-central-save"
SAVE_VERSION = 1
DEFAULT_SAVE = "hexarena-game.json"
COMMANDS = {"r": "run", "n": "next", "p": "print", "u": "undo", "s": "save", "h": "help", "e": "exit", "c": "check"}
HELP = """commands (each also by its first letter, except show):
  run [savefile]  start both bots (init_board), optionally restoring a saved game
  next            ask the bot to move, check the move, tell the other bot
  print           print the board
  undo            take back the last move
  save [file]     save the game (default hexarena-game.json)
  show            ask both bots for their boards (show_board)
  check           ask both bots check_win and compare with the real result
  help            this text
  exit            quit both bots and leave"""


def load_save(path: str) -> dict[str, Any]:
    """Read and validate a save file; ValueError says what is wrong with it."""
    try:
        data = json.loads(Path(path).read_text())
    except OSError as exc:
        raise ValueError(f"cannot read {path}: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path} is not JSON: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise ValueError(f"{path} is not a {SAVE_FORMAT} file")
    if data.get("version") != SAVE_VERSION:
        raise ValueError(f"{path} has version {data.get('version')!r}; this program reads version {SAVE_VERSION}")
    if not isinstance(data.get("size"), int) or not isinstance(data.get("moves"), list):
        raise ValueError(f"{path} needs an integer 'size' and a list of 'moves'")
    return data


class Central:
    """The game between two UAIS bots, driven by commands."""

    def __init__(
        self,
        size: int,
        black: str,
        white: str,
        out: TextIO = sys.stdout,
        err: TextIO = sys.stderr,
        move_timeout: float = 10.0,
        limits: Limits | None = None,
    ) -> None:
        self.game: HexGame = HEX  # the Hex engine itself: UAIS is a Hex protocol
        self.size = size
        self.commands = [black, white]
        self.out, self.err = out, err
        self.move_timeout = move_timeout
        self.limits = limits or Limits()
        self.bots: list[UaisBot] = []
        self.state: Any = None
        self.moves: list[Any] = []
        self.stopped = "no game yet: type 'run'"

    # -- output --

    def say(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def error(self, text: str) -> None:
        self.err.write(text + "\n")
        self.err.flush()

    # -- bots --

    async def _start_bots(self) -> None:
        await self._stop_bots()
        self.bots = [
            UaisBot(self.commands[0], "black", self.limits, "black"),
            UaisBot(self.commands[1], "white", self.limits, "white"),
        ]
        for bot in self.bots:
            await bot.start(self.size)

    async def _stop_bots(self) -> None:
        for bot in self.bots:
            await bot.quit()
        self.bots = []

    async def _replay(self, moves: list[Any]) -> None:
        """Bring a fresh game and both bots to the position after ``moves``."""
        self.state = self.game.new(size=self.size, swap=True)
        self.moves = []
        for move in moves:
            seat = self.game.to_move(self.state)
            self.state = self.game.play(self.state, move)  # IllegalMove once the game is over
            assert seat is not None  # play accepted a move, so someone was to move
            self.moves.append(move)
            text = self.game.format(move)
            if text == "swap":
                for bot in self.bots:
                    await bot.tell("swap")
            else:
                await self.bots[seat].tell(f"sety {text}")
                await self.bots[1 - seat].tell(f"seto {text}")

    def _colour(self, seat: int) -> str:
        """``black`` or ``white``: the colour ``seat`` plays now (the swap exchanges them)."""
        return "black" if self.state.colour_of(seat) == 1 else "white"

    def announce(self, winner: int | None) -> None:
        """The original central program's result line; scripts driving it look for exactly these words."""
        if winner is not None:
            self.say(f"{self._colour(winner).capitalize()} has won")

    async def _fail(self, seat: int, why: str) -> None:
        colour = self._colour(seat)
        self.error(f"{colour} bot ({self.commands[seat]}) loses: {why}; the game is stopped")
        self.stopped = f"the game was stopped: {colour} bot failed"
        self.announce(1 - seat)
        await self._stop_bots()

    # -- commands --

    async def cmd_run(self, arg: str) -> None:
        moves: list[Any] = []
        if arg:
            try:
                data = load_save(arg)
                if data["size"] != self.size:
                    self.say(f"board size {data['size']} from the save file")
                    self.size = data["size"]
                moves = [self.game.parse(m) for m in data["moves"]]
            except (ValueError, HexarenaError) as exc:
                self.error(str(exc))
                return
        try:
            await self._start_bots()
            await self._replay(moves)
        except (BotError, OSError) as exc:
            self.error(f"could not start the bots: {exc}")
            await self._stop_bots()
            self.stopped = "the bots could not start"
            return
        except (IllegalMove, InvalidMove) as exc:
            self.error(f"the save file has an illegal move: {exc}")
            await self._stop_bots()
            return
        self.stopped = ""
        self.say(f"game started on {self.size}x{self.size}" + (f", {len(moves)} moves restored" if moves else ""))
        outcome = self.game.outcome(self.state)
        if outcome is not None:
            self.say(f"game over: {outcome.reason}")
            self.announce(outcome.winner)

    async def cmd_next(self, arg: str) -> None:
        if self.stopped:
            self.error(self.stopped)
            return
        outcome = self.game.outcome(self.state)
        if outcome is not None:
            self.say(f"the game is over: {outcome.reason}")
            self.announce(outcome.winner)
            return
        seat = self.game.to_move(self.state)
        assert seat is not None  # the game has no outcome, so someone is to move
        colour = self._colour(seat)
        try:
            answer = await self.bots[seat].ask("make_move", self.move_timeout)
            move = self.game.parse(answer)
            self.state = self.game.play(self.state, move)
        except (BotError, InvalidMove, IllegalMove) as exc:
            await self._fail(seat, str(exc))
            return
        self.moves.append(move)
        text = self.game.format(move)
        try:
            await self.bots[1 - seat].tell("swap" if text == "swap" else f"seto {text}")
        except BotError as exc:
            await self._fail(1 - seat, str(exc))
            return
        self.say(f"{colour}: {text}")
        outcome = self.game.outcome(self.state)
        if outcome is not None:
            self.say(f"game over: {outcome.reason}")
            self.announce(outcome.winner)

    async def cmd_print(self, arg: str) -> None:
        if self.state is None:
            self.error(self.stopped)
            return
        rows = self.game.rows(self.state)
        header = "  " + " ".join(str(c + 1).rjust(2) for c in range(self.size))
        self.say(header)
        for r, row in enumerate(rows):
            self.say(" " * r + chr(ord("a") + r) + "  " + "  ".join(row))

    async def cmd_undo(self, arg: str) -> None:
        if self.stopped or not self.moves:
            self.error(self.stopped or "nothing to undo")
            return
        last = self.moves[-1]
        try:
            if self.game.format(last) == "swap":
                await self._start_bots()
                await self._replay(self.moves[:-1])
            else:
                text = self.game.format(last)
                for bot in self.bots:
                    await bot.tell(f"unset {text}")
                moves = self.moves[:-1]
                self.state = self.game.new(size=self.size, swap=True)
                for m in moves:
                    self.state = self.game.play(self.state, m)
                self.moves = moves
        except BotError as exc:
            self.error(f"undo failed: {exc}")
            return
        self.say(f"undone: {self.game.format(last)}")

    async def cmd_save(self, arg: str) -> None:
        if self.state is None:
            self.error("no game to save")
            return
        path = arg or DEFAULT_SAVE
        data = {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "size": self.size,
            "swap": True,
            "black": self.commands[0],
            "white": self.commands[1],
            "moves": [self.game.format(m) for m in self.moves],
        }
        try:
            Path(path).write_text(json.dumps(data, indent=1) + "\n")
        except OSError as exc:
            self.error(f"cannot write {path}: {exc.strerror}")
            return
        self.say(f"saved to {path}")

    async def cmd_show(self, arg: str) -> None:
        if self.stopped:
            self.error(self.stopped)
            return
        for name, bot in zip(("black", "white"), self.bots, strict=True):
            try:
                self.say(f"{name} bot: {await bot.ask('show_board', self.move_timeout)}")
            except BotError as exc:
                self.error(f"{name} bot: {exc}")
        self.say(f"referee:   {self.game.render(self.state)}")

    async def cmd_check(self, arg: str) -> None:
        if self.stopped:
            self.error(self.stopped)
            return
        for name, bot in zip(("black", "white"), self.bots, strict=True):
            try:
                self.say(f"{name} bot: check_win {await bot.ask('check_win', self.move_timeout)}")
            except BotError as exc:
                self.error(f"{name} bot: {exc}")
        outcome = self.game.outcome(self.state)
        self.say(f"referee: {outcome.reason if outcome else 'no winner yet'}")
        if outcome is not None:
            self.announce(outcome.winner)

    async def cmd_help(self, arg: str) -> None:
        self.say(HELP)

    async def execute(self, line: str) -> bool:
        """Run one command line; False when the program should exit."""
        parts = line.strip().split(maxsplit=1)
        if not parts:
            return True
        word = parts[0].lower()
        arg = parts[1].strip() if len(parts) > 1 else ""
        name = COMMANDS.get(word, word)
        if name in ("exit", "quit"):
            return False
        handler = getattr(self, f"cmd_{name}", None)
        if handler is None:
            self.error(f"unknown command {parts[0]!r}; type 'help'")
            return True
        try:
            await handler(arg)
        except Exception as exc:  # the REPL must survive anything
            self.error(f"{name} failed: {exc}")
        return True

    async def repl(self, stdin: TextIO = sys.stdin) -> int:
        loop = asyncio.get_running_loop()
        interactive = stdin.isatty()
        try:
            while True:
                if interactive:
                    self.err.write("> ")
                    self.err.flush()
                line = await loop.run_in_executor(None, stdin.readline)
                if not line:
                    break
                if not await self.execute(line):
                    break
        finally:
            await self._stop_bots()
        return 0


def main(size: int, black: str, white: str, move_timeout: float) -> int:
    return asyncio.run(Central(size, black, white, move_timeout=move_timeout).repl())
