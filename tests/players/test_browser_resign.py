"""A person resigns from the browser: ``{"type": "resign"}`` ends the match at once, on the person's turn or
while the bot is thinking, with termination ``resign`` and the opponent as winner; later resigns are answered.

The referee is real (noughts and crosses); the opponent is a scripted in-process player, so "the bot is
thinking" is a request that never answers and must be cancelled by the resign.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from fakes.players import ScriptedPlayer, Step
from hexarena.core.contract import MoveReply, MoveRequest
from hexarena.core.registry import get_game
from hexarena.core.types import Outcome, Termination
from hexarena.players.browser import BrowserPlayer
from hexarena.referee import MatchConfig, Referee

TTT = get_game("tictactoe")


class Page:
    """The browser side: keeps every message and lets a test wait for one of a given type."""

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []
        self._arrived = asyncio.Event()

    async def send(self, text: str) -> None:
        self.messages.append(json.loads(text))
        self._arrived.set()

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [m for m in self.messages if m["type"] == kind]

    async def wait_for(self, kind: str, count: int = 1) -> dict[str, Any]:
        async def until() -> dict[str, Any]:
            while len(self.of(kind)) < count:
                self._arrived.clear()
                await self._arrived.wait()
            return self.of(kind)[count - 1]

        return await asyncio.wait_for(until(), 10)


class Bot(ScriptedPlayer):
    """A scripted bot that signals each move request, so a test knows when the bot is thinking."""

    def __init__(self, script: list[Any]) -> None:
        super().__init__("bot", script)
        self.asked = asyncio.Event()

    async def move(self, request: MoveRequest) -> MoveReply:
        self.asked.set()
        return await super().move(request)


async def test_resign_on_my_turn_ends_the_match_and_a_second_resign_is_refused() -> None:
    person, page = BrowserPlayer("me"), Page()
    bot = Bot([(1, 1)])
    await person.connect(page.send)
    match = asyncio.create_task(Referee(MatchConfig(game=TTT), [person, bot]).run())
    await page.wait_for("your_turn")
    await person.handle(json.dumps({"type": "resign"}))
    result = await asyncio.wait_for(match, 10)
    assert result.outcome == Outcome(1, Termination.RESIGN, "X resigned")
    assert result.culprit == 0 and result.moves == []
    end = await page.wait_for("end")
    assert end["you"] == "lost" and end["termination"] == "resign" and end["winner"] == "O"
    assert end["reason"] == "X resigned"
    assert bot.calls.finished[0].outcome.winner == 1
    # after the end: answered, and the result does not change
    await person.handle(json.dumps({"type": "resign"}))
    assert page.messages[-1] == {"type": "error", "reason": "the game is already over"}
    assert result.outcome.termination == Termination.RESIGN


async def test_resign_while_the_bot_thinks_cancels_its_request() -> None:
    # the person is O (seat 1): the bot plays a1, the person b2, then the bot thinks forever
    person, page = BrowserPlayer("me"), Page()
    bot = Bot([(0, 0), Step(hang=True)])
    await person.connect(page.send)
    match = asyncio.create_task(Referee(MatchConfig(game=TTT), [bot, person]).run())
    await page.wait_for("your_turn")
    bot.asked.clear()
    await person.handle(json.dumps({"type": "move", "move": "b2"}))
    assert page.messages[-1] == {"type": "accepted", "move": "b2", "takeback": False}
    await asyncio.wait_for(bot.asked.wait(), 10)
    assert len(bot.calls.requests) == 2
    assert not match.done()
    await person.handle(json.dumps({"type": "resign"}))
    result = await asyncio.wait_for(match, 10)
    assert result.outcome == Outcome(0, Termination.RESIGN, "O resigned")
    assert result.culprit == 1
    assert [m.move for m in result.moves] == ["a1", "b2"]
    assert bot.calls.cancelled == 1
    end = await page.wait_for("end")
    assert end["you"] == "lost" and end["winner_seat"] == 0 and end["termination"] == "resign"


async def test_resign_before_the_match_starts_is_answered_not_recorded() -> None:
    person, page = BrowserPlayer("me"), Page()
    await person.connect(page.send)
    await person.handle(json.dumps({"type": "resign"}))
    assert page.messages[-1] == {"type": "error", "reason": "the game has not started yet"}
    assert person.failure is None
