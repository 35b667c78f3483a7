"""What compiling Python sources again costs a test run: CPU seconds of a start with no compiled modules to read
against one that finds them all, for a server's imports and for one pytest worker's collection.

Why: with ``PYTHONDONTWRITEBYTECODE`` set (container images often set it) no compiled module is ever kept, so
every test worker's collection rewrites and compiles every test module, and every server or CLI a test starts
compiles hexarena again; the Makefile unexports it. Each case runs in a child with a ``PYTHONPYCACHEPREFIX`` of
its own: an empty one that is never written (nothing cached: every module compiled, the dependencies too, as in
a venv installed with ``pip --no-compile``), and one filled by a first run (everything cached).

    .venv/bin/python bench/bytecode_cost.py [--runs 3]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CASES = {
    "import hexarena.server.app (a server's start)": [sys.executable, "-c", "import hexarena.server.app"],
    "pytest --collect-only (one worker's collection)": [sys.executable, "-m", "pytest", "--collect-only", "-q"],
}


def _cpu_of(command: list[str], prefix: Path, write: bool) -> float:
    env = dict(os.environ, PYTHONPYCACHEPREFIX=str(prefix))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if not write:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="runs of each case (the median is printed)")
    args = parser.parse_args()
    for name, command in CASES.items():
        with tempfile.TemporaryDirectory() as empty, tempfile.TemporaryDirectory() as kept:
            _cpu_of(command, Path(kept), write=True)  # fills the cache the cached runs read
            cold = [_cpu_of(command, Path(empty), write=False) for _ in range(args.runs)]
            warm = [_cpu_of(command, Path(kept), write=False) for _ in range(args.runs)]
        print(
            f"{name}: {statistics.median(cold):.2f} s CPU with nothing cached, {statistics.median(warm):.2f} s with all"
        )


if __name__ == "__main__":
    main()
