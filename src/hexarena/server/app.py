"""The ASGI app: Hivemaker-compatible HTTTX endpoints, the generic match API, spectators, game records."""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fastapi import Depends, FastAPI, HTTPException, Query, WebSocket
from fastapi.responses import JSONResponse
from starlette.requests import Request

from hexarena import __version__
from hexarena.bots.registry import builtin_bots
from hexarena.core.errors import ConfigError
from hexarena.core.registry import available_games, get_game
from hexarena.players.base import BasePlayer
from hexarena.players.human import HtttxHumanPlayer
from hexarena.players.policy import LOCAL_ONLY_SCHEMES, make_answering_player, spec_policy
from hexarena.players.spec import schemes
from hexarena.referee.clock import clock_from
from hexarena.server import records
from hexarena.server.auth import install_public_mode
from hexarena.server.errors import install as install_error_handlers
from hexarena.server.live import MatchManager
from hexarena.server.ratelimit import DEFAULT_CREATE_LIMIT, CreateLimiter, limit_creates
from hexarena.server.schemas import MAX_OFFSET, NewGameRequest, NewMatchRequest, SeatSpec
from hexarena.server.sockets import serve_seat, serve_spectator
from hexarena.store.recorder import StoreUnavailable
from hexarena.store.records import GameStatus

log = logging.getLogger(__name__)

WEB_DIR = Path(__file__).resolve().parent.parent / "web"


@dataclass
class Settings:
    """What ``hexarena serve`` configures."""

    database_url: str | None = None
    use_store: bool = True
    #: Local state (the recorder's journal); None: ``$HEXARENA_DATA_DIR``, the SQLite file's folder, or ./data.
    data_dir: Path | None = None
    #: Write each move as it is played (the default). Off only to measure what those writes cost
    #: (``bench/store_throughput.py``): a crash then loses the moves of live games. ``$HEXARENA_RECORD_MOVES=0``.
    record_moves: bool = field(default_factory=lambda: os.environ.get("HEXARENA_RECORD_MOVES", "1") != "0")
    #: Seconds an open seat (``open:NAME``) waits for someone to join before its match ends aborted; None:
    #: ``$HEXARENA_OPEN_SEAT_SECONDS`` or 600.
    open_seat_seconds: float | None = None
    #: Operator-registered engines (``NAME -> player spec``), the only way an API client gets a subprocess bot.
    engines: dict[str, str] = field(default_factory=dict)
    #: Mount the connect-in protocols (battlebot, hexagon dots turn-token), GraphQL, the web UI and tournaments.
    protocols: bool = True
    #: None: bot URLs may name any host (local mode). A list turns on the bot-host check (what ``--public`` will
    #: set): loopback, private and link-local hosts are refused unless listed (a host name, address or network).
    bot_hosts: list[str] | None = None
    #: Creates (matches, HTTTX games, tournaments, dots tables) per client address, as a ``limits`` string
    #: (``"60/minute"``, ``"10/minute;200/hour"``); None: unlimited.
    create_rate_limit: str | None = DEFAULT_CREATE_LIMIT
    #: Public mode (``hexarena serve --public``, see ``server/auth.py``): write endpoints need an API token, the
    #: bot-host check is on (``bot_hosts`` None becomes ``[]``) and the default create limit is tighter.
    public: bool = False


