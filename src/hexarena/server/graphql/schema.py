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
from hexarena.store.contests import Ranking

if TYPE_CHECKING:
    from hexarena.store import Store

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


def fields_of(shape: type) -> Callable[[type[T]], type[T]]:
    """A class decorator, under ``@strawberry.type``: the keys of one of :mod:`data`'s TypedDicts (or the fields of a
    store dataclass served as it is, ``Ranking``) become the type's fields, in their order and before those the class declares itself (fields with arguments, which it resolves).

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
@fields_of(data.BotJson)
class Bot:
    """A registered bot: ``data.BotJson``."""


@strawberry.type
@fields_of(Ranking)
class ContestRanking:
    """A bot's line of a contest's rankings: ``store.contests.Ranking``."""


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


async def _rankings(
    root: strawberry.Parent[data.ContestJson],
    info: Info,
    method: RankingMethod = RankingMethod.AMBITIOUS,
    limit: int = MAX_PAGE,
    offset: int = 0,
) -> list[Ranking]:
    check_page(limit, offset, MAX_PAGE)
    game = data.game_type(root["gameType"])
    assert game is not None
    async with _db(info):
        rows = await data.contest_rankings(_store(info), game["name"], root["name"], method.value)
    return _page(rows, limit, offset)


async def _contest_games(
    root: strawberry.Parent[data.ContestJson], info: Info, filters: GameFilters | None = None
) -> list[data.GameJson]:
    game = data.game_type(root["gameType"])
    assert game is not None
    f = _filters(filters)
    f["contest"] = root["name"]
    async with _db(info):
        return await data.games(_store(info), game["name"], f)


@strawberry.type
@fields_of(data.ContestJson)
class Contest:
    """A contest of a game type: ``data.ContestJson``, with its rankings and games as fields that take arguments."""

    rankings = strawberry.field(resolver=_rankings, graphql_type=list[ContestRanking])
    games = strawberry.field(resolver=_contest_games, graphql_type=list[Game])


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


async def _bots(
    root: strawberry.Parent[data.GameTypeJson],
    info: Info,
    owner: str | None = None,
    limit: int = MAX_PAGE,
    offset: int = 0,
) -> list[data.BotJson]:
    check_page(limit, offset, MAX_PAGE)
    async with _db(info):
        found = await data.bots(_store(info), root["name"], owner)
    return _page(found, limit, offset)


async def _contests(
    root: strawberry.Parent[data.GameTypeJson], info: Info, limit: int = MAX_PAGE, offset: int = 0
) -> list[data.ContestJson]:
    check_page(limit, offset, MAX_PAGE)
    async with _db(info):
        found = await data.contests(_store(info), root["name"])
    return _page(found, limit, offset)


async def _contest(
    root: strawberry.Parent[data.GameTypeJson], info: Info, id: strawberry.ID
) -> data.ContestJson | None:
    async with _db(info):
        return await data.contest(_store(info), root["name"], str(id))


async def _games(
    root: strawberry.Parent[data.GameTypeJson], info: Info, filters: GameFilters | None = None
) -> list[data.GameJson]:
    f = _filters(filters)
    async with _db(info):
        return await data.games(_store(info), root["name"], f)


async def _game(root: strawberry.Parent[data.GameTypeJson], info: Info, id: strawberry.ID) -> data.GameJson | None:
    async with _db(info):
        record = await data.game_record(_store(info), root["name"], str(id))
    return None if record is None else await data.replayed(record)


@strawberry.type
@fields_of(data.GameTypeJson)
class GameType:
    """A game type: ``data.GameTypeJson``, with its bots, contests and games as fields that take arguments."""

    bots = strawberry.field(resolver=_bots, graphql_type=list[Bot])
    contests = strawberry.field(resolver=_contests, graphql_type=list[Contest])
    contest = strawberry.field(resolver=_contest, graphql_type=Contest | None)
    games = strawberry.field(resolver=_games, graphql_type=list[Game])
    game = strawberry.field(resolver=_game, graphql_type=Game | None)


@strawberry.type
class Query:
    @serving(list[GameType])
    def gameTypes(self) -> list[data.GameTypeJson]:
        return data.game_types()

    @serving(GameType | None)
    def gameType(self, id: strawberry.ID) -> data.GameTypeJson | None:
        return data.game_type(str(id))


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
