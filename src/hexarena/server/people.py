"""People in rated games (issue 33: a rating for people without accounts): who plays a seat, by the identity
their browser keeps (:mod:`hexarena.core.person`), and whether a new match is rated.

- ``POST /api/matches`` takes ``person`` (the creator's secret) for the web UI seats the creator plays
  (``browser``), and ``rated``: true makes a game with people rated (each person needs an identity, and a rated
  game has no takebacks), false makes any game casual; unset keeps the rule that games between bots are rated and
  games with a person are not.
- ``POST /api/ui/matches/{id}/join`` takes the joiner's ``person``; a rated game's open seat refuses a joiner
  without one.
- The match page's cards show each player's rating (:func:`ratings_of`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fastapi import HTTPException

from hexarena.core.glicko2 import is_provisional
from hexarena.core.person import person_key
from hexarena.players.base import BasePlayer
from hexarena.players.browser import BrowserPlayer
from hexarena.server.live import player_records
from hexarena.store.errors import StoreError
from hexarena.store.recorder import rating_key

_NEEDS_IDENTITY = (
    "a rated game rates each person by the identity their browser keeps: send 'person' (the web UI does), "
    "or create the game casual (rated: false or unset)"
)
_AGAINST_ONESELF = "a rated game is between two players: nobody is rated against themselves (play it casual)"


def seat_people(players: Sequence[BasePlayer], secret: str | None, *, rated: bool | None) -> dict[str, Any]:
    """Give the creator's web UI seats the creator's key, check that a rated game can rate its people, and
    return the match's ``meta`` (``rated`` when the creator said)."""
    key = person_key(secret) if secret is not None else None
    for p in players:
        if isinstance(p, BrowserPlayer) and not p.open_seat and key is not None:
            p.person = key
    if rated:
        for p in players:
            if p.kind == "human" and not p.open_seat and not (isinstance(p, BrowserPlayer) and p.person):
                raise HTTPException(status_code=400, detail=_NEEDS_IDENTITY)
        if key is not None and sum(isinstance(p, BrowserPlayer) and p.person == key for p in players) > 1:
            raise HTTPException(status_code=400, detail=_AGAINST_ONESELF)
    return {} if rated is None else {"rated": rated}


def join_as(players: Sequence[BasePlayer], seat: int, secret: str | None, *, rated: bool) -> None:
    """The joiner's identity on the open seat they take; in a rated game, 400 without one or with the identity
    of the person in another seat (checked before the seat is given away)."""
    if secret is None:
        if rated:
            raise HTTPException(status_code=400, detail=_NEEDS_IDENTITY)
        return
    key = person_key(secret)
    if rated and any(isinstance(p, BrowserPlayer) and p.person == key for i, p in enumerate(players) if i != seat):
        raise HTTPException(status_code=400, detail=_AGAINST_ONESELF)
    player = players[seat]
    if isinstance(player, BrowserPlayer):
        player.person = key


async def ratings_of(store: Any, game: str, described: Sequence[dict[str, Any]]) -> list[dict[str, Any] | None]:
    """Each seat's rating in ``game`` as the cards show it (None: not rated yet, or no store): a person by their
    key, a bot by its name."""
    keys = [rating_key(p) or "" for p in player_records(list(described))]
    if store is None or not any(keys):
        return [None] * len(described)
    try:
        found = {r.key: r for r in await store.list_ratings(game, limit=len(keys), keys=[k for k in keys if k])}
    except StoreError:  # the database is away: the game goes on (journaled), its cards without ratings
        return [None] * len(described)
    out: list[dict[str, Any] | None] = []
    for key in keys:
        r = found.get(key)
        out.append(
            None
            if r is None
            else {
                "rating": round(r.rating, 1),
                "rd": round(r.rd, 1),
                "provisional": is_provisional(r.rd),
                "games": r.games,
            }
        )
    return out


__all__ = ["join_as", "ratings_of", "seat_people"]
