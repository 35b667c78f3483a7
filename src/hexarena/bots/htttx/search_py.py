"""The HTTTX search engine in pure Python: the reference the C module ``_csearch`` mirrors step for step.

Why two copies: the C engine is what plays (tens of times faster), this one runs where no compiler was available
(``HEXARENA_PURE_PYTHON=1`` forces it), and both must choose the same move with the same score and node count
for the same position and budget (``tests/test_htttx_search.py`` plays them in lockstep). So everything here is
integer arithmetic with total orders (every sort breaks ties on a cell or pair index), and the C code is a port
that finds the same values by bookkeeping instead of recomputing them: change one, change the other.

The algorithm, over whole turns (two stones of one colour):

* Position: a 128 x 128 grid around the stones' centre; per window (``win_distance`` cells along one of the three
  axes, indexed by its first cell) the count of X and O stones, updated as stones come and go. From the counts:
  the evaluation for the side to move (``own[count]`` summed over the windows holding its stones only, less
  ``opp[count]`` over the windows holding the opponent's only: an evaluation table, the learned one of
  ``eval_weights.json`` when the bot has one for this ``win_distance``, else ``W`` for both) and, per colour, how
  many *threat* windows it has (``count >= L - 2`` and no enemy stone: two stones complete it). Move ordering
  always scores cells by ``W``: a table changes what a position is worth, not which moves are tried.
* A side with a threat window wins on its turn. A side facing threats must hit every one of them with its two
  stones; when no pair does (three independent threats, or a double threat the pair cannot both cover), it lost.
* Alpha-beta (negamax) with iterative deepening, a transposition table on the board's Zobrist keys, history
  ordering. Moves: the opponent's threats force blocks; otherwise pairs of the best-scoring cells near stones.
* At depth 0 a threat search: the side to move may stand pat or play pairs that make threats (after its first
  attacking turn, double threats only: pairs that take both of the defender's stones); the defender must block
  (forced moves only), and so on up to ``QDEPTH`` turns, so double threats a few turns deep are seen.
"""

from __future__ import annotations

import time

from hexarena.bots.stopping import StopFlag
from hexarena.games.htttx.board import zobrist_key

N = 128
NN = N * N
#: A win ``ply`` turns from the root scores ``WIN - ply``.
WIN = 1_000_000
INF = 2_000_000
MATE_BAND = 1000
QDEPTH = 6
K_ROOT = 16
K_INNER = 9
M_INNER = 14
KB_MAIN = 6
KB_Q = 3
KT = 8
MT = 6
#: forcing moves (the best threat moves) added to the ordinary pairs of an inner node
T_INNER = 2
#: Positions the threat-space search may visit at each horizon leaf, and the attacking turns it looks for there
#: (``leaf_tss``): a few, as it runs at every leaf.
LEAF_TSS = 24
LEAF_TURNS = 2
#: threat-space search: attacking turns it chains (double threats, then a triple), cells its attacking pairs are
#: formed from, and the positions it may visit by default (a deterministic bound, not the clock)
TSS_TURNS = 3
KT_TSS = 12
#: part of the clock the threat-space search may take at most (the rest is the alpha-beta's)
TSS_SHARE = 0.3
SIDE_KEY = 0x9E3779B97F4A7C15
EXACT, LOWER, UPPER = 0, 1, 2
#: the clock and the stop flag are read every this many nodes (a power of two minus one as a mask); more often
#: than in C (Python's nodes are ~100x slower); it does not change what is searched
TIME_MASK = 15


#: the largest window value (keeps evaluations of long-line variants far below WIN)
WCAP = 2000


def weights(length: int) -> list[int]:
    """Window values by stone count: 0, 1, 6, 36, ... (x6 per stone, at most WCAP)."""
    w = [0] * (length + 1)
    v = 1
    for k in range(1, length + 1):
        w[k] = v
        v = min(v * 6, WCAP)
    return w


#: An evaluation table for one ``win_distance`` L: ``(own, opp)``, L + 1 integers each, indexed by a window's stone
#: count; ``own`` scores the side to move's windows, ``opp`` the opponent's (None: ``W`` for both).
Table = tuple[list[int], list[int]]


