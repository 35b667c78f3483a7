"""``search``: the strong HTTTX bot, an iterative-deepening alpha-beta over whole turns with a threat search.

The engine itself is ``search_py`` (the reference, read it for the algorithm) or its C port ``_csearch`` (used
when built, unless ``HEXARENA_PURE_PYTHON`` is set); this module picks one, gives it a time budget, checks its
move on the real board and reports what it saw: ``last_evaluation`` (score from the bot's point of view, depth,
nodes, principal variation, and the bar's ``heuristic`` / ``win_in`` from X's point of view) and
``last_considerations`` (the best root turns with their scores), which the in-process player passes on to the
referee, the store and the spectators, and the bot server sends over bws.
"""

from __future__ import annotations

import importlib
import math
import random
import time
from collections.abc import Callable, Mapping
from types import ModuleType
from typing import Any

from hexarena.bots.htttx.heuristic import choose_on_board
from hexarena.bots.htttx.learned_eval import shipped_tables
from hexarena.bots.htttx.position import Position, seat_to_move
from hexarena.bots.htttx.search_py import MATE_BAND, WIN, Table
from hexarena.bots.htttx.search_py import search as py_search
from hexarena.bots.stopping import MAX_THINK_SECONDS, stop_flag, think_cap
from hexarena.bots.timing import MatchLateness, SearchShare
from hexarena.core.game import Game
from hexarena.core.jsonvalue import JsonObject, JsonValue
from hexarena.games.accel_env import pure_python_forced
from hexarena.games.htttx.board import Board

Cell = tuple[int, int]
Move = tuple[Cell, Cell]
SearchFn = Callable[..., tuple[Any, int, int, int, list[Any], list[Any]]]

#: Seconds a move may take when nobody gives a limit (no clock); ``think_cap`` bounds every budget.
NO_CLOCK_SECONDS = 5.0
#: Part of the budget the engine may search: the rest pays for what follows its deadline (the principal variation,
#: checking the move on the real board), well under a millisecond; copying the board before it is inside the
#: budget (the engine's deadline is what is left of it). The host's budget already keeps back what its clock counts
#: around the bot (``timing.budget_from``), learnt per match, and twice this bot's own remembered lateness comes
#: off too, so the share is all but a sliver of it: a fixed few percent more would be depth lost on every move.
SHARE = SearchShare(short=0.99, long=0.995, reserve=0.002)
#: Below this budget (seconds) the Python search is not started (its setup alone costs ~10 ms).
MIN_SEARCH_PYTHON = 0.015
#: Scale of the evaluation bar: ``heuristic = tanh(score / BAR_SCALE)`` from X's point of view.
BAR_SCALE = 600.0
#: Root turns reported as considerations.
CONSIDERED = 8
#: Positions the root's threat-space search may visit (``search_py.PySearch.tss``): per second of the budget by
#: engine (each engine's rate, so the search stays a small share of the turn: `bench/time_use.py`), at most, and for a
#: depth- or node-bounded search (a fixed number, so that its result depends on the position only).
TSS_PER_SECOND = {"C": 40_000, "Python": 400}
TSS_MAX = 20_000
TSS_BOUNDED = 2_000


def _load_c() -> ModuleType | None:
    if pure_python_forced():
        return None
    try:
        return importlib.import_module("hexarena.bots.htttx._csearch")
    except ImportError:
        return None


_CSEARCH = _load_c()
#: "C" or "Python": which engine ``search`` uses.
IMPLEMENTATION = "C" if _CSEARCH is not None else "Python"


def engine(implementation: str | None = None) -> SearchFn:
    """The search function: ``"C"``, ``"Python"`` or None for the default (C when built)."""
    if implementation == "Python" or (implementation is None and _CSEARCH is None):
        return py_search
    if _CSEARCH is None:
        raise RuntimeError("the C search engine is not built (or HEXARENA_PURE_PYTHON is set)")
    fn: SearchFn = _CSEARCH.search
    return fn


def _fmt(mv: tuple[int, int, int, int]) -> str:
    return f"[{mv[0]},{mv[1]}][{mv[2]},{mv[3]}]"


