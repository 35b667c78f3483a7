"""``tools/beside.sh``, which ``make test`` runs everything through: the exit status says whether anything failed,
the side command's output comes after the rest, and a run that stops early (failing checks, Ctrl-C) leaves none of
the side command's processes running.

Real subprocesses: the commands record the pid of a long ``sleep`` they run in the foreground (as ``make test`` runs
pytest), and the test looks for it.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from hexarena.players.proctree import read_proc

BESIDE = Path(__file__).resolve().parent.parent / "tools" / "beside.sh"
#: Bounded waits for liveness (never a timing assertion): far above what any of these runs needs.
PATIENCE = 60.0


def run(tmp_path: Path, side: str, first: str, second: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(BESIDE), str(tmp_path / "logs" / "side.log"), side, first, second],
        capture_output=True,
        text=True,
        timeout=PATIENCE,
    )


def alive(pid: int) -> bool:
    """Running (a zombie whose parent, the side shell, has not reaped it yet counts as gone)."""
    info = read_proc(pid)
    return info is not None and info.state != "Z"


def wait_gone(pid: int) -> bool:
    end = time.monotonic() + PATIENCE
    while time.monotonic() < end:
        if not alive(pid):
            return True
        time.sleep(0.05)
    return False


def wait_for(path: Path) -> str:
    end = time.monotonic() + PATIENCE
    while time.monotonic() < end:
        if path.exists() and path.read_text().strip():
            return path.read_text().strip()
        time.sleep(0.05)
    raise AssertionError(f"{path} never appeared")


def test_all_passing_exits_zero_with_the_side_output_after_the_rest(tmp_path: Path) -> None:
    out = run(tmp_path, "echo side-said", "echo first-said", "echo second-said")
    assert out.returncode == 0, out
    assert out.stdout.index("first-said") < out.stdout.index("second-said") < out.stdout.index("side-said")
    assert "side-said" in (tmp_path / "logs" / "side.log").read_text()


@pytest.mark.parametrize("failing", ["side", "second"])
def test_a_failing_side_or_second_command_fails_the_run_after_both_ended(tmp_path: Path, failing: str) -> None:
    side = "echo side-said; exit 3" if failing == "side" else "echo side-said"
    second = "echo second-said; exit 4" if failing == "second" else "echo second-said"
    out = run(tmp_path, side, "true", second)
    assert out.returncode == 1, out
    assert "second-said" in out.stdout and "side-said" in out.stdout  # both ran to the end, both shown


def test_failing_checks_stop_the_side_command_and_everything_it_started(tmp_path: Path) -> None:
    pidfile = tmp_path / "sleep.pid"
    side = f"sh -c 'echo $$ > {pidfile}; exec sleep 300'"
    # the first command waits until the side's sleep is running, then fails
    first = f"while [ ! -s {pidfile} ]; do sleep 0.05; done; exit 1"
    out = run(tmp_path, side, first, "echo second-said")
    assert out.returncode == 1, out
    assert "failed: stopping" in out.stderr and "second-said" not in out.stdout
    assert wait_gone(int(pidfile.read_text())), "the side command's sleep was left running"


@pytest.mark.parametrize("started", ["in the foreground", "with SIGINT ignored"])
def test_ctrl_c_stops_everything(tmp_path: Path, started: str) -> None:
    """Also when ``make test`` was started with SIGINT ignored, as a non-interactive shell starts a background
    job (``.ci/run &``): everything it starts would inherit that, and a stopped SIDE would run on."""
    pidfile, secondfile = tmp_path / "sleep.pid", tmp_path / "second.pid"
    ignoring = ["bash", "-c", "trap '' INT QUIT; exec \"$@\"", "ignoring"] if started != "in the foreground" else []
    proc = subprocess.Popen(
        [
            *ignoring,
            "bash",
            str(BESIDE),
            str(tmp_path / "side.log"),
            f"sh -c 'echo $$ > {pidfile}; exec sleep 300'",
            "true",
            f"sh -c 'echo $$ > {secondfile}; exec sleep 300'",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # its own process group, as a terminal's foreground job is
    )
    side_sleep, second_sleep = int(wait_for(pidfile)), int(wait_for(secondfile))
    os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C sends: the whole foreground process group
    assert proc.wait(PATIENCE) == 130
    assert wait_gone(side_sleep), "the side command's sleep was left running"
    assert wait_gone(second_sleep), "the second command's sleep was left running"


def test_a_dry_run_of_make_test_prints_the_beside_run_and_runs_nothing(tmp_path: Path) -> None:
    """``make -n test`` shows what CI would run; make runs a recipe line that names ``$(MAKE)`` even under ``-n``,
    which would start the whole suite here."""
    root = BESIDE.parent.parent
    done = subprocess.run(
        ["make", "-n", "--no-print-directory", "test"], cwd=root, capture_output=True, text=True, timeout=PATIENCE
    )
    assert done.returncode == 0, done.stderr
    assert "tools/beside.sh" in done.stdout and "test-suite" in done.stdout, done.stdout
    assert "passed" not in done.stdout, done.stdout  # nothing of the run itself (and it ended within PATIENCE)
