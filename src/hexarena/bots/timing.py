"""How long a built-in bot thinks about one move, from the match clock.

Why here and not in each bot: the referee offers a player its whole remaining time under a match clock (that is
the most it may use without losing), and a bot that spends what it is offered loses on time a few moves later
(Hex MCTS once spent 21 s of a 30 s clock on its first move). So the in-process player turns the offer into a
budget once, for every built-in: under a turn clock the turn's time; under a match or incremental clock the
remaining time spread over the moves still expected, plus most of the increment, and never more than a small
share of what is left. ``SAFETY`` keeps room for the thread hop, the referee and the clock's granularity; each
search then stops itself at its deadline (``stopping.think_cap`` caps any budget, and gives one with no clock).
"""

from __future__ import annotations

import contextlib
import gc
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass

from hexarena.core.contract import ClockConfig

#: Part of a budget a bot is told it has (the rest covers the thread hop and the referee's bookkeeping).
SAFETY = 0.8
#: Moves a bot plans for at the start of a game under a match clock; it plans for at least MIN_MOVES_TO_GO.
EXPECTED_MOVES = 40
MIN_MOVES_TO_GO = 15
#: The most of the remaining time (beyond the increment) one move may use.
MAX_SHARE = 0.1
#: Part of the increment a move may spend on top of its share.
INCREMENT_SHARE = 0.8


def move_budget(clock: ClockConfig, time_limit: float | None, time_left: float | None, moves_made: int) -> float | None:
    """Seconds the bot should think about its next move (None: no clock, the bot's own cap applies).

    ``time_limit`` is what the referee offers (the most it may use), ``time_left`` the player's clock,
    ``moves_made`` how many moves this player has made in the match.
    """
    if time_limit is None:
        return None
    budget = time_limit
    if clock.kind in ("match", "incremental"):
        left = time_limit if time_left is None else min(time_left, time_limit)
        to_go = max(MIN_MOVES_TO_GO, EXPECTED_MOVES - moves_made)
        increment = clock.increment if clock.kind == "incremental" else 0.0
        share = left / to_go + INCREMENT_SHARE * increment
        budget = min(share, left * MAX_SHARE + INCREMENT_SHARE * increment, time_limit)
    return max(0.0, budget * SAFETY)


class Lateness:
    """How far past its deadline a recent search of this process returned, fading by ``decay`` a move.

    Why one per process and not per bot: a loaded machine deschedules every thread of the process alike (measured
    on a 2-core box at load 7: a search thread got 1 ms of CPU in 220 ms), so what one search learnt about the
    machine protects the next search of any game, even the first move of a new match. Searches keep twice the
    remembered lateness in reserve (``SearchShare.seconds``).
    """

    def __init__(self, decay: float = 0.9) -> None:
        self.decay = decay
        self.value = 0.0

    def record(self, late: float) -> None:
        """A search returned ``late`` seconds after its deadline (negative: early)."""
        self.value = max(late, self.value * self.decay, 0.0)


class CpuShare:
    """The share of a CPU recent searches of this process actually got (thread CPU time over wall time, a moving
    average). On a starved machine a thread stops for 100-300 ms at a time, and those stalls strike before and after
    the search too, where no deadline check sees them: a budget scaled by the share leaves room for them."""

    def __init__(self, weight: float = 0.3, floor: float = 0.3) -> None:
        self.weight = weight
        self.floor = floor
        self.value = 1.0

    def record(self, cpu: float, wall: float) -> None:
        """A search ran ``wall`` seconds and got ``cpu`` seconds of CPU (ignored when too short to tell)."""
        if wall > 0.01:
            self.value += self.weight * (cpu / wall - self.value)

    def factor(self) -> float:
        """What to scale a budget by: the share, between ``floor`` and 1."""
        return max(self.floor, min(1.0, self.value))


#: The process's memory of late searches, shared by every built-in search bot.
LATENESS = Lateness()
#: The process's memory of how much CPU its searches got (the Hex MCTS scales its budget by it).
CPU_SHARE = CpuShare()


@dataclass(frozen=True, slots=True)
class SearchShare:
    """How much of a move's budget (``move_budget``'s answer) a search may spend; the rest pays for what happens
    around it (copying the board, checking and spelling the move, the thread hop) and a loaded machine's stalls.

    A short budget keeps ``1 - short`` of itself in reserve, a long one a fixed ``reserve`` seconds past
    ``long``; twice the remembered lateness comes off too, but never below ``floor`` of the budget, and never
    below ``least`` seconds.
    """

    short: float
    long: float
    reserve: float
    floor: float = 0.25
    least: float = 0.001

    def seconds(self, budget: float, lateness: Lateness = LATENESS, cpu: float = 1.0) -> float:
        """Seconds to search for a move whose budget is ``budget``; ``cpu`` scales the share (``CpuShare``)."""
        usable = max(budget * self.short, budget * self.long - self.reserve) * cpu
        return max(self.least, min(usable, max(budget * self.floor, budget - 2 * lateness.value)))


#: Budgets shorter than this think with the cyclic garbage collector held off (``collector_paused``).
GC_PAUSE_BELOW = 1.0
#: While searches keep overlapping, the collector is held off at most this long; then one collection runs.
GC_MAX_HOLD = 2.0

_gc_lock = threading.Lock()
_gc_holders = 0
_gc_restore = True
_gc_off_since = 0.0


@contextlib.contextmanager
def collector_paused(budget: float | None) -> Iterator[None]:
    """Hold Python's cyclic garbage collector off while a bot thinks about a short move.

    Why: a full collection walks every live container of the process, and one that strikes mid-search stops the
    search for as long (measured: 16-38 ms with hexarena's modules loaded and a Hive search's table alive), more
    than a 50 ms turn can spare: Hive ``alphabeta`` lost 8 of 100 games on time at 50 ms a move. Reference
    counting still frees everything but cycles, and the collection due runs once the last thinker is done, outside
    every search. Process-wide (the collector is) and counted, so overlapping searches in several threads share
    one hold; if they keep overlapping for ``GC_MAX_HOLD`` seconds, one collection runs then, so memory stays
    bounded. Budgets of ``GC_PAUSE_BELOW`` seconds or more (or no clock) leave the collector alone: a pause is a
    small part of them, which the search shares allow for. A collector switched off by someone else stays off.
    """
    global _gc_holders, _gc_restore, _gc_off_since
    if budget is None or budget >= GC_PAUSE_BELOW:
        yield
        return
    with _gc_lock:
        if _gc_holders == 0:
            _gc_restore = gc.isenabled()
            _gc_off_since = time.monotonic()
            gc.disable()
        elif _gc_restore and time.monotonic() - _gc_off_since > GC_MAX_HOLD:
            gc.collect()  # searches kept overlapping: let one collection through, then hold again
            _gc_off_since = time.monotonic()
        _gc_holders += 1
    try:
        yield
    finally:
        with _gc_lock:
            _gc_holders -= 1
            if _gc_holders == 0 and _gc_restore:
                gc.enable()
