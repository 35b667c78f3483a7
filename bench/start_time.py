"""Time from starting ``hexarena serve`` to its first answered request, median of a few starts.

Each start is a new ``hexarena serve`` process on a free loopback port and a SQLite file of its own; the clock runs
from the process's creation until ``GET /healthz`` first answers 200 (polled every 10 ms). ``--fresh`` gives every
start a new database file (its schema made by the migrations); otherwise the file is made once, before the timed
starts, as a server restarting on its database finds it.

    .venv/bin/python bench/start_time.py [--runs 5] [--fresh]
"""

from __future__ import annotations

import argparse
import http.client
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HEXARENA = Path(sys.executable).with_name("hexarena")
#: Seconds one start may take before the run is given up.
START_TIMEOUT = 120.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def answers(port: int) -> bool:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
    try:
        conn.request("GET", "/healthz")
        return conn.getresponse().status == 200
    except OSError:
        return False
    finally:
        conn.close()


def one_start(database: Path) -> float:
    """Seconds from spawning ``hexarena serve`` on ``database`` to its first 200."""
    port = free_port()
    env = {**os.environ, "HEXARENA_DATA_DIR": str(database.parent)}
    args = [str(HEXARENA), "serve", "--port", str(port), "--database-url", f"sqlite:///{database}"]
    began = time.perf_counter()
    proc = subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while not answers(port):
            if proc.poll() is not None:
                raise SystemExit(f"hexarena serve ended with status {proc.returncode}")
            if time.perf_counter() - began > START_TIMEOUT:
                raise SystemExit(f"no answer within {START_TIMEOUT:g} s")
            time.sleep(0.01)
        return time.perf_counter() - began
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--fresh", action="store_true", help="a new database file for every start")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        if not args.fresh:
            one_start(folder / "arena.sqlite3")  # schema made once, untimed
        times = []
        for run in range(args.runs):
            database = folder / (f"fresh{run}.sqlite3" if args.fresh else "arena.sqlite3")
            times.append(one_start(database))
    shown = " ".join(f"{t:.2f}" for t in times)
    kind = "new database" if args.fresh else "existing database"
    print(f"hexarena serve, first 200 after: median {statistics.median(times):.2f} s ({kind}; runs: {shown})")


if __name__ == "__main__":
    main()
