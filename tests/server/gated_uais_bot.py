"""A UAIS Hex bot whose moves wait for the test: ``gated_uais_bot.py GATE black|white``.

Each ``make_move`` is answered (a random free cell) only once the file ``GATE`` exists. So a test holds a game,
and the tournament it belongs to, running for as long as it needs, on a loaded machine too, without a clock
that guesses how long its other steps take; once it creates the file, every game plays out at once.
"""

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "stdio" / "bots"))  # run as a script: uais_loop's folder
from uais_loop import Board, serve

gate = Path(sys.argv[1])
parent = os.getppid()  # the server that started it: a bot left waiting after it is gone ends itself


def make_move(board: Board) -> None:
    while not gate.exists():
        if os.getppid() != parent:
            sys.exit(0)
        time.sleep(0.05)
    print(board.random_move(), flush=True)


serve(make_move)
