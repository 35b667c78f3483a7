"""Creating matches and reading games: the Hivemaker-compatible ``POST /game/new`` (HTTTX), the generic
``POST /api/matches``, the live list, and the stored records (``GET /games``, ``GET /games/{id}``).

Every seat becomes a player spec and goes through the server's one remote spec policy (``Services.policy``);
every create draws on the client's create budget (``limit_creates``).
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

from fastapi import APIRouter, Depends, HTTPException, Query, Request
from fastapi.responses import Response

from hexarena.core.errors import ConfigError
from hexarena.core.jsonvalue import JsonObject, JsonValue
from hexarena.core.registry import get_game
from hexarena.players.base import BasePlayer, close_players
from hexarena.players.policy import SpecPolicy, make_answering_player
from hexarena.referee.clock import clock_from
from hexarena.server import records
from hexarena.server.people import seat_people
from hexarena.server.schemas import MAX_OFFSET, NewGameRequest, NewMatchRequest, SeatSpec
from hexarena.server.services import ServicesDep, limit_creates
from hexarena.store.records import GameStatus

router = APIRouter()

#: The response models of the routes below whose bodies are TypedDicts (or a forwarded response), as the OpenAPI
#: schema states them: any value, an object, a list of objects.
ANY_VALUE = object
AN_OBJECT = dict[str, object]
OBJECTS = list[dict[str, object]]


class NewGameReply(TypedDict):
    """``POST /game/new``: the game, and the token of each seat a person takes (``token_x``, ``token_o``)."""

    game_id: str
    token_x: NotRequired[str]
    token_o: NotRequired[str]


class NewMatchReply(TypedDict):
    """``POST /api/matches``: the match, the tokens of its people's seats by seat name, where to watch it."""

    game_id: str
    tokens: dict[str, str]
    spectate: str


class LiveMatchJson(TypedDict):
    """A match this instance plays, in ``GET /api/matches/live``."""

    game_id: str
    game: str
    players: list[JsonObject]
    ply: int
    #: Seats created open to anyone and not joined yet (a seat created for the creator never is).
    open_seats: list[str]


def seat_spec(seat: SeatSpec) -> str:
    """The player spec of a Hivemaker seat (``human``, ``builtin``, ``spec``, or a bot URL)."""
    if seat.type == "human":
        return f"human:{seat.name or ''}"
    if seat.type == "builtin":
        return f"builtin:{seat.name or seat.spec or ''}"
    if seat.type == "spec":
        return seat.spec or ""
    if not seat.bot_url:
        raise ConfigError(f"a seat of type {seat.type!r} needs 'bot_url'")
    return f"{'stateless' if seat.type == 'stateless' else 'bws'}:{seat.bot_url}"


async def seat_player(seat: SeatSpec, game: str, policy: SpecPolicy) -> BasePlayer:
    return await make_answering_player(seat_spec(seat), game, policy)


@router.post(
    "/game/new",
    tags=["htttx"],
    summary="Start an HTTTX game (Hivemaker-compatible)",
    dependencies=[Depends(limit_creates)],
    response_model=ANY_VALUE,
)
async def new_game(body: NewGameRequest, services: ServicesDep, request: Request) -> NewGameReply | Response:
    forwarded = await _to_battlebot_home(services, request, [seat_spec(body.player_x), seat_spec(body.player_o)])
    if forwarded is not None:
        return forwarded
    cfg = body.match_config
    game = get_game("htttx")
    players = [
        await seat_player(body.player_x, "htttx", services.policy),
        await seat_player(body.player_o, "htttx", services.policy),
    ]
    for p in players:
        if cfg.depth is not None and hasattr(p, "depth"):
            p.depth = cfg.depth
    clock = services.settings.match_clock(clock_from(cfg.clock_type, cfg.clock, cfg.increment), players)
    live = await services.manager.create(
        game,
        players,
        params={"view_distance": cfg.view_distance, "win_distance": cfg.win_distance, "turn_limit": cfg.turn_limit},
        clock=clock,
        heartbeat_ms=cfg.heartbeat,
    )
    out: NewGameReply = {"game_id": live.match_id}
    for seat, token in live.tokens.items():
        if seat == 0:
            out["token_x"] = token
        else:
            out["token_o"] = token
    return out


