"""How long a built-in bot thinks about one move, from the match clock.

Why here and not in each bot: the referee offers a player its whole remaining time under a match clock (that is
the most it may use without losing), and a bot that spends what it is offered loses on time a few moves later
(Hex MCTS once spent 21 s of a 30 s clock on its first move). So the in-process player turns the offer into a
budget once, for every built-in: first the move's *allowance* (``allowance``: under a turn clock the turn's time;
under a match or incremental clock the remaining time spread over the moves still expected, plus most of the
increment, and never more than a small share of what is left), then the *budget* (``budget_from``): most of the
allowance, less a margin for what the referee's clock counts and the bot's budget cannot see (the thread hop, the
event loop, the collector, a loaded machine not running the thread). The margin is learnt per match: the player
keeps its own ``Lateness`` (how far past its budget its recent moves were, as the referee would measure them), so
an overrun costs the rest of that match some depth and never touches another match's learnt margin; only a match
that starts meanwhile, having measured nothing yet, takes the process's recent overruns as its first guess
(``RecentOverruns``), which fades within a few moves. Each search then stops itself at its deadline
(``stopping.think_cap`` caps any budget, and gives one with no clock).
"""

from __future__ import annotations

import contextlib
import gc
import math
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from hexarena.core.contract import ClockConfig

#: Part of a move's allowance a bot is told it has when nothing has been late in the match.
USE = 0.97
#: Seconds of an allowance always kept back (the referee's own bookkeeping and the clock's granularity).
MIN_MARGIN = 0.005
#: Seconds kept back besides for the thread that answers being left unrun at its deadline, where games run side by
#: side on every core (each search a core's worth, the loop and the other players' moves besides): its answer
#: then waits for the scheduler, by up to tens of milliseconds at times. All of it from allowances of
#: ``SCHEDULING_FULL`` seconds, none up to ``SCHEDULING_FROM`` (a turn of a few tens of milliseconds cannot keep
#: that back and still be used), in proportion between.
SCHEDULING_MARGIN = 0.010
SCHEDULING_FROM = 0.05
SCHEDULING_FULL = 0.2
#: How many times the match's remembered lateness comes off the allowance: a late move predicts late ones.
HEADROOM = 2.0
#: Seconds kept back at full CPU pressure (``cpu_pressure``), by the pressure's square: on a machine whose tasks
#: all wait for a CPU a thread is left unrun for tens of milliseconds at a time (a thread holding the GIL is
#: descheduled too, and every other thread of the process waits for it), and a stall past the search's last
#: deadline check lands on the clock; but never more than ``PRESSURE_SHARE`` of the allowance. The square: the
#: stalls' tail grows much faster than the pressure figure once the machine is oversubscribed, while a machine
#: running no more games than it has cores (some pressure from the games' own threads) stalls for a slice or two,
#: which a few milliseconds cover (the bot's budget runs from when the move was asked for, so a late start costs
#: search time, not clock time).
PRESSURE_STALL = 0.1
PRESSURE_SHARE = 0.75
#: The least part of an allowance a bot is told it has, however late the match or loaded the machine.
FLOOR = 0.15
#: A match's first move counts as this part of its allowance late: nothing is known yet about the machine, so the
#: first budgets keep more back; a guess (``Lateness.caution``), so it fades faster than a measured overrun and
#: gives the time back within a few moves while moves are on time.
FIRST_LATENESS = 0.025
#: Moves a bot plans for at the start of a game under a match clock; it plans for at least MIN_MOVES_TO_GO.
EXPECTED_MOVES = 40
MIN_MOVES_TO_GO = 15
#: The most of the remaining time (beyond the increment) one move may use.
MAX_SHARE = 0.1
#: Part of the increment a move may spend on top of its share.
INCREMENT_SHARE = 0.8


