"""A UAIS Hex bot whose moves wait for the test: ``gated_uais_bot.py GATE black|white``.

Each ``make_move`` is answered (a random free cell) only once the file ``GATE`` exists. So a test holds a game,
and the tournament it belongs to, running for as long as it needs, on a loaded machine too, without a clock
that guesses how long its other steps take; once it creates the file, every game plays out at once.
"""

import os
import random
import sys
import time
from pathlib import Path

gate = Path(sys.argv[1])
parent = os.getppid()  # the server that started it: a bot left waiting after it is gone ends itself
size = 11
taken: set[str] = set()


def free() -> list[str]:
    cells = (f"{chr(97 + r)}{c + 1}" for r in range(size) for c in range(size))
    return [cell for cell in cells if cell not in taken]


for line in sys.stdin:
    parts = line.split()
    if not parts:
        continue
    if parts[0] == "init_board":
        size = int(parts[1])
        taken.clear()
    elif parts[0] in ("seto", "sety"):
        taken.add(parts[1])
    elif parts[0] == "quit":
        sys.exit(0)
    elif parts[0] == "make_move":
        while not gate.exists():
            if os.getppid() != parent:
                sys.exit(0)
            time.sleep(0.05)
        move = random.choice(free())
        taken.add(move)
        print(move, flush=True)
