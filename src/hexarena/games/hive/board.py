"""The fast mutable Hive core: board, move generation, play/undo, Zobrist hashing, perft.

Why a mutable core: search (perft, alpha-beta) needs play/undo without copying, while the referee's immutable
``HiveState`` wraps a private snapshot of this board. ``PyBoard`` is pure Python tuned for CPython and is the
reference; ``Board`` is ``CBoard`` (move generation in C, same state) when the extension is built (accel.py).
The representation: cells are plain ints, stacks are tuples in a dict (absent key = empty cell), and moves
are ``(piece, dest)`` pairs, which is exactly UHP's notion of a distinct move (the same piece reaching the same
cell by its own move and by a Pillbug throw is one move).

Cells: axial hex coordinates ``(q, r)`` packed as ``q * K + r`` (unbounded: a hive can drift anywhere).
Orientation follows UHP/Mzinga (pointy-topped): E = (+1, 0), SE = (0, +1), SW = (-1, +1), W = (-1, 0),
NW = (0, -1), NE = (+1, -1); ``DIRS`` lists them in that clockwise order, so neighbouring entries are the two
cells flanking a step (the "gate" of the freedom-to-move rule).

Rule conventions (docs/games/hive.md, identical to Mzinga and nokamute so perft matches): no queen on a
player's first turn; queen by the fourth; no movement (nor Pillbug ability) before one's own queen is placed;
identical bugs enter in number order; no legal move means a pass; both queens surrounded at once is a draw;
the piece moved last (by any means) can neither move, be thrown, nor throw on the next turn; a Mosquito on a
stack is a Beetle and has no Pillbug ability; a pinned (articulation) Pillbug may still throw; climbing
moves obey height gates (a step at level ``max(h_src, h_dst)`` is blocked when both flanking stacks are
higher).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from hexarena.games.hive import accel

K = 1 << 20
E, SE, SW, W, NW, NE = K, 1, 1 - K, -K, -1, K - 1
DIRS: tuple[int, ...] = (E, SE, SW, W, NW, NE)
ORIGIN = 0

# Bug kinds and piece ids. A piece id is ``colour << 4 | index`` (colour 0 white, 1 black).
Q, S, B, G, A, M, L, P = range(8)
KIND_LETTERS = "QSBGAMLP"
_INDEX_KINDS = (Q, S, S, B, B, G, G, G, A, A, A, M, L, P)
_INDEX_NUMS = (0, 1, 2, 1, 2, 1, 2, 3, 1, 2, 3, 0, 0, 0)
FIRST_INDEX = (0, 1, 3, 5, 8, 11, 12, 13)  # by kind
KIND_COUNT = (1, 2, 2, 3, 3, 1, 1, 1)
EXPANSION_KIND = {"M": M, "L": L, "P": P}
N_PIECES = 32

KIND: list[int] = [-1] * N_PIECES
NUMBER: list[int] = [0] * N_PIECES
NAME: list[str] = [""] * N_PIECES
for _c in (0, 1):
    for _i in range(14):
        _pid = _c << 4 | _i
        KIND[_pid] = _INDEX_KINDS[_i]
        NUMBER[_pid] = _INDEX_NUMS[_i]
        NAME[_pid] = "wb"[_c] + KIND_LETTERS[_INDEX_KINDS[_i]] + (str(_INDEX_NUMS[_i]) if _INDEX_NUMS[_i] else "")
PID_OF_NAME: dict[str, int] = {NAME[p]: p for p in range(N_PIECES) if NAME[p]}

Move = tuple[int, int]  # (piece id, destination cell); PASS for a pass
PASS: Move = (-1, 0)


def _slide_table() -> list[tuple[int, ...]]:
    """For each 6-bit occupancy mask around a cell, the steps a ground crawler may take from it.

    A step to neighbour ``i`` is allowed when that cell is empty and exactly one of its two flanking cells is
    occupied: both occupied is a gate, neither means the mover would lose contact with the hive.
    """
    table = []
    for mask in range(64):
        steps = []
        for i in range(6):
            if mask >> i & 1:
                continue
            left = mask >> ((i - 1) % 6) & 1
            right = mask >> ((i + 1) % 6) & 1
            if left != right:
                steps.append(DIRS[i])
        table.append(tuple(steps))
    return table


SLIDES = _slide_table()
ADJ = frozenset(DIRS)
_M64 = (1 << 64) - 1


def _mix(x: int) -> int:
    """splitmix64 finaliser: deterministic pseudo-random 64-bit keys without a table for unbounded cells."""
    x = (x + 0x9E3779B97F4A7C15) & _M64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _M64
    return x ^ (x >> 31)


_ZCACHE: dict[int, int] = {}


def zkey(pid: int, cell: int, level: int) -> int:
    """Zobrist key of piece ``pid`` at ``cell`` on stack level ``level`` (0 = ground)."""
    k = (cell << 10) | (pid << 4) | level
    v = _ZCACHE.get(k)
    if v is None:
        if len(_ZCACHE) > 1_000_000:
            _ZCACHE.clear()
        v = _ZCACHE[k] = _mix(k)
    return v


SIDE_KEY = _mix(0x51DE)


def qr(cell: int) -> tuple[int, int]:
    """Axial ``(q, r)`` of a packed cell."""
    q = (cell + K // 2) // K
    return q, cell - q * K


def cell_at(q: int, r: int) -> int:
    """Packed cell of axial ``(q, r)``."""
    return q * K + r


def kinds_of(expansions: str) -> tuple[int, ...]:
    """The bug kinds in play for an expansion string such as ``"MLP"``."""
    return (Q, S, B, G, A, *(EXPANSION_KIND[x] for x in "MLP" if x in expansions))


class PyBoard:
    """Mutable Hive position. ``play``/``undo`` are O(1); ``moves`` is O(pieces x reach).

    The pure-Python reference; ``Board`` is ``CBoard`` (the same board with C move generation) when the
    extension is built, see accel.py.
    """

    __slots__ = (
        "_cut_cache",
        "_slide_cache",
        "expansions",
        "history",
        "kinds",
        "ply",
        "pos",
        "stacks",
        "stunned",
        "zh",
    )

    def __init__(self, expansions: str = "MLP") -> None:
        self.expansions = "".join(x for x in "MLP" if x in expansions)
        self.kinds = kinds_of(self.expansions)
        self.stacks: dict[int, tuple[int, ...]] = {}
        self.pos: list[int | None] = [None] * N_PIECES
        self.ply = 0
        self.stunned = -1  # the piece moved last: frozen for the next turn
        self.zh = 0
        self.history: list[tuple[int, int | None, int, int]] = []
        self._cut_cache: dict[int, frozenset[int]] = {}
        self._slide_cache: dict[int, list[int]] = {}

    def copy(self) -> Board:
        """An independent copy of the same class (stacks are tuples, so a shallow dict copy suffices)."""
        b = type(self).__new__(type(self))
        b.expansions = self.expansions
        b.kinds = self.kinds
        b.stacks = dict(self.stacks)
        b.pos = list(self.pos)
        b.ply = self.ply
        b.stunned = self.stunned
        b.zh = self.zh
        b.history = list(self.history)
        b._cut_cache = {}
        b._slide_cache = {}
        return b

    # ----------------------------------------------------------------- state queries
    @property
    def to_move(self) -> int:
        return self.ply & 1

    def key(self) -> int:
        """Position hash for transposition tables: board, side to move, frozen piece, opening turn."""
        k = self.zh ^ (SIDE_KEY if self.ply & 1 else 0) ^ _mix(self.stunned + 0x100)
        if self.ply < 8:
            k ^= _mix(0x7700 + self.ply)
        return k

    def height(self, cell: int) -> int:
        return len(self.stacks.get(cell, ()))

    def queen_neighbours(self, color: int) -> int:
        """Occupied cells around ``color``'s queen (0 if it is not on the board)."""
        c = self.pos[color << 4]
        if c is None:
            return 0
        stacks = self.stacks
        # unrolled: search asks this at every node (``result``)
        return (
            (c + E in stacks)
            + (c + SE in stacks)
            + (c + SW in stacks)
            + (c + W in stacks)
            + (c + NW in stacks)
            + (c + NE in stacks)
        )

    def result(self) -> int:
        """-1 while the game goes on, 0 white wins, 1 black wins, 2 draw (both queens surrounded)."""
        qn = self.queen_neighbours
        w = qn(0) == 6
        b = qn(1) == 6
        if w and b:
            return 2
        if b:
            return 0
        if w:
            return 1
        return -1

    def in_hand(self, color: int, kind: int) -> int:
        """How many bugs of ``kind`` ``color`` still holds."""
        if kind not in self.kinds:
            return 0
        base = color << 4 | FIRST_INDEX[kind]
        return sum(1 for p in range(base, base + KIND_COUNT[kind]) if self.pos[p] is None)

    def next_piece(self, color: int, kind: int) -> int:
        """The lowest-numbered bug of ``kind`` in ``color``'s hand, or -1."""
        if kind not in self.kinds:
            return -1
        base = color << 4 | FIRST_INDEX[kind]
        for p in range(base, base + KIND_COUNT[kind]):
            if self.pos[p] is None:
                return p
        return -1

    # ----------------------------------------------------------------- play / undo
    def play(self, move: Move) -> None:
        """Apply a legal move (no legality check here: callers use ``moves``)."""
        pid, dest = move
        prev = self.stunned
        if pid < 0:
            self.history.append((-1, None, 0, prev))
            self.stunned = -1
            self.ply += 1
            return
        stacks = self.stacks
        src = self.pos[pid]
        zh = self.zh
        if src is not None:
            st = stacks[src]
            zh ^= zkey(pid, src, len(st) - 1)
            if len(st) == 1:
                del stacks[src]
            else:
                stacks[src] = st[:-1]
        st2 = stacks.get(dest)
        if st2 is None:
            stacks[dest] = (pid,)
            zh ^= zkey(pid, dest, 0)
        else:
            zh ^= zkey(pid, dest, len(st2))
            stacks[dest] = (*st2, pid)
        self.zh = zh
        self.pos[pid] = dest
        self.history.append((pid, src, dest, prev))
        self.stunned = pid
        self.ply += 1

    def undo(self) -> None:
        """Take back the last move."""
        pid, src, dest, prev = self.history.pop()
        self.ply -= 1
        self.stunned = prev
        if pid < 0:
            return
        stacks = self.stacks
        st = stacks[dest]
        zh = self.zh ^ zkey(pid, dest, len(st) - 1)
        if len(st) == 1:
            del stacks[dest]
        else:
            stacks[dest] = st[:-1]
        if src is not None:
            st2 = stacks.get(src)
            if st2 is None:
                stacks[src] = (pid,)
                zh ^= zkey(pid, src, 0)
            else:
                zh ^= zkey(pid, src, len(st2))
                stacks[src] = (*st2, pid)
        self.zh = zh
        self.pos[pid] = src

    # ----------------------------------------------------------------- move generation
    def placement_kinds(self) -> list[int]:
        """Piece ids the side to move may place now (one per kind: the lowest number in hand)."""
        color = self.ply & 1
        turn = self.ply >> 1
        queen_in_hand = self.pos[color << 4] is None
        out = []
        for kind in self.kinds:
            if turn == 0 and kind == Q:
                continue  # tournament rule: no queen on the first turn
            if turn >= 3 and queen_in_hand and kind != Q:
                continue  # the queen must be down by the fourth turn
            p = self.next_piece(color, kind)
            if p >= 0:
                out.append(p)
        return out

    def placement_cells(self) -> list[int]:
        """Empty cells touching the mover's pieces and none of the opponent's (first two turns: special)."""
        stacks = self.stacks
        if not stacks:
            return [ORIGIN]
        if self.ply == 1 or len(stacks) == 1:
            only = next(iter(stacks))
            return [only + d for d in DIRS]
        color = self.ply & 1
        own: set[int] = set()
        bad: set[int] = set()
        for c, st in stacks.items():
            if st[-1] >> 4 == color:
                own.update([c + E, c + SE, c + SW, c + W, c + NW, c + NE])
            else:
                bad.update([c + E, c + SE, c + SW, c + W, c + NW, c + NE])
        return [c for c in own if c not in bad and c not in stacks]

    def cut_cells(self) -> frozenset[int]:
        """Cells whose single piece holds the hive together (articulation points), cached by board hash."""
        cached = self._cut_cache.get(self.zh)
        if cached is not None:
            return cached
        stacks = self.stacks
        cut: set[int] = set()
        if len(stacks) > 2:
            num: dict[int, int] = {}
            low: dict[int, int] = {}

            def dfs(c: int, parent: int | None) -> None:
                # Tarjan: c is a cut vertex if some DFS child cannot reach above c without passing it.
                n = num[c] = len(num)
                lc = n
                children = 0
                for d in DIRS:
                    nb = c + d
                    if nb == parent or nb not in stacks:
                        continue
                    x = num.get(nb)
                    if x is None:
                        dfs(nb, c)
                        children += 1
                        ln = low[nb]
                        if ln < lc:
                            lc = ln
                        if ln >= n and parent is not None:
                            cut.add(c)
                    elif x < lc:
                        lc = x
                low[c] = lc
                if parent is None and children > 1:
                    cut.add(c)

            dfs(next(iter(stacks)), None)
        out = frozenset(c for c in cut if len(stacks[c]) == 1)
        if len(self._cut_cache) > 50_000:
            self._cut_cache.clear()
        self._cut_cache[self.zh] = out
        return out

    def _slides(self, c: int) -> list[int]:
        stacks = self.stacks
        mask = (
            (c + E in stacks)
            | (c + SE in stacks) << 1
            | (c + SW in stacks) << 2
            | (c + W in stacks) << 3
            | (c + NW in stacks) << 4
            | (c + NE in stacks) << 5
        )
        return [c + d for d in SLIDES[mask]]

    def _nbrs(self, c: int, src: int) -> list[int]:
        """``_slides(c)`` while the piece from ``src`` is lifted, memoised for the current position.

        Only cells next to ``src`` see the lifted piece's absence, so every other cell's steps are the same
        for all pieces of one position and are cached (``movement_dests`` clears the cache).
        """
        if c - src in ADJ:
            return self._slides(c)
        cache = self._slide_cache
        out = cache.get(c)
        if out is None:
            out = cache[c] = self._slides(c)
        return out

    def _ant(self, src: int) -> set[int]:
        seen = {src}
        todo = [src]
        pop = todo.pop
        push = todo.append
        add = seen.add
        cache = self._slide_cache
        slides = self._slides
        while todo:
            c = pop()
            if c - src in ADJ:
                nbrs = slides(c)
            else:
                nbrs = cache.get(c)  # type: ignore[assignment]
                if nbrs is None:
                    nbrs = cache[c] = slides(c)
            for n in nbrs:
                if n not in seen:
                    add(n)
                    push(n)
        seen.discard(src)
        return seen

    def _spider(self, src: int) -> set[int]:
        out: set[int] = set()
        nbrs = self._nbrs
        for n1 in nbrs(src, src):
            for n2 in nbrs(n1, src):
                if n2 == src:
                    continue
                for n3 in nbrs(n2, src):
                    if n3 != src and n3 != n1:
                        out.add(n3)
        return out

    def _jumps(self, src: int) -> list[int]:
        stacks = self.stacks
        out = []
        for d in DIRS:
            c = src + d
            if c in stacks:
                c += d
                while c in stacks:
                    c += d
                out.append(c)
        return out

    def _climb_steps(self, src: int, occupied_only: bool = False, empty_only: bool = False) -> list[int]:
        """Beetle-style single steps from ``src`` (mover already lifted off it), with height gates."""
        stacks = self.stacks
        hs = len(stacks.get(src, ()))
        hts = [len(stacks.get(src + d, ())) for d in DIRS]
        out = []
        for i in range(6):
            hn = hts[i]
            if occupied_only and not hn:
                continue
            if empty_only and hn:
                continue
            barrier = hs if hs > hn else hn
            hl = hts[i - 1]
            hr = hts[(i + 1) % 6]
            if barrier == 0:
                if (hl > 0) != (hr > 0):
                    out.append(src + DIRS[i])
            elif hl <= barrier or hr <= barrier:
                out.append(src + DIRS[i])
        return out

    def _ladybug(self, src: int) -> set[int]:
        out: set[int] = set()
        steps = self._climb_steps
        seen2: set[int] = set()
        for s1 in steps(src, occupied_only=True):
            for s2 in steps(s1, occupied_only=True):
                if s2 in seen2:
                    continue
                seen2.add(s2)
                for s3 in steps(s2, empty_only=True):
                    if s3 != src:
                        out.add(s3)
        return out

    def _throws(self, user: int, cut: frozenset[int], out: dict[int, set[int]]) -> None:
        """Pillbug ability from ``user``: lift an unpinned, unstunned lone neighbour over it to an empty one."""
        stacks = self.stacks
        hu = len(stacks[user])
        hts = [len(stacks.get(user + d, ())) for d in DIRS]
        starts = []
        ends = []
        for i in range(6):
            hn = hts[i]
            barrier = hu if hu > hn else hn
            if hts[i - 1] > barrier and hts[(i + 1) % 6] > barrier:
                continue
            c = user + DIRS[i]
            if hn == 0:
                ends.append(c)
            elif hn == 1 and c not in cut and stacks[c][0] != self.stunned:
                starts.append(stacks[c][0])
        if starts and ends:
            for p in starts:
                s = out.get(p)
                if s is None:
                    out[p] = set(ends)
                else:
                    s.update(ends)

    def movement_dests(self, throws: dict[int, dict[int, set[int]]] | None = None) -> dict[int, set[int]]:
        """Every movement (including Pillbug throws) of the side to move, as piece -> destination cells.

        With ``throws`` given, Pillbug-ability moves are kept apart in it (user cell -> victim -> cells)
        instead of being merged into the result (Trylobot lists them as their own turn type).
        """
        color = self.ply & 1
        out: dict[int, set[int]] = {}
        pos = self.pos
        if pos[color << 4] is None:
            return out
        stacks = self.stacks
        cut = self.cut_cells()
        stunned = self.stunned
        self._slide_cache = {}
        base = color << 4
        for pid in range(base, base + 14):
            src = pos[pid]
            if src is None or pid == stunned:
                continue
            st = stacks[src]
            if st[-1] != pid:
                continue
            kind = KIND[pid]
            if len(st) > 1:
                stacks[src] = st[:-1]
                dests = self._climb_steps(src)
                stacks[src] = st
                if dests:
                    out.setdefault(pid, set()).update(dests)
                continue
            near: set[int] = set()
            if kind == M:
                for d in DIRS:
                    n = stacks.get(src + d)
                    if n is not None:
                        near.add(KIND[n[-1]])
                near.discard(M)
                if not near:
                    continue
            if kind == P or P in near:
                if throws is None:
                    self._throws(src, cut, out)
                else:
                    mine: dict[int, set[int]] = {}
                    self._throws(src, cut, mine)
                    if mine:
                        throws[src] = mine
            if src in cut:
                continue
            del stacks[src]
            try:
                res: Iterable[int]
                if kind == A:
                    res = self._ant(src)
                elif kind in (Q, P):
                    res = self._slides(src)
                elif kind == S:
                    res = self._spider(src)
                elif kind == G:
                    res = self._jumps(src)
                elif kind == B:
                    res = self._climb_steps(src)
                elif kind == L:
                    res = self._ladybug(src)
                else:
                    res = self._mosquito(src, near)
            finally:
                stacks[src] = st
            if res:
                s = out.get(pid)
                if s is None:
                    out[pid] = set(res)
                else:
                    s.update(res)
        return out

    def _mosquito(self, src: int, near: set[int]) -> set[int]:
        res: set[int] = set()
        if A in near:
            res |= self._ant(src)
        else:
            if Q in near or P in near:
                res.update(self._slides(src))
            if S in near:
                res |= self._spider(src)
        if G in near:
            res.update(self._jumps(src))
        if B in near:
            res.update(self._climb_steps(src))
        if L in near:
            res |= self._ladybug(src)
        return res

    def moves(self) -> list[Move]:
        """Every legal move, each ``(piece, destination)`` once; ``[PASS]`` when none; ``[]`` if over.

        The order is unspecified and may change between calls: generation lifts each mover off ``stacks`` and
        puts it back, which moves its key to the end of the dict (and fills this board's caches). So never
        call it on a board another thread or state can see; ``HiveGame.legal`` works on a copy and sorts.
        """
        if self.result() >= 0:
            return []
        out: list[Move] = []
        kinds = self.placement_kinds()
        if kinds:
            cells = self.placement_cells()
            out = [(p, c) for c in cells for p in kinds]
        if self.ply >= 2:
            for pid, dests in self.movement_dests().items():
                out += [(pid, d) for d in dests]
        return out or [PASS]

    def count_moves(self) -> int:
        """``len(self.moves())`` without building the list (perft bulk counting)."""
        if self.result() >= 0:
            return 0
        n = 0
        kinds = self.placement_kinds()
        if kinds:
            n = len(kinds) * len(self.placement_cells())
        if self.ply >= 2:
            for dests in self.movement_dests().values():
                n += len(dests)
        return n or 1


