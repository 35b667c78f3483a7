"""The Hex MCTS engine, pure-Python reference: UCT + RAVE, bridge-saving playouts, priors, an MCTS solver.

``_cmcts.c`` is a step-for-step port of this file (used when built, unless ``HEXARENA_PURE_PYTHON=1``); the tests
run both with the same seed and iteration count and require the same tree statistics. Change one, change the other.

Why each part (the Hex MCTS literature: MoHex, Arneson/Hayward/Henderson 2010; Gelly/Silver 2007 for RAVE):

* **Playouts** play the empty cells in random order (an xorshift64* generator, so C and Python draw the same
  numbers), except that a move intruding into a *bridge* of the side to play -- two of its stones, or a stone and
  its own edge (the level-2 edge template), with two empty common neighbours -- is answered at once in the other
  carrier cell. Uniform playouts let every bridge be cut half the time, which makes them judge any shape built
  from bridges (i.e. every good Hex shape) as weak. The board is filled to the end and the winner read once by a
  flood fill: on a full Hex board exactly one side connects, the one that connected first.
* **RAVE / AMAF**: a cell that won when played *anywhere later* in a simulation by the same colour is probably good
  now; in Hex this is especially true (a stone's value hardly depends on move order). A child's value blends its
  AMAF mean into its own mean with weight ``beta = rv / (rv + n + rv * n * RAVE_BIAS)`` (Silver's schedule):
  close to 1 while the child has few visits of its own, fading as they accumulate.
* **Priors**: children start with ``PRIOR_N`` virtual visits at a value from Hex knowledge: the reply that saves an
  intruded bridge, moves that form a bridge (or an edge template), moves next to the opponent's last stone.
* **Solver**: when a node is expanded, the cells that connect at once are computed for both sides. A side to move
  with such a cell has won (the node is proven); an opponent with two of them has won; an opponent with exactly
  one leaves a single sensible move (the block), so the node gets that one child. A side whose stones join its
  edges through bridges and edge templates with disjoint carriers (``virtually_connected``) has won too. Proofs are backed up MCTS-solver
  style: a child proven won for the side that chose it proves the parent; a parent all of whose children are lost
  is lost. Proven nodes end simulations without a playout, and the root plays a proven win when it has one.

Cells are flat indices ``r * size + c``; colours 1 (Black, top-bottom) and 2 (White, left-right). Node proofs
are from the point of view of the player who made the node's move: ``WIN`` (that player wins) or ``LOSS``.
"""

from __future__ import annotations

import math
import time
from functools import cache

from hexarena.bots.stopping import StopFlag

BLACK = 1
WHITE = 2
WIN = 1
LOSS = -1
#: Ring codes for the off-board neighbours of a cell: Black's two edges, White's two, and beyond a corner.
TOP, BOTTOM, LEFT, RIGHT, NOWHERE = -1, -2, -3, -4, -5
#: Neighbour offsets in circular order: consecutive entries are neighbours of each other, so the cells in
#: directions k and k+2 around a cell are a bridge whose carrier is that cell and the one in direction k+1.
RING = ((0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1), (1, 0))

#: UCT exploration constant (small: RAVE and the priors do most of the exploring).
EXPLORATION = 0.25
#: RAVE schedule's bias (Silver): larger fades the AMAF estimate sooner.
RAVE_BIAS = 0.0025
#: Virtual visits each child starts with, and the prior values by kind of move.
PRIOR_N = 8.0
PRIOR_SAVE = 0.9
PRIOR_BRIDGE = 0.65
PRIOR_NEAR = 0.55
PRIOR_PLAIN = 0.5
#: A leaf is expanded once it has had this many simulations of its own (the root at once).
EXPAND_AFTER = 2
#: Tree nodes one search may grow (each ~40 bytes in C): bounds memory whatever the budget.
MAX_NODES = 2_000_000
#: Iterations between reads of the clock and the stop flag: ~0.5 ms in C, ~5 ms here on 9x9. Only when the
#: search stops depends on it, never the tree, so the two engines may differ.
CHECK_EVERY = 8

