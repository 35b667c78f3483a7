"""The GraphQL schema (strawberry): the original battlebot server's queries, for every hexarena game.

::

    { gameTypes { id title } }
    { gameType(id: "noughtsandcrosses") {
        bots(owner: "David") { id owner dateRegistered }
        contests { id }
        contest(id: "spring") { rankings(method: PUNITIVE) { bot wins draws losses played score } }
        games(filters: {limit: 10, victor: "IdiotBot", contest: "spring", anyPlayers: ["A", "B"]}) { id players victor reason }
        game(id: "...") { players victor reason startTime turnCount turns(offset: 0, limit: 500) { player time move turn } state }
    } }

Ranking methods give points for win/draw/loss: AMBITIOUS 3/1/0 (default), PUNITIVE 3/2/0, BALANCED 2/1/0.

Every list comes in pages: ``limit`` (at most ``limits.MAX_PAGE``, ``MAX_TURNS`` for turns) and ``offset``; the
document itself is bounded in tokens, aliases and depth, and each query in time (see ``limits``). Games in a
list carry no turns (``turns`` is null there); ask ``game(id)`` for them.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Callable
from enum import Enum
from typing import TYPE_CHECKING, NotRequired, TypeVar, get_args, get_origin, get_type_hints

import strawberry
from strawberry.extensions import AddValidationRules, MaxTokensLimiter, ValidationCache
from strawberry.extensions.max_aliases import create_validator as aliases_rule
from strawberry.extensions.query_depth_limiter import create_validator as depth_rule
from strawberry.scalars import JSON
from strawberry.schema.config import StrawberryConfig
from strawberry.types import Info
from strawberry.types.field import StrawberryField

from hexarena.server.graphql import data
from hexarena.server.graphql.client_errors import ClientErrors
from hexarena.server.graphql.limits import (
    MAX_ALIASES,
    MAX_PAGE,
    MAX_QUERY_DEPTH,
    MAX_TOKENS,
    MAX_TURNS,
    QueryGate,
    check_page,
)
from hexarena.server.services import services_of

if TYPE_CHECKING:
    from hexarena.store import Store
    from hexarena.store.contests import Ranking

T = TypeVar("T")


def _store(info: Info) -> Store:
    store = services_of(info.context["request"].app).store
    if store is None:
        raise ValueError("this server has no database")
    return store


def _db(info: Info) -> asyncio.Semaphore:
    """The semaphore a resolver holds while it uses the store (GraphQL's share of the connection pool)."""
    gate: QueryGate = info.context["request"].app.state.graphql_gate
    return gate.db


def _page(items: list[T], limit: int, offset: int, cap: int = MAX_PAGE) -> list[T]:
    check_page(limit, offset, cap)
    return items[offset : offset + limit]


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

    @classmethod
    def of(cls, b: data.BotJson) -> Bot:
        return cls(
            id=strawberry.ID(b["id"]), gameType=b["gameType"], owner=b["owner"], dateRegistered=b["dateRegistered"]
        )


@strawberry.type
class ContestRanking:
    bot: str
    wins: int
    draws: int
    losses: int
    played: int
    score: int

    @classmethod
    def of(cls, r: Ranking) -> ContestRanking:
        return cls(bot=r.bot, wins=r.wins, draws=r.draws, losses=r.losses, played=r.played, score=r.score)


def fields_of(shape: type) -> Callable[[type[T]], type[T]]:
    """A class decorator, under ``@strawberry.type``: the keys of one of :mod:`data`'s TypedDicts become the type's
    fields, in their order and before those the class declares itself (fields with arguments, which it resolves).

    Why: GraphQL and its REST twin serve the same dicts, so their shape is declared once, in :mod:`data`. A JSON
    value there is the ``JSON`` scalar here, a ``data.Id`` an ``ID``, and a ``NotRequired`` key a nullable field
    (a game of a list has no turn count); :func:`read_field` reads the keys.
    """

    def add(cls: type[T]) -> type[T]:
        hints = get_type_hints(shape, localns={"JsonObject": JSON, "Id": strawberry.ID}, include_extras=True)
        own = inspect.get_annotations(cls)
        fields = {
            name: get_args(hint)[0] | None if get_origin(hint) is NotRequired else hint
            for name, hint in hints.items()
            if name not in own and name not in cls.__dict__
        }
        cls.__annotations__ = {**fields, **own}
        return cls

    return add


def serving(graphql_type: object) -> StrawberryField:
    """``@strawberry.field(graphql_type=...)``, typed: for a resolver that returns :mod:`data`'s dicts, the Python
    values of a type built by :func:`fields_of` (strawberry leaves that call, with options and no resolver yet, untyped)."""
    field: StrawberryField = strawberry.field(graphql_type=graphql_type)
    return field


def read_field(source: object, name: str) -> object:
    """A field's value: the key of one of :mod:`data`'s dicts (None where a ``NotRequired`` key is missing), the
    attribute of any other value (strawberry's default)."""
    return source.get(name) if isinstance(source, dict) else getattr(source, name)


@strawberry.type
@fields_of(data.TurnJson)
class Turn:
    """A turn of a game: ``data.TurnJson``."""


def _turns(
    root: strawberry.Parent[data.GameJson], limit: int = MAX_TURNS, offset: int = 0
) -> list[data.TurnJson] | None:
    turns = root.get("turns")
    return None if turns is None else _page(turns, limit, offset, MAX_TURNS)


@strawberry.type
@fields_of(data.GameJson)
class Game:
    """A game of a list (no turns) or a replayed one (with turns, their count and the final state): ``data.GameJson``."""

    #: The game's turns in pages of at most MAX_TURNS; null in lists of games (ask ``game(id)``).
    turns = strawberry.field(resolver=_turns, graphql_type=list[Turn] | None)


@strawberry.input
class GameFilters:
    limit: int | None = 50  # at most MAX_PAGE
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

    @classmethod
    def of(cls, c: data.ContestJson) -> Contest:
        return cls(id=strawberry.ID(c["id"]), name=c["name"], gameType=c["gameType"], created=c["created"])

    @strawberry.field
    async def rankings(
        self,
        info: Info,
        method: RankingMethod = RankingMethod.AMBITIOUS,
        limit: int = MAX_PAGE,
        offset: int = 0,
    ) -> list[ContestRanking]:
        check_page(limit, offset, MAX_PAGE)
        game = data.game_type(self.gameType)
        assert game is not None
        async with _db(info):
            rows = await data.contest_rankings(_store(info), game["name"], self.name, method.value)
        return [ContestRanking.of(r) for r in _page(rows, limit, offset)]

    @serving(list[Game])
    async def games(self, info: Info, filters: GameFilters | None = None) -> list[data.GameJson]:
        game = data.game_type(self.gameType)
        assert game is not None
        f = _filters(filters)
        f["contest"] = self.name
        async with _db(info):
            return await data.games(_store(info), game["name"], f)


def _filters(filters: GameFilters | None) -> data.GameFilters:
    """The filters as :mod:`data` takes them, after checking the page they ask for."""
    if filters is None:
        return {}
    limit, offset = filters.limit, filters.offset
    check_page(50 if limit is None else limit, 0 if offset is None else offset, MAX_PAGE)
    return {
        "limit": limit,
        "offset": offset,
        "victor": filters.victor,
        "contest": filters.contest,
        "anyPlayers": filters.anyPlayers,
        "players": filters.players,
    }


@strawberry.type
class GameType:
    id: strawberry.ID
    name: str
    title: str

    @classmethod
    def of(cls, t: data.GameTypeJson) -> GameType:
        return cls(id=strawberry.ID(t["id"]), name=t["name"], title=t["title"])

    @strawberry.field
    async def bots(self, info: Info, owner: str | None = None, limit: int = MAX_PAGE, offset: int = 0) -> list[Bot]:
        check_page(limit, offset, MAX_PAGE)
        async with _db(info):
            found = await data.bots(_store(info), self.name, owner)
        return [Bot.of(b) for b in _page(found, limit, offset)]

    @strawberry.field
    async def contests(self, info: Info, limit: int = MAX_PAGE, offset: int = 0) -> list[Contest]:
        check_page(limit, offset, MAX_PAGE)
        async with _db(info):
            found = await data.contests(_store(info), self.name)
        return [Contest.of(c) for c in _page(found, limit, offset)]

    @strawberry.field
    async def contest(self, info: Info, id: strawberry.ID) -> Contest | None:
        async with _db(info):
            found = await data.contest(_store(info), self.name, str(id))
        return None if found is None else Contest.of(found)

    @serving(list[Game])
    async def games(self, info: Info, filters: GameFilters | None = None) -> list[data.GameJson]:
        f = _filters(filters)
        async with _db(info):
            return await data.games(_store(info), self.name, f)

    @serving(Game | None)
    async def game(self, info: Info, id: strawberry.ID) -> data.GameJson | None:
        async with _db(info):
            record = await data.game_record(_store(info), self.name, str(id))
        return None if record is None else await data.replayed(record)


@strawberry.type
class Query:
    @strawberry.field
    def gameTypes(self) -> list[GameType]:
        return [GameType.of(t) for t in data.game_types()]

    @strawberry.field
    def gameType(self, id: strawberry.ID) -> GameType | None:
        found = data.game_type(str(id))
        return None if found is None else GameType.of(found)


#: The depth and alias limits as validation rules, built once. Validating a query was most of a small query's CPU
#: (graphql-core walks the document with every rule: ~1 ms for ``{ __typename }``), so results are kept per
#: document and rules (``ValidationCache``); ``QueryDepthLimiter`` and ``MaxAliasesLimiter`` build new rule classes
#: for each instance (one a request), which no kept result would ever match.
LIMIT_RULES = (depth_rule(MAX_QUERY_DEPTH, None), aliases_rule(MAX_ALIASES))
#: Validation results kept (least recently used go first): bounded, so distinct query texts cannot grow memory.
VALIDATIONS_KEPT = 256

schema = strawberry.Schema(
    query=Query,
    config=StrawberryConfig(default_resolver=read_field),
    # checked while parsing and validating, before any resolver runs (factories: one instance per request)
    extensions=[
        lambda: MaxTokensLimiter(max_token_count=MAX_TOKENS),
        lambda: AddValidationRules(list(LIMIT_RULES)),
        lambda: ValidationCache(maxsize=VALIDATIONS_KEPT),
        ClientErrors,  # a resolver's refusal of client input is BAD_USER_INPUT, not a server error
    ],
)