def _no_c(*_args: object) -> None:
    """Stands in for a ``_chive`` function when the extension is not built: the Python method then runs."""
    return None


if accel.available():
    from hexarena.games.hive import _chive

    _c_moves, _c_count_moves, _c_cut_cells = _chive.moves, _chive.count_moves, _chive.cut_cells
else:  # pragma: no cover - exercised only where the extension is not built
    _c_moves = _c_count_moves = _c_cut_cells = _no_c


class CBoard(PyBoard):
    """``PyBoard`` with ``moves``, ``count_moves`` and ``cut_cells`` in C (``_chive``), same state, same move sets.

    The C functions answer None for a board they cannot take (see ``_chive.c``); the Python methods then do.
    """

    __slots__ = ()

    def cut_cells(self) -> frozenset[int]:
        cached = self._cut_cache.get(self.zh)
        if cached is not None:
            return cached
        out = _c_cut_cells(self.stacks)
        if out is None:
            return PyBoard.cut_cells(self)
        if len(self._cut_cache) > 50_000:
            self._cut_cache.clear()
        self._cut_cache[self.zh] = out
        return out

    def moves(self) -> list[Move]:
        out = _c_moves(self.stacks, self.pos, self.ply, self.stunned, self.kinds)
        return PyBoard.moves(self) if out is None else out

    def count_moves(self) -> int:
        n = _c_count_moves(self.stacks, self.pos, self.ply, self.stunned, self.kinds)
        return PyBoard.count_moves(self) if n is None else n


# The board every caller gets: C move generation when built and not switched off; type checkers see PyBoard.
if TYPE_CHECKING:
    Board = PyBoard
else:
    Board = CBoard if accel.enabled() else PyBoard


def perft(board: Board, depth: int) -> int:
    """Leaf count of the legal-move tree to ``depth`` (bulk-counted at the last ply)."""
    if depth <= 0:
        return 1
    if depth == 1:
        return board.count_moves()
    total = 0
    for m in board.moves():
        board.play(m)
        total += perft(board, depth - 1)
        board.undo()
    return total
