"""Pairings: every format's structural guarantees."""

from __future__ import annotations

import itertools
import random

import pytest

from hexarena.core.errors import ConfigError
from hexarena.core.registry import get_game
from hexarena.tournament.openings import (
    BALANCE_WINDOW,
    OpeningBook,
    parse_openings,
    play_opening,
    playout_score,
    random_opening,
)
from hexarena.tournament.pairings import (
    MAX_TIEBREAK_PAIRS,
    gauntlet,
    knockout_bracket,
    knockout_next,
    next_round_matches,
    round_robin,
    swiss_pairs,
)


@pytest.mark.parametrize("n", [2, 3, 4, 5, 8, 9])
def test_round_robin_meets_everyone_once_per_cycle(n: int) -> None:
    rounds = round_robin(n, cycles=2)
    per_cycle = len(rounds) // 2
    assert per_cycle == (n if n % 2 else n - 1)
    for cycle in (rounds[:per_cycle], rounds[per_cycle:]):
        met = sorted(tuple(sorted((a, b))) for r in cycle for a, b in r if b is not None)
        assert met == list(itertools.combinations(range(n), 2))
        for r in cycle:  # everyone plays (or has the bye) exactly once per round
            seen = [x for p in r for x in p if x is not None]
            assert sorted(seen) == list(range(n))
            assert sum(1 for p in r if p[1] is None) == n % 2
    # the second cycle flips who opens each pairing
    first = {frozenset(p): p for r in rounds[:per_cycle] for p in r if p[1] is not None}
    second = {frozenset(p): p for r in rounds[per_cycle:] for p in r if p[1] is not None}
    assert all(second[k] == first[k][::-1] for k in first)


def test_round_robin_rejects_a_single_player() -> None:
    with pytest.raises(ValueError, match="at least 2"):
        round_robin(1)


def test_gauntlet_pairs_seeds_with_the_rest_only() -> None:
    assert gauntlet(4, 1) == [(0, 1), (0, 2), (0, 3)]
    assert gauntlet(4, 2) == [(0, 2), (0, 3), (1, 2), (1, 3)]
    with pytest.raises(ValueError, match="seeds"):
        gauntlet(3, 3)


def test_swiss_avoids_rematches_when_possible() -> None:
    ranking = [0, 1, 2, 3]
    r1 = swiss_pairs(ranking, [])
    assert r1 == [(0, 2), (1, 3)]  # one score group: top half meets bottom half
    r2 = swiss_pairs(ranking, r1)  # type: ignore[arg-type]
    assert {frozenset(p) for p in r2}.isdisjoint({frozenset(p) for p in r1})
    r3 = swiss_pairs(ranking, [*r1, *r2])  # type: ignore[list-item]
    assert {frozenset(p) for p in r3}.isdisjoint({frozenset(p) for p in [*r1, *r2]})
    # everyone has met everyone: a fourth round must allow a rematch rather than fail
    r4 = swiss_pairs(ranking, [*r1, *r2, *r3])  # type: ignore[list-item]
    assert sorted(x for p in r4 for x in p if x is not None) == ranking


def test_swiss_pairs_within_score_groups_dutch_style() -> None:
    ranking = [0, 1, 2, 3, 4, 5, 6, 7]
    points = {0: 2.0, 1: 2.0, 2: 2.0, 3: 2.0, 4: 0.0, 5: 0.0, 6: 0.0, 7: 0.0}
    assert swiss_pairs(ranking, [], points=points) == [(0, 2), (1, 3), (4, 6), (5, 7)]
    # 0 already met 2: it takes the next preferred opponent in its group
    out = swiss_pairs(ranking, [(0, 2)], points=points)
    assert (0, 3) in out and (1, 2) in out
    # a group of three floats its last player down to the next group
    points = {0: 2.0, 1: 2.0, 2: 2.0, 3: 0.0}
    out = swiss_pairs([0, 1, 2, 3], [], points=points)
    assert out == [(0, 1), (2, 3)]


def test_swiss_bye_goes_to_the_lowest_without_one() -> None:
    out = swiss_pairs([4, 3, 2, 1, 0], [], byes=[])
    assert (0, None) in out
    out = swiss_pairs([4, 3, 2, 1, 0], [], byes=[0])
    assert (1, None) in out and (0, None) not in out
    assert sorted(x for p in out for x in p if x is not None) == [0, 1, 2, 3, 4]


