"""Asking a bot for a move or an evaluation, with the checks and fallbacks shared by bws and stateless."""

from __future__ import annotations

import asyncio
import logging
import time

from hexarena_sdk.bot import MoveResult, PositionEvaluation
from hexarena_sdk.htttx.board import Board
from hexarena_sdk.models import Cell, Match, Player
from hexarena_sdk.moves import check, fallback_move, normalise, quick_move
from hexarena_sdk.runner import BotRunner
from hexarena_sdk.session import Cells, cell_list

log = logging.getLogger("hexarena.bots.sdk")


async def _fallback(cells: Cells, side: Player, match: Match, hard: float | None) -> MoveResult:
    """The heuristic engine move, or the cheapest legal move if even that would miss ``hard``."""
    budget = None if hard is None else max(0.01, 0.5 * (hard - time.monotonic()))
    try:
        # a copy: on a timeout the thread runs on while the session goes on changing its cells in place
        pieces = await asyncio.wait_for(asyncio.to_thread(fallback_move, dict(cells), side, match), budget)
    except TimeoutError:
        pieces = quick_move(cells, match)
    return MoveResult(pieces)


async def answer_move(
    runner: BotRunner,
    cells: Cells,
    side: Player,
    match: Match,
    hard_deadline: float | None,
    cancelled: asyncio.Event | None = None,
    board: Board | None = None,
    cell_models: list[Cell] | None = None,
) -> MoveResult | None:
    """The move to send for ``side`` (None if the request was interrupted first).

    ``match.deadline`` is the soft deadline; the bot is called with its own copy of the cells. ``board`` is the
    engine board of ``cells`` if the caller keeps one (checked against, left unchanged); ``cell_models`` the
    fresh list of ``Cell`` models to hand the bot, if the caller keeps them.
    """
    bot = runner.bot
    name = type(bot).__name__
    for_bot = _cells_list(cells) if cell_models is None else cell_models
    call = await runner.call(bot.choose_move, for_bot, side, match, deadline=match.deadline, cancelled=cancelled)
    if call.kind == "interrupted":
        return None
    if call.kind == "timeout":
        log.warning(
            "[%s] no move before the soft deadline of its %ss limit: sending the engine's fallback move",
            name,
            match.move_time_limit,
        )
        return await _fallback(cells, side, match, hard_deadline)
    if call.kind == "error":
        log.error(
            "[%s] choose_move raised %r: sending the engine's fallback move", name, call.error, exc_info=call.error
        )
        return await _fallback(cells, side, match, hard_deadline)
    try:
        result = normalise(call.value)
    except (TypeError, KeyError, ValueError) as exc:
        log.error("[%s] choose_move returned %r (%s): sending the engine's fallback move", name, call.value, exc)
        return await _fallback(cells, side, match, hard_deadline)
    reason = check(cells, result.pieces, side, match, board)
    if reason is not None:
        log.error(
            "[%s] illegal move %s: %s; sending the engine's fallback move",
            name,
            [p.to_wire() for p in result.pieces],
            reason,
        )
        return await _fallback(cells, side, match, hard_deadline)
    return result


async def answer_eval(
    runner: BotRunner, cells: Cells, side: Player, match: Match, cancelled: asyncio.Event | None = None
) -> PositionEvaluation | None:
    """The bot's evaluation (an empty one if it fails or runs late; None if interrupted)."""
    bot = runner.bot
    call = await runner.call(
        bot.evaluate, _cells_list(cells), side, match, deadline=match.deadline, cancelled=cancelled
    )
    if call.kind == "interrupted":
        return None
    if call.kind == "done" and isinstance(call.value, PositionEvaluation):
        return call.value
    if call.kind == "done" and isinstance(call.value, dict):
        return PositionEvaluation(call.value.get("heuristic"), call.value.get("win_in"))
    log.warning(
        "[%s] evaluate gave %s %r: sending an empty evaluation",
        type(bot).__name__,
        call.kind,
        call.error if call.error is not None else call.value,
    )
    return PositionEvaluation()


def _cells_list(cells: Cells) -> list[Cell]:
    """A fresh list of fresh cells: the bot may mutate both (Hivemaker's bots appended to theirs)."""
    return cell_list(cells)
