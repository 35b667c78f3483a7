"""The GraphQL schema (strawberry): the original battlebot server's queries, for every hexarena game.

::

    { gameTypes { id title } }
    { gameType(id: "noughtsandcrosses") {
        bots(owner: "David") { id owner dateRegistered }
        contests { id }
        contest(id: "spring") { rankings(method: PUNITIVE) { bot wins draws losses played score } }
        games(filters: {limit: 10, victor: "IdiotBot", contest: "spring", anyPlayers: ["A", "B"]}) { id players victor reason }
        game(id: "...") { players victor reason startTime turns { player time move turn } state }
    } }

Ranking methods give points for win/draw/loss: AMBITIOUS 3/1/0 (default), PUNITIVE 3/2/0, BALANCED 2/1/0.
"""

from __future__ import annotations

from enum import Enum
from typing import Any

import strawberry
from strawberry.scalars import JSON
from strawberry.types import Info

from hexarena.server.graphql import data
from hexarena.server.graphql.client_errors import ClientErrors


def _store(info: Info) -> Any:
    store = info.context["request"].app.state.store
    if store is None:
        raise ValueError("this server has no database")
    return store


@strawberry.enum
class RankingMethod(Enum):
    AMBITIOUS = "AMBITIOUS"
    PUNITIVE = "PUNITIVE"
    BALANCED = "BALANCED"


@strawberry.type
class Bot:
    id: strawberry.ID
    gameType: str
    owner: str
    dateRegistered: str | None


@strawberry.type
class ContestRanking:
    bot: str
    wins: int
    draws: int
    losses: int
    played: int
    score: int


@strawberry.type
class Turn:
    player: str
    time: str | None
    move: str
    thinkTime: float
    turn: JSON | None


@strawberry.type
class Game:
    id: strawberry.ID
    gameType: str
    players: list[str]
    kinds: list[str]
    status: str
    victor: str | None
    reason: str | None
    detail: str
    termination: str | None
    startTime: str | None
    endTime: str | None
    contest: str | None
    params: JSON
    turns: list[Turn] | None = None
    state: JSON | None = None


def _game(d: dict[str, Any]) -> Game:
    turns = d.get("turns")
    fields = {k: v for k, v in d.items() if k not in ("turns",)}
    return Game(**fields, turns=None if turns is None else [Turn(**t) for t in turns])


@strawberry.input
class GameFilters:
    limit: int | None = 50
    offset: int | None = 0
    victor: str | None = None
    contest: str | None = None
    anyPlayers: list[str] | None = None
    players: list[str] | None = None


@strawberry.type
class Contest:
    id: strawberry.ID
    name: str
    gameType: str
    created: str | None

    @strawberry.field
    async def rankings(self, info: Info, method: RankingMethod = RankingMethod.AMBITIOUS) -> list[ContestRanking]:
        game = data.game_type(self.gameType)
        assert game is not None
        rows = await data.contest_rankings(_store(info), game["name"], self.name, method.value)
        return [ContestRanking(**r) for r in rows]

    @strawberry.field
    async def games(self, info: Info, filters: GameFilters | None = None) -> list[Game]:
        game = data.game_type(self.gameType)
        assert game is not None
        f = _filters(filters)
        f["contest"] = self.name
        return [_game(g) for g in await data.games(_store(info), game["name"], f)]


def _filters(filters: GameFilters | None) -> dict[str, Any]:
    return {} if filters is None else dict(vars(filters))


@strawberry.type
class GameType:
    id: strawberry.ID
    name: str
    title: str

    @strawberry.field
    async def bots(self, info: Info, owner: str | None = None) -> list[Bot]:
        return [Bot(**b) for b in await data.bots(_store(info), self.name, owner)]

    @strawberry.field
    async def contests(self, info: Info) -> list[Contest]:
        return [Contest(**c) for c in await data.contests(_store(info), self.name)]

    @strawberry.field
    async def contest(self, info: Info, id: strawberry.ID) -> Contest | None:
        found = await data.contest(_store(info), self.name, str(id))
        return None if found is None else Contest(**found)

    @strawberry.field
    async def games(self, info: Info, filters: GameFilters | None = None) -> list[Game]:
        return [_game(g) for g in await data.games(_store(info), self.name, _filters(filters))]

    @strawberry.field
    async def game(self, info: Info, id: strawberry.ID) -> Game | None:
        found = await data.one_game(_store(info), self.name, str(id))
        return None if found is None else _game(found)


@strawberry.type
class Query:
    @strawberry.field
    def gameTypes(self) -> list[GameType]:
        return [GameType(**t) for t in data.game_types()]

    @strawberry.field
    def gameType(self, id: strawberry.ID) -> GameType | None:
        found = data.game_type(str(id))
        return None if found is None else GameType(**found)


schema = strawberry.Schema(query=Query, extensions=[ClientErrors])
