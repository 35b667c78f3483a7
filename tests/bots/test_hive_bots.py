"""Hive reference bots: legal moves everywhere, take a win in one, alphabeta honours depth and clock."""

from __future__ import annotations

import random
from typing import Any

import pytest

import hexarena.bots.hive.alphabeta as ab_module
from hexarena.bots.base import EngineBot
from hexarena.bots.hive import BOTS, AlphaBetaBot, evaluate
from hexarena.bots.hive.evaluation import assess
from hexarena.games.hive import GAME
from hexarena.games.hive.board import PID_OF_NAME, Board, E, W

# White to move; "wQ -bQ" surrounds the black queen (the only winning move).
BEFORE_WIN = (
    "Base;InProgress;White[8];wS1;bS1 wS1-;wQ -wS1;bQ bS1/;wG1 -wQ;bG1 \\bQ;wG1 bQ\\;bG2 bQ/;wA1 wQ\\;"
    "bA1 bG2/;wA1 bG2\\;bA1 \\bG2;wQ \\wS1;bA1 bG2/"
)


def _positions(n: int, seed: int) -> list[Any]:
    rng = random.Random(seed)
    out = []
    for exp in ("", "MLP"):
        s = GAME.new(expansions=exp)
        for i in range(n):
            if GAME.outcome(s) is not None:
                break
            if i % 7 == 3:
                out.append(s)
            s = GAME.play(s, GAME.random_move(s, rng))
    return out


def test_registry_and_protocol() -> None:
    assert set(BOTS) == {"random", "greedy", "alphabeta"}
    for name, factory in BOTS.items():
        bot = factory()
        assert isinstance(bot, EngineBot) and bot.name == name


@pytest.mark.parametrize("name", ["random", "greedy", "alphabeta"])
def test_bots_play_legal_moves(name: str) -> None:
    bot = BOTS[name]() if name != "alphabeta" else AlphaBetaBot(max_depth=2)
    rng = random.Random(5)
    for s in _positions(60, 1):
        before = GAME.game_string(s)
        m = bot.choose(GAME, s, 0.5, rng)
        assert m in GAME.legal(s)
        assert GAME.game_string(s) == before  # the input state is untouched


@pytest.mark.parametrize("bot", [BOTS["greedy"](), AlphaBetaBot(max_depth=2)])
def test_takes_the_win_in_one(bot: Any) -> None:
    s = GAME.from_game_string(BEFORE_WIN)
    after = GAME.play(s, bot.choose(GAME, s, 1.0, random.Random(0)))
    out = GAME.outcome(after)
    assert out is not None and out.winner == 0


def test_alphabeta_avoids_losing_in_one() -> None:
    # Black to move after a quiet white move; black must not walk into a loss, and alphabeta at depth 2 sees
    # every reply. Check against brute force: every move it may choose leaves white without a win in one.
    # After the quiet "wS2 /wS1", 32 of black's 37 replies lose at once.
    s = GAME.play(GAME.from_game_string(BEFORE_WIN), GAME.parse("wS2 /wS1"))
    assert GAME.outcome(s) is None
    bot = AlphaBetaBot(max_depth=2)
    m = bot.choose(GAME, s, None, random.Random(1))
    s2 = GAME.play(s, m)
    assert GAME.outcome(s2) is None
    for reply in GAME.legal(s2):
        out = GAME.outcome(GAME.play(s2, reply))
        assert out is None or out.winner != 0


def test_evaluation_prefers_queen_pressure() -> None:
    s = GAME.from_game_string(BEFORE_WIN)
    b = s.board
    assert evaluate(b, 0) > 0 > evaluate(b, 1)


def test_alphabeta_depth_cap() -> None:
    bot = AlphaBetaBot(max_depth=1)
    s = _positions(40, 2)[3]
    bot.choose(GAME, s, None, random.Random(0))
    assert bot.last_depth == 1


