"""HTTP API of the ladder (a router and a lifespan, like every module of the server; the scheduler is
``server.ladder``, the pairing ``server.ladder_pairing``).

* ``GET    /api/ladder``                      standings (rating, deviation, record), running and recent games
* ``GET    /api/ladder/bots/{name}``          one bot: its record, pause reason, check-bot report, games
* ``POST   /api/ladder/bots``                 register a bot (a bot URL or a battlebot login)
* ``POST   /api/ladder/bots/{name}/pause``    take a bot out of pairing (``resume`` puts it back)
* ``DELETE /api/ladder/bots/{name}``          take a bot off the ladder (its games and rating stay)

Security: "no API path runs a program". Only bots the server reaches over the network can be registered
(:func:`check_ladder_spec`: a bot URL, ``bws:``, ``stateless:``, ``hiveai:HOST:PORT``, or ``battlebot:BOT_ID``),
never a command nor an operator's ``engine:``; the address passes the server's spec policy (the bot-host check
of public mode). Every write is a ``POST``/``DELETE``, so in public mode it needs an API token like every other
write (``server.auth``), and registrations draw on the client's create budget. The ladder holds at most
``LadderSettings.max_bots`` bots.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Annotated, TypedDict

from fastapi import APIRouter, Depends, FastAPI, HTTPException, Query
from pydantic import BaseModel, ConfigDict, Field

from hexarena.core.errors import ConfigError
from hexarena.core.glicko2 import is_provisional
from hexarena.core.jsonvalue import JsonObject
from hexarena.core.registry import get_game
from hexarena.players.policy import SpecPolicy, vet_remote_spec
from hexarena.players.spec import scheme_of
from hexarena.server.background import stop_tasks
from hexarena.server.ladder import Ladder
from hexarena.server.ladder_pairing import MAX_BOT_CONCURRENT
from hexarena.server.schemas import STRICT, VALID_UNICODE, GameName, Spec
from hexarena.server.services import Services, ServicesDep, limit_creates, services_of
from hexarena.store.errors import Conflict, NotFound
from hexarena.store.ladder import ACTIVE, PAUSED, LadderBot, LadderBotJson, LadderGameJson

if TYPE_CHECKING:
    from hexarena.store import Store
    from hexarena.store.records import RatingRecord

router = APIRouter(tags=["ladder"])

#: The response model of the routes below, as the OpenAPI schema states it: an object. Their bodies are the
#: TypedDicts below, which hold JSON values (a check-bot report) that pydantic cannot read from their type.
AN_OBJECT = dict[str, object]


class Standing(LadderBotJson):
    """A bot on the ladder with its rating (1500 and 350 until it has one)."""

    rating: float
    rd: float
    provisional: bool


class BotPage(Standing):
    """``GET /api/ladder/bots/{name}``: a standing with the bot's check-bot report and its recent games."""

    report: JsonObject | None
    games_list: list[LadderGameJson]


class Pace(TypedDict):
    games_per_hour: int
    concurrency: int
    fail_limit: int
    max_bots: int
    move_seconds: float
    running: bool


class LadderPage(TypedDict):
    """``GET /api/ladder``: how fast it pairs, the standings (active bots first, by rating), the recent games."""

    pace: Pace
    standings: list[Standing]
    recent: list[LadderGameJson]


class Removed(TypedDict):
    name: str
    removed: bool


#: Ladder names are rating keys and appear in URLs: letters, digits, '_', '.', '-' (not first '.').
NAME_PATTERN = r"^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,47}$"
#: Recent games shown on the ladder page.
RECENT = 30


class LadderRegistration(BaseModel):
    """``POST /api/ladder/bots``: a bot registered once, paired until it is paused or removed."""

    model_config = ConfigDict(extra="forbid")
    name: Annotated[str, Field(max_length=48, pattern=NAME_PATTERN, description="its ladder name and rating key")]
    game: GameName
    spec: Spec
    owner: Annotated[str, Field(min_length=1, max_length=200, description="who to tell when it fails"), VALID_UNICODE]
    max_concurrent: Annotated[int, STRICT, Field(ge=1, le=MAX_BOT_CONCURRENT)] = 1
    games_per_hour: Annotated[int, STRICT, Field(ge=1, le=3600)] | None = None


class PauseRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    reason: Annotated[str, Field(max_length=500), VALID_UNICODE] = "paused by the operator"


def check_ladder_spec(spec: str) -> str:
    """ConfigError unless ``spec`` names a bot the server reaches over the network (module docstring)."""
    spec = spec.strip()
    if spec.startswith(("http://", "https://")) or spec.startswith("battlebot:"):
        return spec
    scheme = scheme_of(spec)
    if scheme is not None and scheme.address and scheme.starts_program is False:
        return spec
    raise ConfigError(
        f"{spec[:200]!r}: the ladder takes bots the server reaches over the network: a bot URL (bws or "
        "stateless), bws:URL, stateless:URL, hiveai:HOST:PORT, or battlebot:BOT_ID (a battlebot login); never a "
        "command or an engine: serve a program as a bot server (hexarena bot serve, the SDK) and register its URL"
    )


async def vet_ladder_entry(game: str, spec: str, policy: SpecPolicy) -> tuple[str, str]:
    """(the game's name, the spec) once both are acceptable, else ConfigError saying why."""
    name = get_game(game).name
    spec = check_ladder_spec(spec)
    await vet_remote_spec(spec, policy)
    return name, spec


