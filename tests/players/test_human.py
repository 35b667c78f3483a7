"""The human seat in-process: its socket is a list of sent frames and a ``receive`` call per frame."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from fakes.players import ScriptedPlayer, Step
from hexarena.core.types import Termination
from hexarena.games.htttx import HTTTX
from hexarena.players.human import HtttxHumanPlayer
from hexarena.referee import MatchConfig, Referee


class Person:
    """The browser side: records frames, answers move requests from a script of JSON frames."""

    def __init__(self, player: HtttxHumanPlayer, answers: list[Any]) -> None:
        self.player = player
        self.answers = list(answers)
        self.sent: list[dict[str, Any]] = []

    async def send(self, text: str) -> None:
        packet = json.loads(text)
        self.sent.append(packet)
        if packet["type"] == "move_request" and self.answers:
            answer = self.answers.pop(0)
            asyncio.get_running_loop().call_soon(self.player.receive, answer)

    def kinds(self) -> list[str]:
        return [p["type"] for p in self.sent]


def pieces(*cells: tuple[int, int]) -> str:
    return json.dumps({"type": "move_response", "move": {"pieces": [{"q": q, "r": r} for q, r in cells]}})


async def run(initial: Any, human_seat: int, answers: list[Any], opponent: list[Any]) -> tuple[Any, Person]:
    human = HtttxHumanPlayer("alice")
    person = Person(human, answers)
    assert await human.attach(person.send)
    refused: list[str] = []

    async def second_socket(text: str) -> None:
        refused.append(text)

    assert not await human.attach(second_socket)  # the seat is taken: the second socket is told so
    assert [json.loads(t)["type"] for t in refused] == ["nope"] and "already used" in json.loads(refused[0])["reason"]
    other = ScriptedPlayer("bot", opponent)
    players: list[Any] = [human, other] if human_seat == 0 else [other, human]
    result = await asyncio.wait_for(Referee(MatchConfig(game=HTTTX, initial_state=initial), players).run(), 10)
    assert human.done.is_set()
    return result, person


async def test_a_single_winning_stone_ends_the_game_without_a_second_request() -> None:
    five = HTTTX.from_cells([(0, 0, 0), (1, 0, 0), (2, 0, 0), (3, 0, 0), (4, 0, 0), (0, 3, 1), (1, 3, 1)], to_move=0)
    result, person = await run(five, 0, [pieces((5, 0))], [])
    assert result.outcome.winner == 0 and result.outcome.termination == Termination.NORMAL
    assert person.kinds() == ["setup", "move_request", "end"]
    assert person.sent[-1]["reason"] == "win" and person.sent[-1]["winner"] == "x"


async def test_one_piece_at_a_time_and_the_remaining_time() -> None:
    start = HTTTX.new(turn_limit=2)
    result, person = await run(start, 0, [pieces((1, 0)), pieces((2, 0))], [((0, 1), (0, 2))])
    assert result.outcome.termination == Termination.TURN_LIMIT
    assert result.moves[1].move == "[1,0][2,0]"
    second = [p for p in person.sent if p["type"] == "move_request"][1]
    assert second["previous"] == [] and {"q": 1, "r": 0, "p": "x"} in second["board"]["cells"]


async def test_an_occupied_single_piece_is_illegal_with_the_rules_reason() -> None:
    result, person = await run(HTTTX.new(), 1, [pieces((0, 0))], [])
    assert result.outcome.termination == Termination.ILLEGAL_MOVE and result.outcome.winner == 0
    assert "(0, 0) is occupied" in result.outcome.reason
    assert person.sent[-1]["type"] == "nope" and "(0, 0) is occupied" in person.sent[-1]["reason"]


async def test_two_pieces_as_the_second_answer_is_a_violation() -> None:
    result, person = await run(HTTTX.new(), 1, [pieces((1, 0)), pieces((2, 0), (3, 0))], [])
    assert result.outcome.termination == Termination.PROTOCOL
    assert "expected the second piece alone, got 2" in result.outcome.reason
    assert person.kinds()[-1] == "nope"


async def test_garbage_while_the_opponent_thinks_forfeits_at_once() -> None:
    human = HtttxHumanPlayer("alice")
    person = Person(human, [])
    await human.attach(person.send)
    other = ScriptedPlayer("bot", [Step(hang=True)])  # o thinks forever: only the violation can end this
    task = asyncio.create_task(Referee(MatchConfig(game=HTTTX), [human, other]).run())
    await asyncio.sleep(0.01)
    human.receive(b"\x00 not json")
    result = await asyncio.wait_for(task, 5)
    assert result.outcome.termination == Termination.PROTOCOL and result.culprit == 0
    assert "not valid JSON" in result.outcome.reason
    assert person.kinds() == ["setup", "nope"]
    assert other.calls.cancelled == 1


async def test_leaving_forfeits() -> None:
    human = HtttxHumanPlayer("alice")
    person = Person(human, [])
    await human.attach(person.send)
    other = ScriptedPlayer("bot", [Step(hang=True)])
    task = asyncio.create_task(Referee(MatchConfig(game=HTTTX), [human, other]).run())
    await asyncio.sleep(0.01)
    human.detach()
    result = await asyncio.wait_for(task, 5)
    assert result.outcome.termination == Termination.DISCONNECT and result.outcome.winner == 1
