"""The HTTTX ``search`` bot: rules-level tactics, the C engine in lockstep with the Python reference, clock-aware
budgets in real matches through the referee, and its evaluations reaching the referee's record and bws.

Tactics use a node budget (deterministic, no clock); matches use real clocks and assert only on how the referee
ended each game (a time forfeit is a failure), never on wall time.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from htttx_positions import middle_games, random_position

from hexarena.bots.htttx import search as search_mod
from hexarena.bots.htttx.heuristic import winning_move
from hexarena.bots.htttx.learned_eval import shipped_tables
from hexarena.bots.htttx.search import SearchBot, engine, win_in
from hexarena.bots.htttx.search_py import MATE_BAND, WIN, PySearch
from hexarena.bots.registry import builtin_bots, make_builtin
from hexarena.bots.stopping import StopSignal
from hexarena.bots.timing import USE, budget_from, move_budget
from hexarena.core.contract import ClockConfig, MatchInfo, MoveRequest
from hexarena.core.types import Termination
from hexarena.games.htttx import HTTTX
from hexarena.players.inprocess import InProcessPlayer
from hexarena.referee.match import MatchConfig, Referee

HAVE_C = search_mod._CSEARCH is not None
IMPLEMENTATIONS = ["Python", *(["C"] if HAVE_C else [])]


def position(x: list[tuple[int, int]], o: list[tuple[int, int]], to_move: int) -> Any:
    return HTTTX.from_cells([(q, r, 0) for q, r in x] + [(q, r, 1) for q, r in o], to_move)


def choose(state: Any, implementation: str, nodes: int = 4000, depth: int = 2) -> tuple[Any, SearchBot]:
    bot = SearchBot(max_depth=depth, max_nodes=nodes, implementation=implementation)
    return bot.choose(HTTTX, state, None, random.Random(0)), bot


# ----- rules-level tactics -----


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_it_completes_a_line_when_it_can(implementation: str) -> None:
    state = position([(0, 0), (1, 0), (2, 0), (3, 0)], [(0, 1), (1, 1), (5, -3)], 0)
    move, bot = choose(state, implementation)
    assert HTTTX.play(state, move).winner == 0
    assert bot.last_evaluation is not None and bot.last_evaluation["win_in"] == 1


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
@pytest.mark.parametrize(
    "o_line",
    [
        [(1, 0), (2, 0), (3, 0), (4, 0)],  # an open four: two stones needed, at the right places
        [(1, 0), (2, 0), (3, 0), (4, 0), (5, 0)],  # a five: both ends
        [(0, 1), (0, 2), (0, 3), (0, 5)],  # a broken four on another axis
    ],
)
def test_it_blocks_every_line_the_opponent_could_complete(implementation: str, o_line: list[tuple[int, int]]) -> None:
    state = position([(-2, 4), (3, 3), (-3, 6)], o_line, 0)
    assert winning_move(state.board(), 1) is not None  # the threat is real
    move, _ = choose(state, implementation)
    after = HTTTX.play(state, move)
    assert winning_move(after.board(), 1) is None, f"{move} leaves O a win"


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_it_sees_a_double_threat_two_turns_ahead(implementation: str) -> None:
    # two open threes on two axes: one stone on each makes two open fours, which four stones could not block
    x = [(0, 0), (1, 0), (2, 0), (-4, 3), (-4, 4), (-4, 5)]
    o = [(5, 5), (6, 5), (-7, 1), (3, -5), (8, -2)]
    state = position(x, o, 0)
    move, bot = choose(state, implementation)
    assert bot.last_evaluation is not None and bot.last_evaluation["win_in"] == 2, bot.last_evaluation
    after = HTTTX.play(state, move)
    search = PySearch(list(after.stones), 1, 6, 2)
    assert search.nthreat[0] > 0 and search.block_moves(1, 3) == [], "O could still block everything"


#: O to move: O wins in three attacking turns (two double threats, then a triple) that the search without its
#: threat-space search does not see within 3,000 nodes (it has not finished one whole turn's depth by then)
COMBINATION = [(0, 0, 0), (-1, 0, 1), (-1, 1, 1), (0, -1, 0), (0, 1, 0), (1, 1, 1), (1, -3, 1), (0, -2, 0)]
COMBINATION += [(0, -3, 0), (0, -4, 1), (0, 2, 1), (2, -1, 0), (2, -3, 0)]
#: O to move: X has a three-turn combination; most of O's natural turns leave it standing
DEFEND = [(0, 0, 0), (-1, 0, 1), (-1, 1, 1), (0, -1, 0), (0, 1, 0), (-2, 3, 1), (2, -3, 1), (0, -2, 0), (0, -3, 0)]
DEFEND += [(0, -4, 1), (0, 2, 1), (-1, -1, 0), (-2, -1, 0)]


def threat_space_win(stones: list[tuple[int, int, int]], seat: int) -> int | None:
    """Attacking turns of ``seat``'s threat-space win with ``seat`` to move (None: none within 20,000 positions)."""
    search = PySearch(stones, seat, 6, 2)
    search.tss_left = 20_000
    found = search.tss_win(seat)
    return None if found is None else found[1]


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_it_finds_a_three_turn_combination_on_a_small_budget(implementation: str) -> None:
    state = HTTTX.from_cells(COMBINATION, 1)
    assert threat_space_win(COMBINATION, 1) == 3
    move, bot = choose(state, implementation, nodes=3000, depth=64)
    assert bot.last_evaluation is not None and bot.last_evaluation.get("win_in") is not None, bot.last_evaluation
    assert bot.last_evaluation["mate_in"] == 4, bot.last_evaluation
    after = HTTTX.play(state, move)
    (a, b) = move
    stones = [*COMBINATION, (a[0], a[1], 1), (b[0], b[1], 1)]
    search = PySearch(stones, 0, 6, 2)
    assert search.nthreat[1] > 0 and search.nthreat[0] == 0 and not after.is_over  # X must block now


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_it_defends_against_the_opponents_combination(implementation: str) -> None:
    state = HTTTX.from_cells(DEFEND, 1)
    assert threat_space_win(DEFEND, 0) == 3 and threat_space_win(DEFEND, 1) is None
    move, bot = choose(state, implementation, nodes=200_000, depth=1)
    assert bot.last_considerations
    # every turn the root searched refutes X's combination, the one played included
    for considered in [{"pieces": [list(move[0]), list(move[1])]}, *bot.last_considerations]:
        (q1, r1), (q2, r2) = considered["pieces"]
        stones = [*DEFEND, (q1, r1, 1), (q2, r2, 1)]
        assert threat_space_win(stones, 0) is None or PySearch(stones, 0, 6, 2).nthreat[1] > 0, considered


