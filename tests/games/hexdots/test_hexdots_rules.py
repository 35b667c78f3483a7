"""Hexagon dots rules: board shape, captures, extra turns, claimed hexagons, the early end, notation."""

from __future__ import annotations

import random

import pytest
from hexdots_naive import NaiveDots

from hexarena.core.errors import ConfigError, IllegalMove, InvalidMove
from hexarena.core.game import Game
from hexarena.core.registry import get_game
from hexarena.core.types import Termination
from hexarena.games.hexdots import GAME, DotsState, geometry, line_count
from hexarena.games.hexdots.board import check_line

Coord = tuple[int, int]


def line(a: Coord, b: Coord) -> tuple[Coord, Coord]:
    return (a, b) if a <= b else (b, a)


def play_all(state: DotsState, moves: list[str]) -> DotsState:
    for text in moves:
        state = GAME.play(state, GAME.parse(text))
    return state


# --- board shape -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("rows", "cols", "expected"), [(3, 3, 12), (5, 5, 49), (7, 7, 110)])
def test_line_counts_of_the_issue(rows: int, cols: int, expected: int) -> None:
    geo = geometry(rows, cols)
    assert geo.n_lines == expected
    assert len(GAME.legal(GAME.new(rows=rows, cols=cols))) == expected


@pytest.mark.parametrize("rows", [3, 5, 7, 9, 15, 41])
@pytest.mark.parametrize("cols", [3, 4, 5, 8, 13, 41])
def test_enumeration_matches_formula_and_naive_neighbours(rows: int, cols: int) -> None:
    geo = geometry(rows, cols)
    assert geo.n_lines == line_count(rows, cols)
    # Every dot count per row, and every line is a pair of mutual neighbours counted once.
    assert geo.n_dots == (rows + 1) // 2 * (cols - 1) + (rows - 1) // 2 * cols
    if rows * cols <= 200:
        naive = NaiveDots(rows, cols)
        assert set(geo.line_coords) == naive.all_lines()
        assert {geo.coords[c] for c in geo.hex_center} == {d for d in naive.dots() if naive.is_center(d)}
    assert list(geo.line_coords) == sorted(geo.line_coords)  # ids follow row-major order


def test_neighbour_rule_on_the_seeds_lettered_3x3_board() -> None:
    # The seed's 3x3 board:   A B        (row 0, short)
    #                        C D E       (row 1)
    #                         F G        (row 2, short)
    pos = {"A": (0, 0), "B": (0, 1), "C": (1, 0), "D": (1, 1), "E": (1, 2), "F": (2, 0), "G": (2, 1)}
    expected = {
        "A": "BCD",
        "B": "ADE",
        "C": "ADF",
        "D": "ABCEFG",
        "E": "BDG",
        "F": "CDG",
        "G": "DEF",
    }
    geo = geometry(3, 3)
    for name, coord in pos.items():
        got = {geo.coords[n] for n in geo.neighbours[geo.dot(coord)]}
        assert got == {pos[x] for x in expected[name]}, name
    # The only hexagon is centred on D; its perimeter is the outer ring A-B-E-G-F-C.
    assert [geo.coords[c] for c in geo.hex_center] == [pos["D"]]
    perim = {geo.line_coords[i] for i in geo.hex_perimeter[0]}
    ring = "ABEGFC"
    assert perim == {line(pos[ring[i]], pos[ring[(i + 1) % 6]]) for i in range(6)}


def test_params() -> None:
    s = GAME.new()
    assert (s.rows, s.cols) == (5, 5)
    assert GAME.params_of(GAME.new(rows="7", cols=9)) == {"rows": 7, "cols": 9}
    with pytest.raises(ConfigError, match=r"'rows' must be odd.*got 4"):
        GAME.new(rows=4)
    with pytest.raises(ConfigError, match="'cols' must be >= 3"):
        GAME.new(cols=2)
    with pytest.raises(ConfigError, match="<= 41"):
        GAME.new(rows=43)
    with pytest.raises(ConfigError, match="unknown parameter"):
        GAME.new(size=5)


def test_registered() -> None:
    assert get_game("hexdots") is GAME
    assert isinstance(GAME, Game)
    assert GAME.seat_names == ("first", "second")
    assert [p["name"] for p in GAME.describe()["params"]] == ["rows", "cols"]


def test_states_of_one_size_compare_by_position() -> None:
    geometry.cache_clear()  # a fresh table object for the same size must not change equality
    a = GAME.play(GAME.new(rows=5, cols=5), ((0, 0), (0, 1)))
    geometry.cache_clear()
    b = GAME.play(GAME.new(rows=5, cols=5), ((0, 0), (0, 1)))
    assert a.geo is not b.geo and a == b
    assert a != GAME.play(GAME.new(rows=5, cols=5), ((0, 0), (1, 0)))