def test_alphabeta_stops_at_its_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fake clock that advances 1 ms per reading: the search must give up after ~budget/1ms readings."""

    class FakeTime:
        now = 0.0

        @classmethod
        def monotonic(cls) -> float:
            cls.now += 0.001
            return cls.now

    monkeypatch.setattr(ab_module, "time", FakeTime)
    bot = AlphaBetaBot(max_depth=50)
    s = _positions(60, 3)[4]
    m = bot.choose(GAME, s, 0.05, random.Random(0))
    assert m in GAME.legal(s)
    assert bot.last_depth < 50
    assert FakeTime.now < 0.2  # few clock readings: it stopped soon after the (fake) deadline


def test_greedy_beats_random() -> None:
    rng = random.Random(9)
    wins = 0
    for g in range(4):
        bots = [BOTS["greedy"](), BOTS["random"]()] if g % 2 == 0 else [BOTS["random"](), BOTS["greedy"]()]
        s = GAME.new(expansions="")
        while GAME.outcome(s) is None and GAME.ply(s) < 200:
            s = GAME.play(s, bots[GAME.to_move(s) or 0].choose(GAME, s, None, rng))
        out = GAME.outcome(s)
        wins += out is not None and out.winner == g % 2
    assert wins >= 3


async def test_no_time_losses_under_a_turn_clock_through_the_referee() -> None:
    """Real matches, alphabeta against itself and against greedy, at 0.5 s a move: every game ends by the rules
    (a win, a surrounded pair of queens or the ply cap), none on time, and every alphabeta move reported what its
    search saw. (0.5 s, not less: on a 2-core machine at load 7 a search thread was seen getting 1 ms of CPU in
    220 ms, and a pure-Python search cannot keep a larger reserve without wasting most of a short turn.) The
    referee forgives 0.2 s of overrun, as in the Hex test: a fresh-clone CI run on the idle machine once measured
    0.534 s for a move whose search stopped at its 0.33 s deadline (the thread hop and the process around it, not
    the search); a bot that ignored its budget would still lose on time."""
    from hexarena.core.contract import ClockConfig
    from hexarena.core.types import Termination
    from hexarena.players.inprocess import InProcessPlayer
    from hexarena.referee.match import MatchConfig, Referee

    moves = 0
    for g in range(2):  # alphabeta in both seats against itself, and as O against greedy
        names = ["alphabeta", "alphabeta" if g < 1 else "greedy"]
        if g % 2:
            names.reverse()
        players = [InProcessPlayer.builtin("hive", n, seed=g) for n in names]
        config = MatchConfig(game=GAME, clock=ClockConfig("turn", 0.5), max_plies=16, time_margin=0.2)
        result = await Referee(config, players).run()
        assert result.outcome.termination in (Termination.NORMAL, Termination.TURN_LIMIT), result.outcome
        for seat, name in enumerate(names):
            if name == "alphabeta":
                mine = result.moves[seat::2]
                moves += len(mine)
                assert all(m.evaluation and "score" in m.evaluation and m.considerations for m in mine)
    assert moves > 16  # past the placements: the queens are down and pieces move


# Black to move and win in two: found by a depth-3 search in a greedy-vs-random game, checked by brute force below.
MATE_IN_TWO = (
    "Base+MLP;InProgress;Black[37];wA1;bG1 \\wA1;wA2 wA1-;bA1 -bG1;wG1 wA1\\;bA2 \\bG1;wQ wG1\\;bQ bA2/;wA2 bQ/;"
    "bA1 wA1/;wA3 -wG1;bA1 wQ\\;wA3 -bQ;bG2 -bG1;wB1 -wG1;bG2 wA2/;wM wG1/;bA3 -bG1;wM bQ-;bA3 bA1/;wA3 wM-;"
    "bM -bG1;wA3 -bQ;bM -bA1;wB2 wG1/;bB1 bA1-;wB1 wA1;bB2 -bG1;wL -wA3;bL \\bG2;wL -wA2;bP bG2/;wB1 bG1;"
    "bB2 wB1;wP -wG1;bG3 -bB2;wL bG2-;bP wL/;wG2 wL\\;bS1 bA1\\;wG2 -bP;bL wL\\;wA3 -wP;bA3 -bS1;wA3 -wA2;"
    "bB1 bA1/;wA3 bL-;bM \\wG2;wA3 -bQ;bA3 -bA1;wA3 bP-;bS2 -bS1;wA3 -wA2;bS2 -wQ;wG1 -bQ;bS1 -bA3;wM -wG2;"
    "bQ wA2\\;wQ \\bB1;bA1 wQ/;wG2 -bQ;bA3 bB1/;wQ -bB1;bA3 wQ\\;wG3 -wA3;bA1 bL/;wA3 bA3-;bA1 \\bB1;wA3 bQ\\;"
    "bG3 \\wB2;wB2 bA1;bA2 -bA3;wB2 bA1/"
)


def _wins_now(s: Any, seat: int) -> bool:
    return any((o := GAME.outcome(GAME.play(s, m))) is not None and o.winner == seat for m in GAME.legal(s))


def test_finds_a_mate_in_two_and_plays_it() -> None:
    s = GAME.from_game_string(MATE_IN_TWO)
    assert GAME.to_move(s) == 1 and not _wins_now(s, 1)  # no win in one: it takes two moves
    bot = AlphaBetaBot(max_depth=3)
    move = bot.choose(GAME, s, 60.0, random.Random(0))
    after = GAME.play(s, move)
    assert GAME.outcome(after) is None
    for reply in GAME.legal(after):  # whatever white answers, black then surrounds the white queen
        s2 = GAME.play(after, reply)
        assert GAME.outcome(s2) is None and _wins_now(s2, 1), reply
    ev = bot.last_evaluation
    assert ev is not None and ev["mate_in"] == 2 and ev["win_in"] == -2 and ev["heuristic"] == -1.0
    assert len(ev["pv"]) >= 2 and ev["pv"][0] == move.text


def test_reports_its_evaluation_and_considered_moves() -> None:
    s = _positions(40, 4)[3]
    bot = AlphaBetaBot(max_depth=2)
    move = bot.choose(GAME, s, None, random.Random(2))
    ev = bot.last_evaluation
    assert ev is not None and ev["depth"] == 2 and ev["nodes"] > 0 and -1 <= ev["heuristic"] <= 1
    assert ev["pv"][0] == move.text
    considered = bot.last_considerations
    assert considered and considered[0]["move"] == move.text
    legal = {m.text for m in GAME.legal(s)}
    assert all(c["move"] in legal and "score" in c["evaluation"] for c in considered)
    scores = [c["evaluation"]["score"] for c in considered]
    assert scores == sorted(scores, reverse=True)


def _board(placed: list[tuple[str, int]]) -> Board:
    """A position from (piece, cell) placements in order (no legality check: ``Board.play`` trusts its caller)."""
    b = Board("MLP")
    for name, cell in placed:
        b.play((PID_OF_NAME[name], cell))
    return b


def test_assess_is_antisymmetric() -> None:
    for s in _positions(80, 6):
        assert assess(s.board, 0) == -assess(s.board, 1)


def test_assess_values_a_beetle_on_the_enemy_queen() -> None:
    line = [("wQ", 0), ("wS1", E), ("bQ", 2 * E)]
    on_queen = _board([*line, ("bB1", 0)])
    beside_own = _board([*line, ("bB1", 3 * E)])
    assert assess(on_queen, 1) > assess(beside_own, 1)


def test_assess_counts_pinned_queen_neighbours_as_lasting_pressure() -> None:
    # a black ant west of the white queen, held there by a grasshopper hanging off it (pinned: one hive)...
    line = [("wQ", 0), ("wS1", E), ("bQ", 2 * E), ("bA1", W)]
    pinned = _board([*line, ("bG1", 2 * W)])
    # ...or free to leave (the grasshopper elsewhere)
    free = _board([*line, ("bG1", 3 * E)])
    assert PID_OF_NAME["bA1"] and W in pinned.cut_cells() and W not in free.cut_cells()
    assert assess(pinned, 1) > assess(free, 1)


def test_assess_values_a_pillbug_guarding_its_queen() -> None:
    # the same shape twice, the Pillbug and the Spider swapped: the Pillbug beside the queen can throw attackers
    line = [("wQ", 0), ("bQ", E)]
    guarded = _board([*line, ("wP", W), ("wS1", 2 * W)])
    unguarded = _board([*line, ("wS1", W), ("wP", 2 * W)])
    assert assess(guarded, 0) > assess(unguarded, 0)


async def test_no_time_loss_under_a_match_clock() -> None:
    """A match clock of 8 s a side: the in-process player spreads it over the expected moves (``move_budget``)
    and the search keeps within each move's share, so the game ends by the rules, not on alphabeta's clock."""
    from hexarena.core.contract import ClockConfig
    from hexarena.core.types import Termination
    from hexarena.players.inprocess import InProcessPlayer
    from hexarena.referee.match import MatchConfig, Referee

    players = [InProcessPlayer.builtin("hive", "alphabeta", seed=1), InProcessPlayer.builtin("hive", "greedy", seed=1)]
    config = MatchConfig(game=GAME, clock=ClockConfig("match", 8.0), max_plies=60)
    result = await Referee(config, players).run()
    assert result.outcome.termination in (Termination.NORMAL, Termination.TURN_LIMIT), result.outcome
    mine = [m for m in result.moves if m.seat == 0]
    assert len(mine) >= 5 and all(m.evaluation for m in mine)