@pytest.mark.skipif(not HAVE_C, reason="the C search engine is not built")
def test_the_tree_sees_a_three_turn_combination_without_the_roots_threat_space_search() -> None:
    # the root's threat-space search off: the combination is found inside the tree (a threat-space search at the
    # horizon leaves), two whole turns deep
    table = shipped_tables()[6]
    move, score, depth, *_ = engine("C")(COMBINATION, 1, 6, 2, 2, 400_000, 0.0, None, 18, 0, table)
    assert depth == 2 and score > WIN - MATE_BAND and win_in(score) == 4, (move, score, depth)


@pytest.mark.skipif(not HAVE_C, reason="the C search engine is not built")
@pytest.mark.parametrize("depth", [2, 3])
def test_every_turn_the_deeper_root_searches_refutes_the_opponents_combination(depth: int) -> None:
    state = HTTTX.from_cells(DEFEND, 1)
    move, bot = choose(state, "C", nodes=400_000, depth=depth)
    assert bot.last_considerations
    for considered in [{"pieces": [list(move[0]), list(move[1])]}, *bot.last_considerations]:
        (q1, r1), (q2, r2) = considered["pieces"]
        stones = [*DEFEND, (q1, r1, 1), (q2, r2, 1)]
        assert threat_space_win(stones, 0) is None or PySearch(stones, 0, 6, 2).nthreat[1] > 0, considered


#: Issue 31's goal (a median of 4 whole turns at a second a turn in the middle game) counted in nodes, which load
#: cannot change: a small part of what the C engine searches in a second, so a loaded or slower machine keeps it.
MIDDLE_GAME_NODES = 150_000


