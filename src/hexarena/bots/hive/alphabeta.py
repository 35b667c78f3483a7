"""Iterative-deepening principal-variation search for Hive, with a transposition table and a hard deadline.

Why this shape: Hive's branching factor (50-150) leaves pure Python only 2-4 plies in a fraction of a second,
so the search must always have an answer ready and must spend its nodes where they matter:

- iterative deepening: each completed depth's best move is kept; an unfinished depth is abandoned, and its
  partial root result is used only when it already proved a move better than the previous depth's best (the
  previous best is searched first, so that comparison is sound);
- the transposition table keys on ``Board.key()`` (the incremental Zobrist hash of the engine's mutable board,
  plus side to move, frozen piece and opening turn) and stores depth, bound and best move;
- move ordering, the whole game at 2-4 plies: the table's move, then moves onto a cell next to the enemy
  queen (Hive's captures: a win is always one of them), then moves freeing a neighbour cell of our own queen,
  then the two killer moves of the ply, then the history score of ``(piece, destination)``;
- principal variation search (null windows after the first move) with a one-ply late-move reduction for
  quiet moves far down the list at depth >= 3, re-searched at full depth when they surprise;
- a leaf whose enemy queen has five neighbours is not judged statically: when the side to move can fill the
  sixth cell it is a win (so a 2-ply search sees wins in 3 plies, and a 1-ply one a loss in 2);
- time: the host turns the clock into this move's budget (``bots.timing.move_budget``); the search takes 60 %
  of a short budget, 90 % less 30 ms of a long one, and less after searches that came back late
  (the bot's ``timing.Lateness``, a loaded machine); no new depth is begun after half of it; the clock is read at every node (a node costs about a
  millisecond here, a clock read 60 ns), so the search stops within a node of its deadline, and nothing after
  the deadline generates moves; ``stop_requested`` lets the host cancel it.

The leaf evaluation is ``evaluation.assess`` (queen pressure, pinned pieces, mobility, hand, beetle on queen,
Pillbug guard). Mate scores are ``WIN - plies``, so shorter wins are preferred and longer losses fought.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable

from hexarena.bots.hive.evaluation import WIN, assess
from hexarena.bots.hive.simple import hive_rules
from hexarena.bots.stopping import stop_requested, think_cap
from hexarena.bots.timing import MatchLateness, SearchShare
from hexarena.core.game import Game
from hexarena.core.jsonvalue import JsonObject, JsonValue
from hexarena.games.hive.board import DIRS, PASS, Board, Move
from hexarena.games.hive.game import HiveGame, HiveMove, HiveState

EXACT, LOWER, UPPER = 0, 1, 2
#: Scores beyond this are forced wins or losses (``WIN - plies``).
MATE_BAND = WIN - 1000
#: Entries kept in the transposition table before it is cleared (a dict entry is ~200 bytes: ~100 MB).
TT_SIZE = 500_000
#: Late-move reduction: from this depth, for quiet moves after the first ``LMR_AFTER`` of a node.
LMR_DEPTH = 3
LMR_AFTER = 6
#: Ordering weights (larger first).
ORDER_TT = 1 << 30
ORDER_ATTACK = 1 << 24
ORDER_KILLER = 1 << 22
ORDER_FREE_QUEEN = 1 << 20
#: Seconds a move may take when there is no clock (``think_cap`` bounds every budget).
NO_CLOCK_SECONDS = 2.0
#: Part of the budget the search may use (the rest: the board copy, writing the move, and above all the moments
#: a loaded machine does not run us at all). Short budgets keep more than half in reserve, long ones 10 % plus
#: 30 ms: a Python search allocates, and the collector's pauses and the other bot's thread strike outside its
#: deadline checks (``bench/time_losses.py`` plays short clocks and counts the losses on time).
SHARE = SearchShare(short=0.45, long=0.9, reserve=0.03)
#: A new depth is not begun after this part of the budget: it would not finish, and its first move (the
#: previous best) could not change the answer anyway.
NEW_DEPTH_SHARE = 0.5
#: Scale of the evaluation bar: ``heuristic = tanh(score / BAR_SCALE)`` from white's point of view.
BAR_SCALE = 400.0
#: Root moves reported as considerations.
CONSIDERED = 8


class _Timeout(Exception):
    pass


class AlphaBeta:
    """One search: call ``best_move(board)``; the board is restored on return (even on timeout).

    ``leaf`` scores a leaf for a colour: ``assess`` (C on a ``CBoard``); tests and the depth benchmark pass
    ``assess_py`` to compare the two evaluations under the same search.
    """

    def __init__(
        self, deadline: float | None, max_depth: int, rng: random.Random, leaf: Callable[[Board, int], int] = assess
    ) -> None:
        self.deadline = deadline
        self.leaf = leaf
        self.max_depth = max_depth
        self.rng = rng
        self.nodes = 0
        self.tt: dict[int, tuple[int, int, int, Move | None]] = {}
        self.evals: dict[int, int] = {}
        self.depth_reached = 0
        self.score = 0
        self.killers: list[list[Move | None]] = []
        self.history: dict[Move, int] = {}
        self.root_scores: list[tuple[Move, int]] = []
        self.pv: list[Move] = []
        self.iter_best: tuple[Move, int] | None = None

    # ----------------------------------------------------------------------------------------- ordering
    def _order(self, board: Board, moves: list[Move], tt_move: Move | None, height: int) -> list[tuple[Move, bool]]:
        """Moves best-first, each with whether it is tactical (never reduced)."""
        color = board.ply & 1
        pos = board.pos
        eq = pos[(1 - color) << 4]
        oq = pos[color << 4]
        near_enemy = {eq + d for d in DIRS} if eq is not None else set()
        near_own = {oq + d for d in DIRS} if oq is not None else set()
        k1, k2 = self._killers(height)
        hist = self.history
        rnd = self.rng.random
        keyed = []
        for m in moves:
            pid, dest = m
            src = pos[pid] if pid >= 0 else None
            tactical = False
            if m == tt_move:
                k = ORDER_TT
                tactical = True
            else:
                k = hist.get(m, 0)
                if dest in near_enemy and src not in near_enemy:
                    k += ORDER_ATTACK
                    tactical = True
                elif src in near_own and dest not in near_own:
                    k += ORDER_FREE_QUEEN
                    tactical = True
                if m in (k1, k2):
                    k += ORDER_KILLER
            keyed.append((k + rnd(), m, tactical))
        keyed.sort(reverse=True)
        return [(m, t) for _, m, t in keyed]

    def _killers(self, height: int) -> list[Move | None]:
        while len(self.killers) <= height:
            self.killers.append([None, None])
        return self.killers[height]

    def _good(self, m: Move, depth: int, height: int) -> None:
        """A move caused a cutoff: remember it as a killer of this ply and in the history table."""
        ks = self._killers(height)
        if ks[0] != m:
            ks[1] = ks[0]
            ks[0] = m
        self.history[m] = self.history.get(m, 0) + depth * depth

    # ----------------------------------------------------------------------------------------- search
    def _check_time(self) -> None:
        if (self.deadline is not None and time.monotonic() > self.deadline) or stop_requested():
            raise _Timeout

    def _search(self, board: Board, depth: int, alpha: int, beta: int, height: int) -> int:
        self.nodes += 1
        self._check_time()
        r = board.result()
        if r >= 0:
            if r == 2:
                return 0
            # a win found sooner is worth more; the side to move here lost or won on the last move
            return (WIN - height) if r == board.ply & 1 else -(WIN - height)
        if depth <= 0:
            if self._wins_now(board):
                return WIN - height - 1
            # leaves repeat across iterations and transpositions: their white-view score is cached by the
            # board's Zobrist hash (the evaluation reads the stacks only, not the side to move)
            zh = board.zh
            v = self.evals.get(zh)
            if v is None:
                if len(self.evals) > TT_SIZE:
                    self.evals.clear()
                v = self.evals[zh] = self.leaf(board, 0)
            return v if board.ply & 1 == 0 else -v
        key = board.key()
        entry = self.tt.get(key)
        tt_move = None
        if entry is not None:
            e_depth, e_val, e_flag, tt_move = entry
            if e_depth >= depth:
                if e_flag == EXACT:
                    return e_val
                if e_flag == LOWER and e_val >= beta:
                    return e_val
                if e_flag == UPPER and e_val <= alpha:
                    return e_val
        alpha0 = alpha
        best = -WIN - 1
        best_move: Move | None = None
        moves = board.moves()
        for i, (m, tactical) in enumerate(self._order(board, moves, tt_move, height)):
            board.play(m)
            try:
                if i == 0:
                    v = -self._search(board, depth - 1, -beta, -alpha, height + 1)
                else:
                    reduce = depth >= LMR_DEPTH and i >= LMR_AFTER and not tactical
                    v = -self._search(board, depth - 1 - reduce, -alpha - 1, -alpha, height + 1)
                    if v > alpha and (reduce or v < beta):
                        v = -self._search(board, depth - 1, -beta, -alpha, height + 1)
            finally:
                board.undo()
            if v > best:
                best, best_move = v, m
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        if not tactical:
                            self._good(m, depth, height)
                        break
        flag = EXACT if alpha0 < best < beta else (LOWER if best >= beta else UPPER)
        if len(self.tt) > TT_SIZE:
            self.tt.clear()
        self.tt[key] = (depth, best, flag, best_move)
        return best

    def _wins_now(self, board: Board) -> bool:
        """At a leaf: can the side to move surround the enemy queen at once? Checked only when that queen has
        five neighbours (rare, so the move generation it costs is affordable); without it, a two-ply search
        would score "our move fills the sixth cell next" as a mere five-neighbour squeeze."""
        color = board.ply & 1
        eq = board.pos[(1 - color) << 4]
        if eq is None or board.queen_neighbours(1 - color) != 5:
            return False
        stacks = board.stacks
        hole = next(eq + d for d in DIRS if eq + d not in stacks)
        for m in board.moves():
            if m[1] == hole:
                board.play(m)
                r = board.result()
                board.undo()
                if r == color:
                    return True
        return False

    def _root(self, board: Board, moves: list[Move], depth: int, first: Move) -> tuple[Move | None, int]:
        """One iteration at the root; the scores of every root move searched go to ``root_scores``."""
        alpha, beta = -WIN - 1, WIN + 1
        best: Move | None = None
        best_val = -WIN - 1
        scores: list[tuple[Move, int]] = []
        ordered = self._order(board, moves, first, 0)
        self.iter_best = None
        try:
            for i, (m, _) in enumerate(ordered):
                board.play(m)
                try:
                    if i == 0:
                        v = -self._search(board, depth - 1, -beta, -alpha, 1)
                    else:
                        v = -self._search(board, depth - 1, -alpha - 1, -alpha, 1)
                        if v > alpha:
                            v = -self._search(board, depth - 1, -beta, -alpha, 1)
                finally:
                    board.undo()
                scores.append((m, v))
                if v > best_val:
                    best, best_val = m, v
                    self.iter_best = (m, v)
                    alpha = max(alpha, v)
        finally:
            # moves not (fully) searched keep their previous order after the searched ones
            searched = {m for m, _ in scores}
            rest = [(m, v) for m, v in self.root_scores if m not in searched]
            self.root_scores = sorted(scores, key=lambda x: -x[1]) + rest
        return best, best_val

    def best_move(self, board: Board, soft_deadline: float | None = None) -> Move:
        """The best move found by iterative deepening; ``soft_deadline``: no new depth is begun after it."""
        moves = board.moves()
        if not moves:
            raise ValueError("no legal move: the game is over")
        best = moves[0]
        self.root_scores = [(m, 0) for m in moves]
        if len(moves) == 1:
            return best
        best = self._order(board, moves, None, 0)[0][0]
        for depth in range(1, self.max_depth + 1):
            if depth > 1 and soft_deadline is not None and time.monotonic() > soft_deadline:
                break
            try:
                iter_best, iter_val = self._root(board, moves, depth, best)
            except _Timeout:
                # the previous best was searched first (with an exact score): a different best of this unfinished
                # depth has proved itself better than it at this depth
                if depth > 1 and self.iter_best is not None and self.iter_best[0] != best:
                    best, self.score = self.iter_best
                break
            assert iter_best is not None
            best, self.score = iter_best, iter_val
            self.depth_reached = depth
            if abs(iter_val) >= MATE_BAND:  # a forced result: deeper search cannot change it
                break
        self.pv = self._principal_variation(board, best)
        return best

    def _principal_variation(self, board: Board, first: Move, limit: int = 6) -> list[Move]:
        """The expected line, from the table's best moves. Runs after the deadline, so it generates no moves
        (that costs milliseconds a position): a table move is trusted when it moves a piece of the side to move
        (a 64-bit key collision is the only way it could be illegal, and it is only reported)."""
        pv = [first]
        played = 0
        board.play(first)
        played += 1
        try:
            while len(pv) < limit and board.result() < 0:
                entry = self.tt.get(board.key())
                if entry is None or entry[3] is None or entry[3][0] >> 4 != board.ply & 1 or entry[3] == PASS:
                    break
                pv.append(entry[3])
                board.play(entry[3])
                played += 1
        finally:
            for _ in range(played):
                board.undo()
        return pv


def white_view(score: int, color: int) -> JsonObject:
    """The bar's fields from white's point of view: ``heuristic`` in -1..1, ``win_in`` (turns; +: white wins)."""
    sw = score if color == 0 else -score
    out: JsonObject = {"heuristic": round(math.tanh(sw / BAR_SCALE), 4)}
    w = win_in(sw)
    if w is not None:
        out["win_in"] = w
        out["heuristic"] = 1.0 if w > 0 else -1.0
    return out


def win_in(score: int) -> int | None:
    """Own turns to a forced win (> 0) or loss (< 0) for the side whose score this is; None if not a mate."""
    if score >= MATE_BAND:
        return (WIN - score + 1) // 2
    if score <= -MATE_BAND:
        return -((WIN + score + 1) // 2)
    return None


class AlphaBetaBot(MatchLateness):
    """EngineBot: iterative-deepening PVS within the move's time budget (and ``max_depth`` plies).

    ``time_limit`` is the budget the host gives this move (``bots.timing.move_budget`` turns the clock into
    it); the search uses ``SHARE`` of it, less when its recent searches came back late (``self.lateness``).
    After each move, ``last_evaluation`` (score for the mover, depth, nodes, principal variation, the bar's ``heuristic`` and
    ``win_in`` from white's point of view) and ``last_considerations`` (the best root moves and their scores)
    are reported the same way as the HTTTX search bot's.
    """

    name = "alphabeta"

    def __init__(self, max_depth: int = 64, default_time: float = NO_CLOCK_SECONDS) -> None:
        self.max_depth = max_depth
        self.default_time = default_time
        self.last_depth = 0
        self.last_nodes = 0
        self.last_evaluation: JsonObject | None = None
        self.last_considerations: list[JsonValue] | None = None
        self.new_match()  # how late this bot's searches returned in this match (``MatchLateness``)

    def deadlines(self, time_limit: float | None, start: float) -> tuple[float, float]:
        """(hard, soft) deadlines for a move begun at ``start`` with budget ``time_limit`` (None: no clock)."""
        budget = think_cap(self.default_time if time_limit is None else time_limit)
        usable = SHARE.seconds(budget, self.lateness)
        return start + usable, start + usable * NEW_DEPTH_SHARE

    def choose(
        self, game: Game[HiveState, HiveMove], state: HiveState, time_limit: float | None, rng: random.Random
    ) -> HiveMove:
        start = time.monotonic()
        hard, soft = self.deadlines(time_limit, start)
        rules = hive_rules(game)
        board = rules.core(state)
        color = board.ply & 1
        search = AlphaBeta(hard, self.max_depth, rng)
        move = search.best_move(board, soft)
        self.last_depth, self.last_nodes = search.depth_reached, search.nodes
        self._report(rules, board, color, search, move)
        out = rules.move_of(board, move)
        self.lateness.record(time.monotonic() - hard)
        return out

    def _report(self, game: HiveGame, board: Board, color: int, search: AlphaBeta, move: Move) -> None:
        pv: list[str] = []
        for m in search.pv:
            pv.append(str(game.move_of(board, m)) if m != PASS else "pass")
            board.play(m)
        for _ in search.pv:
            board.undo()
        evaluation: JsonObject = {
            **white_view(search.score, color),
            "score": search.score,
            "depth": search.depth_reached,
            "nodes": search.nodes,
            "pv": pv,
        }
        w = win_in(search.score)
        if w is not None:
            evaluation["mate_in"] = w
        self.last_evaluation = evaluation
        self.last_considerations = [
            {"move": str(game.move_of(board, m)), "evaluation": {**white_view(v, color), "score": v}}
            for m, v in search.root_scores[:CONSIDERED]
        ]
