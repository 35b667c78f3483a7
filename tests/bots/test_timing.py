"""Move budgets from the clock (``bots.timing``): most of the clock while moves are on time, less once a match's
moves run late or the machine's CPUs are oversubscribed, never negative; and lateness learnt in one match stays in
that match (its player and its bot), whatever the other matches of the process do.

Budgets are pure arithmetic here; the matches are real players with real threads, and assert only on budgets
and remembered lateness, never on wall time.
"""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path
from typing import Any

import pytest

from hexarena.bots.base import MatchMemory
from hexarena.bots.htttx.heuristic import HeuristicBot
from hexarena.bots.htttx.search import SearchBot
from hexarena.bots.registry import builtin_bots
from hexarena.bots.timing import (
    FIRST_LATENESS,
    MIN_MARGIN,
    SCHEDULING_MARGIN,
    Lateness,
    RecentOverruns,
    allowance,
    budget_from,
    cpu_pressure,
)
from hexarena.core.contract import ClockConfig, MatchInfo, MoveRequest
from hexarena.core.registry import get_game
from hexarena.games.htttx import HTTTX
from hexarena.players.inprocess import InProcessPlayer


@pytest.mark.parametrize("clock", [0.05, 0.2, 1.0, 10.0])
def test_a_turn_clock_is_mostly_used_while_moves_are_on_time(clock: float) -> None:
    allowed = allowance(ClockConfig("turn", clock), clock, None, 5)
    assert allowed == clock
    assert budget_from(clock, 0.0) >= 0.85 * clock
    assert budget_from(clock, 0.01 * clock) >= 0.85 * clock  # a thread hop's worth of lateness
    assert budget_from(clock, 0.0) <= clock - MIN_MARGIN  # and never all of it


def test_the_budget_shrinks_with_lateness_and_pressure_and_is_never_negative() -> None:
    calm = budget_from(0.2, 0.0)
    assert budget_from(0.2, 0.02) < calm
    assert budget_from(0.2, 0.05) < budget_from(0.2, 0.02)
    assert budget_from(0.2, 0.0, pressure=0.8) < budget_from(0.2, 0.0, pressure=0.1) <= calm
    rng = random.Random(7)
    for _ in range(2000):
        allowed = rng.choice([0.0, 1e-4, 0.01, 0.2, 5.0, 60.0]) * rng.random()
        late = rng.choice([0.0, 0.001, 0.1, 10.0, -1.0]) * rng.random()
        pressure = rng.uniform(-0.5, 1.5)
        assert 0.0 <= budget_from(allowed, late, pressure) <= allowed


def test_lateness_is_a_fading_peak() -> None:
    memory = Lateness(decay=0.5)
    memory.record(0.1)
    memory.record(-0.3)  # an early move does not erase a late one...
    assert memory.value == pytest.approx(0.05)  # ...the memory fades instead
    memory.record(0.2)
    assert memory.value == pytest.approx(0.2)
    for _ in range(60):
        memory.record(0.0)
    assert memory.value < 1e-9


def test_a_first_move_caution_gives_way_within_a_few_moves_on_time() -> None:
    """The caution a match starts with (nothing measured yet) is a guess, not a measurement: it fades by half a
    move, faster than a real overrun, which stays a fading peak (a loaded machine stalls in bursts)."""
    memory = Lateness()
    memory.caution(0.01)
    assert memory.value == pytest.approx(0.01)
    for _ in range(4):
        memory.record(-0.05)
    assert memory.value <= 0.01 / 16 + 1e-12
    memory.record(0.02)  # a move really late: remembered as before
    memory.caution(0.001)  # a smaller guess does not hide it
    assert memory.value == pytest.approx(0.02)
    memory.record(-0.05)
    assert memory.value == pytest.approx(0.02 * memory.decay)


def test_a_search_is_told_most_of_a_turn_from_a_matchs_third_move() -> None:
    """The whole chain on a machine running no more games than cores (CPU pressure a third): from a match's third
    move on, a search is told most of a 0.2 s turn; the first-move caution no longer holds any of it back."""
    memory = Lateness()
    memory.caution(FIRST_LATENESS * 0.2)
    memory.record(-0.01)
    memory.record(-0.01)
    assert SearchBot().budget(budget_from(0.2, memory.value, pressure=0.3)) >= 0.85 * 0.2


def test_the_search_keeps_little_of_its_budget_for_what_follows_its_deadline() -> None:
    """What runs after the engine's deadline (the principal variation, checking the move) takes well under a
    millisecond, and a late search is remembered by the bot's own lateness: a fixed share of a few percent on top
    of that is depth thrown away on every move."""
    assert SearchBot().budget(0.2) >= 0.99 * 0.2 - 1e-9
    assert SearchBot().budget(5.0) >= 5.0 - 0.03


