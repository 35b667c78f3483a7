"""The analysis board's server side, for every game: positions, partial moves and the built-in ``best`` bot's view.

- ``POST /api/analysis/{game}/position``: a game's parameters and a move list (or a game record in the game's
  notation) replayed by the game's own rules; answers the position, its legal moves in the board's clickable form
  and the result if it is over. The board asks it for every variation move, so a move is only ever judged by the
  rules engine, never by the page;
- a position may also start from stones (``setup``: ``{stones: [[cell, seat], ...], to_move}``) for the games
  that declare ``setup_position`` (``core.game.setup_refusal``; the others' reason is the 400), the moves then
  played from it; a ``draft`` setup is only drawn, with what keeps it from being a position (the page's editor);
- ``POST /api/analysis/{game}/probe``: a partial move checked on a position (a game's ``probes``: HTTTX's first
  stone, a Hive piece dropped where it cannot go), as a seat's socket checks them in a live game;
- ``POST /api/analysis/{game}``: the same position, then the game's built-in ``best`` bot thinks about it for at
  most ``time_limit`` seconds and the answer adds its move, its evaluation, its best line (``pv``) and the moves it
  considered, each with its score, in the game's notation.

Bots report what their search knows (``last_evaluation`` / ``last_considerations``, as they do in matches): an
alpha-beta search has a principal variation, Hex's MCTS scored root moves and the most visited line of its tree, a
greedy or random bot has only its move. The answer says which of the three it has (``reports``) and why the rest
is missing (``notes``), so a page never shows an empty panel without a reason.

Bounds: at most ``MAX_MOVES`` plies per request (a longer game is analysed from a position nearer its end by
sending fewer moves), a position no larger than the operator's ``max_region`` where the game bounds its size
(``position_bound``: HTTTX's board tracks every cell within reach of a stone, so scattered stones at a long reach
would take gigabytes; ``server.analysis_limits``), records of at most ``MAX_RECORD_CHARS`` characters, at most
``MAX_TIME`` seconds of thinking, and at most ``MAX_ANALYSES`` searches at once in a pool of that many threads (one
core each); a request beyond that gets 429 at once rather than a queue. A slot is given back when the search's
thread ends, not when its request does: a request given up on (504, or cancelled as the server stops) sets the
search's stop event, and its thread still counts until it has returned. Replays and reads run in worker threads,
so the event loop keeps serving live games meanwhile. In public mode every route here needs an API token, like
every other write (``server.auth``).
"""

from __future__ import annotations

import asyncio
import random
import threading
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Annotated, Any, Literal, cast

from fastapi import APIRouter, HTTPException
from pydantic import BaseModel, Field

from hexarena.bots.base import ReportsSearch, think
from hexarena.bots.registry import builtin_bots, make_builtin
from hexarena.bots.stopping import StopSignal
from hexarena.core.errors import ConfigError, HexarenaError
from hexarena.core.game import (
    AnyGame,
    Game,
    M,
    ParamValue,
    RecordFacts,
    S,
    agree_params,
    read_headers,
    read_moves_text,
    setup_refusal,
)
from hexarena.core.jsonvalue import JsonObject, JsonValue
from hexarena.core.registry import get_game
from hexarena.server.analysis_limits import AnalysisLimits
from hexarena.server.schemas import FINITE, VALID_UNICODE, GameParams
from hexarena.server.services import ServicesDep

#: Plies one request may replay: far more than a Hex, Hive or tic-tac-toe game lasts and several hundred HTTTX
#: turns; a bound on the replay's work and on the position a bot is asked to search.
MAX_MOVES = 1000
#: Characters of a pasted game record (a thousand moves of any game's notation fit).
MAX_RECORD_CHARS = 40 * MAX_MOVES
#: Characters of one move's text.
MAX_MOVE_CHARS = 200
#: The longest a client may let the bot think, and what it gets when it does not say.
MAX_TIME = 10.0
DEFAULT_TIME = 2.0
#: Searches running at once: each keeps a core busy for up to ``MAX_TIME``; more get 429.
MAX_ANALYSES = 2
#: Seconds past ``time_limit`` a search may take to return before the request gives up on it (504).
GRACE = 5.0
#: The farthest coordinate a probe's argument may name (boards are far smaller; this only keeps numbers sane).
MAX_COORDINATE = 1_000_000
#: Moves of the bot's considered list the answer carries.
MAX_CONSIDERED = 12
#: Stones one set-up position may have: far more than fit on the largest Hex board (676 cells) or stand after a
#: long HTTTX game; the HTTTX board's own size is bounded by ``position_bound`` as a replay's is.
MAX_SETUP_STONES = 2000

