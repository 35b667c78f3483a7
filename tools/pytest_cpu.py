"""Where a test run's time goes: a pytest plugin that writes each test's wall time and CPU, and a summary of them.

Why: a test that waits (on chromium, PostgreSQL, a subprocess) and a test that computes cost a run differently, and
``--durations`` shows only wall time, which load stretches. The CPU of pytest itself and of the children it has
reaped tells them apart; a child reaped later (a module's server, its browser) lands on the test that reaped it.

    PYTHONPATH=tools .venv/bin/python -m pytest -p pytest_cpu -n 4 ...   # writes $TEST_CPU_DIR/<worker>.tsv
    .venv/bin/python tools/pytest_cpu.py [DIR]                         # sums by directory and by file

Each line of a TSV: the test id, wall seconds, pytest's CPU seconds, reaped children's CPU seconds, and the
test's start (seconds since the epoch), from which the summary tells how long each worker idled at the end.
"""

from __future__ import annotations

import argparse
import os
import resource
import time
from collections import defaultdict
from collections.abc import Generator
from pathlib import Path
from typing import TextIO

import pytest

DEFAULT_DIR = "test-artifacts/test-cpu"
_out: list[TextIO] = []


def _cpu() -> tuple[float, float]:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


def _file() -> TextIO:
    if not _out:
        folder = Path(os.environ.get("TEST_CPU_DIR", DEFAULT_DIR))
        folder.mkdir(parents=True, exist_ok=True)
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        _out.append((folder / f"{worker}.tsv").open("a", buffering=1))
    return _out[0]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Generator[None, None, None]:
    started, wall, (own, children) = time.time(), time.monotonic(), _cpu()
    yield
    wall_after, (own_after, children_after) = time.monotonic(), _cpu()
    _file().write(
        f"{item.nodeid}\t{wall_after - wall:.3f}\t{own_after - own:.3f}\t{children_after - children:.3f}\t{started:.3f}\n"
    )


def pytest_unconfigure(config: pytest.Config) -> None:
    while _out:
        _out.pop().close()


def summary(folder: Path, top: int) -> str:
    """A table of wall and CPU seconds by test directory, then the ``top`` files by wall time not spent on a CPU."""
    by_dir: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
    by_file: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
    spans: dict[str, tuple[float, float]] = {}
    for tsv in sorted(folder.glob("*.tsv")):
        for line in tsv.read_text().splitlines():
            test, wall, own, children, *start = line.split("\t")
            if start:
                first, last = spans.get(tsv.stem, (float("inf"), 0.0))
                spans[tsv.stem] = (min(first, float(start[0])), max(last, float(start[0]) + float(wall)))
            path = test.split("::")[0]
            parts = path.split("/")
            area = parts[1] if len(parts) > 2 else path
            for row in (by_dir[area], by_file[path]):
                row[0] += 1
                row[1] += float(wall)
                row[2] += float(own) + float(children)
    lines = [f"{'tests':>6} {'wall s':>8} {'CPU s':>8}  directory"]
    for area, (count, wall_s, cpu_s) in sorted(by_dir.items(), key=lambda kv: -kv[1][1]):
        lines.append(f"{count:6.0f} {wall_s:8.1f} {cpu_s:8.1f}  {area}")
    lines += ["", f"{'tests':>6} {'wall s':>8} {'CPU s':>8} {'waiting':>8}  file"]
    waiting = sorted(by_file.items(), key=lambda kv: -(kv[1][1] - kv[1][2]))[:top]
    for path, (count, wall_s, cpu_s) in waiting:
        lines.append(f"{count:6.0f} {wall_s:8.1f} {cpu_s:8.1f} {wall_s - cpu_s:8.1f}  {path}")
    total = [sum(row[i] for row in by_dir.values()) for i in range(3)]
    lines += ["", f"{total[0]:.0f} tests: {total[1]:.1f} s wall (summed over workers), {total[2]:.1f} s CPU"]
    if spans:
        begun, ended = min(first for first, _ in spans.values()), max(last for _, last in spans.values())
        lines += ["", f"{'worker':>8} {'first':>7} {'last':>7} {'idle at end':>12}  (seconds from the first test)"]
        for worker, (first, last) in sorted(spans.items()):
            lines.append(f"{worker:>8} {first - begun:7.1f} {last - begun:7.1f} {ended - last:12.1f}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", nargs="?", default=os.environ.get("TEST_CPU_DIR", DEFAULT_DIR), type=Path)
    parser.add_argument("--top", type=int, default=25, help="how many files to list by waiting time")
    args = parser.parse_args()
    print(summary(args.folder, args.top))


if __name__ == "__main__":
    main()