def test_swiss_pairs_randomized_fields_cover_everyone() -> None:
    rng = random.Random(3)
    for n in range(2, 12):
        ranking = list(range(n))
        rng.shuffle(ranking)
        played = [tuple(rng.sample(range(n), 2)) for _ in range(n)]
        out = swiss_pairs(ranking, played)  # type: ignore[arg-type]
        assert sorted(x for p in out for x in p if x is not None) == sorted(ranking)


def test_knockout_bracket_is_seeded_with_byes_for_top_seeds() -> None:
    assert knockout_bracket(2) == [(0, 1)]
    assert knockout_bracket(4) == [(0, 3), (1, 2)]
    eight = knockout_bracket(8)
    assert eight == [(0, 7), (3, 4), (1, 6), (2, 5)]
    five = knockout_bracket(5)
    assert (0, None) in five and (1, None) in five and (2, None) in five and (3, 4) in five


def test_knockout_next_decides_and_breaks_ties() -> None:
    matches = [(0, 3), (1, 2), (4, None)]
    winners, tied = knockout_next(matches, {(0, 3): 1.0, (1, 2): 0.0}, {})
    assert winners == [0, -1, 4] and tied == [(1, 2)]
    winners, tied = knockout_next(matches, {(0, 3): -2.0, (1, 2): 0.0}, {(1, 2): MAX_TIEBREAK_PAIRS})
    assert winners == [3, 1, 4] and tied == []  # still tied after the tie-breaks: the better seed goes on
    assert next_round_matches([0, 3, 1, 4]) == [(0, 3), (1, 4)]


def test_random_openings_are_legal_deterministic_and_open() -> None:
    game = get_game("tictactoe")
    params = game.validate_params({})
    a = random_opening(game, params, 3, random.Random("s"))
    b = random_opening(game, params, 3, random.Random("s"))
    assert a == b and len(a) == 3
    state = play_opening(game, params, a)
    assert game.to_move(state) is not None
    book = OpeningBook(game, params, seed=7, plies=2)
    assert book.opening(5) == OpeningBook(game, params, seed=7, plies=2).opening(5)
    assert len({tuple(book.opening(i)) for i in range(20)}) > 5
    assert OpeningBook(game, params, seed=7).opening(3) == []


def test_openings_file_is_checked_line_by_line() -> None:
    game = get_game("numberwang")
    params = game.validate_params({})
    text = "# numberwang openings\n3 -2\n\n5, 1  # a comment\n"
    lines = parse_openings(text, game, params)
    assert lines == [["3", "-2"], ["5", "1"]]
    with pytest.raises(ConfigError, match=r"line 2: .*'abc'"):
        parse_openings("1\nabc\n", game, params)
    with pytest.raises(ConfigError, match="ends the game"):
        parse_openings("10\n", game, params)
    with pytest.raises(ConfigError, match="no opening"):
        parse_openings("# nothing\n", game, params)
    book = OpeningBook(game, params, seed=1, lines=lines)
    assert sorted(map(tuple, (book.opening(0), book.opening(1)))) == [("3", "-2"), ("5", "1")]
    assert book.opening(2) == book.opening(0)


def test_balanced_openings_keep_the_playout_score_even() -> None:
    """Numberwang openings that push the total far to one side are lopsided; balance redraws them."""
    game = get_game("numberwang")
    params = game.validate_params({})
    judge = random.Random(99)
    balanced = [random_opening(game, params, 2, random.Random(i), balance=64) for i in range(12)]
    for moves in balanced:
        assert len(moves) == 2
        score = playout_score(game, play_opening(game, params, moves), judge, 400)
        assert BALANCE_WINDOW[0] - 0.1 <= score <= BALANCE_WINDOW[1] + 0.1, (moves, score)
    # without the check, some random openings are clearly lopsided
    raw = [random_opening(game, params, 2, random.Random(i)) for i in range(40)]
    scores = [playout_score(game, play_opening(game, params, m), judge, 400) for m in raw]
    assert any(not BALANCE_WINDOW[0] - 0.1 <= sc <= BALANCE_WINDOW[1] + 0.1 for sc in scores)