_THINKERS = ThreadPoolExecutor(max_workers=MAX_ANALYSES, thread_name_prefix="analysis-board")
_slots = {"busy": 0}
_slots_lock = threading.Lock()

MoveText = Annotated[str, Field(max_length=MAX_MOVE_CHARS), VALID_UNICODE]
#: A probe's argument: a coordinate or a name (a Hive piece); the game's probe checks it.
ProbeArg = (
    Annotated[int, Field(ge=-MAX_COORDINATE, le=MAX_COORDINATE)] | Annotated[str, Field(max_length=64), VALID_UNICODE]
)


#: A set-up stone's cell: its name in the game's notation (``b2``) or its coordinates (HTTTX's ``[q, r]``).
SetupCell = (
    Annotated[str, Field(max_length=16), VALID_UNICODE]
    | Annotated[list[Annotated[int, Field(ge=-MAX_COORDINATE, le=MAX_COORDINATE)]], Field(max_length=2)]
)


class Setup(BaseModel):
    """A position given as its stones, for games that can be set up (GET /api/games: ``setup``)."""

    stones: list[tuple[SetupCell, Literal[0, 1]]] = Field(
        max_length=MAX_SETUP_STONES, description="[cell, seat] pairs: the cell as the game names one, the seat 0 or 1"
    )
    to_move: Literal[0, 1] = Field(description="the seat to play")
    draft: bool = Field(
        default=False,
        description="position route only: draw the stones even when they are no position to analyse yet, and say "
        "why (``problem``): the editor's steps",
    )


class PositionRequest(BaseModel):
    """A position as a game's start (its parameters) plus moves in its notation, or a record to read them from."""

    params: GameParams = Field(default_factory=dict, description="the game's parameters (GET /api/games)")
    setup: Setup | None = Field(
        default=None, description="a set-up position to start from instead of the game's start (the moves follow it)"
    )
    moves: list[MoveText] = Field(default_factory=list, max_length=MAX_MOVES, description="moves from the start")
    record: Annotated[str, Field(max_length=MAX_RECORD_CHARS), VALID_UNICODE] | None = Field(
        default=None, description="a game record in the game's notation, instead of moves (its parameters count)"
    )


class ProbeRequest(PositionRequest):
    """A partial move to check on the position (``what`` names one of the game's probes)."""

    what: Annotated[str, Field(max_length=64), VALID_UNICODE]
    args: list[ProbeArg] = Field(default_factory=list, max_length=8)


class AnalysisRequest(PositionRequest):
    """A position, and how long the built-in best bot may think about it."""

    time_limit: Annotated[float, FINITE] = Field(default=DEFAULT_TIME, gt=0, le=MAX_TIME)


def game_of(name: str) -> AnyGame:
    """The game called ``name``; 404 naming the known ones otherwise."""
    try:
        return get_game(name)
    except ConfigError as exc:
        raise HTTPException(status_code=404, detail=exc.reason) from None


def read_record(game: Game[S, M], text: str) -> tuple[dict[str, ParamValue], list[str]]:
    """A record's parameters and moves: its header block (``read_headers``: an exported record's ``Param`` lines
    set the game up) cut off, then the game's own reader when it has one (``RuleGame.read_record_notation``),
    else, or when that reader refuses the text but every word of it reads as a move, the moves written one after
    another (what a person pastes from a move list); the game reader's error otherwise."""
    headers, text = read_headers(game, text)
    reader = getattr(game, "read_record_notation", None)
    if reader is None:
        return dict(headers), read_moves_text(text)
    try:
        params, moves = reader(text)
    except HexarenaError:
        words = read_moves_text(text)
        if not words or not all(_reads_as_move(game, w) for w in words):
            raise
        return dict(headers), words
    return agree_params(game, headers, params), list(moves)


def _reads_as_move(game: Game[S, M], word: str) -> bool:
    try:
        game.parse(word)
    except HexarenaError:
        return False
    return True


