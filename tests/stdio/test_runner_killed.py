"""``kill -9`` of ``hexarena tournament run`` leaves none of its bots' processes running: the bot dies with it
(its parent-death signal), and so do the processes the bot started, which no signal reaches on their own."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cli.serving import SRC
from hexarena.players.proctree import read_proc

pytestmark = pytest.mark.fault

BAD_BOT = f"{sys.executable} {Path(__file__).parent / 'bots' / 'bad_bot.py'}"
PATIENCE = 60.0  # bounded waits for a condition, never a timing assertion


def _alive(pid: int) -> bool:
    info = read_proc(pid)
    return info is not None and info.state != "Z"


def _recorded_tree(engines: Path, runner: subprocess.Popen[bytes]) -> tuple[int, list[int]]:
    """The bot and its recorded descendants, once the runner's process-tree record lists one."""
    end = time.monotonic() + PATIENCE
    while time.monotonic() < end:
        assert runner.poll() is None, "the tournament ended before its bot was seen"
        for path in engines.glob("*.json"):
            try:
                record = json.loads(path.read_text())
            except (OSError, ValueError):
                continue
            if record.get("members"):
                return int(record["pid"]), [int(p) for p in record["members"]]
        time.sleep(0.1)
    raise AssertionError("no bot process tree was recorded")


def test_kill_9_of_the_tournament_runner_ends_its_bots_children(tmp_path: Path) -> None:
    data = tmp_path / "data"
    env = dict(os.environ, PYTHONPATH=str(SRC), HEXARENA_DATA_DIR=str(data))
    runner = subprocess.Popen(
        [
            *(sys.executable, "-m", "hexarena.cli", "tournament", "run", "hex"),
            *(f"uais:{BAD_BOT} child", "builtin:random", "--param", "size=5", "--no-store", "--quiet"),
            *("--clock-type", "turn", "--clock", "600"),
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    pids: list[int] = []
    try:
        bot, children = _recorded_tree(data / "engines", runner)
        pids = [bot, *children]
        assert all(_alive(p) for p in pids)
        runner.send_signal(signal.SIGKILL)
        runner.wait(PATIENCE)
        end = time.monotonic() + PATIENCE
        while time.monotonic() < end and any(_alive(p) for p in pids):
            time.sleep(0.1)
        left = [p for p in pids if _alive(p)]
        assert not left, f"still running after the runner was killed: {left} (bot {bot}, children {children})"
    finally:
        if runner.poll() is None:
            runner.kill()
            runner.wait()
        for pid in pids:  # never leave a sleeper behind, whatever the test found
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
