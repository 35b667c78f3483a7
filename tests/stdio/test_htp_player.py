"""HTP engines through a scripted fake with MoHex's wire behaviour."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from hexarena.core.registry import get_game
from hexarena.core.types import Termination
from hexarena.players.htp import HtpPlayer
from hexarena.players.uais import UaisPlayer
from hexarena.referee import MatchConfig, Referee
from hexarena.referee.clock import clock_from

HERE = Path(__file__).parent
ROOT = HERE.parents[1]
FAKE = f"{sys.executable} {HERE / 'bots' / 'fake_htp_engine.py'}"
RANDOM_UAIS = f"{sys.executable} {ROOT / 'examples' / 'uais_random_bot.py'}"


async def run(p0, p1, size=4, swap=True):
    config = MatchConfig(game=get_game("hex"), params={"size": size, "swap": swap}, clock=clock_from("turn", 2.0))
    return await Referee(config, [p0, p1]).run()


async def test_htp_engine_plays_a_uais_bot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    log = tmp_path / "htp.log"
    monkeypatch.setenv("FAKE_HTP_LOG", str(log))
    result = await run(HtpPlayer(f"{FAKE} good"), UaisPlayer(RANDOM_UAIS), size=4)
    assert result.outcome.termination == Termination.NORMAL, result.outcome
    sent = log.read_text().splitlines()
    assert sent[0] == "boardsize 4 4" and sent[1] == "clear_board"
    assert "genmove b" in sent and sent[-1] == "quit"
    # the engine's first move is HTP a1 = column a, row 1 = UAIS a1 (row a, column 1); its second (b1 in HTP,
    # unless taken) is UAIS a2: coordinates were converted, not copied
    ours = [m.move for m in result.moves if m.seat == 0]
    assert ours[0] == "a1"


async def test_engine_swap_pieces_becomes_a_swap_and_the_board_is_resent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = tmp_path / "htp.log"
    monkeypatch.setenv("FAKE_HTP_LOG", str(log))
    result = await run(HtpPlayer(f"{FAKE} good"), HtpPlayer(f"{FAKE} swapper"), size=3)
    assert result.moves[1].move == "swap"
    assert result.outcome.termination == Termination.NORMAL
    sent = log.read_text().splitlines()
    # after the swap the first engine gets a clear_board and the one stone again, then is asked as white
    assert sent.count("clear_board") >= 4
    assert "genmove w" in sent


@pytest.mark.parametrize(
    ("mode", "termination", "words"),
    [
        ("badcell", Termination.ILLEGAL_MOVE, "off the"),
        ("refuse", Termination.PROTOCOL, "cannot think"),
        ("noblank", Termination.TIME, ""),
    ],
)
async def test_broken_engines_lose_with_a_reason(mode: str, termination: Termination, words: str) -> None:
    bad = HtpPlayer(f"{FAKE} {mode}")
    result = await run(bad, UaisPlayer(RANDOM_UAIS))
    assert result.outcome.winner == 1 and result.culprit == 0
    assert result.outcome.termination == termination, result.outcome
    assert words in result.outcome.reason
    assert bad.engine is not None and bad.engine.process.returncode is not None
