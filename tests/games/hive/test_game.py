"""The immutable HiveGame face: notation round trips, legality errors, outcomes, no mutation of inputs."""

from __future__ import annotations

import random

import pytest

from hexarena.core.errors import ConfigError, IllegalMove, InvalidMove
from hexarena.core.registry import get_game
from hexarena.core.types import Termination
from hexarena.games.hive import GAME, HiveMove

WHITE_WINS = (
    "Base;WhiteWins;Black[8];wS1;bS1 wS1-;wQ -wS1;bQ bS1/;wG1 -wQ;bG1 \\bQ;wG1 bQ\\;bG2 bQ/;wA1 wQ\\;"
    "bA1 bG2/;wA1 bG2\\;bA1 \\bG2;wQ \\wS1;bA1 bG2/;wQ /bG1"
)
DRAW = (
    "Base;Draw;White[11];wS1;bS1 wS1-;wQ -wS1;bQ bS1/;wG1 -wQ;bG1 \\bQ;wG1 bQ\\;bG2 bQ/;wA1 wQ\\;bA1 bG2/;"
    "wA1 bG2\\;bA1 \\bG2;wQ \\wS1;bG1 wA1/;wQ -bQ;bA1 \\wQ;wB1 -wS1;bG3 bG1-;wB1 /bA1;bG3 -bG2"
)
PASS_POS = (
    "Base;InProgress;White[7];wA1;bS1 wA1-;wQ -wA1;bQ bS1/;wQ \\wA1;bA1 bS1\\;wQ -wA1;bA2 bQ\\;wQ \\wA1;"
    "bA1 \\wQ;wG1 /wQ;bA2 /wG1"
)


def test_registered_with_params() -> None:
    g = get_game("hive")
    assert g is GAME and g.seat_names == ("white", "black")
    assert g.params_of(g.new()) == {"expansions": "MLP"}
    assert g.params_of(g.new(expansions="")) == {"expansions": ""}
    with pytest.raises(ConfigError, match="'X'"):
        g.new(expansions="X")


def test_first_moves() -> None:
    s = GAME.new(expansions="")
    assert sorted(m.text for m in GAME.legal(s)) == ["wA1", "wB1", "wG1", "wS1"]
    with pytest.raises(IllegalMove, match="first turn"):
        GAME.play(s, GAME.parse("wQ"))
    with pytest.raises(IllegalMove, match="next"):
        GAME.play(s, GAME.parse("wA2"))
    s1 = GAME.play(s, GAME.parse("wA1"))
    assert len(GAME.legal(s1)) == 24 and GAME.to_move(s1) == 1 and GAME.ply(s1) == 1


@pytest.mark.parametrize("bad", ["", "wX1", "wA4", "wQ1", "wA1 -wS1-", "bS3 wS1", "wA1  wB1 x", "pas"])
def test_parse_rejects_garbage(bad: str) -> None:
    with pytest.raises(InvalidMove, match="MoveString"):
        GAME.parse(bad)


def test_parse_format_round_trip_and_whitespace() -> None:
    for text in ["wS1", "bS1 wS1-", "wB1 bQ", "pass", "bA2 \\wQ", "wG3 /bP"]:
        m = GAME.parse(text)
        assert GAME.format(m) == text and GAME.parse(GAME.format(m)) == m
    assert GAME.parse("  bS1   wS1- ") == HiveMove("bS1 wS1-")
    assert GAME.parse("PASS") == HiveMove("pass")


def test_other_spellings_are_accepted_and_normalised() -> None:
    s = GAME.from_game_string("Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-")
    # The cell upper-left of wS1 is also upper-right of wQ.
    a, b = GAME.parse("wA1 \\wS1"), GAME.parse("wA1 wQ/")
    assert GAME.normalize(s, a) == GAME.normalize(s, b)
    assert GAME.normalize(s, a) in GAME.legal(s)
    assert GAME.play(s, a) == GAME.play(s, b)
    with pytest.raises(IllegalMove, match="not on the board"):
        GAME.play(s, GAME.parse("wA1 wG1-"))
    with pytest.raises(IllegalMove, match="may not be placed"):
        GAME.play(s, GAME.parse("wA1 wS1/"))  # touches bS1
    with pytest.raises(IllegalMove, match="not white's piece"):
        GAME.play(s, GAME.parse("bA1 wS1/"))


def test_game_over_states() -> None:
    s = GAME.from_game_string(WHITE_WINS)
    assert GAME.outcome(s) is not None and GAME.outcome(s).winner == 0  # type: ignore[union-attr]
    assert GAME.outcome(s).termination == Termination.NORMAL  # type: ignore[union-attr]
    assert GAME.to_move(s) is None and GAME.legal(s) == []
    with pytest.raises(IllegalMove, match="ended"):
        GAME.play(s, GAME.parse("pass"))
    d = GAME.from_game_string(DRAW)
    assert GAME.outcome(d) is not None and GAME.outcome(d).is_draw  # type: ignore[union-attr]
    assert GAME.game_string(d).startswith("Base;Draw;White[11];")


