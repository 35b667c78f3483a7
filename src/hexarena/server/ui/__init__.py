"""The API the browser UI needs beyond the generic match API: one router per module, gathered in ``router``.

- ``play``: a person's seat socket (``WS /api/play``), a match's seats and clock, taking an open seat;
- ``replay``: every position of a game, so the replay page steps without a rules engine;
- ``listings``: stored games filtered by game, player and result, and the bots of each game;
- ``ratings``: each leaderboard player's rating history, for the leaderboard's plots;
- ``rematch``: a rematch offered by one person and accepted or declined on the other person's page.

A new UI module adds its router to :data:`ROUTERS`. ``BROWSER`` and ``OPEN`` are the ``browser`` and ``open``
player schemes (``hexarena.players`` entry points), each game giving its clickable legal-move view (``Game.legal_view``):
``browser[:NAME]`` is a seat for the match's creator (its token comes back in the create answer, and it is never
open to anyone else); ``open[:NAME]`` is a seat for anyone, listed in ``open_seats`` until somebody joins it.
"""

from __future__ import annotations

from fastapi import APIRouter

from hexarena.core.errors import ConfigError
from hexarena.players.base import BasePlayer
from hexarena.players.browser import BrowserPlayer
from hexarena.players.spec import Scheme
from hexarena.server.ui import listings, play, ratings, rematch, replay

#: The UI modules' routers, in the order they are included.
ROUTERS = (play.router, replay.router, listings.router, ratings.router, rematch.router)

router = APIRouter()
for _module_router in ROUTERS:
    router.include_router(_module_router)


def _person_name(name: str, default: str) -> str:
    """A person's display name from a spec, bounded as a join's ``name`` is (ConfigError, a 400, otherwise)."""
    shown = name.strip()
    if len(shown) > play.MAX_PERSON_NAME or any(ord(c) < 32 or ord(c) == 127 for c in shown):
        raise ConfigError(
            f"a person's name is at most {play.MAX_PERSON_NAME} characters without control characters "
            f"(got {len(shown)}): shorten it"
        )
    return shown or default


async def _browser_scheme(game: str, name: str) -> BasePlayer:
    return BrowserPlayer(_person_name(name, "human"))


async def _open_scheme(game: str, name: str) -> BasePlayer:
    return BrowserPlayer(_person_name(name, "guest"), open_seat=True)


#: The ``browser`` and ``open`` player schemes, declared as ``hexarena.players`` entry points (pyproject.toml).
#: A seat of either is played through this server's ``/api/play`` socket.
BROWSER = Scheme(
    "browser",
    _browser_scheme,
    "browser[:NAME]  you, playing in the web UI (the token is in the create answer; WS /api/play?token=...)",
    starts_program=False,
    remote=True,
    needs_server=True,
)
OPEN = Scheme(
    "open",
    _open_scheme,
    "open[:NAME]  a web UI seat for anyone: listed as open, the first to join it gets its token",
    starts_program=False,
    remote=True,
    needs_server=True,
)


__all__ = ["BROWSER", "OPEN", "ROUTERS", "router"]