def test_recent_overruns_are_a_peak_halving_with_time() -> None:
    now = [100.0]
    memory = RecentOverruns(half_life=10.0, clock=lambda: now[0])
    assert memory.value() == 0.0
    memory.record(-0.2)  # early: nothing to remember
    assert memory.value() == 0.0
    memory.record(0.08)
    memory.record(0.01)  # a smaller overrun does not erase a larger one
    assert memory.value() == pytest.approx(0.08)
    now[0] += 10.0
    assert memory.value() == pytest.approx(0.04)
    memory.record(0.05)
    assert memory.value() == pytest.approx(0.05)
    now[0] += 600.0
    assert memory.value() < 1e-9


async def test_a_match_starting_after_an_overrun_elsewhere_starts_careful_and_gets_its_clock_back() -> None:
    """Time losses on an oversubscribed machine struck a match's first moves, where nothing of its own is known
    yet: a new match guesses its lateness from the process's recent overruns, and the guess halves every move
    on time."""
    clock = ClockConfig("turn", 2.0)
    state = HTTTX.from_cells([(0, 0, 0)], 1)
    overruns = RecentOverruns()
    late_bot, new_bot = Sleeper(), Sleeper()
    late, new = InProcessPlayer(late_bot, seed=0), InProcessPlayer(new_bot, seed=1)
    late.overruns = new.overruns = overruns

    def request() -> MoveRequest:
        return MoveRequest(state=state, history=[], time_limit=2.0, time_left=None)

    await late.start(MatchInfo(match_id="m0", game=HTTTX, params={}, seat=0, initial_state=state, clock=clock))
    late_bot.overrun = 0.3
    await late.move(request())
    assert overruns.value() >= 0.3 * 0.9
    await new.start(MatchInfo(match_id="m1", game=HTTTX, params={}, seat=0, initial_state=state, clock=clock))
    for _ in range(5):
        await new.move(request())
    budgets = [b for b in new_bot.budgets if b is not None]
    assert budgets[0] <= 2.0 - MIN_MARGIN - 2 * 0.3 * 0.9  # twice the overrun kept back on the first move
    assert budgets[-1] > budgets[0] + 0.3  # four moves on time later, most of it is back


def test_cpu_pressure_reads_the_kernel_format(tmp_path: Path) -> None:
    psi = tmp_path / "cpu"
    psi.write_text(
        "some avg10=42.50 avg60=30.00 avg300=10.00 total=123\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n"
    )
    assert cpu_pressure(str(psi)) == pytest.approx(0.425)
    assert cpu_pressure(str(tmp_path / "absent")) == 0.0
    psi.write_text("garbage")
    assert cpu_pressure(str(psi)) == 0.0
    assert 0.0 <= cpu_pressure() <= 1.0


class Sleeper:
    """A real HTTTX bot that remembers every budget it was given and, when told to, sleeps past it."""

    name = "sleeper"

    def __init__(self) -> None:
        self.budgets: list[float | None] = []
        self.overrun = 0.0
        self.inner = HeuristicBot()

    def choose(self, game: Any, state: Any, time_limit: float | None, rng: random.Random) -> Any:
        self.budgets.append(time_limit)
        if time_limit is not None and self.overrun:
            time.sleep(time_limit + self.overrun)
        return self.inner.choose(game, state, time_limit, rng)


async def test_lateness_in_one_match_leaves_another_matchs_budget_alone() -> None:
    clock = ClockConfig("turn", 2.0)
    state = HTTTX.from_cells([(0, 0, 0)], 1)
    bots = [Sleeper(), Sleeper()]
    players = [InProcessPlayer(bot, seed=i) for i, bot in enumerate(bots)]
    for i, player in enumerate(players):
        player.overruns = RecentOverruns()  # both under way: what a new match would guess is not this test's
        await player.start(MatchInfo(match_id=f"m{i}", game=HTTTX, params={}, seat=0, initial_state=state, clock=clock))

    def request() -> MoveRequest:
        return MoveRequest(state=state, history=[], time_limit=2.0, time_left=None)

    await asyncio.gather(*(p.move(request()) for p in players))  # both matches: a first move on time
    quiet = players[1].lateness.value
    bots[0].overrun = 0.3  # match 0's next move runs 0.3 s past its budget (a stalled thread)
    await players[0].move(request())
    bots[0].overrun = 0.0
    assert players[0].lateness.value >= 0.3
    assert players[1].lateness.value == quiet  # match 1 learnt nothing from match 0
    await asyncio.gather(*(p.move(request()) for p in players))
    late_budget, calm_budget = bots[0].budgets[-1], bots[1].budgets[-1]
    assert late_budget is not None and calm_budget is not None
    assert late_budget < calm_budget - 0.3  # match 0 keeps twice its lateness back; match 1 does not
    assert calm_budget >= budget_from(2.0, max(quiet, FIRST_LATENESS * 2.0), 1.0)  # at most its own caution