@pytest.mark.skipif(not HAVE_C, reason="the C search engine is not built")
def test_the_middle_game_search_completes_four_whole_turns_within_a_fraction_of_a_seconds_nodes() -> None:
    table = shipped_tables()[6]
    depths = []
    for stones, seat in middle_games(24, 31):
        _, score, depth, *_ = engine("C")(stones, seat, 6, 2, 64, MIDDLE_GAME_NODES, 0.0, None, 18, 2000, table)
        if win_in(score) is None:  # a proved position stops at its proof's depth, however shallow
            depths.append(depth)
    assert len(depths) >= 8 and statistics.median(depths) >= 4, depths


def test_mate_scores_read_as_turns() -> None:
    assert win_in(WIN - 0) == 1 and win_in(WIN - 2) == 2 and win_in(-(WIN - 1)) == -1 and win_in(-(WIN - 3)) == -2
    assert win_in(500) is None


# ----- C and Python in lockstep -----


@pytest.mark.skipif(not HAVE_C, reason="the C search engine is not built")
def test_the_c_engine_searches_exactly_like_the_python_reference() -> None:
    rng = random.Random(2024)
    c_search, py_search = engine("C"), engine("Python")
    compared = mates = 0
    for _ in range(40):
        state = random_position(rng)
        stones = list(state.stones)
        nodes = rng.choice([40, 150, 400])  # budgets that cut the search at every depth, small enough for Python
        depth = rng.choice([1, 2, 3, 8])
        tss = rng.choice([0, 0, 300])  # with and without the threat-space search at the root
        args = (stones, state.to_move_seat, 6, 2, depth, nodes, 0.0, None, 12, tss)
        expected = py_search(*args)
        assert c_search(*args) == expected, (stones, state.to_move_seat, nodes, depth)
        compared += 1
        mates += abs(expected[1]) > WIN - MATE_BAND
    assert compared == 40 and 0 < mates < 40  # both quiet positions and forced wins were compared


#: positions searched to depth 3 by the C engine (``bench/htttx_search_ab.py --record``; a search change re-records them)
RECORDED = Path(__file__).parent.parent / "data" / "htttx" / "search_depth3.json"


def recorded_searches() -> tuple[int, list[dict[str, Any]]]:
    doc = json.loads(RECORDED.read_text())
    return doc["depth"], doc["positions"]


@pytest.mark.skipif(not HAVE_C, reason="the C search engine is not built")
def test_the_c_engine_searches_the_recorded_positions_as_before_it_was_made_faster() -> None:
    depth, recorded = recorded_searches()
    assert len(recorded) >= 20
    c_search = engine("C")
    for r in recorded:
        stones = [tuple(s) for s in r["stones"]]
        move, score, _, nodes, _, _ = c_search(stones, r["to_move"], 6, 2, depth, 1 << 40, 0.0, None, 18)
        assert (list(move), score, nodes) == (r["move"], r["score"], r["nodes"]), r


def test_the_python_engine_searches_the_recorded_positions_as_the_c_engine_did() -> None:
    depth, recorded = recorded_searches()
    small = [r for r in recorded if r["nodes"] <= 600][:4]
    assert len(small) >= 3
    for r in small:
        stones = [tuple(s) for s in r["stones"]]
        move, score, _, nodes, _, _ = engine("Python")(stones, r["to_move"], 6, 2, depth, 1 << 40, 0.0, None, 18)
        assert (list(move), score, nodes) == (r["move"], r["score"], r["nodes"]), r


