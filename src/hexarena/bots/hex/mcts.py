"""``mcts``: the strong Hex bot -- UCT with RAVE, Hex-aware priors and playouts, and an MCTS solver.

The engine is ``engine_py`` (the reference: read it for the algorithm) or its C port ``_cmcts`` (used when built,
unless ``HEXARENA_PURE_PYTHON=1``; ~120,000 simulations a CPU second on 9x9, ~35x the reference). This module gives
it a time budget, makes the decisions that are not a search (the opening stone and the swap), and reports what it
saw: ``last_evaluation`` (the win probability of the chosen move, proofs, simulations, the bar's ``heuristic``
from seat 0's point of view, and the best line ``pv``: the chosen move, then the reply the search would pick at
each node of its tree while it has played it, ``engine_py.principal_line``) and ``last_considerations`` (the most simulated root moves), which the
in-process player passes on to the referee, the store and the spectators.

Openings and the swap (swap rule on): every opening off the border wins for the first player on the usual
boards, so the second player swaps them; the first player therefore opens on the border, near the acute
corner on the opponent's edge (``a2``-style below 6x6, ``a3``-style above: the classic fair openings). On boards
small enough for the solver (3x3, 4x4) the swap decision is exact: the search proves the opening won or lost.
On 3x3, ``b1`` (row b, column 1) is a won opening, but the one a random opponent is least likely to punish (it
swaps once in nine; exact expectimax: 99.9 % for us, against 98.8 % for the centre).
"""

from __future__ import annotations

import importlib
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType

from hexarena.bots.hex import engine_py
from hexarena.bots.stopping import MAX_THINK_SECONDS, stop_flag, think_cap
from hexarena.bots.timing import CPU_SHARE, MatchLateness, SearchShare
from hexarena.core.game import Game
from hexarena.core.jsonvalue import JsonObject, JsonValue
from hexarena.games.accel_env import pure_python_forced
from hexarena.games.hex import SWAP, HexMove, HexState
from hexarena.games.hex.geometry import cell_tuples

SearchFn = Callable[..., tuple[list[tuple[int, int, float, float, int]], int, int, int, list[int]]]

#: Seconds a move may take when nobody gives a limit (no clock); ``think_cap`` bounds every budget.
NO_CLOCK_SECONDS = 1.0
#: Part of the budget the engine may search: at least half of it, or all but 0.2 s. The reserve is large because
#: on a loaded machine a thread can stop running for a tenth of a second or more at any moment, and that lateness
#: must fit in the reserve, not overrun the clock. The share also shrinks with the CPU share recent searches got
#: (``timing.CPU_SHARE``) and the bot's own remembered lateness (``timing.Lateness``).
SHARE = SearchShare(short=0.5, long=1.0, reserve=0.2, least=0.0005)
#: Root moves reported as considerations.
CONSIDERED = 8
#: Moves of the best line reported at most: its tail is a handful of simulations deep, and every reported move is
#: stored with the move's evaluation and sent to the spectators.
LINE_MOVES = 16
#: Tree nodes one search may grow (48 bytes each in C: 48 MB at most; ~250 bytes in the Python engine, which
#: gets MAX_NODES_PYTHON at most).
MAX_NODES = 1_000_000
MAX_NODES_PYTHON = 250_000
#: Below this value of our best reply (win probability) an opening on the border is swapped anyway.
SWAP_BELOW = 0.42
#: Up to this size an unproven swap decision follows the search's value alone.
SMALL_BOARD = 4


def _load_c() -> ModuleType | None:
    if pure_python_forced():
        return None
    try:
        return importlib.import_module("hexarena.bots.hex._cmcts")
    except ImportError:
        return None


_CMCTS = _load_c()
#: "C" or "Python": which engine ``mcts`` uses by default.
IMPLEMENTATION = "C" if _CMCTS is not None else "Python"


