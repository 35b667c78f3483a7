"""Hex rules, notation and the mutable core, on hand-made positions and with hypothesis."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hexarena.core import ConfigError, IllegalMove, InvalidMove, Termination, get_game
from hexarena.games.hex import BLACK, GAME, RESIGN, SWAP, WHITE, HexBoard, HexState, mirror


def play_all(state: HexState, *moves: str) -> HexState:
    for m in moves:
        state = GAME.play(state, GAME.parse(m))
    return state


def test_registered_under_hex_with_params() -> None:
    assert get_game("hex") is GAME
    s = GAME.new()
    assert GAME.params_of(s) == {"size": 11, "swap": True}
    assert GAME.params_of(GAME.new(size="5", swap="off")) == {"size": 5, "swap": False}
    for bad in ({"size": 0}, {"size": 27}, {"size": "x"}, {"swap": "maybe"}, {"colour": 1}):
        with pytest.raises(ConfigError):
            GAME.new(**bad)


def test_black_connects_top_to_bottom_white_left_to_right() -> None:
    # 3x3, Black plays straight down column 2 (UAIS a2 = row a, column 2).
    s = play_all(GAME.new(size=3, swap=False), "a2", "a1", "b2", "b1", "c2")
    out = GAME.outcome(s)
    assert out is not None and out.winner == 0 and out.termination is Termination.NORMAL
    assert "black" in out.reason
    assert GAME.render(s) == "WB.|WB.|.B.|"
    # White connects left and right along row b (Black wastes moves on row a and c).
    s = play_all(GAME.new(size=3, swap=False), "a1", "b1", "a2", "b2", "c3", "b3")
    out = GAME.outcome(s)
    assert out is not None and out.winner == 1 and "white" in out.reason
    assert GAME.to_move(s) is None and GAME.legal(s) == []


def test_diagonal_adjacency_follows_uais() -> None:
    # (r, c) touches (r+1, c-1) but not (r+1, c+1): a chain a3-b2-c1 connects top to bottom on 3x3.
    s = play_all(GAME.new(size=3, swap=False), "a3", "a1", "b2", "a2", "c1")
    assert GAME.outcome(s) is not None and GAME.outcome(s).winner == 0  # type: ignore[union-attr]
    s = play_all(GAME.new(size=3, swap=False), "a1", "a3", "b2", "a2", "c3")
    assert GAME.outcome(s) is None  # a1-b2-c3 is not a chain in this geometry


def test_one_by_one_board_is_won_by_the_first_stone() -> None:
    s = GAME.play(GAME.new(size=1), (0, 0))
    out = GAME.outcome(s)
    assert out is not None and out.winner == 0


def test_swap_exchanges_colours_and_keeps_the_board() -> None:
    s = play_all(GAME.new(size=5), "c3")
    assert SWAP in GAME.legal(s)
    s = GAME.play(s, SWAP)
    assert s.swapped and s.colour_of(0) == WHITE and s.colour_of(1) == BLACK
    assert GAME.render(s) == ".....|.....|..B..|.....|.....|"
    assert GAME.to_move(s) == 0  # the original first player moves next, now as White
    s = play_all(s, "a1")
    assert GAME.rows(s)[0][0] == "W"
    assert SWAP not in GAME.legal(s)
    # Seat 1 (now Black) wins by connecting top and bottom: winner is a seat, not a colour.
    s = play_all(s, "a3", "a2", "b3", "b1", "d3", "c1", "e3")
    out = GAME.outcome(s)
    assert out is not None and out.winner == 1 and "black" in out.reason


def test_swap_rejected_when_off_or_late_with_reasons() -> None:
    with pytest.raises(IllegalMove, match="swap"):
        GAME.play(GAME.new(size=5), SWAP)  # ply 0
    with pytest.raises(IllegalMove, match="off"):
        GAME.play(play_all(GAME.new(size=5, swap=False), "a1"), SWAP)
    with pytest.raises(IllegalMove, match="second player's first move"):
        GAME.play(play_all(GAME.new(size=5), "a1", "a2"), SWAP)
    with pytest.raises(IllegalMove):
        GAME.play(play_all(GAME.new(size=5), "a1", "swap"), SWAP)


def test_errors_quote_the_move() -> None:
    s = play_all(GAME.new(size=5), "b2")
    with pytest.raises(IllegalMove, match="'b2' is occupied"):
        GAME.play(s, (1, 1))
    with pytest.raises(IllegalMove, match="'f1' is off the 5x5 board"):
        GAME.play(s, GAME.parse("f1"))
    with pytest.raises(IllegalMove, match="off the 5x5"):
        GAME.play(s, (-1, 0))
    for bad in ((1,), (1, 2, 3), ("a", 1), (True, 1), [1, 1], "a1", 5, None):
        with pytest.raises(InvalidMove):
            GAME.play(s, bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidMove, match="'zz'"):
        GAME.parse("zz")
    done = play_all(GAME.new(size=1), "a1")
    with pytest.raises(IllegalMove, match="over"):
        GAME.play(done, RESIGN)


def test_resign_ends_the_game_for_the_other_seat() -> None:
    s = play_all(GAME.new(size=5), "a1", "swap")
    r = GAME.play(s, RESIGN)
    out = GAME.outcome(r)
    assert out is not None and out.winner == 1 and out.termination is Termination.RESIGN
    assert out.reason == "white resigned"  # seat 0 plays White after the swap
    assert RESIGN not in GAME.legal(s)
    assert GAME.to_move(r) is None and GAME.legal(r) == []


@pytest.mark.parametrize(
    ("uais", "htp", "cell"),
    [
        ("a1", "a1", (0, 0)),
        ("a2", "b1", (0, 1)),
        ("c1", "a3", (2, 0)),
        ("k11", "k11", (10, 10)),
        ("z3", "c26", (25, 2)),
    ],
)
def test_uais_and_htp_notation(uais: str, htp: str, cell: tuple[int, int]) -> None:
    assert GAME.parse(uais) == cell and GAME.format(cell) == uais
    assert GAME.from_htp(htp) == cell and GAME.to_htp(cell) == htp
    assert GAME.parse(uais.upper()) == cell
    assert mirror(mirror(cell)) == cell


def test_special_moves_in_both_notations() -> None:
    assert GAME.parse("swap") == SWAP and GAME.format(SWAP) == "swap"
    assert GAME.parse(" Resign ") == RESIGN and GAME.format(RESIGN) == "resign"
    assert GAME.to_htp(SWAP) == "swap-pieces" and GAME.from_htp("swap-pieces") == SWAP
    assert GAME.from_htp("swap-sides") == SWAP and GAME.from_htp("resign") == RESIGN
    for bad in ("", "a", "1a", "a0", "a01", "swap-pieces", "a1b", "ä1", "a-1", "a１"):
        with pytest.raises(InvalidMove):
            GAME.parse(bad)


@settings(deadline=None)  # no flaky deadline on a loaded CI machine
@given(st.text(max_size=8))
def test_parse_never_fails_with_anything_but_invalid_move(text: str) -> None:
    try:
        move = GAME.parse(text)
    except InvalidMove as e:
        assert e.reason and repr(text) in e.reason
    else:
        assert GAME.parse(GAME.format(move)) == move


@settings(deadline=None)  # no flaky deadline on a loaded CI machine
@given(st.integers(0, 25), st.integers(0, 25))
def test_cell_notation_round_trips(r: int, c: int) -> None:
    cell = (r, c)
    assert GAME.parse(GAME.format(cell)) == cell
    assert GAME.from_htp(GAME.to_htp(cell)) == cell
    assert GAME.from_htp(GAME.format(cell)) == mirror(cell)  # the two notations are transposes


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 9), st.booleans(), st.integers(0, 2**32))
def test_immutable_api_agrees_with_mutable_core(size: int, swap: bool, seed: int) -> None:
    """Random game: the state's hash, winner and cells equal a ``HexBoard`` fed the same stones, and the
    input state never changes; then undo all the way back to an empty board and hash 0."""
    rng = random.Random(seed)
    state = GAME.new(size=size, swap=swap)
    board = HexBoard(size)
    while GAME.outcome(state) is None:
        move = GAME.random_move(state, rng)
        before = (GAME.to_json(state), state.hash)
        nxt = GAME.play(state, move)
        assert (GAME.to_json(state), state.hash) == before
        if move != SWAP:
            assert isinstance(move, tuple)
            won = board.place(move[0] * size + move[1])
            assert won == (GAME.outcome(nxt) is not None)
        state = nxt
        stones = [i for i, v in enumerate(state.cells) if v]
        assert sorted(board.history) == stones
        assert bytes(board.cells[: size * size]) == state.cells
        assert board.hash == state.hash ^ (0 if not state.swapped else _swap_key(size))
    out = GAME.outcome(state)
    assert out is not None and state.colour_of(out.winner) == board.winner  # type: ignore[arg-type]
    while board.history:
        board.undo()
    assert board.hash == 0 and board.winner == 0 and board.parent == HexBoard(size).parent


def _swap_key(size: int) -> int:
    from hexarena.games.hex.geometry import zobrist

    return zobrist(size)[2]


def test_to_board_rebuilds_a_searchable_position() -> None:
    s = play_all(GAME.new(size=4), "b2", "swap", "a1", "c3")
    board = GAME.to_board(s)
    assert board.to_play == s.colour_of(GAME.to_move(s))  # type: ignore[arg-type]
    assert bytes(board.cells[:16]) == s.cells
    with pytest.raises(ValueError):
        GAME.to_board(play_all(GAME.new(size=1), "a1"))


def test_board_rejects_occupied_and_finished() -> None:
    b = HexBoard(2)
    b.place(0)
    with pytest.raises(ValueError):
        b.place(0)
    with pytest.raises(ValueError):
        b.place(4)  # an edge node, not a cell
    b.place(1)
    assert b.place(2) and b.winner == BLACK
    with pytest.raises(ValueError):
        b.place(3)
    assert b.undo() == 2 and b.winner == 0


def test_states_compare_by_position() -> None:
    a = play_all(GAME.new(size=4), "a1", "b2", "c3")
    b = play_all(GAME.new(size=4), "c3", "b2", "a1")
    assert a == b and hash(a) == hash(b) and a.hash == b.hash
    assert a != play_all(GAME.new(size=4), "a1", "b2")
    j = GAME.to_json(a)
    assert j["board"] == ["B...", ".W..", "..B.", "...."] and j["to_move"] == 1 and j["lastMove"] == "c3"
    assert j["sides"] == ["black", "white"]


def test_random_move_is_uniform_over_legal() -> None:
    rng = random.Random(11)
    s = play_all(GAME.new(size=3, swap=False), "a1", "a2", "b2", "c3")  # five empty cells left
    counts: dict[object, int] = {}
    for _ in range(5000):
        m = GAME.random_move(s, rng)
        counts[m] = counts.get(m, 0) + 1
    assert set(counts) == set(GAME.legal(s))
    assert all(850 < n < 1150 for n in counts.values()), counts
    s = play_all(GAME.new(size=3), "b2")  # eight cells and the swap
    counts = {}
    for _ in range(4500):
        m = GAME.random_move(s, rng)
        counts[m] = counts.get(m, 0) + 1
    assert set(counts) == set(GAME.legal(s)) and SWAP in counts
    assert all(380 < n < 620 for n in counts.values()), counts


# ----- the winning chain the board marks -----


def test_the_winning_chain_is_the_shortest_edge_to_edge_path_of_the_winner() -> None:
    s = play_all(GAME.new(size=3, swap=False), "a1", "a3", "b2", "b3", "b1", "c3")
    assert GAME.winning_chain(s) == [] and GAME.to_json(s)["winning"] == []  # not over yet
    s = play_all(s, "c1")
    # b2 is joined to the chain but not needed: the picture shows the connection itself
    assert GAME.to_json(s)["winning"] == ["a1", "b1", "c1"]


def test_white_chains_run_left_to_right_and_follow_a_swap() -> None:
    # seat 1 swaps: seat 0 now plays white (left to right) and wins along row c
    s = play_all(GAME.new(size=3, swap=True), "b1", "swap", "c1", "a1", "c2", "a2", "c3")
    outcome = GAME.outcome(s)
    assert outcome is not None and outcome.winner == 0
    chain = GAME.winning_chain(s)
    assert [c for _, c in chain] == [0, 1, 2] and all(s.cells[r * 3 + c] == WHITE for r, c in chain)


@given(st.integers(min_value=1, max_value=9), st.integers(min_value=0, max_value=10**6))
@settings(max_examples=60, deadline=None)
def test_random_games_chain_is_connected_and_touches_both_edges(size: int, seed: int) -> None:
    rng = random.Random(seed)
    s = GAME.new(size=size, swap=False)
    while GAME.to_move(s) is not None:
        s = GAME.play(s, GAME.random_move(s, rng))
    chain = GAME.winning_chain(s)
    outcome = GAME.outcome(s)
    assert outcome is not None and chain
    colour = s.colour_of(outcome.winner)
    assert all(s.cells[r * size + c] == colour for r, c in chain)
    steps = itertools.pairwise(chain)  # each step to a neighbour: hex distance 1
    assert all(abs(r1 - r2) + abs(c1 - c2) + abs(r1 + c1 - r2 - c2) == 2 for (r1, c1), (r2, c2) in steps)
    axis = 0 if colour == BLACK else 1
    assert chain[0][axis] == 0 and chain[-1][axis] == size - 1
    assert GAME.winning_chain(GAME.new(size=size)) == []


def test_the_battlebot_colours_are_the_boards_before_and_after_a_swap() -> None:
    """The battlebot wire's ``colours`` (colour -> player) name the colour each seat plays on the board."""
    from hexarena.games.hex.battlebot import shape

    game = GAME
    extra = shape(game).extra
    state = game.new(size=5, swap=True)
    for move in ("c3", "swap", None):
        out = extra(state, ("ann", "bob"))
        colours = game.to_json(state)["colours"]
        assert isinstance(colours, list)
        assert out["colours"] == {colours[0]: "ann", colours[1]: "bob"}
        assert "colours" in out["board"] and "to_move" not in out["board"]
        if move is not None:
            state = game.play(state, game.parse(move))
    assert game.to_json(state)["swapped"] is True
