"""The central program driven through a pipe, as a script would: run, next, print, save, restore, undo."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RANDOM_BOT = f"{sys.executable} {ROOT / 'examples' / 'uais_random_bot.py'}"
BAD_BOT = f"{sys.executable} {Path(__file__).parent / 'bots' / 'bad_bot.py'}"


def central(
    commands: list[str], black: str = RANDOM_BOT, white: str = RANDOM_BOT, size: int = 5, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    return subprocess.run(
        [sys.executable, "-m", "hexarena.cli", "central", "--size", str(size), "--move-timeout", "10", black, white],
        input="\n".join(commands) + "\n",
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        cwd=cwd,
    )


def test_plays_a_whole_game_by_next() -> None:
    out = central(["run", *(["n"] * 30), "print", "exit"])
    assert out.returncode == 0, out.stderr
    assert "game started on 5x5" in out.stdout
    assert "game over:" in out.stdout
    assert "connected" in out.stdout
    moves = [line for line in out.stdout.splitlines() if line.startswith(("black:", "white:"))]
    assert 9 <= len(moves) <= 26  # 25 cells and at most one swap (which places no stone)


def test_save_and_restore_exactly(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    first = central(["run", "next", "next", "next", "next", f"save {save}", "show", "exit"])
    assert first.returncode == 0, first.stderr
    data = json.loads(save.read_text())
    assert data["format"] == "hexarena-central-save" and data["version"] == 1
    assert len(data["moves"]) == 4
    board_line = next(line for line in first.stdout.splitlines() if line.startswith("referee:"))
    second = central([f"run {save}", "show", "exit"])
    assert second.returncode == 0, second.stderr
    assert "4 moves restored" in second.stdout
    assert board_line in second.stdout.splitlines()
    # both bots' own boards agree with the referee after the restore
    shows = [
        line.split(": ", 1)[1] for line in second.stdout.splitlines() if line.startswith(("black bot:", "white bot:"))
    ]
    assert len(shows) == 2 and all(s == board_line.split(":", 1)[1].strip() for s in shows)


def test_undo_takes_back_a_move_in_the_bots_too() -> None:
    out = central(["run", "next", "next", "undo", "show", "exit"])
    assert out.returncode == 0, out.stderr
    assert "undone:" in out.stdout
    referee = next(line for line in out.stdout.splitlines() if line.startswith("referee:")).split(":", 1)[1].strip()
    assert referee.count("B") + referee.count("W") == 1
    shows = [
        line.split(": ", 1)[1] for line in out.stdout.splitlines() if line.startswith(("black bot:", "white bot:"))
    ]
    assert shows == [referee, referee]


def test_bad_bot_stops_the_game_without_crashing() -> None:
    out = central(["run", "next", "next", "next", "print", "exit"], white=f"{BAD_BOT} garbage")
    assert out.returncode == 0
    assert "white bot" in out.stderr and "loses" in out.stderr and "hello world" in out.stderr
    assert "the game was stopped" in out.stderr  # further 'next' are refused, politely


def test_unknown_command_and_bad_save_are_reported(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    out = central(["frobnicate", f"run {bad}", "run /nonexistent/file.json", "help", "exit"])
    assert out.returncode == 0
    assert "unknown command 'frobnicate'" in out.stderr
    assert "is not JSON" in out.stderr
    assert "cannot read" in out.stderr
    assert "run [savefile]" in out.stdout


def test_hexarena_mcts_runs_as_a_uais_executable() -> None:
    ours = f"{sys.executable} -m hexarena.cli bot stdio --game hex --bot random"
    out = central(["run", *(["n"] * 30), "exit"], black=ours, white=RANDOM_BOT, size=4)
    assert out.returncode == 0, out.stderr
    assert "game over:" in out.stdout, out.stdout + out.stderr


def _finished_save(tmp_path: Path) -> Path:
    """A 3x3 game Black has won down column 1 (a1, b1, c1) while White played a2, a3."""
    save = tmp_path / "won.json"
    data = {
        "format": "hexarena-central-save",
        "version": 1,
        "size": 3,
        "swap": True,
        "black": RANDOM_BOT,
        "white": RANDOM_BOT,
        "moves": ["a1", "a2", "b1", "a3", "c1"],
    }
    save.write_text(json.dumps(data))
    return save


def test_the_winner_is_announced_in_the_original_words(tmp_path: Path) -> None:
    """Scripts around the UAIS central program look for `Black has won` / `White has won` (docs/protocols/uais.md)."""
    restored = central([f"run {_finished_save(tmp_path)}", "check", "next", "exit"], size=3)
    assert restored.returncode == 0, restored.stderr
    lines = restored.stdout.splitlines()
    # once when `run` restores a finished game, once on `check`, once when `next` finds the game over
    assert lines.count("Black has won") == 3, restored.stdout
    assert "White has won" not in lines
    played = central(["run", *(["n"] * 30), "check", "exit"])
    assert played.returncode == 0, played.stderr
    lines = played.stdout.splitlines()
    winners = [line for line in lines if line in ("Black has won", "White has won")]
    # `next` reaching the end says it, `check` says it again, and further `next`s repeat it
    assert len(winners) >= 2 and len(set(winners)) == 1, played.stdout
    assert lines.index(winners[0]) > max(i for i, line in enumerate(lines) if line.startswith(("black:", "white:")))
