"""Subprocess bots are contained: their whole process tree dies at the match's end (escapees that left the process
group with setsid included), they die with a crashed server and what they left is ended at the next start, and
they have a CPU limit by default."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cli.serving import SRC, start_serve, stop
from hexarena.core.errors import ConfigError
from hexarena.core.registry import get_game
from hexarena.core.types import Termination
from hexarena.players.process import CPU_ENV, DEFAULT_CPU_SECONDS, BotProcess, Limits, split_command
from hexarena.players.proctree import read_proc, registry_dir, sweep_orphans
from hexarena.players.uais import UaisPlayer
from hexarena.referee import MatchConfig, Referee
from hexarena.referee.clock import clock_from

BOTS = Path(__file__).parent / "bots"
BAD_BOT = f"{sys.executable} {BOTS / 'bad_bot.py'}"
RANDOM_BOT = f"{sys.executable} {Path(__file__).resolve().parents[2] / 'examples' / 'uais_random_bot.py'}"
#: Bounded waits for liveness (never a timing assertion).
PATIENCE = 10.0


def alive(pid: int) -> bool:
    """Running (a zombie waiting for a reaper that isn't ours counts as dead)."""
    info = read_proc(pid)
    return info is not None and info.state != "Z"


def wait_dead(pids: list[int], within: float = PATIENCE) -> list[int]:
    """The pids still alive after waiting up to ``within`` seconds."""
    end = time.monotonic() + within
    while time.monotonic() < end and any(alive(p) for p in pids):
        time.sleep(0.05)
    return [p for p in pids if alive(p)]


def reported_children(process: BotProcess) -> list[int]:
    return [int(line.split()[1]) for line in process.stderr_tail if line.startswith("CHILD ")]


async def run(bad: UaisPlayer, seconds: float = 1.0) -> Termination:
    config = MatchConfig(game=get_game("hex"), params={"size": 5}, clock=clock_from("turn", seconds))
    result = await Referee(config, [bad, UaisPlayer(RANDOM_BOT)]).run()
    assert result.culprit == 0, result.outcome
    return result.outcome.termination


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("HEXARENA_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


@pytest.mark.parametrize("mode", ["child", "setsid", "daemon"])
async def test_no_process_of_the_bots_tree_survives_the_match(mode: str) -> None:
    bad = UaisPlayer(f"{BAD_BOT} {mode}")
    assert await run(bad, seconds=1.0) == Termination.TIME
    assert bad.bot is not None
    children = reported_children(bad.bot.process)
    assert children, "the bot did not report its child"
    assert not wait_dead(children, within=2.0), f"the bot's {mode} child outlived the match"
    assert not list(registry_dir().glob("*.json")), "the tree's record was not removed"


async def test_the_tree_is_recorded_on_disk_while_the_bot_runs() -> None:
    process = BotProcess(split_command(f"{BAD_BOT} setsid black"))
    await process.start()
    try:
        for _ in range(int(PATIENCE / 0.05)):  # until the watcher recorded the reported child
            if reported_children(process) and process.tree and process.tree.members:
                break
            await asyncio.sleep(0.05)
        [record_path] = registry_dir().glob("*.json")
        record = json.loads(record_path.read_text())
        assert record["pid"] == process.pid and record["owner"]["pid"] == os.getpid()
        assert [int(p) for p in record["members"]] == reported_children(process)
    finally:
        await process.close(grace=0.1)
    assert not record_path.exists()


def test_a_crashed_server_leaves_no_orphans_after_the_next_start(data_dir: Path, tmp_path: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(SRC), HEXARENA_DATA_DIR=str(data_dir))
    driver = subprocess.Popen(
        [sys.executable, str(BOTS / "crash_driver.py"), f"{BAD_BOT} setsid black"],
        env=env,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert driver.stdout is not None
        lines = []
        for line in driver.stdout:
            if line.strip() == "READY":
                break
            lines.append(line.split())
        bot = next(int(pid) for word, pid in lines if word == "BOT")
        children = [int(pid) for word, pid in lines if word == "CHILD"]
        assert children
        driver.send_signal(signal.SIGKILL)  # the server crashes
        driver.wait(PATIENCE)
    finally:
        if driver.poll() is None:
            driver.kill()
            driver.wait()
        if driver.stdout is not None:
            driver.stdout.close()
    assert not wait_dead([bot]), "the bot outlived its server (no parent-death signal)"
    assert all(alive(c) for c in children), "the escapee died with the server: nothing left for the sweep to test"
    server, _ = start_serve(tmp_path)  # the next start sweeps what the crash left
    try:
        assert not wait_dead(children), "the next server start left the crashed server's bot processes running"
        assert not list(data_dir.glob("engines/*.json"))
    finally:
        stop(server)


def test_the_sweep_spares_trees_of_a_server_still_running(data_dir: Path) -> None:
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    try:
        info = read_proc(sleeper.pid)
        assert info is not None
        me = read_proc(os.getppid())  # a live "other server"
        assert me is not None
        record = {
            "owner": {"pid": me.pid, "start": me.start},
            "pid": sleeper.pid,
            "start": info.start,
            "members": {},
        }
        (data_dir / "engines").mkdir(parents=True)
        path = data_dir / "engines" / f"{me.pid}-{sleeper.pid}.json"
        path.write_text(json.dumps(record))
        assert sweep_orphans() == 0 and alive(sleeper.pid) and path.exists()
        record["owner"] = {"pid": me.pid, "start": me.start + 1}  # that owner is gone (its pid was reused)
        path.write_text(json.dumps(record))
        assert sweep_orphans() == 1
        assert sleeper.wait(PATIENCE) == -signal.SIGKILL
        assert not path.exists()
    finally:
        if sleeper.poll() is None:
            sleeper.kill()
            sleeper.wait()


def test_a_bot_has_a_cpu_limit_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(CPU_ENV, raising=False)
    assert Limits().cpu_seconds == DEFAULT_CPU_SECONDS
    monkeypatch.setenv(CPU_ENV, "none")
    assert Limits().cpu_seconds is None
    monkeypatch.setenv(CPU_ENV, "many")
    with pytest.raises(ConfigError, match=CPU_ENV):
        Limits()


async def test_a_spinning_bot_is_stopped_by_the_cpu_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CPU_ENV, "1")
    bad = UaisPlayer(f"{BAD_BOT} spin")
    termination = await run(bad, seconds=8.0)
    assert termination == Termination.DISCONNECT
    assert bad.bot is not None and bad.bot.process.returncode in (-signal.SIGXCPU, -signal.SIGKILL)


def test_a_recycled_pid_is_never_killed(data_dir: Path) -> None:
    """A record naming a pid that now belongs to another process (another start time) leaves that process alone."""
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    try:
        info = read_proc(sleeper.pid)
        assert info is not None
        gone = {"pid": 1 << 22, "start": 1}  # an owner that is not running
        record = {"owner": gone, "pid": sleeper.pid, "start": info.start + 1, "members": {str(sleeper.pid): 7}}
        (data_dir / "engines").mkdir(parents=True)
        (data_dir / "engines" / "x.json").write_text(json.dumps(record))
        assert sweep_orphans() == 0
        assert alive(sleeper.pid)
        assert not (data_dir / "engines" / "x.json").exists()  # the stale record is dropped
    finally:
        sleeper.kill()
        sleeper.wait()
