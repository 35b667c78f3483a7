"""The ladder's pairing and pace, as pure functions of the bots and a fake clock (``server.ladder_pairing``)."""

from __future__ import annotations

import pytest

from hexarena.server.ladder_pairing import Candidate, LadderSettings, Pacer, pick_pairs


def names(pairs: list[tuple[Candidate, Candidate]]) -> list[set[str]]:
    return [{a.name, b.name} for a, b in pairs]


def test_the_longest_waiting_bot_meets_the_nearest_rating() -> None:
    bots = [
        Candidate("a", "htttx", rating=1000, last_start=5.0),
        Candidate("b", "htttx", rating=1520, last_start=1.0),  # waited longest
        Candidate("c", "htttx", rating=1500, last_start=6.0),
        Candidate("d", "htttx", rating=1010, last_start=7.0),
    ]
    assert names(pick_pairs(bots, 2, now=10.0)) == [{"b", "c"}, {"a", "d"}]


def test_a_bot_never_meets_another_game_nor_itself() -> None:
    bots = [Candidate("a", "htttx", rating=1500), Candidate("b", "hex", rating=1500)]
    assert pick_pairs(bots, 5, now=0.0) == []


def test_each_bot_plays_at_most_its_own_limit_at_once() -> None:
    bots = [Candidate("a", "htttx", max_concurrent=3), Candidate("b", "htttx", max_concurrent=1)]
    pairs = pick_pairs(bots, 5, now=0.0)
    assert len(pairs) == 1  # b is busy after one game
    bots[1].running = 0
    bots[1].max_concurrent = 2
    assert len(pick_pairs(bots, 5, now=0.0)) == 2  # a: 3 at once, b: 2 more allowed; capped by b
    assert bots[0].running == 3 and bots[1].running == 2


def test_a_bots_own_games_an_hour_space_its_starts() -> None:
    a = Candidate("a", "htttx", games_per_hour=60, max_concurrent=9)  # one start a minute
    b = Candidate("b", "htttx", max_concurrent=9)
    assert len(pick_pairs([a, b], 9, now=0.0)) == 1
    assert pick_pairs([a, b], 9, now=59.0) == []
    assert len(pick_pairs([a, b], 9, now=60.0)) == 1


def test_seats_alternate() -> None:
    a, b = Candidate("a", "htttx"), Candidate("b", "htttx", max_concurrent=1)
    firsts = []
    for t in range(4):
        ((first, _second),) = pick_pairs([a, b], 1, now=float(t))
        firsts.append(first.name)
        a.running = b.running = 0
    assert firsts in (["a", "b", "a", "b"], ["b", "a", "b", "a"])


def test_the_pacer_keeps_the_operators_games_an_hour() -> None:
    pacer = Pacer(per_hour=60, burst=2, now=0.0)  # one a minute, two at most at once
    assert pacer.available(0.0) == 1
    pacer.take(0.0)
    assert pacer.available(30.0) == 0
    assert pacer.available(60.0) == 1
    pacer.take(60.0)
    assert pacer.available(10_000.0) == 2  # a long idle builds up to the burst, no more
    started = 0
    for second in range(0, 3600 * 2, 5):  # two simulated hours, asking every 5 s
        while pacer.available(10_000.0 + second):
            pacer.take(10_000.0 + second)
            started += 1
    assert 120 <= started <= 122  # 60 an hour, plus the burst saved up


@pytest.mark.parametrize(
    ("field", "value"),
    [("games_per_hour", 0), ("concurrency", 1000), ("fail_limit", 0), ("max_bots", 10_000), ("move_seconds", 0.0)],
)
def test_settings_out_of_bounds_are_refused(field: str, value: float) -> None:
    with pytest.raises(ValueError, match=field):
        LadderSettings(**{field: value})
