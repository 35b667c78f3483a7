"""``POST /api/analyse``: ask a bws bot to evaluate an HTTTX position (its ``free_setup`` + ``evaluation``).

Why a separate endpoint: the bot API lets a bot be set up on any position and asked for an evaluation without a
game, which is what an analysis board needs; matches never use it that way. The position is checked by the
engine first (so a bad board is the caller's 400, never blamed on the bot), then ``BwsPlayer.analyse`` does the
talking on a connection of its own that is always closed before the answer goes out. Status codes say whose
fault a failure is: 400 the request (bad position, URL, or a missing capability, named), 502 a broken bot (with
the reason), 504 a bot that did not answer in time, 429 when ``MAX_CONCURRENT`` analyses are already running.

Bounded by the size of the position (issue 12: 10,000 scattered stones with view_distance 64 took the server to
10 GB and stalled its event loop for 26 s). What allocated it: the board tracks every empty cell within
``view_distance`` of a stone as a candidate move (``board.py``: ``_cov``, ``_legal``, ``_src``; about 100 bytes a
cell in the C board), and a stone far from all others brings a whole hexagon of 3v(v+1)+1 cells, 12,481 at view
64, so 10,000 scattered stones made 125 million. The bounds: at most ``MAX_STONES`` stones, a view_distance of at
most ``MAX_VIEW_DISTANCE``, and at most ``max_region`` candidate cells (``analysis_limits``, the operator's
setting), checked on an upper bound computed from the request alone (see ``region_bound``) before anything is
built. The building itself (validation and the win check, up to tens of milliseconds) runs in a worker thread, so
the event loop keeps serving live games.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Literal

from fastapi import APIRouter, HTTPException
from pydantic import BaseModel, Field

from hexarena.core.errors import BotError, BotTimeout, ConfigError
from hexarena.games.htttx import HTTTX, HtttxState
from hexarena.games.htttx.game import candidate_bound
from hexarena.players.bws import BwsPlayer
from hexarena.players.policy import SpecPolicy, vet_remote_spec
from hexarena.server.analysis_limits import AnalysisLimits
from hexarena.server.schemas import Url
from hexarena.server.services import ServicesDep
from hexarena.wire import htttx as w

#: The longest evaluation a client may ask for: a request holds a server connection and a bot socket open.
MAX_TIME_LIMIT = 60.0
#: Stones accepted in one position: several times the longest real game, small enough to validate cheaply, and
#: within what the bot API's packet limit is sized for (``w.MAX_SETUP_STONES``).
MAX_STONES = min(2_000, w.MAX_SETUP_STONES)
#: The largest view_distance an analysis may use (the game allows 64): the board caches its difference shapes per
#: view distance for the life of the process, growing with the fourth power of it (about 7 MB at 16, 1.7 GB at 64).
MAX_VIEW_DISTANCE = 16
#: Analyses running at once; each holds a bot socket open, so a flood gets 429 instead of piling up.
MAX_CONCURRENT = 16
_slots = {"free": MAX_CONCURRENT}
#: Positions are built here, off the event loop; two workers (the machine's cores) also bound the builds that
#: requests cancelled meanwhile leave running.
_BUILDS = ThreadPoolExecutor(max_workers=2, thread_name_prefix="analysis-build")


#: Farthest coordinate of a stone (the engine's boards are far smaller; this only keeps numbers sane).
MAX_COORDINATE = 1_000_000


class AnalysisCell(BaseModel):
    q: int = Field(ge=-MAX_COORDINATE, le=MAX_COORDINATE)
    r: int = Field(ge=-MAX_COORDINATE, le=MAX_COORDINATE)
    p: Literal["x", "o"]


class AnalyseRequest(BaseModel):
    """The position to evaluate, the bot to ask and how long it may think."""

    bot_url: Url
    cells: list[AnalysisCell] = Field(max_length=MAX_STONES)
    to_move: Literal["x", "o"]
    # sane integers only; the game's own ranges are checked with the position (400 naming the parameter)
    view_distance: int | None = Field(default=None, ge=-MAX_COORDINATE, le=MAX_VIEW_DISTANCE)
    win_distance: int | None = Field(default=None, ge=-MAX_COORDINATE, le=MAX_COORDINATE)
    time_limit: float = Field(default=10.0, gt=0, le=MAX_TIME_LIMIT, allow_inf_nan=False)


def position_of(body: AnalyseRequest) -> HtttxState:
    """The engine's state for the request; ConfigError (quoting the bad input) for an unusable position."""
    params: dict[str, Any] = {}
    if body.view_distance is not None:
        params["view_distance"] = body.view_distance
    if body.win_distance is not None:
        params["win_distance"] = body.win_distance
    stones = [(c.q, c.r, 0 if c.p == "x" else 1) for c in body.cells]
    return HTTTX.from_cells(stones, 0 if body.to_move == "x" else 1, **params)