def allowance(clock: ClockConfig, time_limit: float | None, time_left: float | None, moves_made: int) -> float | None:
    """Seconds the next move may take by the clock's rule, before any margin (None: no clock).

    ``time_limit`` is what the referee offers (the most it may use), ``time_left`` the player's clock,
    ``moves_made`` how many moves this player has made in the match.
    """
    if time_limit is None:
        return None
    share = time_limit
    if clock.kind in ("match", "incremental"):
        left = time_limit if time_left is None else min(time_left, time_limit)
        to_go = max(MIN_MOVES_TO_GO, EXPECTED_MOVES - moves_made)
        increment = clock.increment if clock.kind == "incremental" else 0.0
        spread = left / to_go + INCREMENT_SHARE * increment
        share = min(spread, left * MAX_SHARE + INCREMENT_SHARE * increment, time_limit)
    return max(0.0, share)


def budget_from(allowed: float, late: float, pressure: float = 0.0) -> float:
    """The seconds a bot is told it has for a move allowed ``allowed`` seconds, when the match's recent moves
    ran ``late`` seconds past their budgets (``Lateness.value``) and tasks of the machine wait for a CPU
    ``pressure`` of the time (``cpu_pressure``): ``USE`` of the allowance on a machine with CPUs to spare and
    moves on time, less the fixed margins (``MIN_MARGIN``, ``SCHEDULING_MARGIN``), ``HEADROOM`` times the lateness
    and ``PRESSURE_STALL`` seconds times the pressure's square (at most ``PRESSURE_SHARE`` of the allowance); but
    never less than ``FLOOR`` of the allowance: a search stops at its deadline however short, while the fallback a
    bot plays when told 0 s (a rule bot in Python) may take longer than a short search on a full board. Never
    negative."""
    pressure = min(1.0, max(0.0, pressure))
    stalls = min(PRESSURE_SHARE * allowed, PRESSURE_STALL * pressure * pressure)
    ramp = (allowed - SCHEDULING_FROM) / (SCHEDULING_FULL - SCHEDULING_FROM)
    scheduling = SCHEDULING_MARGIN * min(1.0, max(0.0, ramp))
    kept = MIN_MARGIN + scheduling + HEADROOM * max(0.0, late) + stalls
    return max(0.0, allowed * FLOOR, min(allowed * USE, allowed - kept))


def move_budget(
    clock: ClockConfig,
    time_limit: float | None,
    time_left: float | None,
    moves_made: int,
    late: float = 0.0,
    pressure: float = 0.0,
) -> float | None:
    """Seconds the bot should think about its next move (None: no clock, the bot's own cap applies):
    ``budget_from`` of the ``allowance``, ``late`` being the match's remembered lateness."""
    allowed = allowance(clock, time_limit, time_left, moves_made)
    return None if allowed is None else budget_from(allowed, late, pressure)


#: Where Linux tells how much of the time runnable tasks waited for a CPU (pressure stall information).
PRESSURE_FILE = "/proc/pressure/cpu"
#: Seconds a reading of it is reused (its figure is a 10 s average: rereading it every move tells nothing new).
PRESSURE_TTL = 1.0
_pressure = (-PRESSURE_TTL, 0.0)


def cpu_pressure(path: str = PRESSURE_FILE) -> float:
    """The share of the last 10 s in which some task of this machine waited for a CPU (0..1; 0 where the kernel
    does not say). Why: on an oversubscribed machine a thread is not run for tens of milliseconds at a time, and
    a stall at the end of a search lands on the clock; the first move of a match has no lateness of its own to
    go by, this figure is there before any move."""
    global _pressure
    now = time.monotonic()
    if now - _pressure[0] < PRESSURE_TTL and path == PRESSURE_FILE:
        return _pressure[1]
    value = 0.0
    try:
        with open(path, encoding="ascii") as f:
            line = f.readline()  # some avg10=78.29 avg60=84.03 avg300=60.28 total=...
        fields = dict(part.split("=", 1) for part in line.split()[1:] if "=" in part)
        value = min(1.0, max(0.0, float(fields.get("avg10", "0")) / 100.0))
    except (OSError, ValueError):
        value = 0.0
    if path == PRESSURE_FILE:
        _pressure = (now, value)
    return value


