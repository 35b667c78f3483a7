"""The HTTTX ``search`` bot's learned evaluation table (``eval_weights.json``): shipped, loaded, used, and read alike
by the C engine and its Python reference."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from htttx_positions import random_position

from hexarena.bots.htttx import search as search_mod
from hexarena.bots.htttx.learned_eval import WEIGHTS, read_tables, shipped_tables, table_for
from hexarena.bots.htttx.search import SearchBot, engine
from hexarena.bots.htttx.search_py import WCAP, PySearch, Table, check_table, weights

HAVE_C = search_mod._CSEARCH is not None
IMPLEMENTATIONS = ["Python", *(["C"] if HAVE_C else [])]
AXES = ((1, 0), (0, 1), (1, -1))


def table_sum(stones: list[tuple[int, int, int]], to_move: int, length: int, table: Table) -> int:
    """The evaluation by definition: own[k] for every window holding k of the side to move's stones only, less
    opp[k] for every window holding k of the opponent's only (counted here from scratch, window by window)."""
    counts: dict[tuple[int, int, int], list[int]] = {}
    for q, r, seat in stones:
        for a, (dq, dr) in enumerate(AXES):
            for i in range(length):
                counts.setdefault((a, q - i * dq, r - i * dr), [0, 0])[seat] += 1
    own, opp = table
    total = 0
    for c in counts.values():
        mine, theirs = c[to_move], c[1 - to_move]
        if theirs == 0:
            total += own[mine]
        elif mine == 0:
            total -= opp[theirs]
    return total


def random_table(rng: random.Random, length: int = 6) -> Table:
    return (
        [0, *(rng.randint(-50, WCAP) for _ in range(length))],
        [0, *(rng.randint(-50, WCAP) for _ in range(length))],
    )


def test_the_shipped_table_is_loaded_and_is_not_the_hand_made_one() -> None:
    table = table_for(6)
    assert table is not None
    assert table == read_tables(WEIGHTS)[6]
    assert table != check_table(None, 6)  # learned, not W
    assert SearchBot().tables[6] == table
    doc = json.loads(WEIGHTS.read_text())
    assert doc["version"] == 1 and "train_htttx_eval.py" in doc["tables"]["6"]["made_by"]


def test_the_evaluation_is_the_tables_sum_over_the_windows() -> None:
    rng = random.Random(5)
    for i in range(25):
        state = random_position(rng, 14, 1)
        stones = list(state.stones)
        table = table_for(6) if i % 2 else random_table(rng)
        assert table is not None
        for seat in (0, 1):
            search = PySearch(stones, seat, 6, 2, table=table)
            assert search.eval_side(seat) == table_sum(stones, seat, 6, table), (stones, seat)


def test_without_a_table_the_evaluation_is_the_hand_made_w() -> None:
    rng = random.Random(6)
    for _ in range(10):
        stones = list(random_position(rng, 14, 1).stones)
        plain = PySearch(stones, 0, 6, 2)
        assert plain.eval_side(0) == plain.evalx == table_sum(stones, 0, 6, (weights(6), weights(6)))


@pytest.mark.skipif(not HAVE_C, reason="the C search engine is not built")
def test_the_c_engine_searches_like_the_python_reference_with_a_table() -> None:
    rng = random.Random(77)
    c_search, py_search = engine("C"), engine("Python")
    for i in range(16):  # the learned table and random ones alternate
        state = random_position(rng, 14, 1)
        table = table_for(6) if i % 2 else random_table(rng)
        nodes = rng.choice([40, 150, 400])  # budgets that cut the search at every depth, small enough for Python
        depth = rng.choice([1, 2, 3])
        tss = rng.choice([0, 300])
        args = (list(state.stones), state.to_move_seat, 6, 2, depth, nodes, 0.0, None, 12, tss, table)
        assert c_search(*args) == py_search(*args), (args, table)


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_the_bot_searches_with_the_shipped_table_and_another_table_changes_its_play(implementation: str) -> None:
    rng = random.Random(11)
    learned = table_for(6)
    assert learned is not None
    fn = engine(implementation)
    moves_differ = quiet = 0
    # the pure-Python search gets positions of one or two turns: it completes depth 1 there within a few hundred
    # nodes, where a crowded position costs it thousands of nodes and a threat-space search of 2,000
    most = 10 if implementation == "C" else 2
    for _ in range(8):
        state = random_position(rng, most, 1)
        board, seat = state.board(), state.to_move_seat
        by_table = {}
        for name, tables in (("learned", None), ("W", {})):
            bot = SearchBot(max_depth=1, max_nodes=6000, implementation=implementation, tables=tables)
            move, evaluation = bot.analyse_board(board, seat, 0.0)
            by_table[name] = (move, evaluation["score"])
        # the bot's search is the engine's with the shipped table
        expected = fn(list(board.stones), seat, 6, 2, 1, 6000, 0.0, None, 18, 2000, learned)
        assert by_table["learned"] == (
            ((expected[0][0], expected[0][1]), (expected[0][2], expected[0][3])),
            expected[1],
        )
        if abs(expected[1]) < 900_000:  # not a forced win or loss, which no table changes
            quiet += 1
            assert by_table["learned"][1] != by_table["W"][1], state.stones
        moves_differ += by_table["learned"][0] != by_table["W"][0]
    assert quiet >= 3 and moves_differ > 0, (quiet, moves_differ)


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
@pytest.mark.parametrize(
    ("table", "says"),
    [
        (([0, 1, 2], [0, 1, 2]), "needs 7 values"),
        (([1, 1, 6, 36, 216, 1296, 2000], weights(6)), "starting with 0"),
        ((weights(6), [0, 1, 6, 36, 216, 1296, WCAP + 1]), "within"),
        ((weights(6), [0, 1, 6, 36.5, 216, 1296, 2000]), "integers"),
        ((weights(6),), "(own, opp)"),
    ],
)
def test_a_malformed_table_is_refused_saying_what_is_wrong(implementation: str, table: Any, says: str) -> None:
    with pytest.raises(ValueError, match=re.escape(says)):
        engine(implementation)([(0, 0, 0), (1, 0, 1)], 0, 6, 2, 1, 100, 0.0, None, 12, 0, table)


def test_a_malformed_weights_file_is_refused_saying_how_to_remake_it(tmp_path: Path) -> None:
    bad = tmp_path / "w.json"
    bad.write_text('{"version": 0, "tables": {}}')
    with pytest.raises(ValueError, match=r"train_htttx_eval\.py"):
        read_tables(bad)
    bad.write_text(json.dumps({"version": 1, "tables": {"6": {"own": [0, 1], "opp": weights(6)}}}))
    with pytest.raises(ValueError, match=r"win distance 6.*needs 7 values"):
        read_tables(bad)
    bad.write_text("{")
    with pytest.raises(ValueError, match="cannot read"):
        read_tables(bad)


def test_every_shipped_table_is_well_formed() -> None:
    for length, table in shipped_tables().items():
        assert check_table(table, length) == table
