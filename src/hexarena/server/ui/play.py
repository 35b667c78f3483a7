"""Playing in the web UI: a person's seat socket, a match's seats and clock, and taking an open seat.

- ``WS /api/play?token=``: the seat of a ``BrowserPlayer`` (see ``players/browser.py`` for the messages). The
  token is valid for the match's life, so the page may reconnect (a reload), but one socket at a time: a second
  connection while the first is live is refused (``nope``, close 1008) and cannot act.
- ``GET /api/ui/matches/{id}``: players, seats, params and the clock configuration of a match (the page runs the
  clocks between updates).
- ``POST /api/ui/matches/{id}/join``: take an open seat: the first joiner gets a new token for it, anyone later
  a 409 (the seat is taken), as does anyone asking for a seat that was not created open (the creator's, a bot's).
  Nobody joining within ``MatchManager.open_seat_seconds`` ends the match ``aborted``. The joiner may give the
  name their browser keeps (``name``): the seat takes it, so the other person and the spectators see who came;
  and the identity it keeps (``person``, needed in a rated game: ``server.people``), which the seat is rated under.
  Each player's rating is on the match info (``rating``), for the cards.
"""

from __future__ import annotations

from typing import TypedDict

from fastapi import APIRouter, HTTPException, WebSocket
from pydantic import BaseModel, ConfigDict, Field

from hexarena.core.jsonvalue import JsonObject, JsonValue
from hexarena.core.registry import get_game
from hexarena.players.browser import BrowserPlayer
from hexarena.server import records
from hexarena.server.live import LiveMatch
from hexarena.server.people import join_as, ratings_of
from hexarena.server.schemas import PersonSecret, SeatName
from hexarena.server.seats import refuse
from hexarena.server.services import ServicesDep
from hexarena.server.sockets import serve_seat
from hexarena.store.recorder import PEOPLE

router = APIRouter()

#: Longest name a person may give when joining (a player's name on cards, lists and records).
MAX_PERSON_NAME = 32


class JoinRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: SeatName = Field(description="the seat's name (e.g. 'x', 'black') or its number")
    name: str | None = Field(
        default=None,
        min_length=1,
        max_length=MAX_PERSON_NAME,
        pattern=r"^[^\x00-\x1f\x7f]*\S[^\x00-\x1f\x7f]*$",
        description="the joiner's name, shown to the other person and the spectators (no control characters)",
    )
    person: PersonSecret | None = Field(
        default=None, description="the joiner's identity (what a rated game rates them under); needed in a rated game"
    )


@router.websocket("/api/play")
async def play_socket(websocket: WebSocket, services: ServicesDep, token: str = "") -> None:
    await websocket.accept()
    found = services.manager.seat_of(token) if 0 < len(token) <= 200 else None
    if found is None and services.cluster is not None and 0 < len(token) <= 200:
        from hexarena.server.seat_relay import relay_seat

        if await relay_seat(websocket, services.cluster, "/api/play", token):  # a match another instance plays
            return
    player = found[0].players[found[1]] if found is not None else None
    if not isinstance(player, BrowserPlayer):  # unknown, over, or an HTTTX seat (its token belongs to /ws)
        await refuse(websocket, "unknown or expired token")
        return
    await serve_seat(websocket, attach=player.connect, handle=player.handle, detach=player.disconnect, done=player.done)


class MatchInfo(records.GameSummary):
    """``GET /api/ui/matches/{id}`` of a stored game: the game, its seats' names, whether it is live, its clock
    (None: the store does not keep it); each player with its ``rating``."""

    seats: list[str]
    live: bool
    clock: JsonObject | None


class LiveMatchInfo(MatchInfo):
    """The same of a match in memory: also its open seats, whether it was created rated and how the page says it."""

    open_seats: list[str]
    rated: JsonValue
    rating_mode: str