MASK64 = (1 << 64) - 1


def _owner(code: int) -> int:
    """The colour an off-board ring code belongs to (0 for beyond a corner)."""
    if code in (TOP, BOTTOM):
        return BLACK
    if code in (LEFT, RIGHT):
        return WHITE
    return 0


def _code(size: int, r: int, c: int) -> int:
    """A cell's flat index, or the ring code of the edge it lies beyond."""
    rin, cin = 0 <= r < size, 0 <= c < size
    if rin and cin:
        return r * size + c
    if cin:
        return TOP if r < 0 else BOTTOM
    if rin:
        return LEFT if c < 0 else RIGHT
    return NOWHERE


@cache
def ring(size: int) -> tuple[int, ...]:
    """``6 * size * size`` codes: the six neighbours of every cell in ``RING`` order."""
    return tuple(_code(size, r + dr, c + dc) for r in range(size) for c in range(size) for dr, dc in RING)


@cache
def bridges(size: int) -> tuple[int, ...]:
    """``18 * size * size`` codes: per cell and direction k, (partner, carrier1, carrier2) of the bridge over the
    neighbours in directions k and k+1 (carriers -1 when one is off the board: no bridge there)."""
    out: list[int] = []
    for r in range(size):
        for c in range(size):
            for k in range(6):
                (a, b), (d, e) = RING[k], RING[(k + 1) % 6]
                c1, c2 = _code(size, r + a, c + b), _code(size, r + d, c + e)
                if c1 < 0 or c2 < 0:
                    out += (NOWHERE, -1, -1)
                else:
                    out += (_code(size, r + a + d, c + b + e), c1, c2)
    return tuple(out)


