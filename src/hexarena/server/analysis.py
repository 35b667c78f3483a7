"""``POST /api/analyse``: ask a bws bot to evaluate an HTTTX position (its ``free_setup`` + ``evaluation``).

Why a separate endpoint: the bot API lets a bot be set up on any position and asked for an evaluation without a
game, which is what an analysis board needs; matches never use it that way. The position is checked by the
engine first (so a bad board is the caller's 400, never blamed on the bot), then ``BwsPlayer.analyse`` does the
talking on a connection of its own that is always closed before the answer goes out. Status codes say whose
fault a failure is: 400 the request (bad position, URL, or a missing capability, named), 502 a broken bot (with
the reason), 504 a bot that did not answer in time.
"""

from __future__ import annotations

from typing import Any, Literal

from fastapi import FastAPI, HTTPException
from pydantic import BaseModel, Field

from hexarena.core.errors import BotError, BotTimeout, ConfigError
from hexarena.games.htttx import HTTTX, HtttxState
from hexarena.players.bws import BwsPlayer
from hexarena.wire import htttx as w

#: The longest evaluation a client may ask for: a request holds a server connection and a bot socket open.
MAX_TIME_LIMIT = 60.0
#: Stones accepted in one position: far more than any real game, small enough to validate cheaply, and what
#: the bot API's packet limit is sized for (a setup of this many stones always fits).
MAX_CELLS = w.MAX_SETUP_STONES
#: Analyses running at once; each holds a bot socket open, so a flood gets 429 instead of piling up.
MAX_CONCURRENT = 16
_slots = {"free": MAX_CONCURRENT}


class AnalysisCell(BaseModel):
    q: int
    r: int
    p: Literal["x", "o"]


class AnalyseRequest(BaseModel):
    """The position to evaluate, the bot to ask and how long it may think."""

    bot_url: str = Field(max_length=2048)
    cells: list[AnalysisCell] = Field(max_length=MAX_CELLS)
    to_move: Literal["x", "o"]
    view_distance: int | None = None
    win_distance: int | None = None
    time_limit: float = Field(default=10.0, gt=0, le=MAX_TIME_LIMIT)


def position_of(body: AnalyseRequest) -> HtttxState:
    """The engine's state for the request; ConfigError (quoting the bad input) for an unusable position."""
    params: dict[str, Any] = {}
    if body.view_distance is not None:
        params["view_distance"] = body.view_distance
    if body.win_distance is not None:
        params["win_distance"] = body.win_distance
    stones = [(c.q, c.r, 0 if c.p == "x" else 1) for c in body.cells]
    return HTTTX.from_cells(stones, 0 if body.to_move == "x" else 1, **params)


async def analyse(body: AnalyseRequest) -> dict[str, Any]:
    """Validate, ask the bot, and map each failure to the status that says whose fault it is."""
    if _slots["free"] <= 0:
        raise HTTPException(status_code=429, detail=f"{MAX_CONCURRENT} analyses are running; try again shortly")
    _slots["free"] -= 1
    try:
        return await _analyse(body)
    finally:
        _slots["free"] += 1


async def _analyse(body: AnalyseRequest) -> dict[str, Any]:
    try:
        state = position_of(body)
        player = BwsPlayer(body.bot_url, connect_timeout=min(10.0, body.time_limit + 1.0))
        evaluation = await player.analyse(state, body.time_limit)
    except ConfigError as exc:
        raise HTTPException(status_code=400, detail=exc.reason) from None
    except BotTimeout as exc:
        raise HTTPException(status_code=504, detail=exc.reason) from None
    except BotError as exc:
        raise HTTPException(status_code=502, detail=f"the bot failed: {exc.reason}") from None
    return {"evaluation": evaluation, "bot": player.name}


def install(app: FastAPI) -> None:
    """Mount ``POST /api/analyse`` on ``app``."""
    app.add_api_route(
        "/api/analyse",
        analyse,
        methods=["POST"],
        tags=["analysis"],
        summary="Evaluate an HTTTX position with a bws bot that declares evaluation (and free_setup)",
    )


__all__ = ["AnalyseRequest", "analyse", "install", "position_of"]
