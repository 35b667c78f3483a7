"""``GET /api/games/{name}/rules``: a game's rules for people with pictures of its positions, for the web UI.

The answer is ``hexarena.games.rules.published``, the same the docs site is built from. It depends on the
installed code alone, so each game's answer is made once per process and kept.
"""

from __future__ import annotations

import asyncio
from functools import lru_cache

from fastapi import APIRouter, HTTPException

from hexarena.core.errors import ConfigError
from hexarena.core.registry import get_game
from hexarena.games.rules import RulesJson, published

router = APIRouter()

#: Longest game name looked up: a registry name is short, and the 404 quotes what was asked.
MAX_NAME = 64


@lru_cache(maxsize=64)
def _rules(name: str) -> RulesJson:
    return published(get_game(name))


@router.get(
    "/api/games/{name}/rules",
    tags=["games"],
    summary="A game's rules for people, each example position drawn as SVG by the game's own engine",
)
async def game_rules(name: str) -> RulesJson:
    """``published: false`` and a message in ``summary`` for a game that publishes no rules; 404 for an unknown
    game. Pictures are drawn in a worker thread the first time (a few milliseconds a game)."""
    if len(name) > MAX_NAME:
        raise HTTPException(status_code=404, detail=f"unknown game: game names are at most {MAX_NAME} characters")
    try:
        get_game(name)
    except ConfigError as exc:
        raise HTTPException(status_code=404, detail=exc.reason) from None
    return await asyncio.to_thread(_rules, name)