# --- the hand-checked game ----------------------------------------------------------------------------------

# On 5x5 the hexagons centred on (1,1) and (2,2) share the side (1,2)-(2,1). Ten moves draw their other ten
# sides without capturing anything, alternating first/second; then first draws the shared side.
SIDES_11 = ["1,0-0,0", "0,0-0,1", "0,1-1,2", "2,1-2,0", "2,0-1,0"]
SIDES_22 = ["1,2-1,3", "1,3-2,3", "2,3-3,3", "3,3-3,2", "3,2-2,1"]
SETUP = [m for pair in zip(SIDES_11, SIDES_22, strict=True) for m in pair]


def test_one_line_takes_two_hexagons_and_the_player_moves_again() -> None:
    s = GAME.new(rows=5, cols=5)
    for i, text in enumerate(SETUP):
        assert GAME.to_move(s) == i % 2
        s = GAME.play(s, GAME.parse(text))
        assert s.scores == (0, 0)
    assert GAME.to_move(s) == 0
    s = GAME.play(s, GAME.parse("2,1-1,2"))  # either order is accepted
    assert s.last_captured and {s.geo.coords[s.geo.hex_center[h]] for h in s.last_captured} == {(1, 1), (2, 2)}
    assert s.scores == (2, 0)
    assert GAME.to_move(s) == 0  # the extra turn
    assert GAME.outcome(s) is None
    # Every hexagon next to a captured centre is dead; only the one centred on (3,1) can still be completed.
    assert s.alive == 1
    # Lines touching a captured centre are illegal now, even though they were never drawn.
    with pytest.raises(IllegalMove, match=r"^line falls within claimed hex: 1,1-2,1 touches .* 1,1"):
        GAME.play(s, GAME.parse("1,1-2,1"))
    with pytest.raises(IllegalMove, match=r"^line falls within claimed hex"):
        GAME.play(s, GAME.parse("2,2-2,3"))
    assert all((1, 1) not in m and (2, 2) not in m for m in GAME.legal(s)), (
        "legal() must leave out lines through captured centres"
    )


def test_game_ends_early_with_lines_left() -> None:
    s = play_all(GAME.new(rows=5, cols=5), [*SETUP, "1,2-2,1"])
    # The hexagon centred on (3,1): (2,0)-(2,1) and (2,1)-(3,2) are already drawn; four sides remain.
    s = GAME.play(s, GAME.parse("3,0-2,0"))  # first, after its extra turn
    assert GAME.to_move(s) == 1
    s = play_all(s, ["3,2-4,1", "4,1-4,0"])
    assert GAME.to_move(s) == 1 and s.scores == (2, 0)
    s = GAME.play(s, GAME.parse("4,0-3,0"))  # second completes the last hexagon that could be completed
    assert s.scores == (2, 1)
    assert s.over and GAME.to_move(s) is None
    out = GAME.outcome(s)
    assert out is not None and out.winner == 0 and out.termination is Termination.NORMAL
    assert "2 - 1" in out.reason
    drawn = sum(1 for x in s.line_owner if x)
    assert drawn == 15 and s.geo.n_lines == 49
    assert GAME.legal(s) == []
    # Lines remain on the board that touch no captured centre, but the game is over.
    assert s.n_legal > 0
    with pytest.raises(IllegalMove, match="game is over"):
        GAME.play(s, GAME.parse("0,2-0,3"))


def test_draw_when_scores_are_equal() -> None:
    # 3x3 has one hexagon: a game ends 1-0 or 0-1, never a draw; 3x5 can end 1-1 ... build a 1-1 game on 3x5.
    # Hexagons on 3x5 are centred on (1,1), (1,2), (1,3); capturing (1,1) kills (1,2), leaving (1,3).
    s = GAME.new(rows=3, cols=5)
    ring_11 = ["1,0-0,0", "0,0-0,1", "0,1-1,2", "1,2-2,1", "2,1-2,0", "2,0-1,0"]
    s = play_all(s, ring_11[:5])  # first, second, first, second, first: no capture yet
    assert GAME.to_move(s) == 1
    s = GAME.play(s, GAME.parse(ring_11[5]))  # second captures (1,1)
    assert s.scores == (0, 1) and GAME.to_move(s) == 1
    ring_13 = ["1,2-0,2", "0,2-0,3", "0,3-1,4", "1,4-2,3", "2,3-2,2", "2,2-1,2"]
    s = play_all(s, ring_13[:5])  # second, first, second, first, second
    assert GAME.to_move(s) == 0
    s = GAME.play(s, GAME.parse(ring_13[5]))
    assert s.scores == (1, 1) and s.over
    out = GAME.outcome(s)
    assert out is not None and out.winner is None and out.is_draw