def test_pass_only_when_nothing_else() -> None:
    s = GAME.from_game_string(PASS_POS)
    assert [m.text for m in GAME.legal(s)] == ["pass"]
    s2 = GAME.play(s, GAME.parse("pass"))
    assert GAME.to_move(s2) == 1
    with pytest.raises(IllegalMove, match="pass"):
        GAME.play(s2, GAME.parse("pass"))


def test_game_string_errors_quote_input() -> None:
    with pytest.raises(InvalidMove, match="Base\\+X"):
        GAME.from_game_string("Base+X;NotStarted;White[1]")
    with pytest.raises(IllegalMove, match="Black\\[1\\]"):
        GAME.from_game_string("Base;InProgress;Black[1];wS1;bS1 wS1-")
    assert GAME.game_string(GAME.from_game_string("Base+MP")) == "Base+MP;NotStarted;White[1]"
    assert GAME.game_string(GAME.from_game_string("Base+MLP;NotStarted;White[1];")) == "Base+MLP;NotStarted;White[1]"
    with pytest.raises(InvalidMove, match="''"):
        GAME.from_game_string("Base;InProgress;Black[1];;wS1")


def test_random_games_round_trip_and_never_mutate() -> None:
    rng = random.Random(7)
    for exp in ("", "MLP", "L"):
        s = GAME.new(expansions=exp)
        for _ in range(120):
            if GAME.outcome(s) is not None:
                break
            legal = GAME.legal(s)
            assert len(set(legal)) == len(legal)
            before = (GAME.game_string(s), dict(s.board.stacks), s.board.zh)
            m = GAME.random_move(s, rng)
            assert m in legal
            s2 = GAME.play(s, m)
            assert (GAME.game_string(s), dict(s.board.stacks), s.board.zh) == before
            assert GAME.ply(s2) == GAME.ply(s) + 1
            s = s2
        again = GAME.from_game_string(GAME.game_string(s))
        assert again == s and again.board.zh == s.board.zh
        js = GAME.to_json(s)
        assert js["game_string"] == GAME.game_string(s)
        assert sum(len(c["stack"]) for c in js["board"]) == sum(1 for p in s.board.pos if p is not None)


def test_undo_restores_hash() -> None:
    rng = random.Random(3)
    b = GAME.core(GAME.new())
    keys = []
    for _ in range(60):
        keys.append((b.key(), dict(b.stacks)))
        moves = b.moves()
        if not moves:
            break
        b.play(rng.choice(moves))
    while b.history:
        b.undo()
        assert (b.key(), b.stacks) == keys[len(b.history)]


def test_every_spelling_of_a_move_resolves_to_it() -> None:
    """Write each legal move relative to every neighbouring piece (and on top): all spellings name one move."""
    from hexarena.games.hive.board import DIRS, NAME, NE, NW, SE, SW, E, W
    from hexarena.games.hive.notation import resolve

    spell = {E: "{r}-", W: "-{r}", NE: "{r}/", SW: "/{r}", SE: "{r}\\", NW: "\\{r}"}
    rng = random.Random(12)
    checked = 0
    s = GAME.new(expansions="MLP")
    for _ in range(70):
        if GAME.outcome(s) is not None:
            break
        b = s.board
        for m in b.moves():
            pid, dest = m
            if pid < 0 or not b.stacks:
                continue
            spellings = []
            if dest in b.stacks:
                spellings.append(f"{NAME[pid]} {NAME[b.stacks[dest][-1]]}")
            for d in DIRS:
                for ref in b.stacks.get(dest + d, ()):
                    if ref != pid:  # any piece of the neighbouring stack, named by the offset from it
                        spellings.append(f"{NAME[pid]} " + spell[-d].format(r=NAME[ref]))
            assert spellings
            for text in spellings:
                assert resolve(b, text) == m, text
                checked += 1
        s = GAME.play(s, GAME.random_move(s, rng))
    assert checked > 1000


def test_legal_and_play_leave_the_input_board_untouched_and_order_is_fixed() -> None:
    """legal/play generate on a private copy: the snapshot's stacks (and their dict order) and caches stay."""
    rng = random.Random(11)
    s = GAME.new()
    for _ in range(40):
        if GAME.to_move(s) is None:
            break
        b = s.board
        before = (list(b.stacks.items()), list(b.pos), b.ply, b.stunned, b.zh)
        first = GAME.legal(s)
        move = rng.choice(first)
        nxt = GAME.play(s, move)
        assert GAME.legal(s) == first
        assert (list(b.stacks.items()), list(b.pos), b.ply, b.stunned, b.zh) == before
        assert not b._cut_cache and not b._slide_cache
        # the same position reached afresh (replayed from its GameString) lists its moves in the same order
        assert GAME.legal(GAME.from_game_string(GAME.game_string(s))) == first
        s = nxt


def test_the_surrounded_queen_is_named_for_the_board_to_mark() -> None:
    won = GAME.from_game_string(WHITE_WINS)
    view = GAME.to_json(won)
    queen = next(c for c in view["board"] if c["stack"][-1] == "bQ")
    assert view["surrounded"] == [[queen["q"], queen["r"]]]
    both = GAME.to_json(GAME.from_game_string(DRAW))["surrounded"]
    assert len(both) == 2 and both[0] != both[1]
    assert GAME.to_json(GAME.from_game_string(PASS_POS))["surrounded"] == []
