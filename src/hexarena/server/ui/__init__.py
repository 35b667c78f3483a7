"""The API the browser UI needs beyond the generic match API: a person's seat socket, replays, listings.

``install(app)`` adds the routes (``create_app`` calls it) and teaches ``make_player`` the ``browser`` and
``open`` schemes with the clickable legal-move views of ``moves.py``: ``browser[:NAME]`` is a seat for the
match's creator (its token comes back in the create answer, and it is never open to anyone else);
``open[:NAME]`` is a seat for anyone, listed in ``open_seats`` until somebody joins it.

- ``WS /api/play?token=``: the seat of a ``BrowserPlayer`` (see ``players/browser.py`` for the messages). The
  token is valid for the match's life, so the page may reconnect (a reload), but one socket at a time: a second
  connection while the first is live is refused (``nope``, close 1008) and cannot act.
- ``GET /api/ui/matches/{id}``: players, seats, params and the clock configuration of a match (the page runs the
  clocks between updates).
- ``POST /api/ui/matches/{id}/join``: take an open seat: the first joiner gets a new token for it, anyone later
  a 409 (the seat is taken), as does anyone asking for a seat that was not created open (the creator's, a bot's).
  Nobody joining within ``MatchManager.open_seat_seconds`` ends the match ``aborted``.
- ``GET /api/ui/replay/{id}``: every position of a game, so the replay page steps without a rules engine.
- ``GET /api/ui/games``: stored games filtered by game, player and result; ``GET /api/ui/bots``: bots by game.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import FastAPI, HTTPException, Query, WebSocket
from pydantic import BaseModel, ConfigDict, Field

from hexarena.core.errors import HexarenaError
from hexarena.core.registry import available_games, get_game
from hexarena.players.base import BasePlayer
from hexarena.players.browser import BrowserPlayer
from hexarena.players.spec import register_scheme
from hexarena.server import records
from hexarena.server.schemas import MAX_OFFSET, SeatName
from hexarena.server.sockets import serve_seat
from hexarena.server.ui import moves, ratings

#: Most positions a replay serves (a longer game's replay is cut there, with ``truncated`` set).
MAX_REPLAY_PLIES = 20000
#: Games up to this many plies come with every position inline; longer ones are fetched in chunks.
INLINE_PLIES = 300
CHUNK = 100
RESULTS = ("win", "draw", "running", "aborted", "interrupted", "finished")


async def _browser_scheme(game: str, name: str) -> BasePlayer:
    return BrowserPlayer(
        name or "human",
        legal_view=moves.legal_view,
        probes={"htttx_first": moves.htttx_first, "hive_why": moves.hive_why},
    )


async def _open_scheme(game: str, name: str) -> BasePlayer:
    return BrowserPlayer(
        name or "guest",
        legal_view=moves.legal_view,
        probes={"htttx_first": moves.htttx_first, "hive_why": moves.hive_why},
        open_seat=True,
    )


class JoinRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: SeatName = Field(description="the seat's name (e.g. 'x', 'black') or its number")


def positions(game: Any, record: dict[str, Any], start: int, stop: int) -> tuple[list[dict[str, Any]], str | None]:
    """The JSON views of plies ``start`` .. ``stop - 1`` (ply 0 is the start position), replaying the moves with
    the rules; a move that no longer replays stops the list there, with the reason."""
    try:
        state = game.new(**(record.get("params") or {}))
    except HexarenaError as exc:
        return [], f"cannot rebuild the start position: {exc.reason}"
    out = [_lean(game.to_json(state))] if start == 0 else []
    for i, m in enumerate(record["moves"][: stop - 1]):
        try:
            state = game.play(state, game.parse(m["move"]))
        except HexarenaError as exc:
            return out, f"move {i + 1} ({m['move']!r}): {exc.reason}"
        if i + 1 >= start:
            out.append(_lean(game.to_json(state)))
    return out, None


def winner_side(game: Any, record: dict[str, Any]) -> str:
    """The side the winner played at the end (after a Hex swap the second seat plays black), from the moves; the
    seat's name when the moves no longer replay."""
    seat = int(record["winner"])
    try:
        state = game.new(**(record.get("params") or {}))
        for m in record["moves"]:
            state = game.play(state, game.parse(m["move"]))
    except HexarenaError:
        return str(game.seat_names[seat])
    return str(game.side_name(state, seat))


