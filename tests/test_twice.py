"""``tools/twice.sh``, through which the Makefile runs every install: a command that fails is run once more (a
download cut short), saying so; one that succeeds runs once; the exit status is the last attempt's. And make
echoes the install command, not the text of a shell function."""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TWICE = ROOT / "tools" / "twice.sh"
#: a bound on a few shell commands, never a timing assertion
PATIENCE = 60.0


def twice(tmp_path: Path, script: str) -> tuple[subprocess.CompletedProcess[str], int]:
    """Run ``script`` (which appends a line to a counter file) through twice.sh: the result and the attempts."""
    counter = tmp_path / "attempts"
    cmd = ["bash", str(TWICE), "bash", "-c", f"echo x >> {counter}; {script}"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=PATIENCE)
    return done, len(counter.read_text().splitlines())


def test_a_command_that_succeeds_runs_once(tmp_path: Path) -> None:
    done, attempts = twice(tmp_path, "true")
    assert (done.returncode, attempts, done.stderr) == (0, 1, "")


def test_a_failed_command_runs_once_more_and_says_why(tmp_path: Path) -> None:
    # fails the first time only, as an install whose download was cut short
    done, attempts = twice(tmp_path, f'[ "$(wc -l < {tmp_path / "attempts"})" -ge 2 ]')
    assert (done.returncode, attempts) == (0, 2)
    assert "bash failed (above): trying once more, a download may have been cut short" in done.stderr


def test_a_command_failing_twice_fails_with_its_own_status(tmp_path: Path) -> None:
    done, attempts = twice(tmp_path, "exit 7")
    assert (done.returncode, attempts) == (7, 2)


def test_make_echoes_the_install_not_a_function(tmp_path: Path) -> None:
    # -B: every target is out of date, so -n prints the install recipes; nothing runs
    shown = subprocess.run(
        ["make", "-n", "-B", "--no-print-directory", "setup", f"VENV={tmp_path / 'venv'}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=PATIENCE,
    )
    assert shown.returncode == 0, shown.stderr
    assert "bash tools/twice.sh " in shown.stdout and "uv pip install" in shown.stdout
    assert "twice()" not in shown.stdout