def engine(implementation: str | None = None) -> SearchFn:
    """The search function: ``"C"``, ``"Python"`` or None for the default (C when built)."""
    if implementation == "Python" or (implementation is None and _CMCTS is None):
        return engine_py.search
    if _CMCTS is None:
        raise RuntimeError("the C Hex MCTS engine is not built (or HEXARENA_PURE_PYTHON is set)")
    fn: SearchFn = _CMCTS.search
    return fn


def opening_cell(size: int) -> tuple[int, int]:
    """The first player's opening stone when the swap rule is on (see the module docstring)."""
    if size <= 2:
        return (size - 1, 0)
    return (1, 0) if size <= 5 else (2, 0)


@dataclass(slots=True)
class SearchStats:
    """What the last ``choose`` did (for tests, logs and the benchmark)."""

    iterations: int = 0
    seconds: float = 0.0
    best_rate: float = 0.0
    swapped: bool = False
    nodes: int = 0
    proven: int = 0  # +1: a proven win for the bot, -1: a proven loss, 0: not proven


class MctsHexBot(MatchLateness):
    """EngineBot: MCTS with RAVE, priors, bridge-saving playouts and a solver. ``iterations`` caps the simulations
    (deterministic given the rng); otherwise the time budget decides. Whatever either says, a search stops after
    ``think_cap`` seconds, at ``max_nodes`` tree nodes it stops growing, and it returns as soon as its caller asks
    (``stop_flag``)."""

    name = "mcts"

    def __init__(
        self,
        iterations: int | None = None,
        default_time: float = NO_CLOCK_SECONDS,
        implementation: str | None = None,
        max_nodes: int = MAX_NODES,
        openings: bool = True,
    ) -> None:
        if iterations is not None and iterations < 1:
            raise ValueError(f"iterations must be at least 1, got {iterations!r}")
        self.iterations = iterations
        self.default_time = default_time
        self.openings = openings
        self.search = engine(implementation)
        self.implementation = "Python" if self.search is engine_py.search else "C"
        self.max_nodes = max_nodes if self.implementation == "C" else min(max_nodes, MAX_NODES_PYTHON)
        self.stats = SearchStats()
        self.last_evaluation: JsonObject | None = None
        self.last_considerations: list[JsonValue] | None = None
        self.new_match()  # how late this bot's searches returned in this match (``MatchLateness``)

    def budget(self, time_limit: float | None) -> float:
        """Seconds the engine may search for a move offered ``time_limit`` seconds (None: no clock)."""
        limit = think_cap(time_limit if time_limit is not None else min(self.default_time, MAX_THINK_SECONDS))
        return SHARE.seconds(limit, self.lateness, cpu=CPU_SHARE.factor())

    def choose(
        self, game: Game[HexState, HexMove], state: HexState, time_limit: float | None, rng: random.Random
    ) -> HexMove:
        begun = time.perf_counter()
        self.last_evaluation = None
        self.last_considerations = None
        seat = game.to_move(state)
        if seat is None:
            raise ValueError("the game is over")
        size = state.size
        cells_t = cell_tuples(size)
        if self.openings and state.swap and state.ply == 0:
            self.stats = SearchStats()
            opening = opening_cell(size)
            # no search, but still an evaluation for the bar: a fair opening is one the swap rule leaves even
            self.last_evaluation = {
                "heuristic": 0.0,
                "win_probability": 0.5,
                "move": game.format(opening),
                "book": "fair opening: the swap rule leaves it even",
                "engine": self.implementation,
            }
            return opening
        colour = state.colour_of(seat)
        last = state.last
        last_i = last[0] * size + last[1] if isinstance(last, tuple) else -1
        if self.iterations is not None:
            iterations, seconds = self.iterations, think_cap(None)
        else:
            iterations, seconds = 1 << 62, self.budget(time_limit)
        seconds = max(0.0005, seconds - (time.perf_counter() - begun))
        wall, cpu = time.perf_counter(), time.thread_time()
        children, done, root_proof, nodes, line = self.search(
            size, state.cells, colour, last_i, iterations, seconds, rng.getrandbits(63), stop_flag(), self.max_nodes
        )
        if self.iterations is None:
            self.lateness.record(time.perf_counter() - begun - seconds)
            CPU_SHARE.record(time.thread_time() - cpu, time.perf_counter() - wall)
        best = self._pick(children)
        move_i, _sims, wins, visits, proof = best
        value = 1.0 if proof == engine_py.WIN else 0.0 if root_proof == engine_py.WIN else wins / visits
        proven = 1 if proof == engine_py.WIN else -1 if root_proof == engine_py.WIN else 0
        self.stats = SearchStats(done, time.perf_counter() - begun, value, False, nodes, proven)
        move: HexMove = cells_t[move_i]
        if state.swap and state.ply == 1 and self._should_swap(state, value, root_proof):
            self.stats.swapped = True
            move, value = SWAP, 1.0 - value
            proven = -proven
            self.stats.proven = proven
            line = []  # the search's line is of the unswapped position
        pv = [game.format(cells_t[x]) for x in line[:LINE_MOVES]] if line and line[0] == move_i and move != SWAP else []
        self._report(game, state, seat, move, value, proven, children, done, nodes, pv)
        return move

    @staticmethod
    def _pick(children: list[tuple[int, int, float, float, int]]) -> tuple[int, int, float, float, int]:
        """A proven win; else the most simulated move not proven lost; in a lost position, the move that took
        the solver longest to refute (the most simulated: the hardest for an imperfect opponent)."""
        for ch in children:
            if ch[4] == engine_py.WIN:
                return ch
        alive = [ch for ch in children if ch[4] != engine_py.LOSS] or children
        return max(alive, key=lambda ch: (ch[1], ch[2] / ch[3]))

    @staticmethod
    def _should_swap(state: HexState, value: float, root_proof: int) -> bool:
        """Swap an opening the solver proves won for its owner, keep one it proves lost; otherwise swap every
        stone off the border (Hex theory: they win for the first player on the usual boards, and random playouts
        underrate central stones) and any stone after which our best reply looks clearly bad; on the smallest
        boards, whatever the search prefers."""
        if root_proof == engine_py.WIN:
            return True
        if root_proof == engine_py.LOSS:
            return False
        n = state.size
        if n <= SMALL_BOARD:  # the static rule is wrong here (4x4: b2 and c3 lose); the search is reliable
            return value < 0.5
        i = next(i for i, v in enumerate(state.cells) if v)
        r, c = divmod(i, n)
        return (0 < r < n - 1 and 0 < c < n - 1) or value < SWAP_BELOW

    def _report(
        self,
        game: Game[HexState, HexMove],
        state: HexState,
        seat: int,
        move: HexMove,
        value: float,
        proven: int,
        children: list[tuple[int, int, float, float, int]],
        done: int,
        nodes: int,
        pv: list[str],
    ) -> None:
        """``last_evaluation`` / ``last_considerations`` in the shape the referee, store and UI use."""
        size = state.size
        cells_t = cell_tuples(size)

        def seat0(v: float) -> float:  # the bar: -1..1, seat 0's point of view
            h = 2.0 * v - 1.0
            return round(h if seat == 0 else -h, 4)

        evaluation: JsonObject = {
            "heuristic": seat0(value),
            "win_probability": round(value, 4),
            "move": game.format(move),
            "simulations": done,
            "nodes": nodes,
            "engine": self.implementation,
        }
        if proven:
            evaluation["proven"] = "win" if proven > 0 else "loss"
        if pv:
            evaluation["pv"] = pv
        self.last_evaluation = evaluation
        ranked = sorted(children, key=lambda ch: (-ch[1], ch[0]))[:CONSIDERED]
        considerations: list[JsonValue] = []
        for m, sims, wins, visits, proof in ranked:
            v = 1.0 if proof == engine_py.WIN else 0.0 if proof == engine_py.LOSS else wins / visits
            ev: JsonObject = {"heuristic": seat0(v), "win_probability": round(v, 4), "simulations": sims}
            if proof:
                ev["proven"] = "win" if proof == engine_py.WIN else "loss"
            considerations.append({"move": game.format(cells_t[m]), "evaluation": ev})
        self.last_considerations = considerations