def win_in(score: int) -> int | None:
    """Turns to a forced win (> 0) or loss (< 0) for the side whose score this is; None when not a mate."""
    if score > WIN - MATE_BAND:
        return (WIN - score) // 2 + 1
    if score < -(WIN - MATE_BAND):
        return -((WIN + score) // 2 + 1)
    return None


def x_view(score: int, seat: int) -> JsonObject:
    """The bar's fields (X's point of view): ``heuristic`` in -1..1 and ``win_in`` (+: X wins)."""
    sx = score if seat == 0 else -score
    out: JsonObject = {"heuristic": round(math.tanh(sx / BAR_SCALE), 4)}
    w = win_in(sx)
    if w is not None:
        out["win_in"] = w
        out["heuristic"] = 1.0 if w > 0 else -1.0
    return out


class SearchBot(MatchLateness):
    """EngineBot: alpha-beta over turns with threat search; deterministic for a given depth or node budget.

    ``max_depth`` / ``max_nodes`` bound the search for tests and analysis instead of the clock (None: until the
    time runs out);
    ``implementation`` forces "C" or "Python";
    ``tables`` are the evaluation tables by win distance (None: the learned ones shipped in ``eval_weights.json``;
    a win distance without one is evaluated with the hand-made ``W``).
    """

    name = "search"

    def __init__(
        self,
        max_depth: int | None = None,
        max_nodes: int | None = None,
        implementation: str | None = None,
        tables: Mapping[int, Table] | None = None,
    ) -> None:
        self.max_depth = max_depth
        self.tables = shipped_tables() if tables is None else tables
        self.max_nodes = max_nodes
        self.search = engine(implementation)
        self.last_evaluation: JsonObject | None = None
        self.last_considerations: list[JsonValue] | None = None
        self.new_match()  # how late this bot's searches returned in this match (``MatchLateness``)

    def budget(self, time_limit: float | None) -> float:
        """Seconds the engine may search for a move offered ``time_limit`` seconds (None: no clock)."""
        limit = think_cap(time_limit if time_limit is not None else min(NO_CLOCK_SECONDS, MAX_THINK_SECONDS))
        return SHARE.seconds(limit, self.lateness)

    def choose(self, game: Game[Position, Move], state: Position, time_limit: float | None, rng: random.Random) -> Move:
        begun = time.monotonic()
        board = state.board()
        seat = seat_to_move(state)
        move, _ = self.analyse_board(board, seat, self.budget(time_limit), begun)
        return move

    def analyse_board(
        self, board: Board, seat: int, seconds: float, begun: float | None = None
    ) -> tuple[Move, JsonObject]:
        """The move for ``seat`` and the evaluation (also kept in ``last_evaluation`` / ``last_considerations``)."""
        begun = time.monotonic() if begun is None else begun
        self.last_evaluation = None
        self.last_considerations = None
        L = board.win_distance
        near = 2 if board.view_distance >= 2 else 1
        if not (4 <= L <= 10) or len(board.stones) == 0:
            return choose_on_board(board, seat), {}
        bounded = self.max_depth is not None or self.max_nodes is not None
        python = self.search is py_search
        if not bounded and python and seconds < MIN_SEARCH_PYTHON:
            # too little time to set a Python search up (an almost spent clock): the rule bot's move. Not for the
            # C engine: the rule bot is Python and slows with the stones on the board (tens of ms on a full one),
            # while a C search stops at its deadline, however short
            return choose_on_board(board, seat), {}
        depth = self.max_depth if self.max_depth is not None else 64
        nodes = self.max_nodes if self.max_nodes is not None else 1 << 62
        left = seconds - (time.monotonic() - begun)
        # a depth or node bound is the whole bound (tests and analysis ask for a depth's score): no deadline, but
        # the search still stops when its host asks (``stop_flag``)
        secs = 0.0 if bounded else max(0.0005, left)
        tt_bits = 16 if secs and secs < 0.5 else 18 if secs and secs < 5 else 19  # 2.6, 10, 20 MB
        if bounded:
            tt_bits = 18
        tss = TSS_BOUNDED if bounded else min(TSS_MAX, int(secs * TSS_PER_SECOND["Python" if python else "C"]))
        table = self.tables.get(L)
        result = self.search(list(board.stones), seat, L, near, depth, nodes, secs, stop_flag(), tt_bits, tss, table)
        if secs:  # how late the search returned, the board copy before it included
            self.lateness.record(time.monotonic() - begun - seconds)
        mv, score, done, count, pv, root = result
        move: Move | None = None
        if mv is not None:
            cand = ((mv[0], mv[1]), (mv[2], mv[3]))
            if _legal(board, cand, seat):
                move = cand
        if move is None:  # nothing searched (odd geometry) or a move the real board refuses: play safe
            move = choose_on_board(board, seat)
        evaluation: JsonObject = {
            **x_view(score, seat),
            "score": score,
            "depth": done,
            "nodes": count,
            "pv": [_fmt(m) for m in pv],
            "engine": "Python" if python else "C",
        }
        w = win_in(score)
        if w is not None:
            evaluation["mate_in"] = w
        self.last_evaluation = evaluation
        self.last_considerations = [
            {"pieces": [[r[0], r[1]], [r[2], r[3]]], "evaluation": {**x_view(r[4], seat), "score": r[4]}}
            for r in root[:CONSIDERED]
        ]
        return move, evaluation


def _legal(board: Board, move: Move, seat: int) -> bool:
    (q1, r1), (q2, r2) = move
    if (q1, r1) == (q2, r2) or not board.is_legal(q1, r1):
        return False
    won = board.place(q1, r1, seat)
    try:
        return won or board.is_legal(q2, r2)
    finally:
        board.undo()