@router.post(
    "/api/matches",
    tags=["matches"],
    summary="Start a match of any game between any two players",
    response_model=ANY_VALUE,
)
async def new_match(body: NewMatchRequest, services: ServicesDep, request: Request) -> NewMatchReply | Response:
    forwarded = await _to_battlebot_home(services, request, body.players)
    if forwarded is not None:
        return forwarded  # the instance it went to counted it against the client's budget: once, not twice
    await limit_creates(request, services)
    game = get_game(body.game)
    params = game.validate_params(body.params)
    clock = clock_from(body.clock.type, body.clock.seconds, body.clock.increment)
    players = [await make_answering_player(spec, game.name, services.policy) for spec in body.players]
    try:
        meta = seat_people(players, body.person, rated=body.rated)
    except BaseException:
        await close_players(players)
        raise
    clock = services.settings.match_clock(clock, players)
    live = await services.manager.create(
        game, players, params=params, clock=clock, heartbeat_ms=body.heartbeat, meta=meta
    )
    return {
        "game_id": live.match_id,
        "tokens": {game.seat_names[s]: t for s, t in live.tokens.items()},
        "spectate": f"/spectate/{live.match_id}",
    }


async def _to_battlebot_home(services: ServicesDep, request: Request, specs: list[str]) -> Response | None:
    """Several instances: a ``battlebot:BOT_ID`` seat is a bot waiting in the battlebot lobby, which one instance
    holds (``server.battlebot.routes``); a create naming one is sent there. None: create it here."""
    if services.cluster is None or not any(s.strip().startswith("battlebot:") for s in specs):
        return None
    home = await services.cluster.home_url("battlebot")
    if home is None:
        return None
    from hexarena.server.forward import forward_request

    return await forward_request(request, home, await request.body())


@router.get("/api/matches/live", tags=["matches"], summary="Matches being played now", response_model=OBJECTS)
async def live_matches(services: ServicesDep, local: bool = False) -> list[LiveMatchJson | dict[str, JsonValue]]:
    """This instance's live matches; with several instances (and not ``local``), every instance's."""
    # the other instances' as they sent them (their own ``local`` lists: a LiveMatchJson each, unchecked here)
    here: list[LiveMatchJson | dict[str, JsonValue]] = [*_live_here(services)]
    if services.cluster is None or local:
        return here
    from hexarena.server.cluster import gather_json

    urls = [f"{u.rstrip('/')}/api/matches/live?local=true" for u in await services.cluster.instance_urls()]
    for found in await gather_json(urls):
        here.extend(m for m in found if isinstance(m, dict))
    return here


def _live_here(services: ServicesDep) -> list[LiveMatchJson]:
    return [
        {
            "game_id": m.match_id,
            "game": m.game.name,
            "players": m.describe_players(),
            "ply": len(m.moves),
            # seats created open to anyone and not joined yet; a seat created for the creator never is
            "open_seats": [m.game.seat_names[s] for s in sorted(m.open_seats)],
        }
        for m in services.manager.live.values()
    ]


@router.get("/games", tags=["records"], summary="Stored games, newest first", response_model=OBJECTS)
async def list_games(
    services: ServicesDep,
    game: str | None = Query(default=None, max_length=64),
    player: str | None = Query(default=None, max_length=200),
    status: GameStatus | None = Query(default=None),
    limit: int = Query(default=50, ge=1, le=500),
    offset: int = Query(default=0, ge=0, le=MAX_OFFSET),
) -> list[records.GameSummary]:
    if game is not None:  # an alias (battlebot's noughtsandcrosses) is its game; unknown: 400 with the list
        game = get_game(game).name
    store = services.store
    if store is None:
        return [records.live_summary(m) for m in list(services.manager.live.values())[offset : offset + limit]]
    rows = await store.list_games(game=game, player=player, status=status, limit=limit, offset=offset)
    return [records.summary_json(r) for r in rows]


async def game_record(services: ServicesDep, game_id: str) -> records.GameRecordJson:
    """A game as JSON, live or stored; 404 for neither. Also the UI's replay source (``server.ui.replay``)."""
    live = services.manager.get(game_id)
    if live is not None:
        return records.live_record(live)
    store = services.store
    record = await store.get_game(game_id) if store is not None and len(game_id) <= 64 else None
    if record is None:
        raise HTTPException(status_code=404, detail=f"no game {game_id!r}")
    return records.record_json(record)


@router.get(
    "/games/{game_id}",
    tags=["records"],
    summary="One game: players, moves, result and notation",
    response_model=AN_OBJECT,
)
async def get_one(services: ServicesDep, game_id: str) -> records.GameRecordJson:
    return await game_record(services, game_id)


__all__ = ["game_record", "router", "seat_spec"]