def create_app(settings: Settings | None = None) -> FastAPI:
    """Build the app; the store opens (and migrates) on start-up, live matches are aborted on shutdown."""
    settings = settings or Settings()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = None
        recorder = None
        if settings.use_store:
            from hexarena.store import Store
            from hexarena.store.recorder import Recorder, default_data_dir

            url = settings.database_url or os.environ.get("HEXARENA_DATABASE_URL")
            store = await Store.open(url)
            recorder = Recorder(store, settings.data_dir or default_data_dir(url))
            try:
                replayed = await recorder.start()  # journaled results first: they win over "interrupted"
            except BaseException:
                await recorder.close(timeout=0)
                await store.close()
                raise
            if replayed:
                log.warning("%d write(s) journaled during an earlier database outage were stored", replayed)
            interrupted, aborted = await store.mark_unfinished_as_interrupted()
            if interrupted or aborted:
                log.warning(
                    "an earlier server left %d game(s) mid-game (now interrupted, moves kept) and %d that never "
                    "started (now aborted)",
                    interrupted,
                    aborted,
                )
        app.state.store = store
        app.state.recorder = recorder
        app.state.manager = MatchManager(
            recorder, open_seat_seconds=settings.open_seat_seconds, record_moves=settings.record_moves
        )
        for hook in getattr(app.state, "startup_hooks", []):
            await hook(app)
        try:
            yield
        finally:
            for hook in getattr(app.state, "shutdown_hooks", []):
                try:
                    await hook(app)
                except Exception:
                    log.exception("a shutdown hook failed")
            await app.state.manager.close()
            if recorder is not None:
                await recorder.close()
            if store is not None:
                await store.close()

    app = FastAPI(
        title="hexarena",
        version=__version__,
        description="An open arena where bots and people battle at hexagonal board games.",
        lifespan=lifespan,
    )
    app.state.settings = settings  # read by the routers: the spec policy (engines, bot hosts)
    install_public_mode(app, settings)  # public mode: API tokens on writes, public defaults (local: nothing)
    app.state.create_limiter = CreateLimiter(settings.create_rate_limit)  # a bad limit fails here, not per request

    install_error_handlers(app)  # safe, bounded 4xx answers (ConfigError is a 400) and the body size cap

    @app.exception_handler(StoreUnavailable)
    async def store_unavailable(request: Request, exc: StoreUnavailable) -> JSONResponse:
        # the database can't record a new game: refuse it (no ghost match) and say when to come back
        return JSONResponse(status_code=503, content={"detail": str(exc)}, headers={"Retry-After": "5"})

    def manager() -> MatchManager:
        return app.state.manager  # type: ignore[no-any-return]

    # ----- meta -----

    @app.get("/healthz", tags=["meta"], summary="Liveness and the store's state (503 while it is degraded)")
    async def healthz() -> JSONResponse:
        recorder = app.state.recorder
        store = "none" if recorder is None else recorder.health()
        degraded = recorder is not None and recorder.degraded
        body = {"ok": not degraded, "version": __version__, "live_matches": len(manager().live), "store": store}
        return JSONResponse(status_code=503 if degraded else 200, content=body)

    @app.get("/api/games", tags=["games"], summary="Registered games, their parameters and built-in bots")
    async def games_meta() -> list[dict[str, Any]]:
        out = []
        for name, game in sorted(available_games().items()):
            d = game.describe()
            d["builtin_bots"] = sorted(builtin_bots(name))
            out.append(d)
        return out

    @app.get("/api/players", tags=["games"], summary="Player spec forms the server accepts")
    async def player_kinds() -> dict[str, Any]:
        local_only = {k: v for k, v in schemes().items() if k in LOCAL_ONLY_SCHEMES}
        return {
            "schemes": {k: v for k, v in schemes().items() if k not in LOCAL_ONLY_SCHEMES},
            "engines": sorted(settings.engines),
            "server_only": local_only,
        }

    # ----- creating matches -----

    async def seat_player(seat: SeatSpec, game: str) -> BasePlayer:
        """Every seat becomes a spec and goes through the one remote spec policy."""
        if seat.type == "human":
            spec = f"human:{seat.name or ''}"
        elif seat.type == "builtin":
            spec = f"builtin:{seat.name or seat.spec or ''}"
        elif seat.type == "spec":
            spec = seat.spec or ""
        elif not seat.bot_url:
            raise ConfigError(f"a seat of type {seat.type!r} needs 'bot_url'")
        else:
            spec = f"{'stateless' if seat.type == 'stateless' else 'bws'}:{seat.bot_url}"
        return await make_answering_player(spec, game, spec_policy(app))

    @app.post(
        "/game/new",
        tags=["htttx"],
        summary="Start an HTTTX game (Hivemaker-compatible)",
        dependencies=[Depends(limit_creates)],
    )
    async def new_game(body: NewGameRequest) -> dict[str, Any]:
        cfg = body.match_config
        game = get_game("htttx")
        players = [await seat_player(body.player_x, "htttx"), await seat_player(body.player_o, "htttx")]
        for p in players:
            if cfg.depth is not None and hasattr(p, "depth"):
                p.depth = cfg.depth
        clock = clock_from(cfg.clock_type, cfg.clock, cfg.increment)
        live = await manager().create(
            game,
            players,
            params={"view_distance": cfg.view_distance, "win_distance": cfg.win_distance, "turn_limit": cfg.turn_limit},
            clock=clock,
            heartbeat_ms=cfg.heartbeat,
        )
        out: dict[str, Any] = {"game_id": live.match_id}
        for seat, token in live.tokens.items():
            out["token_x" if seat == 0 else "token_o"] = token
        return out

    @app.post(
        "/api/matches",
        tags=["matches"],
        summary="Start a match of any game between any two players",
        dependencies=[Depends(limit_creates)],
    )
    async def new_match(body: NewMatchRequest) -> dict[str, Any]:
        game = get_game(body.game)
        params = game.validate_params(body.params)
        clock = clock_from(body.clock.type, body.clock.seconds, body.clock.increment)
        players = [await make_answering_player(spec, game.name, spec_policy(app)) for spec in body.players]
        live = await manager().create(game, players, params=params, clock=clock, heartbeat_ms=body.heartbeat)
        return {
            "game_id": live.match_id,
            "tokens": {game.seat_names[s]: t for s, t in live.tokens.items()},
            "spectate": f"/spectate/{live.match_id}",
        }

    @app.get("/api/matches/live", tags=["matches"], summary="Matches being played now")
    async def live_matches() -> list[dict[str, Any]]:
        return [
            {
                "game_id": m.match_id,
                "game": m.game.name,
                "players": m.describe_players(),
                "ply": len(m.moves),
                # seats created open to anyone and not joined yet; a seat created for the creator never is
                "open_seats": [m.game.seat_names[s] for s in sorted(m.open_seats)],
            }
            for m in manager().live.values()
        ]

    # ----- records -----

    @app.get("/games", tags=["records"], summary="Stored games, newest first")
    async def list_games(
        game: str | None = Query(default=None, max_length=64),
        player: str | None = Query(default=None, max_length=200),
        status: GameStatus | None = Query(default=None),
        limit: int = Query(default=50, ge=1, le=500),
        offset: int = Query(default=0, ge=0, le=MAX_OFFSET),
    ) -> list[dict[str, Any]]:
        if game is not None:  # an alias (battlebot's noughtsandcrosses) is its game; unknown: 400 with the list
            game = get_game(game).name
        store = app.state.store
        if store is None:
            return [records.live_summary(m) for m in list(manager().live.values())[offset : offset + limit]]
        rows = await store.list_games(game=game, player=player, status=status, limit=limit, offset=offset)
        return [records.summary_json(r) for r in rows]

    @app.get("/games/{game_id}", tags=["records"], summary="One game: players, moves, result and notation")
    async def get_one(game_id: str) -> dict[str, Any]:
        live = manager().get(game_id)
        if live is not None:
            return records.live_record(live)
        store = app.state.store
        record = await store.get_game(game_id) if store is not None and len(game_id) <= 64 else None
        if record is None:
            raise HTTPException(status_code=404, detail=f"no game {game_id!r}")
        return records.record_json(record)

    # ----- sockets -----

    @app.websocket("/ws")
    async def human_socket(websocket: WebSocket, token: str = "") -> None:
        """A person's HTTTX seat. The token is single-use: a second connection is refused by the player (``nope``,
        close 1008) and neither acts nor forfeits the seat; the first leaving before the end forfeits."""
        await websocket.accept()
        found = manager().seat_of(token) if 0 < len(token) <= 200 else None
        if found is None:
            await websocket.send_json({"type": "nope", "reason": "unknown or expired token"})
            await websocket.close(code=1008)
            return
        live, seat = found
        player: Any = live.players[seat]
        if not isinstance(player, HtttxHumanPlayer):
            # a browser seat's token: leave it usable where it belongs
            await websocket.send_json({"type": "nope", "reason": "this seat is played through /api/play, not /ws"})
            await websocket.close(code=1008)
            return
        # every frame goes to the player, which judges it at once; leaving before the end forfeits (detach)
        await serve_seat(
            websocket,
            attach=player.attach,
            handle=player.receive,
            detach=lambda _send: player.detach(),
            done=player.done,
        )

    @app.websocket("/spectate/{game_id}")
    async def spectate(websocket: WebSocket, game_id: str) -> None:
        await websocket.accept()
        live = manager().get(game_id)
        if live is None:
            stored = await records.stored_end_messages(app.state.store, game_id)
            if stored is None:
                await websocket.send_json({"type": "nope", "reason": f"no game {game_id!r}"})
                await websocket.close(code=1008)
                return
            for msg in stored:
                await websocket.send_json(msg)
            await websocket.close()
            return

        spectator = await manager().spectate(live, websocket.send_text)
        try:
            await serve_spectator(websocket, spectator)
        finally:
            live.spectators.discard(spectator)

    from hexarena.server.ui import install as install_ui

    install_ui(app)
    if WEB_DIR.is_dir() and (WEB_DIR / "index.html").exists():
        from fastapi.responses import RedirectResponse
        from fastapi.staticfiles import StaticFiles

        app.mount("/ui", StaticFiles(directory=str(WEB_DIR), html=True), name="web")

        @app.get("/", include_in_schema=False)
        async def root() -> RedirectResponse:
            return RedirectResponse("/ui/")

    if settings.protocols:
        install_protocols(app)
    return app


def install_protocols(app: FastAPI) -> None:
    """Mount every protocol family beyond the HTTTX routes above; each lives in its own package."""
    from hexarena.server import analysis, graphql
    from hexarena.server.battlebot.routes import install as install_battlebot
    from hexarena.server.dots.routes import install as install_dots
    from hexarena.tournament.routes import resume_running_tournaments, router, shutdown_tournaments

    install_battlebot(app)
    install_dots(app)
    graphql.install(app)
    analysis.install(app)
    app.include_router(router)
    if not hasattr(app.state, "startup_hooks"):
        app.state.startup_hooks = []
    if not hasattr(app.state, "shutdown_hooks"):
        app.state.shutdown_hooks = []
    app.state.startup_hooks.append(resume_running_tournaments)
    app.state.shutdown_hooks.append(shutdown_tournaments)
