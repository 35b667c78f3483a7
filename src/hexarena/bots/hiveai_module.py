"""Any built-in Hive bot as a Trylobot AI module: ``hexarena hiveai serve --bot greedy --port 8100``.

TCP with ``<length>#<json>`` frames (any number of requests per connection), or ``--stdio`` with one JSON
object per line. Answers ``Greetings`` and ``Choose Turn`` in whichever spelling the request used, echoing
``request_id`` (as both ``request_id`` and ``response_id``, since modules differ) and ``game_id``. The
Greetings answer carries API 0.1.0's ``active``, ``long_name`` and ``description`` too, without which
Trylobot's ``hive-cli list-ai`` lists a module as INACTIVE and skips it. A request we can't read gets
json-socket's error shape, ``{"success": false, "error": reason}`` (plus ``response_type``), rather than
silence. Wire facts: docs/protocols/trylobot.md.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
import time
from typing import Any, TextIO

from hexarena import __version__
from hexarena.bots.base import think
from hexarena.bots.registry import make_builtin
from hexarena.core.errors import HexarenaError
from hexarena.core.registry import get_game
from hexarena.games.hive import trylobot
from hexarena.games.hive.game import HiveState
from hexarena.games.hive.notation import resolve
from hexarena.wire import trylobot as tw


class HiveAiModule:
    """Answers Trylobot requests with a built-in bot."""

    def __init__(self, bot_name: str, seed: int | None = None) -> None:
        self.game = get_game("hive")
        self.bot_name = bot_name
        self.bot = make_builtin("hive", bot_name)
        self.rng = random.Random(seed)

    def _description(self) -> str:
        """The bot's own one-line docstring: hive-cli shows it beside the module's name."""
        doc = (type(self.bot).__doc__ or "").strip().splitlines()
        return doc[0] if doc else f"hexarena's built-in {self.bot_name} Hive bot"

    def answer(self, request: dict[str, Any]) -> dict[str, Any]:
        response_type = request.get("request_type")
        try:
            kind = tw.kind_of(request, "request_type")
        except HexarenaError as exc:
            return {"response_type": response_type, "success": False, "error": str(exc)}
        ids: dict[str, Any] = {}
        if "request_id" in request:
            ids = {"request_id": request["request_id"], "response_id": request["request_id"]}
        if kind == "greetings":
            return {
                "response_type": response_type,
                **ids,
                "name": f"hexarena-{self.bot_name}",
                "active": True,
                "long_name": f"hexarena {self.bot_name}",
                "description": self._description(),
                "version": __version__,
                "author": "hexarena",
                "project_url": "https://example.invalid/hexarena",
                "language": "Python",
            }
        try:
            state = request.get("game_state") or {}
            history = state.get("turn_history") or []
            last = history[-1].get("destination") if history and isinstance(history[-1], dict) else None
            board = trylobot.board_from_game_state(state, last if isinstance(last, str) else None)
            hive_state = HiveState(board.expansions, (), board)
            deadline = request.get("response_deadline")
            limit = None
            if isinstance(deadline, int | float):
                limit = max(0.05, (deadline / 1000 - time.time()) * 0.8)
            move = think(self.bot, self.game, hive_state, limit, self.rng)
            turn = trylobot.reply_for_move(board, resolve(board, self.game.format(move)))
        except HexarenaError as exc:
            return {
                "response_type": response_type,
                **ids,
                "game_id": request.get("game_id"),
                "success": False,
                "error": str(exc),
            }
        return {"response_type": response_type, **ids, "game_id": request.get("game_id"), **turn}


async def serve_tcp(bot_name: str, host: str, port: int, ready: asyncio.Event | None = None) -> None:
    module = HiveAiModule(bot_name)

    async def client(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                try:
                    request = await tw.read_frame(reader)
                except HexarenaError as exc:
                    if "closed" not in str(exc):
                        writer.write(tw.frame({"success": False, "error": str(exc)}))
                        await writer.drain()
                    return
                reply = await asyncio.to_thread(module.answer, request)
                writer.write(tw.frame(reply))
                await writer.drain()
        except (ConnectionError, asyncio.IncompleteReadError):
            return
        finally:
            writer.close()

    server = await asyncio.start_server(client, host, port)
    if ready is not None:
        ready.set()
    async with server:
        await server.serve_forever()


def serve_stdio(bot_name: str, stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout) -> int:
    module = HiveAiModule(bot_name)
    for line in stdin:
        if not line.strip():
            continue
        try:
            request = tw.decode(line)
        except HexarenaError as exc:
            reply: dict[str, Any] = {"success": False, "error": str(exc)}
        else:
            reply = module.answer(request)
        stdout.write(json.dumps(reply, separators=(",", ":")) + "\n")
        stdout.flush()
    return 0