class Lateness:
    """How far past its budget a recent move returned, fading by ``decay`` a move: a decaying peak, so one late
    move is remembered for a few moves (loaded machines stall in bursts) and an early one does not erase it.

    Why one per match and not per process: a process plays many matches at once and one after another, and one
    overrun must not make every other match, or the whole next game, think at a fraction of its clock. The
    in-process player keeps one (what the referee's clock sees, hop included), and each search bot instance one
    of its own (how late its search returned, ``SearchShare.seconds``).
    """

    def __init__(self, decay: float = 0.85, fade: float = 0.5) -> None:
        self.decay = decay
        self.fade = fade
        self.value = 0.0
        self._peak = 0.0  # what moves measured
        self._guess = 0.0  # what ``caution`` assumed

    def caution(self, late: float) -> None:
        """Assume a move ``late`` seconds late before any has been measured (a match's first move). A guess, not
        a measurement: it fades by ``fade`` a move, faster than a real overrun, so a match whose moves are on
        time gets its clock back within a few moves."""
        self._guess = max(self._guess, late)
        self.value = max(self._peak, self._guess)

    def record(self, late: float) -> None:
        """A move returned ``late`` seconds after its deadline (negative: early)."""
        self._peak = max(late, self._peak * self.decay, 0.0)
        self._guess *= self.fade
        self.value = max(self._peak, self._guess)


#: Seconds in which the memory of the process's recent overruns (``RecentOverruns``) halves.
OVERRUN_HALF_LIFE = 30.0


class RecentOverruns:
    """The largest overrun (seconds past its budget) any match of this process had lately, halving every
    ``half_life`` seconds: a new match's first guess of its lateness (``Lateness.caution``), beside its share of
    the clock (``FIRST_LATENESS``).

    Why process-wide, when lateness is otherwise learnt per match: a machine that stalls threads for longer than
    a match's margins (an oversubscribed one) does so for every match, and a match that has just started has
    measured nothing; its first moves are the ones only a prior protects (most time losses on such a machine
    struck a match's first or second move). As a guess it halves every move on time, so one overrun elsewhere
    costs a new match a few moves of depth, never its whole game.
    """

    def __init__(self, half_life: float = OVERRUN_HALF_LIFE, clock: Callable[[], float] = time.monotonic) -> None:
        self.half_life = half_life
        self.clock = clock
        self._peak = 0.0
        self._at = 0.0

    def value(self) -> float:
        """The remembered overrun now (0: none lately)."""
        if self._peak <= 0.0:
            return 0.0
        return self._peak * math.exp(-math.log(2.0) * max(0.0, self.clock() - self._at) / self.half_life)

    def record(self, late: float) -> None:
        """A move returned ``late`` seconds after its budget (negative: early)."""
        if late > self.value():
            self._peak, self._at = late, self.clock()


#: The process's memory of recent overruns (the in-process player's).
RECENT_OVERRUNS = RecentOverruns()


class MatchLateness:
    """A search bot's own ``Lateness``, for one match at a time: it is ``bots.base.MatchMemory``, so whoever plays
    the bot in match after match (the in-process player, the UHP engine) has it forget the last match's."""

    lateness: Lateness

    def new_match(self) -> None:
        """How late the last match's searches returned is not this match's to pay for."""
        self.lateness = Lateness()


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

    def seconds(self, budget: float, lateness: Lateness | None = None, cpu: float = 1.0) -> float:
        """Seconds to search for a move whose budget is ``budget``; ``lateness`` is the bot's own memory of late
        searches (None: none), ``cpu`` scales the share (``CpuShare``)."""
        late = 0.0 if lateness is None else lateness.value
        usable = max(budget * self.short, budget * self.long - self.reserve) * cpu
        return max(self.least, min(usable, max(budget * self.floor, budget - 2 * late)))


