"""Run a Python module or script under cProfile and write the stats when it stops, even on SIGTERM.

    python bench/profiled.py OUT.prof -m hexarena.cli serve ...
    python bench/profiled.py OUT.prof script.py args...

Why not ``python -m cProfile``: uvicorn re-raises the SIGTERM it caught once it has shut down, which ends the
process before cProfile writes anything; here re-raising is turned into a normal return so the stats are saved.
Used by ``bench/server_throughput.py --profile DIR``.
"""

from __future__ import annotations

import cProfile
import runpy
import signal
import sys
import time


def main() -> None:
    out, *target = sys.argv[1:]
    signal.raise_signal = lambda _sig: None  # uvicorn's re-raise after a graceful shutdown: just return
    profiler = cProfile.Profile(time.process_time)  # CPU, not wall: waiting for a peer costs nothing
    if target[0] == "-m":
        sys.argv = [target[1], *target[2:]]
        run = lambda: runpy.run_module(target[1], run_name="__main__", alter_sys=True)  # noqa: E731
    else:
        sys.argv = list(target)
        run = lambda: runpy.run_path(target[0], run_name="__main__")  # noqa: E731
    profiler.enable()
    try:
        run()
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        profiler.disable()
        profiler.dump_stats(out)


if __name__ == "__main__":
    main()