def _lean(view: dict[str, Any]) -> dict[str, Any]:
    """A position for the replay list without the fields that repeat the whole history (Hive's UHP GameString):
    keeping them would make a replay quadratic in the game's length (11 MB for a 1,500-ply Hive game)."""
    view.pop("game_string", None)
    return view


def install(app: FastAPI) -> None:
    """Add the UI routes to ``app`` and register the ``browser`` player scheme."""
    register_scheme(
        "browser",
        _browser_scheme,
        "browser[:NAME]  you, playing in the web UI (the token is in the create answer; WS /api/play?token=...)",
        starts_program=False,
        remote=True,
    )
    register_scheme(
        "open",
        _open_scheme,
        "open[:NAME]  a web UI seat for anyone: listed as open, the first to join it gets its token",
        starts_program=False,
        remote=True,
    )

    app.include_router(ratings.router)  # the leaderboard's rating history

    def manager() -> Any:
        return app.state.manager

    @app.websocket("/api/play")
    async def play_socket(websocket: WebSocket, token: str = "") -> None:
        await websocket.accept()
        found = manager().seat_of(token) if 0 < len(token) <= 200 else None
        player = found[0].players[found[1]] if found is not None else None
        if not isinstance(player, BrowserPlayer):  # unknown, over, or an HTTTX seat (its token belongs to /ws)
            await websocket.send_json({"type": "nope", "reason": "unknown or expired token"})
            await websocket.close(code=1008)
            return
        await serve_seat(
            websocket, attach=player.connect, handle=player.handle, detach=player.disconnect, done=player.done
        )

    @app.get("/api/ui/matches/{game_id}", tags=["ui"], summary="A match's players, params and clock")
    async def match_info(game_id: str) -> dict[str, Any]:
        live = manager().get(game_id)
        if live is None:
            store = app.state.store
            record = await store.get_game(game_id) if store is not None and len(game_id) <= 64 else None
            if record is None:
                raise HTTPException(status_code=404, detail=f"no game {game_id!r}")
            out = records.summary_json(record)
            out["seats"] = list(get_game(record.game).seat_names)
            out["live"] = False
            out["clock"] = None
            return out
        clock = live.referee.config.clock
        out = records.live_summary(live)
        out["seats"] = list(live.game.seat_names)
        out["live"] = live.result is None
        out["clock"] = {"kind": clock.kind, "seconds": clock.seconds, "increment": clock.increment}
        out["open_seats"] = (
            [] if live.result is not None else [live.game.seat_names[s] for s in sorted(live.open_seats)]
        )
        return out

    @app.post("/api/ui/matches/{game_id}/join", tags=["ui"], summary="Take an open seat (once: the first joiner)")
    async def join(game_id: str, body: JoinRequest) -> dict[str, Any]:
        """A new token for a seat created open (``open`` spec), for the first who asks; 409 for everyone later
        and for seats that were never open (the creator's own, a bot's): their tokens are never handed out."""
        live = manager().live.get(game_id)
        if live is None:
            raise HTTPException(status_code=404, detail=f"no live game {game_id!r}")
        names = list(live.game.seat_names)
        wanted = body.seat.strip()
        lowered = [n.lower() for n in names]
        if wanted.isascii() and wanted.isdigit():
            seat = int(wanted)
        else:
            seat = lowered.index(wanted.lower()) if wanted.lower() in lowered else -1
        if seat not in range(len(names)):
            raise HTTPException(status_code=400, detail=f"no seat {body.seat!r}; seats are {names}")
        token = manager().join_open_seat(live, seat)
        if token is not None:
            return {"game_id": live.match_id, "seat": names[seat], "token": token}
        if getattr(live.players[seat], "open_seat", False):
            raise HTTPException(status_code=409, detail=f"seat {names[seat]!r} is already taken")
        raise HTTPException(
            status_code=409,
            detail=f"seat {names[seat]!r} is not open: only seats created open to anyone ('open' spec) can be joined",
        )

    async def game_record(game_id: str) -> dict[str, Any]:
        live = manager().get(game_id)
        if live is not None:
            return records.live_record(live)
        store = app.state.store
        stored = await store.get_game(game_id) if store is not None and len(game_id) <= 64 else None
        if stored is None:
            raise HTTPException(status_code=404, detail=f"no game {game_id!r}")
        return records.record_json(stored)

    @app.get("/api/ui/replay/{game_id}", tags=["ui"], summary="A game with its positions, for stepping through it")
    async def replay(game_id: str) -> dict[str, Any]:
        """The record; ``states`` holds every position when the game is short (else null: the page fetches
        ``/states`` in chunks of ``chunk``), so a long game never means one huge answer."""
        record = await game_record(game_id)
        game = get_game(record["game"])
        plies = min(len(record["moves"]), MAX_REPLAY_PLIES)
        record["seats"] = list(game.seat_names)
        record["plies"] = plies
        record["truncated"] = len(record["moves"]) > MAX_REPLAY_PLIES
        record["chunk"] = CHUNK
        record["states"] = None
        record["replay_error"] = None
        if plies <= INLINE_PLIES:
            record["states"], record["replay_error"] = await asyncio.to_thread(positions, game, record, 0, plies + 1)
        record["winner_side"] = None
        if record.get("winner") is not None:
            record["winner_side"] = await asyncio.to_thread(winner_side, game, record)
        return record

    @app.get("/api/ui/replay/{game_id}/states", tags=["ui"], summary="Positions start .. start+count-1 of a game")
    async def replay_states(
        game_id: str, start: int = Query(default=0, ge=0), count: int = Query(default=CHUNK, ge=1, le=CHUNK)
    ) -> dict[str, Any]:
        record = await game_record(game_id)
        game = get_game(record["game"])
        stop = min(start + count, min(len(record["moves"]), MAX_REPLAY_PLIES) + 1)
        states, error = await asyncio.to_thread(positions, game, record, start, stop)
        return {"start": start, "states": states, "replay_error": error}

    @app.get("/api/ui/games", tags=["ui"], summary="Stored games filtered by game, player and result")
    async def ui_games(
        game: str | None = Query(default=None, max_length=64),
        player: str | None = Query(default=None, max_length=200),
        result: str | None = Query(default=None, max_length=20),
        limit: int = Query(default=50, ge=1, le=500),
        offset: int = Query(default=0, ge=0, le=MAX_OFFSET),
    ) -> list[dict[str, Any]]:
        if result and result not in RESULTS:
            raise HTTPException(status_code=400, detail=f"result must be one of {list(RESULTS)}, got {result!r}")
        store = app.state.store
        if store is None:
            rows = [records.live_summary(m) for m in list(manager().finished.values()) + list(manager().live.values())]
            rows = [r for r in rows if (not game or r["game"] == game)]
            if player:
                rows = [r for r in rows if any(p.get("name") == player for p in r["players"])]
        else:
            status = {"running": "running", "aborted": "aborted", "interrupted": "interrupted"}.get(
                result or "", "finished" if result else None
            )
            found = await store.list_games(
                game=game or None, player=player or None, status=status, limit=limit, offset=offset
            )
            rows = [records.summary_json(r) for r in found]
        if result == "win":
            rows = [r for r in rows if r["winner"] is not None]
        elif result == "draw":
            rows = [r for r in rows if r["winner"] is None and r["status"] == "finished"]
        return rows[:limit] if store is None else rows

    @app.get("/api/ui/bots", tags=["ui"], summary="Built-in and registered bots, and ratings, by game")
    async def ui_bots(game: str | None = Query(default=None, max_length=64)) -> list[dict[str, Any]]:
        """One row per player of each game, best rated first: a built-in and its rating (stored under
        ``builtin:NAME``) are one row, as are a registered bot and the rating under its id."""
        from hexarena.bots.registry import builtin_bots

        names = sorted(available_games()) if not game else [get_game(game).name]
        store = app.state.store
        out: list[dict[str, Any]] = []
        for name in names:
            rows: dict[str, dict[str, Any]] = {}
            for bot in sorted(builtin_bots(name)):
                rows[f"builtin:{bot}"] = {"game": name, "name": bot, "kind": "builtin", "spec": f"builtin:{bot}"}
            if store is not None:
                for b in await store.list_bots(game=name):
                    rows[b.bot_id] = {"game": name, "name": b.bot_id, "kind": b.kind, "owner": b.owner, "spec": b.spec}
                for r in await store.list_ratings(name, limit=100):
                    row = rows.setdefault(r.key, {"game": name, "name": r.key, "kind": "rated", "spec": r.key})
                    row.update(rating=round(r.rating, 1), games=r.games)
            out.extend(sorted(rows.values(), key=lambda row: (-row.get("rating", float("-inf")), row["name"])))
        return out