def replay(
    game: Game[S, M], body: PositionRequest, limits: AnalysisLimits | None = None
) -> tuple[dict[str, ParamValue], list[JsonObject], S]:
    """The validated parameters, the moves played (``{move, seat}``, the move in the game's notation) and the state
    after them; ConfigError (a 400) naming the move that does not play and why, or the bound a position the game
    says is too large to build (its ``position_bound``, against the operator's ``limits.max_region``) passes."""
    params: Mapping[str, object] = body.params
    moves: Sequence[str] = body.moves
    if body.record is not None:
        if body.moves:
            raise ConfigError("send either moves or a record, not both")
        try:
            stated, moves = read_record(game, body.record)
        except HexarenaError as exc:
            raise ConfigError(f"cannot read the record as {game.title} notation: {exc.reason}") from None
        params = {**params, **stated}
        if len(moves) > MAX_MOVES:
            raise ConfigError(
                f"the record has {len(moves):,} moves; analysis replays at most {MAX_MOVES:,}: "
                "paste a shorter part of the game"
            )
    valid = game.validate_params(params)
    limits = limits or AnalysisLimits()
    if body.setup is not None:
        if body.record is not None:
            raise ConfigError("send either a setup or a record, not both: a record starts from the game's start")
        if body.setup.draft:
            raise ConfigError("a draft setup is only drawn: finish it (draft false) to analyse it or play on from it")
        state = set_up(game, valid, body.setup, limits)
    else:
        check_bound(game, valid, moves, limits)
        state = game.new(**valid)
    written: list[JsonObject] = []
    for i, text in enumerate(moves):
        seat = game.to_move(state)
        if seat is None:
            raise ConfigError(f"move {i + 1} ({text!r}) comes after the game ended; drop it and the moves after it")
        try:
            move = game.parse(text)
            state = game.play(state, move)
        except HexarenaError as exc:
            raise ConfigError(f"move {i + 1} ({text!r}) is not legal here: {exc.reason}") from None
        written.append({"move": game.format(move), "seat": seat})
    return game.params_of(state), written, state


def check_bound(game: Game[S, M], params: Mapping[str, object], moves: Sequence[str], limits: AnalysisLimits) -> None:
    """ConfigError when the game bounds the size of the position (HTTTX: the candidate cells its board tracks)
    above what this server builds for an analysis."""
    bound = getattr(game, "position_bound", None)
    if bound is not None:
        _within(bound(params, moves), limits, "analyse an earlier position")


def _within(bound: tuple[int, str], limits: AnalysisLimits, instead: str) -> None:
    size, how = bound
    if size > limits.max_region:
        raise ConfigError(
            f"the position covers up to {size:,} candidate cells ({how}); analysis allows at most "
            f"{limits.max_region:,}: {instead}, or lower view_distance"
        )


def set_up(game: Game[S, M], params: Mapping[str, object], setup: Setup, limits: AnalysisLimits) -> S:
    """The state of a set-up position (the game's ``setup_position``), refused with the game's reason when it
    cannot be set up, and before it is built when the game bounds its size (``setup_bound``) above the limit."""
    refusal = setup_refusal(game)
    if refusal is not None:
        raise ConfigError(f"{game.title} positions cannot be set up from stones: {refusal}")
    bound = getattr(game, "setup_bound", None)
    if bound is not None:
        _within(bound(params, setup.stones), limits, "bring the stones closer together")
    state: S = game.setup_position(params, setup.stones, setup.to_move, draft=setup.draft)  # type: ignore[attr-defined]
    return state


def draft_view(game: Game[S, M], body: PositionRequest, limits: AnalysisLimits) -> JsonObject:
    """An editor's step: the stones drawn as a position (``state``, in the game's ``to_json``) whether or not they
    make one to analyse, and what keeps them from it (``problem``, None when they do). Malformed stones (a cell
    off the board or given twice) are still a 400: there is nothing to draw."""
    assert body.setup is not None
    if body.moves or body.record is not None:
        raise ConfigError("a draft setup is only drawn: send it without moves or a record")
    params = game.validate_params(body.params)
    try:
        set_up(game, params, body.setup.model_copy(update={"draft": False}), limits)
        problem = None
    except ConfigError as exc:
        problem = exc.reason
    state = set_up(game, params, body.setup, limits)
    return {
        "game": game.name,
        "params": game.params_of(state),
        "draft": True,
        "problem": problem,
        "state": game.to_json(state),
        "to_move": body.setup.to_move,
        "seats": list(game.seat_names),
    }