#: Budgets shorter than this think with the cyclic garbage collector held off (``collector_paused``).
GC_PAUSE_BELOW = 1.0
#: While thinkers keep overlapping, a collection is let through once the collector has been held off this long, at
#: the start of a thinker's move when every thinker has time enough left for it...
GC_MAX_HOLD = 2.0
#: ...or, when none has, once it has been held off this long whatever the deadlines: memory stays bounded.
GC_FORCE_AFTER = 30.0
#: A full collection's length (seconds) as guessed before one has been timed; then the longest recent one.
GC_FIRST_GUESS = 0.05
#: How much of the longest recent collection is still remembered after each new one.
GC_GUESS_KEEP = 0.9
#: Seconds a thinker must still have left past twice the guessed collection for one to start.
GC_CLEARANCE = 0.01


class _CollectorHold:
    """Who holds the collector off, until when, and how long a full collection has lately taken."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.deadlines: dict[int, float] = {}  # a thinker's token -> when its budget ends (time.monotonic)
        self.tokens = 0
        self.restore = True  # whether the collector was on when the hold began
        self.off_since = 0.0
        self.guess = GC_FIRST_GUESS

    def due(self, now: float, budget: float) -> bool:
        """Whether to let a collection through now, for a thinker with ``budget`` seconds coming in: held off long
        enough, and either every thinker's budget (the new one's included) ends well after the collection would,
        or held off too long for that to matter."""
        held = now - self.off_since
        if held <= GC_MAX_HOLD:
            return False
        ends = now + 2 * self.guess + GC_CLEARANCE
        clear = now + budget > ends and all(deadline > ends for deadline in self.deadlines.values())
        return clear or held > GC_FORCE_AFTER


_hold = _CollectorHold()


@contextlib.contextmanager
def collector_paused(budget: float | None) -> Iterator[float]:
    """Hold Python's cyclic garbage collector off while a bot thinks about a short move; yields the seconds of the
    thinker's budget a collection took before it (0.0 almost always), which the thinker does not have any more.

    Why: a full collection walks every live container of the process, and one that strikes mid-search stops the
    search for as long (measured: 16-38 ms with hexarena's modules loaded and a Hive search's table alive), more
    than a 50 ms turn can spare: Hive ``alphabeta`` lost 8 of 100 games on time at 50 ms a move. Reference
    counting still frees everything but cycles, and the collection due runs once the last thinker is done, outside
    every search. Process-wide (the collector is) and shared, so overlapping searches in several threads share one
    hold. When they keep overlapping for ``GC_MAX_HOLD`` seconds, one collection runs at the start of a thinker's
    move, but only when every thinker's budget ends well after the collection would: a collection holds the GIL,
    so a search whose budget ends meanwhile cannot hand its move back, and answers late by what is left of it
    (games that run side by side lost on time that way). If no such moment comes for ``GC_FORCE_AFTER`` seconds,
    one runs anyway, so memory stays bounded. Budgets of ``GC_PAUSE_BELOW`` seconds or more (or no clock) leave the
    collector alone: a pause is a small part of them, which the search shares allow for. A collector switched off
    by someone else stays off.
    """
    if budget is None or budget >= GC_PAUSE_BELOW:
        yield 0.0
        return
    hold = _hold
    spent = 0.0
    with hold.lock:
        now = time.monotonic()
        if not hold.deadlines:
            hold.restore = gc.isenabled()
            hold.off_since = now
            gc.disable()
        elif hold.restore and hold.due(now, budget):
            gc.collect()  # thinkers kept overlapping: let one collection through, then hold again
            hold.off_since = time.monotonic()
            spent = hold.off_since - now
            hold.guess = max(spent, hold.guess * GC_GUESS_KEEP)
        hold.tokens += 1
        token = hold.tokens
        hold.deadlines[token] = now + budget
    try:
        yield spent
    finally:
        with hold.lock:
            del hold.deadlines[token]
            if not hold.deadlines and hold.restore:
                gc.enable()