def _store(services: Services) -> Store:
    if services.store is None:
        raise HTTPException(503, "this server runs without a store: the ladder is unavailable")
    return services.store


def ladder_of(app: FastAPI) -> Ladder | None:
    found = getattr(app.state, "ladder", None)
    return found if isinstance(found, Ladder) else None


@router.get("/api/ladder", summary="The ladder: standings, running and recent games", response_model=AN_OBJECT)
async def get_ladder(services: ServicesDep, game: Annotated[str | None, Query(max_length=64)] = None) -> LadderPage:
    store = _store(services)
    if game is not None:
        game = get_game(game).name
    bots = await store.list_ladder_bots(game=game)
    ratings: dict[tuple[str, str], RatingRecord] = {}
    for g in {b.game for b in bots}:
        names = {b.name for b in bots}
        ratings.update({(g, r.key): r for r in await store.list_ratings(g, limit=1000) if r.key in names})
    standings = [_standing(b, ratings.get((b.game, b.name))) for b in bots]
    standings.sort(key=lambda s: (s["status"] != ACTIVE, -s["rating"], s["name"]))
    recent = [g.to_json() for g in await store.list_ladder_games(limit=RECENT) if game is None or g.game == game]
    settings = services.settings.ladder
    return {
        "pace": {
            "games_per_hour": settings.games_per_hour,
            "concurrency": settings.concurrency,
            "fail_limit": settings.fail_limit,
            "max_bots": settings.max_bots,
            "move_seconds": settings.move_seconds,
            "running": settings.enabled,
        },
        "standings": standings,
        "recent": recent,
    }


def _standing(bot: LadderBot, rating: RatingRecord | None) -> Standing:
    rd = round(rating.rd, 1) if rating is not None else 350.0
    return {
        **bot.public(),
        "rating": round(rating.rating, 1) if rating is not None else 1500.0,
        "rd": rd,
        "provisional": is_provisional(rd),
    }


@router.get(
    "/api/ladder/bots/{name}",
    summary="One ladder bot: record, pause reason, check-bot report, games",
    response_model=AN_OBJECT,
)
async def get_ladder_bot(services: ServicesDep, name: str) -> BotPage:
    store = _store(services)
    bot = await store.get_ladder_bot(name)
    if bot is None:
        raise HTTPException(404, f"no ladder bot named {name[:64]!r}")
    ratings = {r.key: r for r in await store.list_ratings(bot.game, limit=1000)}
    games = [g.to_json() for g in await store.list_ladder_games(bot=bot.name, limit=50)]
    return {**_standing(bot, ratings.get(bot.name)), "report": bot.report, "games_list": games}


@router.post(
    "/api/ladder/bots",
    status_code=201,
    summary="Register a bot on the ladder",
    dependencies=[Depends(limit_creates)],
    response_model=AN_OBJECT,
)
async def register_ladder_bot(body: LadderRegistration, services: ServicesDep) -> LadderBotJson:
    store = _store(services)
    try:
        game, spec = await vet_ladder_entry(body.game, body.spec, services.policy)
    except ConfigError as exc:
        raise HTTPException(400, str(exc)) from None
    limit = services.settings.ladder.max_bots
    if await store.count_ladder_bots() >= limit:
        raise HTTPException(409, f"the ladder is full ({limit} bots); the operator can remove one or raise the limit")
    try:
        bot = await store.add_ladder_bot(
            body.name, game, spec, body.owner, max_concurrent=body.max_concurrent, games_per_hour=body.games_per_hour
        )
    except Conflict as exc:
        raise HTTPException(409, str(exc)) from None
    return bot.public()


async def _set_status(services: Services, name: str, status: str, reason: str | None = None) -> LadderBotJson:
    try:
        bot = await _store(services).set_ladder_status(name, status, reason=reason)
    except NotFound as exc:
        raise HTTPException(404, str(exc)) from None
    return bot.public()


@router.post("/api/ladder/bots/{name}/pause", summary="Take a bot out of pairing", response_model=AN_OBJECT)
async def pause_ladder_bot(services: ServicesDep, name: str, body: PauseRequest | None = None) -> LadderBotJson:
    return await _set_status(services, name, PAUSED, (body or PauseRequest()).reason)


@router.post(
    "/api/ladder/bots/{name}/resume",
    summary="Pair a paused bot again (its failure streak starts over)",
    response_model=AN_OBJECT,
)
async def resume_ladder_bot(services: ServicesDep, name: str) -> LadderBotJson:
    return await _set_status(services, name, ACTIVE)


@router.delete(
    "/api/ladder/bots/{name}", summary="Take a bot off the ladder (its games and rating stay)", response_model=AN_OBJECT
)
async def remove_ladder_bot(services: ServicesDep, name: str) -> Removed:
    if not await _store(services).remove_ladder_bot(name):
        raise HTTPException(404, f"no ladder bot named {name[:64]!r}")
    return {"name": name, "removed": True}


@contextlib.asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    """Start the scheduler (with a store, unless the operator turned the ladder off); stop it at shutdown."""
    services = services_of(app)
    settings = services.settings.ladder
    if services.store is None or not settings.enabled:
        yield
        return
    ladder = app.state.ladder = Ladder(services, settings)
    task = asyncio.create_task(ladder.run(), name="hexarena-ladder")
    try:
        yield
    finally:
        await stop_tasks([task], "the ladder")
        await ladder.close()


__all__ = ["LadderRegistration", "check_ladder_spec", "ladder_of", "lifespan", "router", "vet_ladder_entry"]
