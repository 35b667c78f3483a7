"""``hexarena serve`` as an operator starts it: a real process on a free loopback port with its own data directory."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import httpx

from fakes.procs import start_serving

SRC = Path(__file__).resolve().parents[2] / "src"


def start_serve(tmp: Path, *extra: str, pythonpath: tuple[Path, ...] = ()) -> tuple[subprocess.Popen[bytes], str]:
    """Start ``hexarena serve`` with a SQLite database and data directory under ``tmp``; wait until it answers.
    ``pythonpath``: folders put before hexarena's source (e.g. where a plugin is installed)."""
    path = os.pathsep.join(str(p) for p in (*pythonpath, SRC))
    env = dict(os.environ, PYTHONPATH=path, HEXARENA_DATA_DIR=str(tmp / "data"))
    env.pop("HEXARENA_DATABASE_URL", None)
    cmd = [
        sys.executable,
        "-m",
        "hexarena.cli",
        "serve",
        "--database-url",
        f"sqlite+aiosqlite:///{tmp / 'arena.sqlite3'}",
    ]
    cmd += ["--log-level", "warning", *extra, "--port"]
    proc, port = start_serving(lambda port: [*cmd, str(port)], tmp / "serve.log", env=env, cwd=tmp)
    url = f"http://127.0.0.1:{port}"
    wait_answering(proc, url, tmp / "serve.log")
    return proc, url


def wait_answering(proc: subprocess.Popen[bytes], url: str, log: Path) -> None:
    """Wait until the ``hexarena serve`` started as ``proc`` answers on ``url``; if it exits first, fail with its
    ``log`` (what it said is why), and if it never answers, stop it and fail. Two minutes: a loaded machine
    starts it slowly, and a test that waits on the answer instead of a guess does not flake."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"hexarena serve exited with {proc.returncode}: {log.read_text()}")
        try:
            if httpx.get(f"{url}/api/matches/live", timeout=5).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.05)
    stop(proc)
    raise AssertionError("hexarena serve did not come up")


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of a process so far."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def stop(proc: subprocess.Popen[bytes]) -> None:
    """Whatever a test did, the server is gone afterwards."""
    if proc.poll() is None:
        proc.kill()
    proc.wait(10)