def region_bound(body: AnalyseRequest) -> tuple[int, str]:
    """An upper bound on the candidate cells the board would track for ``body``, and how it was reached
    (``candidate_bound``, from the request alone)."""
    view = HTTTX.validate_params({})["view_distance"] if body.view_distance is None else body.view_distance
    return candidate_bound([(c.q, c.r) for c in body.cells], view)


def check_size(body: AnalyseRequest, limits: AnalysisLimits) -> None:
    """400 naming the cap when the position could make the board track more than ``limits.max_region`` cells."""
    bound, how = region_bound(body)
    if bound > limits.max_region:
        raise HTTPException(
            status_code=400,
            detail=(
                f"the position's stones cover up to {bound:,} candidate cells ({how}); analysis allows at most "
                f"{limits.max_region:,}: bring the stones closer together or lower view_distance"
            ),
        )


async def build(body: AnalyseRequest) -> HtttxState:
    """:func:`position_of` in a build worker, off the event loop."""
    return await asyncio.get_running_loop().run_in_executor(_BUILDS, position_of, body)


async def analyse(
    body: AnalyseRequest, policy: SpecPolicy | None = None, limits: AnalysisLimits | None = None
) -> dict[str, Any]:
    """Validate, ask the bot, and map each failure to the status that says whose fault it is."""
    try:
        await vet_remote_spec(f"bws:{body.bot_url}", policy or SpecPolicy())  # the bot address, like any seat's
    except ConfigError as exc:
        raise HTTPException(status_code=400, detail=exc.reason) from None
    if _slots["free"] <= 0:
        raise HTTPException(
            status_code=429,
            detail=f"{MAX_CONCURRENT} analyses are running; try again shortly",
            headers={"Retry-After": "1"},
        )
    _slots["free"] -= 1
    try:
        return await _analyse(body, limits or AnalysisLimits())
    finally:
        _slots["free"] += 1


async def _analyse(body: AnalyseRequest, limits: AnalysisLimits) -> dict[str, Any]:
    check_size(body, limits)
    try:
        state = await build(body)
        player = BwsPlayer(body.bot_url, connect_timeout=min(10.0, body.time_limit + 1.0))
        evaluation = await player.analyse(state, body.time_limit)
    except ConfigError as exc:
        raise HTTPException(status_code=400, detail=exc.reason) from None
    except BotTimeout as exc:
        raise HTTPException(status_code=504, detail=exc.reason) from None
    except BotError as exc:
        raise HTTPException(status_code=502, detail=f"the bot failed: {exc.reason}") from None
    return {"evaluation": evaluation, "bot": player.name}


router = APIRouter()


@router.post(
    "/api/analyse",
    tags=["analysis"],
    summary="Evaluate an HTTTX position with a bws bot that declares evaluation (and free_setup)",
)
async def analyse_route(body: AnalyseRequest, services: ServicesDep) -> dict[str, Any]:
    # the bot address goes through the server's spec policy like any seat's; the position through its bounds
    return await analyse(body, services.policy, services.settings.analysis)


__all__ = ["AnalyseRequest", "AnalysisLimits", "analyse", "position_of", "region_bound", "router"]
