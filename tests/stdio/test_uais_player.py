"""UAIS bots over real pipes: full games, and every way a bot can misbehave ends the match with a reason."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from hexarena.core.registry import get_game
from hexarena.core.types import Termination
from hexarena.players.process import Limits
from hexarena.players.uais import UaisPlayer
from hexarena.referee import MatchConfig, Referee
from hexarena.referee.clock import clock_from

ROOT = Path(__file__).resolve().parents[2]
RANDOM_BOT = f"{sys.executable} {ROOT / 'examples' / 'uais_random_bot.py'}"
BAD_BOT = f"{sys.executable} {Path(__file__).parent / 'bots' / 'bad_bot.py'}"


def hex_game():
    return get_game("hex")


async def run(p0, p1, size=5, seconds=2.0):
    config = MatchConfig(game=hex_game(), params={"size": size}, clock=clock_from("turn", seconds))
    return await Referee(config, [p0, p1]).run()


async def test_two_uais_bots_play_to_the_end() -> None:
    result = await run(UaisPlayer(RANDOM_BOT), UaisPlayer(RANDOM_BOT), size=7)
    assert result.outcome.termination in (Termination.NORMAL,)
    assert result.outcome.winner in (0, 1)
    state = hex_game().new(size=7)
    for m in result.moves:  # every recorded move replays
        state = hex_game().play(state, hex_game().parse(m.move))
    assert hex_game().outcome(state) == result.outcome


async def test_uais_bot_against_a_uais_bot_playing_black_then_white() -> None:
    wins = set()
    for _ in range(4):
        result = await run(UaisPlayer(RANDOM_BOT), UaisPlayer(RANDOM_BOT), size=3)
        wins.add(result.outcome.winner)
        assert result.outcome.termination == Termination.NORMAL
    assert wins <= {0, 1}


@pytest.mark.parametrize(
    ("mode", "termination", "words"),
    [
        ("garbage", Termination.PROTOCOL, "hello world"),
        ("offboard", Termination.ILLEGAL_MOVE, "z99"),
        ("occupied@2", Termination.ILLEGAL_MOVE, "occupied"),
        ("silent", Termination.TIME, "did not move"),
        ("crash", Termination.DISCONNECT, "exited with code 3"),
        ("flood", Termination.PROTOCOL, ""),
        ("longline", Termination.PROTOCOL, "longer than"),
        ("error", Termination.PROTOCOL, "error"),
    ],
)
async def test_misbehaving_bot_loses_with_a_reason(mode: str, termination: Termination, words: str) -> None:
    bad = UaisPlayer(f"{BAD_BOT} {mode}")
    result = await run(bad, UaisPlayer(RANDOM_BOT), size=5, seconds=1.0)
    assert result.culprit == 0, result.outcome
    assert result.outcome.winner == 1
    assert result.outcome.termination == termination, result.outcome
    assert words in result.outcome.reason
    assert bad.bot is not None and bad.bot.process.returncode is not None  # reaped


async def test_extra_output_lines_lose() -> None:
    """An extra line is caught at the next exchange; if the bot was quicker than that, the stale line is read as
    its next move, which is then occupied. Either way the bot that printed too much loses."""
    for _ in range(3):
        result = await run(UaisPlayer(f"{BAD_BOT} lines@2"), UaisPlayer(RANDOM_BOT), size=5, seconds=1.0)
        assert result.culprit == 0 and result.outcome.winner == 1
        assert result.outcome.termination in (Termination.PROTOCOL, Termination.ILLEGAL_MOVE)
        assert "unexpected line" in result.outcome.reason or "occupied" in result.outcome.reason


async def test_memory_limit_stops_a_greedy_bot() -> None:
    bad = UaisPlayer(f"{BAD_BOT} memory", limits=Limits(memory_mb=256))
    result = await run(bad, UaisPlayer(RANDOM_BOT), size=5, seconds=5.0)
    assert result.outcome.winner == 1
    assert result.outcome.termination == Termination.DISCONNECT
    assert "exited" in result.outcome.reason or "killed" in result.outcome.reason


async def test_python_bot_that_never_flushes_still_answers() -> None:
    result = await run(UaisPlayer(f"{BAD_BOT} noflush"), UaisPlayer(RANDOM_BOT), size=4)
    assert result.outcome.termination == Termination.NORMAL


async def test_whole_process_group_is_killed() -> None:
    bad = UaisPlayer(f"{BAD_BOT} child")
    result = await run(bad, UaisPlayer(RANDOM_BOT), size=5, seconds=0.5)
    assert result.outcome.termination == Termination.TIME
    assert bad.bot is not None
    pids = [int(line.split()[1]) for line in bad.bot.process.stderr_tail if line.startswith("CHILD ")]
    assert pids, "the bot did not report its child"
    for pid in pids:
        assert not _alive(pid), f"child {pid} of the bot is still running"


def _alive(pid: int) -> bool:
    """Running (a zombie waiting for a reaper that isn't ours counts as dead)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


async def test_missing_executable_aborts_the_match_clearly() -> None:
    result = await run(UaisPlayer("/nonexistent/bot"), UaisPlayer(RANDOM_BOT))
    assert result.outcome.termination == Termination.ABORTED and result.outcome.winner is None
    assert result.culprit == 0 and "could not start" in result.outcome.reason
