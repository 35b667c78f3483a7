"""UHP engines as players (host side) and our bots as a UHP engine, over real pipes."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from hexarena.bots.registry import make_builtin
from hexarena.bots.uhp_engine import UhpEngine
from hexarena.core.registry import get_game
from hexarena.core.types import Termination
from hexarena.players.inprocess import InProcessPlayer
from hexarena.players.uhp import UhpPlayer, uhp_time
from hexarena.referee import MatchConfig, Referee
from hexarena.referee.clock import clock_from

HERE = Path(__file__).parent
SRC = HERE.parents[1] / "src"
FAKE = f"{sys.executable} {HERE / 'fake_uhp.py'}"
OURS = f"{sys.executable} -m hexarena.cli uhp --bot random"


@pytest.fixture(autouse=True)
def _pythonpath(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYTHONPATH", str(SRC) + os.pathsep + os.environ.get("PYTHONPATH", ""))


async def run(p0, p1, plies=40, seconds=3.0):
    config = MatchConfig(game=get_game("hive"), clock=clock_from("turn", seconds), max_plies=plies)
    return await Referee(config, [p0, p1]).run()


def test_uhp_time_format() -> None:
    assert uhp_time(5) == "00:00:05"
    assert uhp_time(3725.9) == "01:02:05"
    assert uhp_time(0.2) == "00:00:01"


async def test_our_uhp_engine_plays_through_the_uhp_adapter() -> None:
    uhp = UhpPlayer(OURS)
    result = await run(uhp, InProcessPlayer.builtin("hive", "random"), plies=30)
    assert result.outcome.termination in (Termination.TURN_LIMIT, Termination.NORMAL), result.outcome
    assert len(result.moves) >= 2
    assert uhp.name.startswith("hexarena-random")  # from the engine's id line
    state = get_game("hive").new()
    for m in result.moves:
        state = get_game("hive").play(state, get_game("hive").parse(m.move))


async def test_two_uhp_engines() -> None:
    result = await run(UhpPlayer(f"{FAKE} good"), UhpPlayer(OURS), plies=20)
    assert result.outcome.termination in (Termination.TURN_LIMIT, Termination.NORMAL), result.outcome


@pytest.mark.parametrize(
    ("mode", "termination", "words"),
    [
        ("garbage", Termination.PROTOCOL, "hello there"),
        ("err", Termination.PROTOCOL, "out of memory"),
        ("nook", Termination.TIME, ""),
        ("silent", Termination.TIME, ""),
        ("crash", Termination.DISCONNECT, "code 7"),
        ("illegal", Termination.ILLEGAL_MOVE, "wQ"),
    ],
)
async def test_broken_uhp_engines_lose_with_a_reason(mode: str, termination: Termination, words: str) -> None:
    bad = UhpPlayer(f"{FAKE} {mode}")
    result = await run(bad, InProcessPlayer.builtin("hive", "random"), seconds=1.5)
    assert result.culprit == 0 and result.outcome.winner == 1, result.outcome
    assert result.outcome.termination == termination, result.outcome
    assert words in result.outcome.reason
    assert bad.engine is not None and bad.engine.process.returncode is not None


async def test_an_engine_printing_prose_instead_of_a_move_loses_for_what_it_printed() -> None:
    """Prose without ``ok`` used to wait out the clock and be recorded as a time loss; the first line of a
    bestmove answer must be a MoveString, so it is a protocol loss quoting the prose at once."""
    bad = UhpPlayer(f"{FAKE} chatter")
    result = await run(bad, InProcessPlayer.builtin("hive", "random"), seconds=30.0)
    assert result.culprit == 0 and result.outcome.winner == 1, result.outcome
    assert result.outcome.termination == Termination.PROTOCOL, result.outcome
    assert "let me think about this position" in result.outcome.reason


async def test_a_program_that_is_not_a_uhp_engine_is_reported_as_such() -> None:
    from hexarena.players.process import Limits

    # the greeting must be in by the time the start-up wait ends: 5 s leaves a loaded machine room to start Python
    bad = UhpPlayer(f"{FAKE} notuhp", limits=Limits(startup_timeout=5.0))
    result = await run(bad, InProcessPlayer.builtin("hive", "random"))
    reason = result.outcome.reason
    assert "no answer within" not in reason, reason
    assert "Welcome to FooChess" in reason and "'ok'" in reason, reason


def test_each_uhp_newgame_starts_the_bot_with_no_lateness() -> None:
    """One engine process plays game after game (a UHP host sends ``newgame`` for each): a stalled search in one
    game must not make the next one think at the floor."""
    bot = make_builtin("hive", "alphabeta")
    engine = UhpEngine(bot, "alphabeta", seed=0)
    engine.handle("newgame Base+MLP")
    bot.lateness.record(0.1)
    engine.handle("newgame Base+MLP")
    assert bot.lateness.value == 0.0
