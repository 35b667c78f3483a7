"""``bots.timing.collector_paused``: the cyclic garbage collector held off while a bot thinks about a short move,
shared by overlapping thinkers, bounded in time, and never switched on when someone else switched it off."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator

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
        with timing.collector_paused(0.05):
            with timing.collector_paused(0.05):  # held longer than GC_MAX_HOLD: one full collection first
                assert not gc.isenabled()
            assert collections == [2]
    finally:
        gc.callbacks.remove(count)
    assert gc.isenabled()