def position_view(
    game: Game[S, M],
    params: dict[str, ParamValue],
    history: list[JsonObject],
    state: S,
    setup: Setup | None = None,
) -> JsonObject:
    """What the board draws and plays on: the position, its legal moves, whose turn and the result if over, and
    the moves that led there with the seat that played each (a seat may move twice in a row in some games) and as
    the game's record (none after a setup: a record starts from the game's start; ``setup`` is echoed instead)."""
    outcome = game.outcome(state)
    seat = game.to_move(state)
    moves = [str(m["move"]) for m in history]
    return {
        "game": game.name,
        "params": params,
        "setup": None if setup is None else setup.model_dump(exclude={"draft"}),
        "moves": moves,
        "history": history,
        "ply": len(history),
        # the line in the game's own record notation, which the paste box reads back
        "record": None
        if setup is not None
        else game.record_notation(params, moves, RecordFacts(players=game.seat_names)),
        "state": game.to_json(state),
        "legal": game.legal_view(state),
        "to_move": seat,
        "side": None if seat is None else game.side_name(state, seat),
        "seats": list(game.seat_names),
        "over": seat is None,
        # the position as stones, for the editor to start from (games that can be set up and say how)
        "as_setup": None if (of := getattr(game, "setup_of", None)) is None else _as_setup(of(state)),
        "result": None
        if outcome is None
        else {"winner": outcome.winner, "termination": outcome.termination.value, "reason": outcome.reason},
    }


def _as_setup(given: tuple[Sequence[tuple[JsonValue, int]], int]) -> JsonObject:
    stones, to_move = given
    return {"stones": [[cell, seat] for cell, seat in stones], "to_move": to_move}


async def _replayed(
    game: Game[S, M], body: PositionRequest, limits: AnalysisLimits
) -> tuple[dict[str, ParamValue], list[JsonObject], S]:
    try:
        return await asyncio.to_thread(replay, game, body, limits)
    except ConfigError as exc:
        raise HTTPException(status_code=400, detail=exc.reason) from None


def move_text(game: Game[S, M], item: Mapping[str, object]) -> str | None:
    """A considered move in the game's notation: given as text (``move``) or as the cells a turn places
    (``pieces``, the HTTTX search's shape), which the game writes as any other move."""
    if isinstance(item.get("move"), str):
        return str(item["move"])
    pieces = item.get("pieces")
    if isinstance(pieces, list):
        try:
            # the cells as the game's move: a game whose moves are not cells refuses them (TypeError, ValueError)
            return game.format(cast("M", tuple(tuple(p) for p in pieces)))
        except (TypeError, ValueError):
            return None
    return None


def bot_report(
    game: Game[S, M], bot: object, move: M, evaluation: JsonObject | None, considered: Sequence[JsonValue] | None
) -> JsonObject:
    """The search's view in one shape for every game, and a note for each part the bot does not report."""
    best = game.format(move)
    evaluation = dict(evaluation or {})
    pv = [str(m) for m in cast("Sequence[JsonValue]", evaluation.pop("pv", None) or [])]  # the bots' list
    moves: list[JsonObject] = []
    for item in (considered or [])[:MAX_CONSIDERED]:
        if not isinstance(item, Mapping):
            continue
        text = move_text(game, item)
        if text is not None:
            moves.append({"move": text, "evaluation": item.get("evaluation") or {}})
    name = getattr(bot, "name", type(bot).__name__)
    notes: list[str] = []
    if not evaluation:
        notes.append(f"the {name} bot reports no evaluation, only its move")
    if not pv:
        notes.append(f"the {name} bot reports no best line beyond its move")
    if not moves:
        notes.append(f"the {name} bot reports no considered moves")
    return {
        "bot": f"builtin:{name}",
        "best_move": best,
        "evaluation": evaluation or None,
        "pv": pv or [best],
        "considered": moves,
        "reports": {"evaluation": bool(evaluation), "pv": bool(pv), "considered": bool(moves)},
        "notes": notes,
    }