def test_pure_python_is_forced_by_the_environment() -> None:
    code = "from hexarena.bots.htttx import search; print(search.IMPLEMENTATION)"
    env = {**os.environ, "HEXARENA_PURE_PYTHON": "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "Python"


# ----- registry -----


def test_best_is_the_strongest_bot_of_every_game() -> None:
    expected = {
        "htttx": "search",
        "hex": "mcts",
        "hive": "alphabeta",
        "tictactoe": "perfect",
        "hexdots": "greedy",
        "numberwang": "random",
    }
    for game, name in expected.items():
        bots = builtin_bots(game)
        assert bots["best"] is bots[name], game
    assert isinstance(make_builtin("htttx", "best"), SearchBot)


# ----- time management -----


def test_a_match_clock_is_spread_over_the_game() -> None:
    match = ClockConfig("match", 30.0)
    first = move_budget(match, 30.0, 30.0, 0)
    assert first is not None and first <= 30.0 * 0.1 * USE
    late = move_budget(match, 2.0, 2.0, 60)
    assert late is not None and late <= 2.0 / 15 * USE + 1e-9
    fischer = ClockConfig("incremental", 10.0, 1.0)
    with_inc = move_budget(fischer, 10.0, 10.0, 0)
    assert with_inc is not None and 0.8 * USE < with_inc <= 10.0
    assert move_budget(ClockConfig("turn", 0.05), 0.05, None, 10) == pytest.approx(budget_from(0.05, 0.0))
    assert move_budget(ClockConfig(), None, None, 0) is None


class Recorder:
    """An EngineBot that records the time limit it is given and plays the heuristic move."""

    name = "recorder"

    def __init__(self) -> None:
        self.limits: list[float | None] = []

    def choose(self, game: Any, state: Any, time_limit: float | None, rng: random.Random) -> Any:
        from hexarena.bots.htttx.heuristic import choose_on_board

        self.limits.append(time_limit)
        return choose_on_board(state.board(), state.to_move_seat)


async def test_the_in_process_player_hands_a_bot_a_share_of_a_match_clock_not_all_of_it() -> None:
    bot = Recorder()
    player = InProcessPlayer(bot, threaded=False)
    state = HTTTX.new()
    await player.start(MatchInfo("m", HTTTX, {}, 1, state, ClockConfig("match", 30.0)))
    await player.move(MoveRequest(state=state, history=[], time_limit=30.0, time_left=30.0))
    assert bot.limits[0] is not None and bot.limits[0] <= 3.0


async def play(specs: list[Any], clock: ClockConfig, margin: float = 0.0) -> Any:
    return await Referee(MatchConfig(game=HTTTX, clock=clock, time_margin=margin), specs).run()


#: The overrun forgiven in the 50 ms matches: what the machine adds outside the bot (a thread hop, the event loop
#: waiting for a CPU another process holds) is not the bot's doing, and on a loaded 2-core machine it exceeds the
#: budget itself. Whether the bot keeps to its 50 ms is checked on the CPU it spends, which load does not inflate.
STALLS = 1.0


async def test_no_time_losses_at_50_ms_a_move_in_real_matches() -> None:
    search_moves = 0
    games = 0
    cpu = time.process_time()
    while search_moves < 200:
        players = [InProcessPlayer.builtin("htttx", "search"), InProcessPlayer.builtin("htttx", "search")]
        result = await play(players, ClockConfig("turn", 0.05), STALLS)
        assert result.outcome.termination != Termination.TIME, result.outcome
        assert result.outcome.termination == Termination.NORMAL, result.outcome
        search_moves += len(result.moves)
        games += 1
        # the moves the search made report what it saw; a move left too little time to set a search up (the
        # Python engine's, or any on a machine so loaded that the budget keeps nearly all back) is the rule bot's
        evals = [m.evaluation for m in result.moves if m.evaluation]
        assert evals and all("depth" in e for e in evals)
    assert games >= 2
    # every search stopped at its 50 ms: all the matches' CPU (both bots, the referee) stays within that a move
    spent = time.process_time() - cpu
    assert spent < 0.05 * search_moves, (spent, search_moves)


async def test_no_time_losses_on_a_short_fischer_clock() -> None:
    """1 s plus 0.1 s a move: every budget holds most of the increment (the promise is no time losses at budgets
    of 50 ms or more). Sudden death promises nothing of the kind on a shared machine: once the clock is nearly
    spent each move costs what the fastest answer costs, and a long enough game spends any clock (a CI run saw a
    146-move game between the starved search and the rule bot spend a 1 s clock at ~10 ms a move)."""
    for seats in (["search", "heuristic"], ["heuristic", "search"]):
        players = [InProcessPlayer.builtin("htttx", name) for name in seats]
        result = await play(players, ClockConfig("incremental", 1.0, 0.1))
        mine = seats.index("search")
        # (heuristic ignores clocks: it may lose on time, the search may not)
        assert result.outcome.termination == Termination.NORMAL or result.culprit != mine, result.outcome
        if search_mod.IMPLEMENTATION == "C":  # the Python engine searches ~100 nodes a move here: no promise
            assert result.winner == mine, result.outcome


# ----- evaluations through the in-process player and the referee's record -----


async def test_evaluations_and_considerations_reach_the_match_record() -> None:
    players = [InProcessPlayer.builtin("htttx", "search"), InProcessPlayer.builtin("htttx", "heuristic")]
    # the overrun a loaded machine adds is forgiven: this test is about the record, not about keeping time
    result = await play(players, ClockConfig("turn", 0.2), 5.0)
    assert result.outcome.termination == Termination.NORMAL, result.outcome
    mine = [m for m in result.moves if m.seat == 0]
    assert mine and all(m.evaluation is not None for m in mine)
    last = mine[-1].evaluation
    assert last is not None
    if result.winner == 0:  # who wins is not the claim (a starved search plays weaker); a winning move says so
        assert last["win_in"] == 1 and last["heuristic"] == 1.0  # X's point of view: X wins now
    first = mine[0].evaluation
    assert first is not None and first["depth"] >= 1 and first["nodes"] > 0 and first["pv"]
    assert first["pv"][0] == mine[0].move
    considered = mine[0].considerations
    assert considered and considered[0]["pieces"] and "heuristic" in considered[0]["evaluation"]


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_a_search_stops_when_asked(implementation: str) -> None:
    """Asked before it starts (its host's ``StopSignal`` set): it returns its first move at its first look."""
    state = random_position(random.Random(7))
    fn = engine(implementation)
    signal = StopSignal()
    signal.set()
    move, _, _, nodes, _, _ = fn(list(state.stones), state.to_move_seat, 6, 2, 64, 1 << 40, 0.0, signal.flag, 16)
    assert move is not None and nodes < 1 << 20


def test_a_served_engine_spreads_a_match_clock_too() -> None:
    import time

    from hexarena.bots.sdk.adapter import bot_class_for
    from hexarena_sdk.bot import JobContext
    from hexarena_sdk.models import Cell, Match, Player

    bot = bot_class_for("best")()
    bot._job = JobContext(deadline=time.monotonic() + 30.0)
    cells = [Cell(q=0, r=0, p=Player.X)]
    spread = bot.move_budget(cells, Player.O, Match(clock_type="match", clock=30.0))  # type: ignore[attr-defined]
    assert spread is not None and spread <= 3.0
    per_turn = bot.move_budget(cells, Player.O, Match(clock_type="turn", clock=30.0))  # type: ignore[attr-defined]
    assert per_turn is not None and per_turn > 20.0


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_a_depth_bounded_analysis_ignores_the_seconds(implementation: str) -> None:
    """``max_depth`` bounds the search by depth alone: no time given (0 s) still searches to that depth."""
    state = position([(0, 0)], [], 1)  # one stone, the fewest candidates: the Python search's depth 2 in seconds
    # the timed reference search is the C engine's where it is built (it searches exactly as the Python one does):
    # the Python engine's cost here is its untimed search alone
    timed = SearchBot(max_depth=2, implementation="C" if HAVE_C else implementation)
    _, expected = timed.analyse_board(state.board(), 1, 60.0)
    untimed = SearchBot(max_depth=2, implementation=implementation)
    _, evaluation = untimed.analyse_board(state.board(), 1, 0.0)
    assert expected["depth"] == 2
    assert (evaluation["depth"], evaluation["score"], evaluation["pv"]) == (2, expected["score"], expected["pv"])


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_a_search_cut_inside_an_iteration_plays_the_last_complete_one(implementation: str) -> None:
    """The clock's deadline may strike anywhere in an iteration (the engine never refuses to start one): a cut
    iteration whose first root turn was not searched in full changes nothing, the move and depth are the last
    complete iteration's. A node bound cuts exactly where a deadline would, without a clock."""
    small = [position([(0, 0)], [], 1)] + (
        [random_position(random.Random(seed)) for seed in (1, 5, 7)] if implementation == "C" else []
    )
    for state in small:  # one stone, the fewest candidates: the Python engine's depth 2 in seconds
        args = (list(state.stones), state.to_move_seat, 6, 2)
        fn = engine(implementation)
        # the complete search is the C engine's where it is built (the same move, score and nodes as Python's): the
        # Python engine's cost here is the cut search alone
        move, score, depth, nodes, _, _ = engine("C" if HAVE_C else implementation)(*args, 2, 1 << 40, 0.0, None, 16)
        assert depth in (1, 2) and move is not None
        if depth < 2 or abs(score) > WIN - MATE_BAND:
            continue  # proved, or nothing to choose: no deeper iteration to cut
        cut = fn(*args, 64, nodes + 1, 0.0, None, 16)
        assert (cut[0], cut[1], cut[2]) == (move, score, 2)