def test_a_search_bots_lateness_is_its_own() -> None:
    late, fresh = SearchBot(), SearchBot()
    before = fresh.budget(0.2)
    late.lateness.record(0.05)
    assert late.budget(0.2) < before
    assert fresh.budget(0.2) == before
    assert SearchBot().budget(0.2) == before  # a new match's bot starts from nothing


def test_a_search_bot_is_told_most_of_a_turn_clock() -> None:
    """The whole chain, player budget then the search's share: most of a 0.2 s turn on a machine with CPUs to
    spare, and still most of it when tasks wait for a CPU a third of the time (two games on two cores: the margin
    for stalls is a few ms of the turn, not a third of it)."""
    bot = SearchBot()
    assert bot.budget(budget_from(0.2, 0.0)) >= 0.9 * 0.2
    assert bot.budget(budget_from(0.2, FIRST_LATENESS * 0.2)) >= 0.85 * 0.2  # a match's first move
    assert bot.budget(budget_from(0.2, 0.0, pressure=0.3)) >= 0.85 * 0.2
    assert bot.budget(budget_from(0.2, 0.0)) <= 0.2 - MIN_MARGIN  # never all of it


def test_the_hop_to_the_thread_comes_off_the_bots_limit() -> None:
    """The player's budget runs from when the move was asked for: a bot started late (its thread waited for a
    CPU) is told what is left of it, nothing once it is spent."""
    bot = Sleeper()
    player = InProcessPlayer(bot, seed=0)
    state = HTTTX.from_cells([(0, 0, 0)], 1)
    now = time.perf_counter()
    player._timed_choose(HTTTX, state, now - 0.5)  # the deadline passed while the thread was on its way
    player._timed_choose(HTTTX, state, now + 1000.0)
    player._timed_choose(HTTTX, state, None)
    assert bot.budgets[0] == 0.0
    assert bot.budgets[1] is not None and 999.0 < bot.budgets[1] <= 1000.0
    assert bot.budgets[2] is None


async def test_a_bot_playing_match_after_match_starts_each_with_no_lateness() -> None:
    """One player (and its bot) reused for the next match: what the bot learnt about lateness in the last one is
    not this one's (one overrun must not make a whole game think at the floor)."""
    bot = SearchBot()
    player = InProcessPlayer(bot, seed=0, threaded=False)
    fresh = bot.budget(0.2)
    info = MatchInfo(
        match_id="m1", game=HTTTX, params={}, seat=0, initial_state=HTTTX.new(), clock=ClockConfig("turn", 0.2)
    )
    await player.start(info)
    bot.lateness.record(0.1)
    assert bot.budget(0.2) < fresh
    await player.start(info)
    assert bot.lateness.value == 0.0
    assert bot.budget(0.2) == fresh


@pytest.mark.parametrize("game", ["htttx", "hex", "hexdots", "hive", "tictactoe", "numberwang"])
async def test_every_builtin_bot_that_remembers_lateness_forgets_it_each_match(game: str) -> None:
    """A bot that keeps lateness of its own declares ``new_match`` (``MatchMemory``), so a player reused for the
    next match starts it with none; a bot that keeps none needs nothing and still starts."""
    rules = get_game(game)
    info = MatchInfo(match_id="m1", game=rules, params={}, seat=0, initial_state=rules.new())
    for name, factory in builtin_bots(game).items():
        bot = factory()
        memory = getattr(bot, "lateness", None)
        if memory is not None:
            assert isinstance(bot, MatchMemory), name
            memory.record(0.1)
        await InProcessPlayer(bot, seed=0, threaded=False).start(info)
        if memory is not None:
            assert bot.lateness.value == 0.0, name


def test_an_oversubscribed_machine_keeps_tens_of_milliseconds_back() -> None:
    """Where every task waits for a CPU most of the time, threads stall for tens of milliseconds (the margin of a
    calm machine lost games on time there): the budget keeps that back, a calm machine's does not."""
    assert budget_from(0.2, 0.0, pressure=0.9) <= 0.2 - 0.07
    assert budget_from(0.2, 0.0, pressure=0.9) >= 0.2 * 0.5  # depth lost, still most of a search
    assert budget_from(0.2, 0.0, pressure=0.1) >= 0.2 - MIN_MARGIN - SCHEDULING_MARGIN - 0.002
