"""``bots.timing.collector_paused``: the cyclic garbage collector held off while a bot thinks about a short move,
shared by overlapping thinkers, bounded in time, and never switched on when someone else switched it off."""

from __future__ import annotations

import gc
import random
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from hexarena.bots import timing


@pytest.fixture(autouse=True)
def collector_on() -> Iterator[None]:
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


def test_short_budgets_hold_the_collector_off_and_long_ones_do_not() -> None:
    with timing.collector_paused(0.05):
        assert not gc.isenabled()
    assert gc.isenabled()
    for budget in (None, 1.0, 5.0):
        with timing.collector_paused(budget):
            assert gc.isenabled()


def test_overlapping_thinkers_share_one_hold_until_the_last_is_done() -> None:
    first_in, first_may_go = threading.Event(), threading.Event()
    seen: list[bool] = []

    def first() -> None:
        with timing.collector_paused(0.05):
            first_in.set()
            first_may_go.wait(5)
        seen.append(gc.isenabled())  # the last one out switches it back on

    t = threading.Thread(target=first)
    t.start()
    first_in.wait(5)
    with timing.collector_paused(0.05):
        pass
    seen.append(gc.isenabled())  # the first still thinks: still off
    first_may_go.set()
    t.join(5)
    assert seen == [False, True]


def test_a_collector_switched_off_elsewhere_stays_off() -> None:
    gc.disable()
    with timing.collector_paused(0.05):
        assert not gc.isenabled()
    assert not gc.isenabled()


def test_overlapping_holds_let_a_collection_through_after_the_longest_hold(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(timing, "GC_MAX_HOLD", 0.0)
    collections: list[int] = []

    def count(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            collections.append(info["generation"])

    gc.callbacks.append(count)
    try:
        with timing.collector_paused(0.5):
            with timing.collector_paused(0.5) as spent:  # held longer than GC_MAX_HOLD: one full collection first
                assert not gc.isenabled()
            assert collections == [2] and spent > 0
    finally:
        gc.callbacks.remove(count)
    assert gc.isenabled()


def full_collections() -> tuple[list[int], Any]:
    seen: list[int] = []

    def count(phase: str, info: dict[str, int]) -> None:
        if phase == "start" and info["generation"] == 2:
            seen.append(2)

    return seen, count


def test_no_collection_starts_while_a_thinker_would_still_be_waiting_when_it_ends(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A collection holds every thread of the process (the GIL), the one of a search that is about to answer
    too: one that starts 20 ms before a thinker's deadline makes that thinker's answer late, a loss on time. So it
    waits for a moment when every thinker has longer left than a collection takes (or for too long)."""
    monkeypatch.setattr(timing, "GC_MAX_HOLD", 0.0)
    # the guessed collection length as a new process has it, whatever collections earlier tests timed
    monkeypatch.setattr(timing._hold, "guess", timing.GC_FIRST_GUESS)
    seen, count = full_collections()
    gc.callbacks.append(count)
    try:
        with timing.collector_paused(0.02), timing.collector_paused(0.5) as spent:  # one is 20 ms from its deadline
            assert not gc.isenabled()
        assert seen == [] and spent == 0.0
        with timing.collector_paused(0.5), timing.collector_paused(0.5) as spent:  # both have long enough
            pass
        assert seen == [2] and spent > 0
        monkeypatch.setattr(timing, "GC_FORCE_AFTER", 0.0)  # none fits for too long: memory comes first
        with timing.collector_paused(0.02), timing.collector_paused(0.02):
            pass
        assert seen == [2, 2]
    finally:
        gc.callbacks.remove(count)
    assert gc.isenabled()


def test_a_collection_run_for_a_thinker_comes_off_its_time(monkeypatch: pytest.MonkeyPatch) -> None:
    from hexarena.bots.base import think
    from hexarena.core.registry import get_game

    monkeypatch.setattr(timing, "GC_MAX_HOLD", 0.0)
    bot = Recording()
    game = get_game("tictactoe")
    with timing.collector_paused(0.9):  # another thinker, far from its deadline, holds the collector off
        think(bot, game, game.new(), 0.5, random.Random(0))
    assert bot.time_limits and 0 < bot.time_limits[0] < 0.5, bot.time_limits


class Recording:
    """A bot that notes whether the collector ran while it was asked, then plays the first legal move."""

    name = "recording"

    def __init__(self) -> None:
        self.collector_on: list[bool] = []
        self.time_limits: list[float | None] = []

    def choose(self, game: Any, state: Any, time_limit: float | None, rng: random.Random) -> Any:
        self.collector_on.append(gc.isenabled())
        self.time_limits.append(time_limit)
        return game.legal(state)[0]


def test_every_host_asks_through_think() -> None:
    """``bots.base.think`` is how the hosts ask: the UHP engine (a stdio host) and the in-process player both hold
    the collector off for a short move and leave it alone for a long one."""
    from hexarena.bots.base import think
    from hexarena.bots.uhp_engine import UhpEngine
    from hexarena.core.registry import get_game

    bot = Recording()
    hive = get_game("hive")
    think(bot, hive, hive.new(), 0.05, random.Random(0))
    think(bot, hive, hive.new(), 5.0, random.Random(0))
    engine = UhpEngine(bot, "recording")
    engine.handle("newgame Base")
    assert engine.handle("bestmove time 00:00:00")[0].startswith("w")  # the engine's least: 50 ms, held off
    assert bot.collector_on == [False, True, False] and gc.isenabled()


async def test_the_in_process_player_thinks_with_the_collector_held_off() -> None:
    from hexarena.core.contract import ClockConfig, MatchInfo, MoveRequest
    from hexarena.core.registry import get_game
    from hexarena.players.inprocess import InProcessPlayer

    bot = Recording()
    game = get_game("tictactoe")
    player = InProcessPlayer(bot)
    info = MatchInfo(
        match_id="m", game=game, params={}, seat=0, initial_state=game.new(), clock=ClockConfig("turn", 0.1)
    )
    await player.start(info)
    await player.move(MoveRequest(state=game.new(), history=[], time_limit=0.1, time_left=0.1))
    assert bot.collector_on == [False] and gc.isenabled()