@router.get(
    "/api/ui/matches/{game_id}",
    tags=["ui"],
    summary="A match's players, params and clock",
    response_model=dict[str, object],
)
async def match_info(game_id: str, services: ServicesDep) -> MatchInfo:
    live = services.manager.get(game_id)
    if live is None:
        store = services.store
        record = await store.get_game(game_id) if store is not None and len(game_id) <= 64 else None
        if record is None:
            raise HTTPException(status_code=404, detail=f"no game {game_id!r}")
        stored: MatchInfo = {
            **records.summary_json(record),
            "seats": list(get_game(record.game).seat_names),
            "live": False,
            "clock": None,
        }
        await _with_ratings(services, record.game, stored["players"])
        return stored
    clock = live.referee.config.clock
    summary = records.live_summary(live)
    rated = live.referee.config.meta.get("rated")
    out: LiveMatchInfo = {
        **summary,
        "seats": list(live.game.seat_names),
        "live": live.result is None,
        "clock": {"kind": clock.kind, "seconds": clock.seconds, "increment": clock.increment},
        "open_seats": [] if live.result is not None else [live.game.seat_names[s] for s in sorted(live.open_seats)],
        "rated": rated,
        "rating_mode": rating_mode(rated, [str(p.get("kind")) for p in summary["players"]]),
    }
    await _with_ratings(services, live.game.name, out["players"])
    return out


def rating_mode(rated: JsonValue, kinds: list[str]) -> str:
    """``rated`` or ``casual``, as the page says it near the players: created rated, or left unset with no person
    in it (games between bots are rated), moves ratings (``store.recorder.rated`` decides the same at the end)."""
    return "rated" if rated is True or (rated is None and not any(k in PEOPLE for k in kinds)) else "casual"


async def _with_ratings(services: ServicesDep, game: str, players: list[JsonObject]) -> None:
    """Each player's rating in this game on their card (``rating``: null when not rated yet)."""
    for player, rating in zip(players, await ratings_of(services.store, game, players), strict=True):
        player["rating"] = rating


def seat_index(live: LiveMatch, asked: str) -> int:
    """The seat a join asks for, by name (any case) or number; 400 naming the seats for anything else."""
    names = list(live.game.seat_names)
    wanted = asked.strip()
    lowered = [n.lower() for n in names]
    if wanted.isascii() and wanted.isdigit():
        seat = int(wanted)
    else:
        seat = lowered.index(wanted.lower()) if wanted.lower() in lowered else -1
    if seat not in range(len(names)):
        raise HTTPException(status_code=400, detail=f"no seat {asked!r}; seats are {names}")
    return seat


class Joined(TypedDict):
    """``POST /api/ui/matches/{id}/join``: the seat taken, by name, and its token."""

    game_id: str
    seat: str
    token: str


@router.post(
    "/api/ui/matches/{game_id}/join",
    tags=["ui"],
    summary="Take an open seat (once: the first joiner)",
    response_model=dict[str, object],
)
async def join(game_id: str, body: JoinRequest, services: ServicesDep) -> Joined:
    """A new token for a seat created open (``open`` spec), for the first who asks; 409 for everyone later
    and for seats that were never open (the creator's own, a bot's): their tokens are never handed out."""
    live = services.manager.live.get(game_id)
    if live is None:
        raise HTTPException(status_code=404, detail=f"no live game {game_id!r}")
    seat = seat_index(live, body.seat)
    name = live.game.seat_names[seat]
    if seat in live.open_seats:  # who joins, checked before the seat is given away
        join_as(live.players, seat, body.person, rated=live.referee.config.meta.get("rated") is True)
    token = services.manager.join_open_seat(live, seat)
    if token is not None:
        player = live.players[seat]
        if body.name is not None and isinstance(player, BrowserPlayer):
            player.name = body.name.strip()
        return {"game_id": live.match_id, "seat": name, "token": token}
    if live.players[seat].open_seat:
        raise HTTPException(status_code=409, detail=f"seat {name!r} is already taken, or nobody joined it in time")
    raise HTTPException(
        status_code=409,
        detail=f"seat {name!r} is not open: only seats created open to anyone ('open' spec) can be joined",
    )


__all__ = ["JoinRequest", "router"]
