"""A rematch between two people, offered from one page and answered on the other (issue 15).

After a two-person game (both seats ``BrowserPlayer``), either person may offer a rematch; the other person's
page, which polls this route once the game is over, shows "NAME offers a rematch" with Accept and Decline. An
accept starts the new game at once with the colours swapped (each person plays the other seat), the same game,
parameters and clock; each person's page then gets its own new seat token and moves to the new game.

``POST /api/ui/matches/{id}/rematch`` with ``{"token": <this seat's token of the finished game>, "action": ...}``:
``status`` (what a page polls), ``offer``, ``accept`` and ``decline``. Each answers the rematch as this seat sees
it. The seat tokens of the finished game prove who asks (they are kept with the finished match, never listed),
and a new seat's token is handed only to the person who played the other seat before, so nobody else can take a
rematch seat. Why POST for ``status`` too: the token stays out of URLs (and so out of logs and histories).
An offer while the other person's offer stands is an accept (both clicked Rematch); a withdrawn game (evicted
from the manager's finished matches) has no rematch: 404.
"""

from __future__ import annotations

import secrets
from typing import Any, Literal

from fastapi import APIRouter, HTTPException
from pydantic import BaseModel, ConfigDict, Field

from hexarena.core.person import is_person_key
from hexarena.core.types import Seat, other
from hexarena.players.browser import BrowserPlayer
from hexarena.server.live import LiveMatch, MatchManager
from hexarena.server.rematch_offer import Rematch
from hexarena.server.services import ServicesDep

router = APIRouter()


class RematchRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    token: str = Field(min_length=1, max_length=200, description="this seat's token of the finished game")
    action: Literal["status", "offer", "accept", "decline"] = "status"


def seat_by_token(live: LiveMatch, token: str) -> Seat:
    """The seat whose token this is (compared in constant time); 403 for anything else."""
    for seat, held in live.tokens.items():
        if secrets.compare_digest(held.encode(), token.encode()):
            return seat
    raise HTTPException(status_code=403, detail="not a seat of this game")


def view(live: LiveMatch, seat: Seat) -> dict[str, Any]:
    """The rematch as ``seat`` sees it: the offer (who made it), declined, and once accepted its new game with
    this person's new seat and token."""
    rematch: Rematch | None = live.rematch
    out: dict[str, Any] = {"offer": None, "declined": False, "game_id": None, "seat": None, "token": None}
    if rematch is None:
        return out
    out["offer"] = {"by_seat": rematch.by, "by": live.players[rematch.by].name, "mine": rematch.by == seat}
    out["declined"] = rematch.declined
    if rematch.game_id is not None:
        out["game_id"] = rematch.game_id
        out["seat"] = live.game.seat_names[other(seat)]
        out["token"] = rematch.tokens.get(seat)
    return out


async def start_rematch(manager: MatchManager, live: LiveMatch, rematch: Rematch) -> None:
    """The new game: the same people (names and identities), each in the other seat, with the same game,
    parameters and clock, rated or casual as the game before."""
    if rematch.starting or rematch.game_id is not None:
        return  # both accepted at once: one new game (the other page finds it on its next poll)
    rematch.starting = True
    config = live.referee.config
    people: list[BrowserPlayer[object, object]] = [
        BrowserPlayer(live.players[1].name),
        BrowserPlayer(live.players[0].name),
    ]
    for new_seat, old_seat in zip(people, reversed(live.players), strict=True):
        spec = str(old_seat.describe().get("spec", ""))  # the same people (a finished seat keeps its description)
        new_seat.person = spec if is_person_key(spec) else None
    rated = {"rated": config.meta["rated"]} if "rated" in config.meta else {}
    try:
        new = await manager.create(live.game, people, params=dict(config.params), clock=config.clock, meta=rated)
    finally:
        rematch.starting = False
    rematch.game_id = new.match_id
    rematch.tokens = {0: new.tokens[1], 1: new.tokens[0]}


@router.post("/api/ui/matches/{game_id}/rematch", tags=["ui"], summary="Offer, answer or follow a rematch")
async def rematch(game_id: str, body: RematchRequest, services: ServicesDep) -> dict[str, Any]:
    manager = services.manager
    live = manager.finished.get(game_id)
    if live is None:
        if manager.live.get(game_id) is not None:
            raise HTTPException(status_code=409, detail="the game is not over yet")
        raise HTTPException(status_code=404, detail=f"no finished game {game_id!r}")
    seat = seat_by_token(live, body.token)
    if not all(issubclass(p.adapter, BrowserPlayer) for p in live.players) or len(live.tokens) != 2:
        raise HTTPException(status_code=409, detail="a rematch is offered here between two people only")
    current: Rematch | None = live.rematch
    if body.action == "offer":
        if current is None or current.declined:
            live.rematch = Rematch(by=seat)
        elif current.by != seat:  # both asked: that is an accept
            await start_rematch(manager, live, current)
    elif body.action in ("accept", "decline"):
        if current is None or current.by == seat or current.declined:
            raise HTTPException(status_code=409, detail="there is no rematch offer from your opponent to answer")
        if body.action == "decline":
            if current.game_id is not None or current.starting:
                raise HTTPException(status_code=409, detail="the rematch was already accepted")
            current.declined = True
        else:
            await start_rematch(manager, live, current)
    return view(live, seat)


__all__ = ["Rematch", "RematchRequest", "router"]
