"""The watchdog that ends a dead owner's bot trees at once: ``python -m hexarena.players.orphan_watch REGISTRY``.

A bot dies with its owner (server, tournament runner) through its parent-death signal, but the processes the bot
started get no such signal: after ``kill -9`` of the owner they ran on until the next ``hexarena serve`` swept
them, and ``hexarena tournament run`` never sweeps. This process is started by the owner with a pipe on its
stdin that the owner never writes to; the kernel closes the owner's end whatever way the owner ends, so the
end of input here means the owner is gone, and the trees it recorded under REGISTRY are swept
(:func:`~hexarena.players.proctree.sweep_orphans`, which leaves alone the trees of owners still running).
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from hexarena.players.proctree import sweep_orphans

#: Sweeps after the owner's end, this far apart: a bot still starting when its owner died is recorded and
#: killed by the next one.
SWEEPS = 3
SWEEP_GAP = 0.2


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m hexarena.players.orphan_watch REGISTRY", file=sys.stderr)
        return 2
    registry = Path(argv[0])
    while os.read(0, 4096):  # the owner never writes: only the end of input (its death) ends this
        pass
    for n in range(SWEEPS):
        if n:
            time.sleep(SWEEP_GAP)
        sweep_orphans(registry)
    return 0


if __name__ == "__main__":  # pragma: no cover - runs as its own process
    sys.exit(main(sys.argv[1:]))
