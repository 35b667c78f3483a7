"""How fast this machine runs Python right now: a fixed pure-Python workload, timed, printed beside the servers'
figures so that runs from different sittings can be told apart.

Why: the benchmarks run on a shared 2-core virtual machine whose speed changes from one sitting to the next, and
within one: on 2026-11-27 ``bench/sdk_move_cost.py`` read 77 us a move in one sitting and 43-45 us in others with
the same code, and ``bench/server_throughput.py`` 203 us against 101-139 us. A figure alone can't say whether
the code or the machine changed; this reference, taken in the same run, can. It is the kind of work the servers
do (small objects, dicts, calls, short strings, JSON), in one process, no IO, so it moves with the interpreter's
speed and not with the kernel's or the network's. Compare figures whose references are within a few percent;
otherwise compare within a sitting (interleaved runs) only.

    PYTHONPATH=src .venv/bin/python bench/machine_speed.py
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass


@dataclass(slots=True)
class _Stone:
    q: int
    r: int
    seat: int


def _unit() -> int:
    """One unit of work: a small board of stones built, indexed, looked up, encoded and summed."""
    stones = [_Stone(i % 19 - 9, i // 19 - 9, i & 1) for i in range(200)]
    cells = {(s.q, s.r): s.seat for s in stones}
    hits = sum(1 for s in stones if cells.get((s.q + 1, s.r)) == s.seat)
    text = json.dumps([{"q": s.q, "r": s.r, "p": "xo"[s.seat]} for s in stones[:50]], separators=(",", ":"))
    return hits + len(text) + len(f"{hits}:{len(cells)}")


def reference_us(units: int = 200, repeat: int = 7) -> float:
    """Microseconds one unit takes: the best of ``repeat`` timings of ``units`` units (the best is the least
    disturbed by other processes; what is left is the machine's speed)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(units):
            _unit()
        best = min(best, time.perf_counter() - start)
    return best / units * 1e6


def describe() -> str:
    """The line benchmarks print: this machine's reference now."""
    return f"machine reference (bench/machine_speed.py): {reference_us():.0f} us a unit"


if __name__ == "__main__":
    print(describe())