# --- illegal and invalid moves ------------------------------------------------------------------------------


def test_illegal_move_reasons() -> None:
    s = GAME.play(GAME.new(rows=5, cols=5), ((0, 0), (0, 1)))
    with pytest.raises(IllegalMove, match=r"^line already placed: 0,0-0,1$"):
        GAME.play(s, ((0, 1), (0, 0)))
    with pytest.raises(IllegalMove, match=r"^endpoint not on board: 0,4"):  # short row 0 has cols 0..3
        GAME.play(s, ((0, 3), (0, 4)))
    with pytest.raises(IllegalMove, match=r"^endpoint not on board: -1,0"):
        GAME.play(s, ((-1, 0), (0, 0)))
    with pytest.raises(IllegalMove, match=r"^endpoint not on board: 5,0"):
        GAME.play(s, ((4, 0), (5, 0)))
    with pytest.raises(IllegalMove, match=r"^endpoints not adjacent: 0,0 and 0,2$"):
        GAME.play(s, ((0, 0), (0, 2)))
    with pytest.raises(IllegalMove, match=r"^endpoints not adjacent: 1,1 and 1,1$"):
        GAME.play(s, ((1, 1), (1, 1)))
    with pytest.raises(IllegalMove, match=r"^endpoints not adjacent"):
        GAME.play(s, ((0, 0), (2, 0)))
    with pytest.raises(InvalidMove, match=r"^invalid line data"):
        GAME.play(s, ((0, 0),))  # type: ignore[arg-type]
    with pytest.raises(InvalidMove, match=r"^invalid line data"):
        GAME.play(s, ((0, 0), (True, 1)))


def test_seed_example_claimed_hex_ends_3x5_and_blocks_its_spokes() -> None:
    # The seed's 3x5 picture: B---C above, / \ and \ / around G, K---L below: the hexagon centred on G
    # (row 1, col 2) is claimed, "It would be illegal to draw a line using G as an endpoint".
    s = GAME.new(rows=3, cols=5)
    b, c, f, g, h, k, lpt = (0, 1), (0, 2), (1, 1), (1, 2), (1, 3), (2, 1), (2, 2)
    for a, z in [(f, b), (b, c), (c, h), (h, lpt), (lpt, k)]:
        s = GAME.play(s, line(a, z))
    s = GAME.play(s, line(k, f))
    assert [s.geo.coords[s.geo.hex_center[h]] for h in s.last_captured] == [g]
    # The other two hexagons neighbour G: nothing can be completed any more, so the game is over...
    assert s.over
    out = GAME.outcome(s)
    assert out is not None and out.winner == 1  # six moves alternate, so second drew the sixth side
    # ... and the rules would refuse any line through G for the original's reason.
    for n in s.geo.neighbours[s.geo.dot(g)]:
        with pytest.raises(IllegalMove, match=r"^line falls within claimed hex"):
            check_line(s.geo, s.line_owner, s.hex_owner, line(g, s.geo.coords[n]))


# --- notation ----------------------------------------------------------------------------------------------


def test_notation_round_trip_and_normalisation() -> None:
    assert GAME.parse("0,0-0,1") == ((0, 0), (0, 1))
    assert GAME.parse(" 1, 2 - 0 ,1 ") == ((0, 1), (1, 2))
    assert GAME.parse("0,-1-0,0") == ((0, -1), (0, 0))
    assert GAME.format(((1, 2), (0, 1))) == "0,1-1,2"
    geo = geometry(7, 7)
    for ln in geo.line_coords:
        assert GAME.parse(GAME.format(ln)) == ln
    for bad in ["", "0,0", "0,0-0", "a,0-0,1", "0,0-0,1-1,1", "0.5,0-0,1"]:
        with pytest.raises(InvalidMove, match="invalid line data"):
            GAME.parse(bad)


# --- cross-check against a naive referee --------------------------------------------------------------------


@pytest.mark.parametrize(("rows", "cols", "seed"), [(3, 3, 1), (3, 5, 2), (5, 5, 3), (5, 6, 4), (7, 5, 5)])
def test_random_games_agree_with_naive_referee(rows: int, cols: int, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(6):
        s = GAME.new(rows=rows, cols=cols)
        naive = NaiveDots(rows, cols)
        while True:
            legal = set(GAME.legal(s))
            assert legal == naive.legal()
            assert s.n_legal == len(legal) or s.over
            if not legal:
                break
            assert GAME.to_move(s) == naive.turn
            mv = rng.choice(sorted(legal))
            s = GAME.play(s, mv)
            caps = naive.play(mv)
            assert sorted(s.geo.coords[s.geo.hex_center[h]] for h in s.last_captured) == caps
            assert list(s.scores) == naive.scores
        assert s.over and GAME.to_move(s) is None
        assert GAME.outcome(s) is not None
