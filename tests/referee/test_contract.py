"""The player-referee contract (``hexarena.core.contract``) is all the referee needs from a player.

A player written against the contract alone, without ``BasePlayer``, reports a failure through the public
``FailureReporter.failure_signal`` and the referee notices it at once, while the opponent is still thinking.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from fakes.players import ScriptedPlayer, Step
from hexarena.core.contract import FailureReporter, MoveReply, MoveRequest, Player, PlayerResult
from hexarena.core.errors import BotCrashed
from hexarena.core.registry import get_game
from hexarena.core.types import Seat, Termination
from hexarena.players.base import BasePlayer
from hexarena.referee import MatchConfig, Referee


class ContractOnlyPlayer:
    """A player that implements the contract's protocols and nothing else (no BasePlayer)."""

    name = "contract-only"
    kind = "contract"
    suspends_every_move = False

    def __init__(self) -> None:
        self._signal: asyncio.Future[BaseException] | None = None
        self.results: list[PlayerResult] = []

    def failure_signal(self) -> asyncio.Future[BaseException]:
        if self._signal is None:
            self._signal = asyncio.get_running_loop().create_future()
        return self._signal

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind}

    async def start(self, info: Any) -> None:
        return None

    async def seated(self) -> None:
        return None

    async def move(self, request: MoveRequest) -> MoveReply:
        return MoveReply(move=(1, 0))

    async def taken_back(self, ply: int, state: Any) -> None:
        return None

    async def offered(self, kind: str, by: str) -> bool | None:
        return False

    async def offer_news(self, news: Any) -> None:
        return None

    async def observe(self, seat: Seat, move: Any, state: Any) -> None:
        if seat == 0:  # X has moved and now thinks forever: go away while it does
            self.failure_signal().set_result(BotCrashed("socket closed"))

    async def finish(self, result: PlayerResult) -> None:
        self.results.append(result)


def test_the_contract_only_player_satisfies_both_protocols() -> None:
    player = ContractOnlyPlayer()
    assert isinstance(player, Player) and isinstance(player, FailureReporter)


async def test_a_failure_reported_through_the_public_signal_ends_the_match_while_the_opponent_thinks() -> None:
    x = ScriptedPlayer("x", [(0, 0), Step(hang=True)])
    o = ContractOnlyPlayer()
    referee = Referee(MatchConfig(game=get_game("tictactoe")), [x, o])
    # X never answers its second move: only O's signal can end this match (bounded so a regression fails, not hangs).
    result = await asyncio.wait_for(referee.run(), timeout=30)
    assert result.outcome.winner == 0
    assert result.outcome.termination == Termination.DISCONNECT
    assert result.culprit == 1 and "socket closed" in result.outcome.reason
    assert x.calls.cancelled == 1
    assert [r.outcome for r in o.results] == [result.outcome]
    assert result.players[1] == {"name": "contract-only", "kind": "contract"}


class StartMoveObserveFinishOnly:
    """An object with only the four calls: what ``Player`` declared before it said everything the referee reads."""

    name = "four-calls"

    async def start(self, info: Any) -> None:
        return None

    async def move(self, request: MoveRequest) -> MoveReply:
        return MoveReply(move=(1, 0))

    async def observe(self, seat: Seat, move: Any, state: Any) -> None:
        return None

    async def finish(self, result: PlayerResult) -> None:
        return None


def test_the_protocol_declares_every_attribute_the_referee_reads() -> None:
    # the referee reads a player's kind (takebacks), suspends_every_move (its hot path), failure signal, seated and
    # taken_back hooks and description: an object without them is not a Player
    assert not isinstance(StartMoveObserveFinishOnly(), Player)
    for member in ("kind", "suspends_every_move", "failure_signal", "seated", "taken_back", "offered", "describe"):
        assert hasattr(ContractOnlyPlayer, member), member
        assert hasattr(BasePlayer, member), member


def test_the_contract_messages_are_generic_in_the_games_state_and_move() -> None:
    """A player of one game may name its types (``MoveRequest[HexState, HexMove]``); a message made through such
    an alias is the same frozen value as one made without it."""
    from hexarena.core.contract import MatchInfo
    from hexarena.core.types import Outcome

    game = get_game("tictactoe")
    state = game.new()
    request = MoveRequest[Any, Any](state=state, history=[], time_limit=1.0)
    assert request == MoveRequest(state=state, history=[], time_limit=1.0)
    reply = MoveReply[int](4, evaluation={"score": 0.5})
    assert reply.move == 4 and reply.evaluation == {"score": 0.5}
    info = MatchInfo[Any, Any]("m", game, {}, 0, state)
    assert info.initial_state is state
    result = PlayerResult[Any](Outcome(None, Termination.AGREEMENT, "agreed"), 0, state)
    assert result.final_state is state
    with pytest.raises(AttributeError):
        reply.move = 5  # type: ignore[misc]
