"""The heuristic HTTTX bot server (bws and stateless), whose moves past its first ones wait for the test: run as
``python gated_htttx_bot.py PORT GATE FREE [opening-only]``.

Its first ``FREE`` moves are answered at once; each later one only once the file ``GATE`` exists. So a test
stops a match at a known point of its middle, for as long as it needs (on a loaded machine too), instead of
slowing the whole match down with a searching opponent; once it creates the file the match plays out at once.
``opening-only``: it declares bws without ``free_setup``, as ``no_free_setup_bot.py`` does.
"""

from __future__ import annotations

import itertools
import sys
import time
from pathlib import Path
from typing import Any

from no_free_setup_bot import Heuristic, OpeningOnlyBot

from hexarena.bots.sdk import run

#: how many moves this process was asked for (each request gets a bot instance of its own)
_asked = itertools.count(1)


def gated(base: Any, gate: Path, free: int) -> Any:
    class Gated(base):  # type: ignore[misc,valid-type]
        def choose_move(self, *args: Any) -> Any:
            if next(_asked) > free:
                while not gate.exists() and not self.should_stop():
                    time.sleep(0.05)
            return super().choose_move(*args)

    return Gated


if __name__ == "__main__":
    port, gate, free = int(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
    base = OpeningOnlyBot if sys.argv[4:] == ["opening-only"] else Heuristic
    run(gated(base, gate, free), host="127.0.0.1", port=port)