def _think(game: Game[S, M], state: S, seconds: float, stop: StopSignal) -> JsonObject:
    bot = make_builtin(game.name, "best")
    begun = time.perf_counter()
    move = think(bot, game, state, seconds, random.Random(0), stop)
    if isinstance(bot, ReportsSearch):
        out = bot_report(game, bot, move, bot.last_evaluation, bot.last_considerations)
    else:
        out = bot_report(game, bot, move, None, None)
    out["seconds"] = round(time.perf_counter() - begun, 3)
    return out


def _take_slot() -> None:
    with _slots_lock:
        if _slots["busy"] >= MAX_ANALYSES:
            raise HTTPException(
                status_code=429,
                detail=f"{MAX_ANALYSES} analyses are running; try again in a few seconds",
                headers={"Retry-After": str(int(DEFAULT_TIME))},
            )
        _slots["busy"] += 1


def _give_slot(_: object = None) -> None:
    with _slots_lock:
        _slots["busy"] -= 1


async def analyse(game: Game[S, M], body: AnalysisRequest, limits: AnalysisLimits) -> JsonObject:
    """The position and the best bot's view of it (none when the game is over: ``notes`` says so)."""
    params, history, state = await _replayed(game, body, limits)
    out = position_view(game, params, history, state, body.setup)
    if out["over"]:
        return {**out, "analysis": None, "notes": ["the game is over in this position: nothing to analyse"]}
    if "best" not in builtin_bots(game.name):
        raise HTTPException(
            status_code=400, detail=f"{game.title} has no built-in bot to analyse with; positions can still be played"
        )
    _take_slot()
    stop = StopSignal()
    try:
        future = _THINKERS.submit(_think, game, state, body.time_limit, stop)
    except BaseException:
        _give_slot()
        raise
    future.add_done_callback(_give_slot)  # the slot is the thread's until it has really stopped
    try:
        report = await asyncio.wait_for(asyncio.wrap_future(future), body.time_limit + GRACE)
    except TimeoutError:
        stop.set()
        raise HTTPException(status_code=504, detail="the bot did not return in time; try a shorter time") from None
    except BaseException:
        stop.set()  # the request was cancelled (the server stops): the search returns at its next check
        raise
    return {**out, "analysis": report, "notes": report["notes"]}


router = APIRouter()


@router.post(
    "/api/analysis/{game}/position",
    tags=["analysis"],
    summary="A position from moves or a record, checked by the game's rules, with its legal moves",
)
async def position_route(game: str, body: PositionRequest, services: ServicesDep) -> dict[str, Any]:
    g = game_of(game)
    if body.setup is not None and body.setup.draft:
        try:
            return await asyncio.to_thread(draft_view, g, body, services.settings.analysis)
        except ConfigError as exc:
            raise HTTPException(status_code=400, detail=exc.reason) from None
    params, history, state = await _replayed(g, body, services.settings.analysis)
    return position_view(g, params, history, state, body.setup)


@router.post(
    "/api/analysis/{game}/probe",
    tags=["analysis"],
    summary="Check a partial move on a position (the game's probes), as a seat's socket does in a match",
)
async def probe_route(game: str, body: ProbeRequest, services: ServicesDep) -> dict[str, Any]:
    g = game_of(game)
    probe = g.probes().get(body.what)
    if probe is None:
        raise HTTPException(
            status_code=400, detail=f"{g.title} has no probe {body.what!r}; it has: {sorted(g.probes()) or 'none'}"
        )
    _, _, state = await _replayed(g, body, services.settings.analysis)
    try:
        result = await asyncio.to_thread(probe, state, *body.args)
    except HexarenaError as exc:
        return {"what": body.what, "ok": False, "reason": exc.reason}
    except TypeError:
        raise HTTPException(status_code=400, detail=f"bad arguments for probe {body.what!r}") from None
    return {"what": body.what, "ok": True, **result}


@router.post(
    "/api/analysis/{game}",
    tags=["analysis"],
    summary="The built-in best bot's evaluation, best line and considered moves for a position of any game",
)
async def analysis_route(game: str, body: AnalysisRequest, services: ServicesDep) -> dict[str, Any]:
    return await analyse(game_of(game), body, services.settings.analysis)


__all__ = [
    "MAX_ANALYSES",
    "MAX_MOVES",
    "MAX_SETUP_STONES",
    "MAX_TIME",
    "AnalysisRequest",
    "PositionRequest",
    "ProbeRequest",
    "Setup",
    "analyse",
    "bot_report",
    "position_view",
    "replay",
    "router",
]