class Rng:
    """xorshift64*: tiny, fast in C, and bit-for-bit reproducible in Python."""

    __slots__ = ("s",)

    def __init__(self, seed: int) -> None:
        self.s = (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & MASK64 or 1

    def below(self, n: int) -> int:
        """An int in ``[0, n)`` from the high 32 bits of the next output."""
        s = self.s
        s ^= s >> 12
        s ^= (s << 25) & MASK64
        s ^= s >> 27
        self.s = s
        return (((s * 0x2545F4914F6CDD1D) & MASK64) >> 32) * n >> 32


def save_reply(board: bytearray, rg: tuple[int, ...], last: int, me: int) -> int:
    """The cell that restores a bridge (or edge template) of ``me`` that the stone at ``last`` intruded, else -1."""
    if last < 0:
        return -1
    base = 6 * last
    for k in range(6):
        b = rg[base + (k + 1) % 6]
        if b < 0 or board[b]:
            continue
        a, c = rg[base + k], rg[base + (k + 2) % 6]
        if (board[a] if a >= 0 else _owner(a)) == me and (board[c] if c >= 0 else _owner(c)) == me:
            return b
    return -1


def winner_of_full(board: bytearray, size: int, rg: tuple[int, ...]) -> int:
    """The colour connected on a full board (Black when its stones join top and bottom, else White)."""
    stack = [c for c in range(size) if board[c] == BLACK]
    seen = bytearray(size * size)
    for c in stack:
        seen[c] = 1
    last_row = size * (size - 1)
    while stack:
        x = stack.pop()
        if x >= last_row:
            return BLACK
        base = 6 * x
        for k in range(6):
            y = rg[base + k]
            if y >= 0 and not seen[y] and board[y] == BLACK:
                seen[y] = 1
                stack.append(y)
    return WHITE


def winning_cells(board: bytearray, size: int, rg: tuple[int, ...], colour: int) -> list[int]:
    """Empty cells (ascending) where a stone of ``colour`` connects its two edges at once."""
    n2 = size * size
    a, b = (TOP, BOTTOM) if colour == BLACK else (LEFT, RIGHT)
    reach = []
    for edge in (a, b):
        seen = bytearray(n2)
        stack = [x for x in range(n2) if board[x] == colour and edge in rg[6 * x : 6 * x + 6]]
        for x in stack:
            seen[x] = 1
        while stack:
            x = stack.pop()
            for k in range(6):
                y = rg[6 * x + k]
                if y >= 0 and not seen[y] and board[y] == colour:
                    seen[y] = 1
                    stack.append(y)
        reach.append(seen)
    ra, rb = reach
    out = []
    for x in range(n2):
        if board[x]:
            continue
        ta = tb = False
        for k in range(6):
            y = rg[6 * x + k]
            if y == a or (y >= 0 and ra[y]):
                ta = True
            if y == b or (y >= 0 and rb[y]):
                tb = True
        if ta and tb:
            out.append(x)
    return out


def _free(board: bytearray, used: bytearray, c1: int, c2: int) -> bool:
    return c1 >= 0 and not board[c1] and not board[c2] and not used[c1] and not used[c2]


def virtually_connected(board: bytearray, size: int, rg: tuple[int, ...], br: tuple[int, ...], colour: int) -> bool:
    """True when ``colour`` joins its edges through its stones, bridges and level-2 edge templates whose carriers
    (two empty cells each) are pairwise disjoint: whoever moves next, every intrusion into one carrier is answered
    in the other, so the connection cannot be stopped. Greedy (first found, first reserved), so it may miss a
    connection that exists, but what it finds is sound."""
    n2 = size * size
    a, b = (TOP, BOTTOM) if colour == BLACK else (LEFT, RIGHT)
    used = bytearray(n2)
    seen = bytearray(n2)
    stack = []
    for x in range(n2):
        if board[x] == colour and a in rg[6 * x : 6 * x + 6]:
            seen[x] = 1
            stack.append(x)
    for x in range(n2):
        if board[x] != colour or seen[x]:
            continue
        for k in range(6):
            q = 18 * x + 3 * k
            if br[q] == a and _free(board, used, br[q + 1], br[q + 2]):
                used[br[q + 1]] = used[br[q + 2]] = 1
                seen[x] = 1
                stack.append(x)
                break
    while stack:
        x = stack.pop()
        if b in rg[6 * x : 6 * x + 6]:
            return True
        for k in range(6):
            q = 18 * x + 3 * k
            if br[q] == b and _free(board, used, br[q + 1], br[q + 2]):
                return True
        for k in range(6):
            y = rg[6 * x + k]
            if y >= 0 and not seen[y] and board[y] == colour:
                seen[y] = 1
                stack.append(y)
        for k in range(6):
            q = 18 * x + 3 * k
            p = br[q]
            if p >= 0 and not seen[p] and board[p] == colour and _free(board, used, br[q + 1], br[q + 2]):
                used[br[q + 1]] = used[br[q + 2]] = 1
                seen[p] = 1
                stack.append(p)
    return False


def prior(
    board: bytearray, rg: tuple[int, ...], br: tuple[int, ...], cell: int, me: int, last: int, save: int
) -> float:
    """The prior value of ``me`` playing ``cell`` (see the module docstring)."""
    if cell == save:
        return PRIOR_SAVE
    base = 18 * cell
    for k in range(6):
        p, c1, c2 = br[base + 3 * k], br[base + 3 * k + 1], br[base + 3 * k + 2]
        if c1 >= 0 and not board[c1] and not board[c2] and (board[p] if p >= 0 else _owner(p)) == me:
            return PRIOR_BRIDGE
    if last >= 0 and last in rg[6 * cell : 6 * cell + 6]:
        return PRIOR_NEAR
    return PRIOR_PLAIN


class Tree:
    """The search tree as parallel arrays (node 0 is the root); children of a node are contiguous."""

    __slots__ = ("first", "move", "nchild", "proof", "real", "rv", "rw", "visits", "wins")

    def __init__(self) -> None:
        self.move = [-1]
        self.first = [-1]
        self.nchild = [0]
        self.visits = [0.0]
        self.wins = [0.0]
        self.rv = [0.0]
        self.rw = [0.0]
        self.real = [0]
        self.proof = [0]


def _expand(
    t: Tree,
    node: int,
    board: bytearray,
    size: int,
    rg: tuple[int, ...],
    br: tuple[int, ...],
    me: int,
    last: int,
    is_root: bool,
    max_nodes: int,
) -> None:
    """Give ``node`` (``me`` to move, ``last`` the move that led to it) its children, or a proof."""
    n2 = size * size
    mine = winning_cells(board, size, rg, me)
    if mine:
        cand = mine[:1]
        t.proof[node] = LOSS  # whoever moved into this node loses: ``me`` connects next
    else:
        theirs = winning_cells(board, size, rg, 3 - me)
        if len(theirs) >= 2:
            t.proof[node] = WIN
            if not is_root:
                return
            cand = theirs
        elif not is_root and virtually_connected(board, size, rg, br, me):
            t.proof[node] = LOSS  # (the root needs its children: the search finds the moves that keep it)
            return
        elif virtually_connected(board, size, rg, br, 3 - me):
            t.proof[node] = WIN
            if not is_root:
                return
            cand = theirs or [x for x in range(n2) if not board[x]]
        elif theirs:
            cand = theirs
        else:
            cand = [x for x in range(n2) if not board[x]]
    if len(t.move) + len(cand) > max_nodes:
        return
    save = save_reply(board, rg, last, me)
    t.first[node] = len(t.move)
    t.nchild[node] = len(cand)
    for x in cand:
        t.move.append(x)
        t.first.append(-1)
        t.nchild.append(0)
        t.visits.append(PRIOR_N)
        t.wins.append(PRIOR_N * prior(board, rg, br, x, me, last, save))
        t.rv.append(0.0)
        t.rw.append(0.0)
        t.real.append(0)
        t.proof.append(WIN if mine else 0)


def _select(t: Tree, node: int) -> int:
    """The child to descend into: a proven win at once, else the best UCT-RAVE score among unproven-lost ones
    (-1 when every child is lost)."""
    lg = math.log(t.real[node] + 1)
    best, best_v = -1, -1.0
    f = t.first[node]
    for c in range(f, f + t.nchild[node]):
        p = t.proof[c]
        if p == WIN:
            return c
        if p == LOSS:
            continue
        n = t.visits[c]
        q = t.wins[c] / n
        rv = t.rv[c]
        if rv > 0.0:
            beta = rv / (rv + n + rv * n * RAVE_BIAS)
            q = (1.0 - beta) * q + beta * t.rw[c] / rv
        v = q + EXPLORATION * math.sqrt(lg / n)
        if v > best_v:
            best, best_v = c, v
    return best


def _playout(board: bytearray, size: int, rg: tuple[int, ...], me: int, last: int, played: bytearray, rng: Rng) -> int:
    """Fill the board from here (``me`` to play) with bridge-saving random moves; the winner's colour."""
    n2 = size * size
    empties = [x for x in range(n2) if not board[x]]
    pos = [0] * n2
    for i, x in enumerate(empties):
        pos[x] = i
    count = len(empties)
    while count:
        x = save_reply(board, rg, last, me)
        if x < 0:
            x = empties[rng.below(count)]
        i = pos[x]
        count -= 1
        y = empties[count]
        empties[i] = y
        pos[y] = i
        board[x] = me
        played[x] = me
        last = x
        me = 3 - me
    return winner_of_full(board, size, rg)


def _best_child(t: Tree, node: int) -> int:
    """The child the bot would play at ``node`` (``mcts.MctsHexBot._pick``'s rule): the first proven win, else the
    most simulated child not proven lost (all of them when every one is), ties to the higher mean; -1 if none."""
    f = t.first[node]
    if f < 0:
        return -1
    kids = range(f, f + t.nchild[node])
    for c in kids:
        if t.proof[c] == WIN:
            return c
    alive = [c for c in kids if t.proof[c] != LOSS] or list(kids)
    best = -1
    for c in alive:
        if best < 0 or (t.real[c], t.wins[c] / t.visits[c]) > (t.real[best], t.wins[best] / t.visits[best]):
            best = c
    return best


def principal_line(t: Tree) -> list[int]:
    """The best line: from the root, the best child at each node (``_best_child``) while the search has played it
    at least once, so the line shows only what the search looked at, not the priors' guesses."""
    line: list[int] = []
    node = _best_child(t, 0)
    while node >= 0 and t.real[node] > 0:
        line.append(t.move[node])
        node = _best_child(t, node)
    return line


def search(
    size: int,
    cells: bytes,
    to_play: int,
    last: int,
    iterations: int,
    seconds: float,
    seed: int,
    should_stop: StopFlag | None = None,
    max_nodes: int = MAX_NODES,
) -> tuple[list[tuple[int, int, float, float, int]], int, int, int, list[int]]:
    """Search the position ``cells`` (colour per flat cell) with ``to_play`` to move, ``last`` the previous move's
    cell (-1 if none), for at most ``iterations`` simulations and ``seconds`` (0: no time limit).

    Returns ``(children, iterations_done, root_proof, tree_nodes, line)``: per root child ``(cell, simulations, wins,
    visits, proof)`` (``wins``/``visits`` include the prior; ``proof`` from the mover's, i.e. our, point of view), the
    root's proof from the opponent's point of view (``LOSS``: we have a proven win), and the best line's cells
    (``principal_line``).
    """
    n2 = size * size
    rg, br = ring(size), bridges(size)
    root_board = bytearray(cells[:n2])
    t = Tree()
    rng = Rng(seed)
    _expand(t, 0, root_board, size, rg, br, to_play, last, True, max(max_nodes, n2 + 1))
    deadline = time.perf_counter() + seconds
    done = 0
    while done < iterations and not t.proof[0]:
        if (
            done % CHECK_EVERY == 0
            and done
            and ((seconds > 0 and time.perf_counter() >= deadline) or (should_stop is not None and should_stop[0] != 0))
        ):
            break
        done += 1
        board = bytearray(root_board)
        played = bytearray(n2)
        node, me, prev = 0, to_play, last
        path = [0]
        while not t.proof[node]:
            if t.first[node] < 0:
                if t.real[node] < EXPAND_AFTER:
                    break
                _expand(t, node, board, size, rg, br, me, prev, False, max_nodes)
                if t.proof[node] or t.first[node] < 0:
                    break
            c = _select(t, node)
            if c < 0:
                t.proof[node] = WIN  # every reply loses for ``me``: whoever moved here wins
                break
            x = t.move[c]
            board[x] = me
            played[x] = me
            prev = x
            me = 3 - me
            node = c
            path.append(c)
        if t.proof[node]:
            winner = 3 - me if t.proof[node] == WIN else me
        else:
            winner = _playout(board, size, rg, me, prev, played, rng)
        # backpropagation (the root's mover is the opponent), AMAF for the children of every path node
        mover = 3 - to_play
        for u in path:
            t.visits[u] += 1.0
            t.real[u] += 1
            if winner == mover:
                t.wins[u] += 1.0
            f = t.first[u]
            if f >= 0:
                child_mover = 3 - mover
                won = 1.0 if winner == child_mover else 0.0
                for c in range(f, f + t.nchild[u]):
                    if played[t.move[c]] == child_mover:
                        t.rv[c] += 1.0
                        t.rw[c] += won
            mover = 3 - mover
        # solver backup, from the deepest proven node up
        i = len(path) - 1
        while i > 0 and t.proof[path[i]]:
            child, parent = path[i], path[i - 1]
            if t.proof[child] == WIN:
                t.proof[parent] = LOSS
            else:
                f = t.first[parent]
                if all(t.proof[c] == LOSS for c in range(f, f + t.nchild[parent])):
                    t.proof[parent] = WIN
                else:
                    break
            i -= 1
    f = t.first[0]
    children = (
        [(t.move[c], t.real[c], t.wins[c], t.visits[c], t.proof[c]) for c in range(f, f + t.nchild[0])]
        if f >= 0
        else []
    )
    return children, done, t.proof[0], len(t.move), principal_line(t)
