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
from hexarena.core.person import is_person_key, person_key
from hexarena.players.base import BasePlayer
from hexarena.players.browser import BrowserPlayer

_NEEDS_IDENTITY = (
    "a rated game rates each person by the identity their browser keeps: send 'person' (the web UI does), "
    "or create the game casual (rated: false or unset)"
)


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
    return {} if rated is None else {"rated": rated}


def join_as(player: BasePlayer, secret: str | None, *, rated: bool) -> None:
    """The joiner's identity on the open seat they take; 400 in a rated game without one (checked before the
    seat is given away)."""
    if secret is None:
        if rated:
            raise HTTPException(status_code=400, detail=_NEEDS_IDENTITY)
        return
    if isinstance(player, BrowserPlayer):
        player.person = person_key(secret)


async def ratings_of(store: Any, game: str, described: Sequence[dict[str, Any]]) -> list[dict[str, Any] | None]:
    """Each seat's rating in ``game`` as the cards show it (None: not rated yet, or no store): a person by their
    key, a bot by its name."""
    keys = [str(d.get("spec")) if d.get("kind") == "human" else str(d.get("name")) for d in described]
    keys = [k if d.get("kind") != "human" or is_person_key(k) else "" for k, d in zip(keys, described, strict=True)]
    if store is None or not any(keys):
        return [None] * len(described)
    found = {r.key: r for r in await store.list_ratings(game, limit=len(keys), keys=[k for k in keys if k])}
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
