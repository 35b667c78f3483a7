"""Iterative-deepening negamax alpha-beta for Hive, with a transposition table and a hard time budget.

Why this shape: Hive's branching factor (50-150) leaves pure Python only 2-3 plies per second, so the search
must always have an answer ready: each completed depth's best move is kept, the clock is checked every few
hundred nodes, and an unfinished depth is abandoned (its partial root result is used only if it already
found a better move than the previous depth did). The transposition table keys on the board's Zobrist hash
plus side to move and frozen piece (``Board.key``), and its best moves order the next iteration.
"""

from __future__ import annotations

import random
import time
from typing import Any

from hexarena.bots.hive.evaluation import WIN, evaluate
from hexarena.bots.stopping import stop_requested, think_cap
from hexarena.games.hive.board import DIRS, Board, Move

EXACT, LOWER, UPPER = 0, 1, 2


class _Timeout(Exception):
    pass


class AlphaBeta:
    """One search: call ``best_move(board)``; the board is restored on return (even on timeout)."""

    def __init__(self, deadline: float | None, max_depth: int, rng: random.Random) -> None:
        self.deadline = deadline
        self.max_depth = max_depth
        self.rng = rng
        self.nodes = 0
        self.tt: dict[int, tuple[int, int, int, Move | None]] = {}
        self.depth_reached = 0

    def _order(self, board: Board, moves: list[Move], tt_move: Move | None) -> list[Move]:
        color = board.ply & 1
        eq = board.pos[(1 - color) << 4]
        oq = board.pos[color << 4]
        near_enemy = {eq + d for d in DIRS} if eq is not None else set()
        near_own = {oq + d for d in DIRS} if oq is not None else set()
        pos = board.pos

        def key(m: Move) -> int:
            if m == tt_move:
                return -100
            pid, dest = m
            k = 0
            if dest in near_enemy and pos[pid] not in near_enemy:
                k -= 10
            if pos[pid] in near_own and dest not in near_own:
                k -= 3
            if pos[pid] is None:
                k += 2
            return k

        self.rng.shuffle(moves)
        moves.sort(key=key)
        return moves

    def _search(self, board: Board, depth: int, alpha: int, beta: int, height: int) -> int:
        self.nodes += 1
        if self.nodes & 255 == 0 and (
            (self.deadline is not None and time.monotonic() > self.deadline) or stop_requested()
        ):
            raise _Timeout
        r = board.result()
        if r >= 0:
            if r == 2:
                return 0
            # a win found sooner is worth more; the side to move here lost or won on the last move
            return (WIN - height) if r == board.ply & 1 else -(WIN - height)
        if depth <= 0:
            return evaluate(board, board.ply & 1)
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
        for m in self._order(board, board.moves(), tt_move):
            board.play(m)
            try:
                v = -self._search(board, depth - 1, -beta, -alpha, height + 1)
            finally:
                board.undo()
            if v > best:
                best, best_move = v, m
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        flag = EXACT if alpha0 < best < beta else (LOWER if best >= beta else UPPER)
        if len(self.tt) > 400_000:
            self.tt.clear()
        self.tt[key] = (depth, best, flag, best_move)
        return best

    def best_move(self, board: Board) -> Move:
        moves = board.moves()
        if not moves:
            raise ValueError("no legal move: the game is over")
        if len(moves) == 1:
            return moves[0]
        best = self.rng.choice(moves)
        for depth in range(1, self.max_depth + 1):
            alpha, beta = -WIN - 1, WIN + 1
            iter_best: Move | None = None
            iter_val = -WIN - 1
            try:
                # the previous depth's best move is searched first, so a partial iteration's best is at
                # least as good as it at this depth and may be used when the clock runs out
                for m in self._order(board, list(moves), best):
                    board.play(m)
                    try:
                        v = -self._search(board, depth - 1, -beta, -alpha, 1)
                    finally:
                        board.undo()
                    if v > iter_val:
                        iter_best, iter_val = m, v
                        alpha = max(alpha, v)
            except _Timeout:
                if iter_best is not None and depth > 1:
                    best = iter_best
                break
            assert iter_best is not None
            best = iter_best
            self.depth_reached = depth
            if iter_val >= WIN - 100:  # a forced win: no need to look deeper
                break
        return best


class AlphaBetaBot:
    """EngineBot: iterative deepening alpha-beta within ``time_limit`` (and ``max_depth`` plies)."""

    name = "alphabeta"

    def __init__(self, max_depth: int = 6, default_time: float = 1.0, safety: float = 0.8) -> None:
        self.max_depth = max_depth
        self.default_time = default_time
        self.safety = safety
        self.last_depth = 0
        self.last_nodes = 0

    def choose(self, game: Any, state: Any, time_limit: float | None, rng: random.Random) -> Any:
        start = time.monotonic()
        budget = think_cap(self.default_time if time_limit is None else time_limit)
        # keep a margin for formatting the move and for the referee's transport
        deadline = start + max(0.01, budget * self.safety - 0.02)
        board = game.core(state)
        search = AlphaBeta(deadline, self.max_depth, rng)
        move = search.best_move(board)
        self.last_depth, self.last_nodes = search.depth_reached, search.nodes
        return game.move_of(board, move)