def check_table(table: Table | None, length: int) -> Table:
    """The table to evaluate with (``W`` twice for None); a malformed one is refused, saying what is wrong."""
    if table is None:
        w = weights(length)
        return (w, list(w))
    if len(table) != 2:
        raise ValueError(f"an evaluation table is (own, opp), got {len(table)} lists")
    out = []
    for name, row in zip(("own", "opp"), table, strict=True):
        values = list(row)
        if len(values) != length + 1:
            raise ValueError(
                f"evaluation table {name!r} needs {length + 1} values for win distance {length}, got {len(values)}"
            )
        if values[0] != 0 or any(type(v) is not int or abs(v) > WCAP for v in values):
            raise ValueError(
                f"evaluation table {name!r} must be integers within +-{WCAP} starting with 0, got {values}"
            )
        out.append(values)
    return (out[0], out[1])


Move4 = tuple[int, int, int, int]
#: (best move or None, score for the side to move, depth completed, nodes, principal variation, root turns with
#: their scores ``(q1, r1, q2, r2, score)``): what both engines return.
Result = tuple[Move4 | None, int, int, int, list[Move4], list[tuple[int, int, int, int, int]]]


class _Aborted(Exception):
    pass


class PySearch:
    """One search of one position (build, ``run``, discard)."""

    def __init__(
        self,
        stones: list[tuple[int, int, int]],
        to_move: int,
        win_distance: int,
        near: int,
        tt_bits: int = 18,
        table: Table | None = None,
    ) -> None:
        L = win_distance
        self.L = L
        self.W = weights(L)
        self.own, self.opp = check_table(table, L)
        #: per colour: ``own`` and ``opp`` summed over the windows holding that colour's stones only
        self.sum_own = [0, 0]
        self.sum_opp = [0, 0]
        self.side = to_move
        if stones:
            qs = sorted(s[0] for s in stones)
            rs = sorted(s[1] for s in stones)
            cq = qs[(len(qs) - 1) // 2]
            cr = rs[(len(rs) - 1) // 2]
        else:
            cq = cr = 0
        self.q0 = cq - N // 2
        self.r0 = cr - N // 2
        self.grid = [0] * NN
        self.near = [0] * NN
        self.cnt = [[0] * (3 * NN), [0] * (3 * NN)]
        self.evalx = 0
        self.nthreat = [0, 0]
        self.key = 0
        self.minx = self.miny = N
        self.maxx = self.maxy = -1
        self.bstack: list[tuple[int, int, int, int]] = []
        self.axes = (1, N, 1 - N)
        self.near_offs = [
            dy * N + dx
            for dy in range(-near, near + 1)
            for dx in range(-near, near + 1)
            if 0 < max(abs(dx), abs(dy), abs(dx + dy)) <= near
        ]
        self.hist = [0] * NN
        self.tt_mask = (1 << tt_bits) - 1
        self.tt: list[tuple[int, int, int, int, int, int] | None] = [None] * (1 << tt_bits)
        self.nodes = 0
        self.tss_left = 0
        self.tss_deadline = 0.0
        self.max_nodes = 0
        self.deadline = 0.0
        self.stop: StopFlag | None = None
        for q, r, seat in stones:
            x = q - self.q0
            y = r - self.r0
            if L <= x < N - L and L <= y < N - L and self.grid[y * N + x] == 0:
                self.place(y * N + x, seat)

    # ----- position -----

    def _count_stone(self, c: int, s: int, step: int) -> None:
        """Add (``step`` 1) or take back (``step`` -1) a stone of ``s`` on ``c`` in the window counts and in the
        sums kept from them (evaluation, per-side own/opp sums, threat counts): one walk for ``place`` and
        ``undo``, so the incremental evaluation is undone by exactly the arithmetic that made it."""
        cnt_s = self.cnt[s]
        cnt_o = self.cnt[1 - s]
        W = self.W
        own = self.own
        opp = self.opp
        L = self.L
        t = L - 2
        # x counts s's stones in a window without this one: the count before a place, one less before an undo
        before, after = (0, 1) if step > 0 else (1, 0)
        dev = 0
        dts = 0
        dto = 0
        ds_own = ds_opp = do_own = do_opp = 0
        for a in range(3):
            d = self.axes[a]
            base = a * NN
            for i in range(L):
                w = base + c - i * d
                x = cnt_s[w] - before
                y = cnt_o[w]
                if y == 0:
                    dev += W[x + 1] - W[x]
                    ds_own += own[x + 1] - own[x]
                    ds_opp += opp[x + 1] - opp[x]
                    if x + 1 >= t and x < t:
                        dts += 1
                else:
                    if x == 0:
                        dev += W[y]
                        do_own += own[y]
                        do_opp += opp[y]
                        if y >= t:
                            dto -= 1
                cnt_s[w] = x + after
        self.evalx += step * (dev if s == 0 else -dev)
        self.sum_own[s] += step * ds_own
        self.sum_opp[s] += step * ds_opp
        self.sum_own[1 - s] -= step * do_own
        self.sum_opp[1 - s] -= step * do_opp
        self.nthreat[s] += step * dts
        self.nthreat[1 - s] += step * dto

    def place(self, c: int, s: int) -> None:
        self._count_stone(c, s, 1)
        self.grid[c] = s + 1
        near = self.near
        for off in self.near_offs:
            near[c + off] += 1
        self.bstack.append((self.minx, self.maxx, self.miny, self.maxy))
        x = c % N
        y = c // N
        if x < self.minx:
            self.minx = x
        if x > self.maxx:
            self.maxx = x
        if y < self.miny:
            self.miny = y
        if y > self.maxy:
            self.maxy = y
        self.key ^= zobrist_key(x + self.q0, y + self.r0, s)

    def undo(self, c: int, s: int) -> None:
        self._count_stone(c, s, -1)
        self.grid[c] = 0
        near = self.near
        for off in self.near_offs:
            near[c + off] -= 1
        self.minx, self.maxx, self.miny, self.maxy = self.bstack.pop()
        self.key ^= zobrist_key(c % N + self.q0, c // N + self.r0, s)

    def cell_score(self, c: int, s: int) -> int:
        """Ordering value of a stone of ``s`` on ``c``: what it adds to s's windows and takes from the enemy's."""
        cnt_s = self.cnt[s]
        cnt_o = self.cnt[1 - s]
        W = self.W
        v = 0
        for a in range(3):
            d = self.axes[a]
            base = a * NN
            for i in range(self.L):
                w = base + c - i * d
                x = cnt_s[w]
                y = cnt_o[w]
                if y == 0:
                    v += W[x + 1] - W[x]
                elif x == 0:
                    v += W[y]
        return v

    def candidates(self) -> list[int]:
        """Empty cells near a stone (within the grid's safe area), in index order."""
        L = self.L
        lo_x = max(self.minx - 2, L)
        hi_x = min(self.maxx + 2, N - L - 1)
        lo_y = max(self.miny - 2, L)
        hi_y = min(self.maxy + 2, N - L - 1)
        out = []
        grid = self.grid
        near = self.near
        for y in range(lo_y, hi_y + 1):
            row = y * N
            for x in range(lo_x, hi_x + 1):
                c = row + x
                if grid[c] == 0 and near[c] > 0:
                    out.append(c)
        return out

    def top_cells(self, s: int, k: int) -> list[tuple[int, int]]:
        """The ``k`` best (score, cell) candidates for ``s``, best first (ties: lower cell index)."""
        scored = [(self.cell_score(c, s), c) for c in self.candidates()]
        scored.sort(key=lambda e: (-e[0], e[1]))
        return scored[:k]

    def threat_windows(self, s: int) -> list[int]:
        """Windows where ``s`` needs at most two stones and the enemy has none, in index order."""
        cnt_s = self.cnt[s]
        cnt_o = self.cnt[1 - s]
        t = self.L - 2
        L = self.L
        out = []
        lo_x = max(self.minx - L, 0)
        hi_x = min(self.maxx, N - 1)
        lo_y = max(self.miny - L, 0)
        hi_y = min(self.maxy + L, N - 1)
        for a in range(3):
            base = a * NN
            for y in range(lo_y, hi_y + 1):
                row = base + y * N
                for x in range(lo_x, hi_x + 1):
                    w = row + x
                    if cnt_s[w] >= t and cnt_o[w] == 0:
                        out.append(w)
        return out

    def window_empties(self, w: int) -> list[int]:
        a = w // NN
        st = w - a * NN
        d = self.axes[a]
        return [st + i * d for i in range(self.L) if self.grid[st + i * d] == 0 and self.safe(st + i * d)]

    def safe(self, c: int) -> bool:
        """True when every window through ``c`` lies inside the grid (only such cells are ever played)."""
        x = c % N
        y = c // N
        return self.L <= x < N - self.L and self.L <= y < N - self.L

    # ----- move generation -----

    def pair_moves(self, s: int, k: int, m: int) -> list[tuple[int, int]]:
        top = self.top_cells(s, k)
        hist = self.hist
        pairs = []
        base = self.evalx
        sign = 1 if s == 0 else -1
        for i in range(len(top)):
            ci = top[i][1]
            for j in range(i + 1, len(top)):
                cj = top[j][1]
                a, b = (ci, cj) if ci < cj else (cj, ci)
                # the pair's real worth, lines the two stones build together included
                self.place(a, s)
                self.place(b, s)
                gain = (self.evalx - base) * sign
                self.undo(b, s)
                self.undo(a, s)
                pairs.append((gain + hist[a] + hist[b], a, b))
        pairs.sort(key=lambda e: (-e[0], e[1], e[2]))
        return [(a, b) for _, a, b in pairs[:m]]

    def block_moves(self, s: int, kb: int) -> list[tuple[int, int]]:
        """Every pair that hits all of the opponent's threat windows (single-cell blocks get ``kb`` partners)."""
        o = 1 - s
        wins = self.threat_windows(o)
        if len(wins) > 60:
            return []
        masks: dict[int, int] = {}
        for i, w in enumerate(wins):
            for c in self.window_empties(w):
                masks[c] = masks.get(c, 0) | (1 << i)
        full = (1 << len(wins)) - 1
        hot = sorted(masks)
        hist = self.hist
        score = {c: self.cell_score(c, s) for c in hot}
        pairs: dict[tuple[int, int], int] = {}
        for i in range(len(hot)):
            a = hot[i]
            for j in range(i + 1, len(hot)):
                b = hot[j]
                if masks[a] | masks[b] == full:
                    pairs[(a, b)] = score[a] + score[b] + hist[a] + hist[b]
        singles = [c for c in hot if masks[c] == full]
        if singles:
            top = self.top_cells(s, kb + 2)
            for a in singles:
                n = 0
                for sc, b in top:
                    if b == a or n >= kb:
                        continue
                    n += 1
                    key = (a, b) if a < b else (b, a)
                    if key not in pairs:
                        pairs[key] = score[a] + sc + hist[a] + hist[b]
        out = sorted(pairs.items(), key=lambda e: (-e[1], e[0][0], e[0][1]))
        return [p for p, _ in out]

    def threat_moves(self, s: int) -> list[tuple[int, int, int]]:
        """Pairs of ``s`` that leave ``s`` with a threat window (the defender must answer), most threats first, as
        (blockers, a, b)."""
        return self.blocker_pairs(s, KT, 1)[:MT]

    def blocker_pairs(self, s: int, k: int, least: int) -> list[tuple[int, int, int]]:
        """Pairs of the ``k`` best threat cells of ``s`` after which the opponent needs at least ``least`` stones
        to spoil s's new threats (``blockers``), most first (ties: the cells' scores, then the cells), as
        (blockers, a, b)."""
        cells = self.threat_cells(s, k)
        found = []
        for i in range(len(cells)):
            ca, sa = cells[i]
            for j in range(i + 1, len(cells)):
                cb, sb = cells[j]
                a, b = (ca, cb) if ca < cb else (cb, ca)
                self.place(a, s)
                self.place(b, s)
                n = self.blockers(a, b, s) if self.nthreat[s] > 0 else 0
                self.undo(b, s)
                self.undo(a, s)
                if n >= least:
                    found.append((n, sa + sb, a, b))
        found.sort(key=lambda e: (-e[0], -e[1], e[2], e[3]))
        return [(n, a, b) for n, _, a, b in found]

    def threat_cells(self, s: int, k: int) -> list[tuple[int, int]]:
        """The ``k`` best (cell, score) cells of ``s``'s building windows (two stones from a threat or three), by
        what they add to them (ties: lower cell index)."""
        cnt_s = self.cnt[s]
        cnt_o = self.cnt[1 - s]
        L = self.L
        lo = L - 4
        t = L - 2
        W = self.W
        tsc: dict[int, int] = {}
        lo_x = max(self.minx - L, 0)
        hi_x = min(self.maxx, N - 1)
        lo_y = max(self.miny - L, 0)
        hi_y = min(self.maxy + L, N - 1)
        for a in range(3):
            base = a * NN
            d = self.axes[a]
            for y in range(lo_y, hi_y + 1):
                row = base + y * N
                for x in range(lo_x, hi_x + 1):
                    w = row + x
                    n = cnt_s[w]
                    if n >= lo and n > 0 and cnt_o[w] == 0 and n < t:
                        st = w - base
                        for i in range(L):
                            c = st + i * d
                            if self.grid[c] == 0 and self.safe(c):
                                tsc[c] = tsc.get(c, 0) + W[n + 1]
        return sorted(tsc.items(), key=lambda e: (-e[1], e[0]))[:k]

    def blockers(self, a: int, b: int, s: int) -> int:
        """Stones the opponent needs to spoil every threat window of ``s`` through ``a`` or ``b`` (3: more than a
        turn has, a win). Only windows through the new stones can be new threats, so 36 windows at most."""
        cnt_s = self.cnt[s]
        cnt_o = self.cnt[1 - s]
        t = self.L - 2
        wins: list[int] = []
        for c in (a, b):
            for ax in range(3):
                d = self.axes[ax]
                base = ax * NN
                for i in range(self.L):
                    w = base + c - i * d
                    if cnt_s[w] >= t and cnt_o[w] == 0 and w not in wins:
                        wins.append(w)
        if not wins:
            return 0
        cells: list[int] = []
        masks: list[int] = []
        for k, w in enumerate(wins):
            for c in self.window_empties(w):
                if c in cells:
                    masks[cells.index(c)] |= 1 << k
                else:
                    cells.append(c)
                    masks.append(1 << k)
        full = (1 << len(wins)) - 1
        if any(m == full for m in masks):
            return 1
        for i in range(len(masks)):
            for j in range(i + 1, len(masks)):
                if masks[i] | masks[j] == full:
                    return 2
        return 3

    # ----- threat-space search -----

    def tss_spend(self) -> bool:
        """One more position for the threat-space search; False once its bound or its share of the clock is spent
        (then the bound is spent for good)."""
        if self.tss_left <= 0:
            return False
        if self.tss_deadline > 0 and self.tss_left & 31 == 0 and time.monotonic() >= self.tss_deadline:
            self.tss_left = 0
            return False
        self.tss_left -= 1
        self.nodes += 1
        return True

    def tss(self, s: int, turns: int) -> tuple[int, int] | None:
        """A turn of ``s`` that wins by force within ``turns`` attacking turns, every one of them leaving the
        opponent's whole turn to blocking (None: none found within the node bound). Neither side may have a
        threat: a defender's block that makes a threat of its own breaks the chain (not followed)."""
        # pairs leaving the opponent both stones of its turn to block (2), or more than it has (3: the last turn)
        for _, a, b in self.blocker_pairs(s, KT_TSS, 3 if turns == 1 else 2):
            if not self.tss_spend():
                return None
            self.place(a, s)
            self.place(b, s)
            won = self._tss_every_block_loses(s, turns)
            self.undo(b, s)
            self.undo(a, s)
            if won:
                return (a, b)
        return None

    def _tss_every_block_loses(self, s: int, turns: int) -> bool:
        o = 1 - s
        replies = self.block_moves(o, 0)
        if not replies:
            return True
        if turns == 1:
            return False
        for c, d in replies:
            if not self.tss_spend():
                return False
            self.place(c, o)
            self.place(d, o)
            won = self.nthreat[o] == 0 and self.tss(s, turns - 1) is not None
            self.undo(d, o)
            self.undo(c, o)
            if not won:
                return False
        return True

    def tss_win(self, s: int, most: int = TSS_TURNS) -> tuple[tuple[int, int], int] | None:
        """The shortest threat-space win of ``s`` in at most ``most`` attacking turns (its first turn, attacking
        turns) within the node bound."""
        if self.nthreat[0] or self.nthreat[1]:
            return None
        for turns in range(1, most + 1):
            mv = self.tss(s, turns)
            if mv is not None:
                return mv, turns
        return None

    # ----- search -----

    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes >= self.max_nodes:
            raise _Aborted
        if self.nodes & TIME_MASK == 0:
            if self.deadline > 0 and time.monotonic() >= self.deadline:
                raise _Aborted
            if self.stop is not None and self.stop[0]:
                raise _Aborted

    def eval_side(self, s: int) -> int:
        """The position's worth to ``s`` when ``s`` is to move, by the evaluation table (``evalx`` is ``W``'s, for
        move ordering)."""
        return self.sum_own[s] - self.sum_opp[1 - s]

    def leaf_tss(self, s: int) -> int:
        """The attacking turns of a threat-space win of ``s`` in at most ``LEAF_TURNS`` within ``LEAF_TSS`` positions
        (0: none found): the horizon's combinations, which the quiescence search's few threat turns miss. The
        root's bound and clock share are left as they were."""
        left, deadline = self.tss_left, self.tss_deadline
        self.tss_left, self.tss_deadline = LEAF_TSS, 0.0
        try:
            found = self.tss_win(s, LEAF_TURNS)
        finally:
            self.tss_left, self.tss_deadline = left, deadline
        return 0 if found is None else found[1]

    def qsearch(self, alpha: int, beta: int, ply: int, qd: int) -> int:
        self._tick()
        s = self.side
        if self.nthreat[s] > 0:
            return WIN - ply
        if self.nthreat[1 - s] > 0:
            moves = self.block_moves(s, KB_Q)
            if not moves:
                return -(WIN - ply - 1)
            if qd <= 0:
                return self.eval_side(s)
            best = -INF
            for a, b in moves:
                v = self._child_q(a, b, alpha, beta, ply, qd)
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
            return best
        stand = self.eval_side(s)
        if stand >= beta or qd <= 0:
            return stand
        if qd == QDEPTH and LEAF_TSS > 0:
            turns = self.leaf_tss(s)
            if turns:
                return WIN - ply - 2 * turns
        best = stand
        if stand > alpha:
            alpha = stand
        threats = self.threat_moves(s)
        if threats and threats[0][0] >= 3:  # won next turn (alphabeta's reason)
            return WIN - ply - 2
        if qd < QDEPTH:
            # past the horizon's first attacking turn only double threats (a turn the opponent needs both stones to
            # answer): a single threat leaves the defender a free stone, so a chain of them rarely forces anything
            # the evaluation misses, while following every one multiplies the horizon's positions by its length
            threats = [t for t in threats if t[0] >= 2]
        for _, a, b in threats:
            v = self._child_q(a, b, alpha, beta, ply, qd)
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        return best

    def _child_q(self, a: int, b: int, alpha: int, beta: int, ply: int, qd: int) -> int:
        s = self.side
        self.place(a, s)
        self.place(b, s)
        self.side = 1 - s
        try:
            return -self.qsearch(-beta, -alpha, ply + 1, qd - 1)
        finally:
            self.side = s
            self.undo(b, s)
            self.undo(a, s)

    def alphabeta(self, depth: int, alpha: int, beta: int, ply: int) -> int:
        if depth <= 0:
            return self.qsearch(alpha, beta, ply, QDEPTH)
        self._tick()
        s = self.side
        if self.nthreat[s] > 0:
            return WIN - ply
        key = self.key ^ (SIDE_KEY if s else 0)
        slot = key & self.tt_mask
        e = self.tt[slot]
        tt_move = -1
        if e is not None and e[0] == key:
            _, edepth, eflag, escore, ea, eb = e
            tt_move = ea * NN + eb if ea >= 0 else -1
            if edepth >= depth:
                sc = escore
                if sc > WIN - MATE_BAND:
                    sc -= ply
                elif sc < -(WIN - MATE_BAND):
                    sc += ply
                if eflag == EXACT or (eflag == LOWER and sc >= beta) or (eflag == UPPER and sc <= alpha):
                    return sc
        if self.nthreat[1 - s] > 0:
            moves = self.block_moves(s, KB_MAIN)
            if not moves:
                return -(WIN - ply - 1)
        else:
            threats = self.threat_moves(s)[:T_INNER]
            if threats and threats[0][0] >= 3:
                # a turn leaving more threats than two stones can spoil, and the opponent has none: won next turn
                return WIN - ply - 2
            # double threats first (the opponent's whole turn goes to blocking them), then the pairs by worth, then
            # the single threats
            moves = []
            for m in [
                *[(a, b) for n, a, b in threats if n >= 2],
                *self.pair_moves(s, K_INNER, M_INNER),
                *[(a, b) for n, a, b in threats if n < 2],
            ]:
                if m not in moves:
                    moves.append(m)
        if tt_move >= 0:
            tm = (tt_move // NN, tt_move % NN)
            if tm in moves:
                moves.remove(tm)
            moves.insert(0, tm)
        alpha0 = alpha
        best = -INF
        best_a = best_b = -1
        for i, (a, b) in enumerate(moves):
            self.place(a, s)
            self.place(b, s)
            self.side = 1 - s
            try:
                if i == 0:
                    v = -self.alphabeta(depth - 1, -beta, -alpha, ply + 1)
                else:  # principal variation search: prove the move worse with a null window, else search it fully
                    v = -self.alphabeta(depth - 1, -alpha - 1, -alpha, ply + 1)
                    if alpha < v < beta:
                        v = -self.alphabeta(depth - 1, -beta, -alpha, ply + 1)
            finally:
                self.side = s
                self.undo(b, s)
                self.undo(a, s)
            if v > best:
                best = v
                best_a, best_b = a, b
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        self.hist[a] += depth * depth * 8
                        self.hist[b] += depth * depth * 8
                        break
        flag = UPPER if best <= alpha0 else (LOWER if best >= beta else EXACT)
        sc = best
        if sc > WIN - MATE_BAND:
            sc += ply
        elif sc < -(WIN - MATE_BAND):
            sc -= ply
        self.tt[slot] = (key, depth, flag, sc, best_a, best_b)
        return best

    def root_moves(self) -> list[tuple[int, int]]:
        s = self.side
        if self.nthreat[1 - s] > 0:
            moves = self.block_moves(s, K_ROOT)
            if moves:
                return moves
        moves = self.pair_moves(s, K_ROOT, K_ROOT * K_ROOT)
        for _, a, b in self.threat_moves(s):
            m = (a, b)
            if m not in moves:
                moves.append(m)
        return moves

    def winning_pair(self) -> tuple[int, int] | None:
        """The cells completing the first threat window of the side to move (None: none is playable here)."""
        s = self.side
        w = self.threat_windows(s)[0]
        e = self.window_empties(w)
        if len(e) >= 2:
            return (e[0], e[1])
        if not e:
            return None
        other = [c for c in self.candidates() if c != e[0]]
        return (e[0], other[0]) if other else None

    def pv_from(self, a: int, b: int, limit: int) -> list[tuple[int, int]]:
        """The principal variation: ``(a, b)`` then the transposition table's best moves."""
        line = [(a, b)]
        placed: list[tuple[int, int, int]] = []
        s0 = self.side
        s = s0
        self.place(a, s)
        self.place(b, s)
        placed.append((a, b, s))
        s = 1 - s
        while len(line) < limit and self.nthreat[s] == 0:
            key = self.key ^ (SIDE_KEY if s else 0)
            e = self.tt[key & self.tt_mask]
            if e is None or e[0] != key or e[4] < 0:
                break
            ea, eb = e[4], e[5]
            if self.grid[ea] or self.grid[eb]:
                break
            line.append((ea, eb))
            self.place(ea, s)
            self.place(eb, s)
            placed.append((ea, eb, s))
            s = 1 - s
        for pa, pb, ps in reversed(placed):
            self.undo(pb, ps)
            self.undo(pa, ps)
        return line

    def defences(self, moves: list[tuple[int, int]]) -> list[tuple[int, int]]:
        """``moves`` less those after which the opponent still has a threat-space win, when the opponent has one
        now: the quiet turns shown to refute it (the root's own, then turns through the cells of its first attacking turn;
        those the node bound left unchecked are dropped: an unverified turn is no answer to a proven win). Unchanged
        when none refutes it (the game is lost anyway)."""
        s = self.side
        o = 1 - s
        threat = self.tss_win(o)
        if threat is None:
            return moves
        (ta, tb), _ = threat
        cands = list(moves)
        seen = set(cands)
        extra = [(ta, tb)] + [(min(x, c), max(x, c)) for x in (ta, tb) for _, c in self.top_cells(s, K_ROOT) if c != x]
        for m in extra:
            if m not in seen:
                seen.add(m)
                cands.append(m)
        refuting: list[tuple[int, int]] = []
        for a, b in cands:
            if self.tss_left <= 0:
                break
            self.place(a, s)
            self.place(b, s)
            # a turn making a threat of its own only delays the combination (it stands after the block): no answer
            lost = self.nthreat[s] > 0 or self.tss_win(o) is not None
            spent = self.tss_left <= 0
            self.undo(b, s)
            self.undo(a, s)
            if spent:
                break
            if not lost:
                refuting.append((a, b))
        return refuting if refuting else moves

    def run(self, max_depth: int, max_nodes: int, seconds: float, stop: StopFlag | None, tss_nodes: int = 0) -> Result:
        """Iterative deepening: (best move, score for the side to move, depth completed, nodes, pv, root scores).

        The move is in board coordinates ``(q1, r1, q2, r2)``; root scores are ``(q1, r1, q2, r2, score)`` best
        first (exact for the best move, upper bounds for the others). ``max_nodes`` and ``max_depth`` make it
        deterministic; ``seconds`` (> 0) and ``stop`` bound it in play.
        """
        self.max_nodes = max_nodes
        self.deadline = time.monotonic() + seconds if seconds > 0 else 0.0
        self.stop = stop
        s = self.side
        if self.minx > self.maxx:
            return (None, 0, 0, 0, [], [])
        win = self.winning_pair() if self.nthreat[s] > 0 else None
        if win is not None:
            mv = self.coords(win[0], win[1])
            return (mv, WIN, 1, 1, [mv], [(*mv, WIN)])
        self.tss_left = tss_nodes
        self.tss_deadline = time.monotonic() + seconds * TSS_SHARE if seconds > 0 else 0.0
        if tss_nodes > 0:
            found = self.tss_win(s)
            if found is not None:
                (a, b), turns = found
                mv = self.coords(a, b)
                return (mv, WIN - 2 * turns, turns, self.nodes, [mv], [(*mv, WIN - 2 * turns)])
        moves = self.root_moves()
        if not moves:
            return (None, 0, 0, 0, [], [])
        if tss_nodes > 0 and self.nthreat[s] == 0 and self.nthreat[1 - s] == 0:
            moves = self.defences(moves)
        scores = [-INF] * len(moves)
        best = moves[0]
        best_score = -INF
        depth_done = 0
        for depth in range(1, max_depth + 1):
            alpha = -INF
            it_best = (-1, -1)
            it_score = -INF
            new_scores = [-INF] * len(moves)
            complete = True
            try:
                for i, (a, b) in enumerate(moves):
                    self.place(a, s)
                    self.place(b, s)
                    self.side = 1 - s
                    try:
                        if i == 0:
                            v = -self.alphabeta(depth - 1, -INF, -alpha, 1)
                        else:
                            v = -self.alphabeta(depth - 1, -alpha - 1, -alpha, 1)
                            if v > alpha:
                                v = -self.alphabeta(depth - 1, -INF, -alpha, 1)
                    finally:
                        self.side = s
                        self.undo(b, s)
                        self.undo(a, s)
                    new_scores[i] = v
                    if v > it_score:
                        it_score = v
                        it_best = (a, b)
                        if v > alpha:
                            alpha = v
            except _Aborted:
                complete = False
            if not complete:
                # moves searched in full at this depth are sound; the first one is the previous best
                if it_best[0] >= 0 and (new_scores[0] > -INF or depth_done == 0):
                    best = it_best
                    best_score = it_score
                break
            depth_done = depth
            order = sorted(range(len(moves)), key=lambda i: -new_scores[i])
            moves = [moves[i] for i in order]
            scores = [new_scores[i] for i in order]
            best = moves[0]
            best_score = scores[0]
            if best_score > WIN - MATE_BAND or best_score < -(WIN - MATE_BAND):
                break
        if best_score == -INF:
            best_score = 0
        pv = [self.coords(a, b) for a, b in self.pv_from(best[0], best[1], 8)]
        root = [(*self.coords(a, b), sc) for (a, b), sc in zip(moves, scores, strict=True) if sc > -INF]
        return (self.coords(best[0], best[1]), best_score, depth_done, self.nodes, pv, root)

    def coords(self, a: int, b: int) -> tuple[int, int, int, int]:
        return (a % N + self.q0, a // N + self.r0, b % N + self.q0, b // N + self.r0)


def search(
    stones: list[tuple[int, int, int]],
    to_move: int,
    win_distance: int,
    near: int,
    max_depth: int,
    max_nodes: int,
    seconds: float,
    stop: StopFlag | None,
    tt_bits: int = 18,
    tss_nodes: int = 0,
    table: Table | None = None,
) -> Result:
    """One search (see ``PySearch.run``); the same signature and result as ``_csearch.search``. ``tss_nodes`` > 0
    first runs the threat-space search at the root within that many positions: a win it finds is played, and a
    win it finds for the opponent keeps the root to the turns that refute it. ``table`` is the evaluation table
    (``check_table``; None: ``W``'s)."""
    return PySearch(stones, to_move, win_distance, near, tt_bits, table).run(
        max_depth, max_nodes, seconds, stop, tss_nodes
    )
