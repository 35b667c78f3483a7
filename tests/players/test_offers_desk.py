"""The referee's desk for offers (``referee/offers.py``), with a real referee: a takeback granted by a bot that is
thinking interrupts its move (the clocks go back, nothing is charged), a draw agreed ends the match at once
whoever thinks, and the protocol's ``Takeback`` raised from a seat's own move goes through the same desk."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from test_browser_resign import Page

from fakes.players import ScriptedPlayer, Step
from hexarena.core.contract import ClockConfig, MoveReply, MoveRequest, Takeback
from hexarena.core.registry import get_game
from hexarena.core.types import Termination
from hexarena.players.browser import BrowserPlayer
from hexarena.referee import MatchConfig, Referee

TTT = get_game("tictactoe")


class GrantingBot(ScriptedPlayer):
    """A scripted bot that grants takebacks as the built-in bots do, and signals each move request."""

    kind = "builtin"

    def __init__(self, script: list[Any]) -> None:
        super().__init__("bot", script)
        self.asked = 0

    async def move(self, request: MoveRequest) -> MoveReply:
        self.asked += 1
        return await super().move(request)

    async def offered(self, kind: str, by: str) -> bool | None:
        return kind == "takeback"


async def test_a_takeback_granted_while_the_bot_thinks_interrupts_its_move() -> None:
    person, page = BrowserPlayer("me"), Page()
    bot = GrantingBot([Step(hang=True), (0, 0)])
    await person.connect(page.send)
    config = MatchConfig(game=TTT, takebacks=True, clock=ClockConfig("match", 60.0))
    referee = Referee(config, [person, bot])
    match = asyncio.create_task(referee.run())
    await page.wait_for("your_turn")
    await person.handle(json.dumps({"type": "move", "move": "b2"}))
    for _ in range(500):  # the bot is thinking (forever)
        if bot.asked:
            break
        await asyncio.sleep(0.01)
    await person.handle(json.dumps({"type": "takeback"}))
    assert await page.wait_for("takeback") == {"type": "takeback", "granted": True, "ply": 0}
    turn = await page.wait_for("your_turn", 2)
    assert turn["state"]["ply"] == 0 and referee.moves == []
    assert referee.clock.remaining == [60.0, 60.0]  # as before b2: the bot's thinking is not charged
    await person.handle(json.dumps({"type": "draw", "action": "offer"}))
    declined = await page.wait_for("draw")
    assert declined["event"] == "declined" and declined["reason"] == "bots play on"
    await person.handle(json.dumps({"type": "resign"}))
    result = await asyncio.wait_for(match, 10)
    assert result.outcome.termination == Termination.RESIGN and result.moves == []


class AskingPerson(ScriptedPlayer):
    """A seat that speaks no page protocol: it asks for its takeback by raising the contract's ``Takeback``."""

    kind = "human"

    def __init__(self) -> None:
        super().__init__("asker", [(1, 1), (0, 0), (0, 1), (0, 2)])
        self.turns = 0
        self.undone: list[int] = []

    async def move(self, request: MoveRequest) -> MoveReply:
        self.turns += 1
        if self.turns == 2:
            raise Takeback
        return await super().move(request)

    async def taken_back(self, ply: int, state: Any) -> None:
        self.undone.append(ply)


async def test_the_contracts_takeback_goes_through_the_desk_and_is_granted_by_a_builtin() -> None:
    asker, bot = AskingPerson(), GrantingBot([(2, 2), (2, 0), (2, 1)])
    referee = Referee(MatchConfig(game=TTT, takebacks=True), [asker, bot])
    result = await asyncio.wait_for(referee.run(), 10)
    assert asker.undone == [0]  # b2 and the bot's reply went back; the game went on from the start
    assert [m.move for m in result.moves] == ["a1", "c1", "a2", "c2", "a3"]
    assert result.outcome.winner == 0
