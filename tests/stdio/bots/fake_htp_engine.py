"""A scripted fake HTP engine with MoHex's exact wire behaviour: GTP framing (``= answer`` + blank line,
``? error`` + blank line), HTP coordinates (letter = column, number = row), ``swap-pieces``.

Usage: ``fake_htp_engine.py [MODE]``; MODE ``good`` (default) plays the first empty cell in HTP order and answers
``swap-pieces`` to the first white genmove; ``badcell`` answers an off-board cell; ``refuse`` answers ``?`` to
genmove; ``noblank`` forgets the blank line; ``log`` appends every command to $FAKE_HTP_LOG.
"""

import os
import sys

mode = sys.argv[1] if len(sys.argv) > 1 else "good"
size = 11
stones: dict[str, str] = {}
log = os.environ.get("FAKE_HTP_LOG")


def ok(text: str = "") -> None:
    sys.stdout.write(f"= {text}\n\n" if text else "=\n\n")
    sys.stdout.flush()


def fail(text: str) -> None:
    sys.stdout.write(f"? {text}\n\n")
    sys.stdout.flush()


for line in sys.stdin:
    if log:
        with open(log, "a") as f:
            f.write(line)
    parts = line.split()
    if not parts:
        continue
    cmd = parts[0]
    if cmd == "boardsize":
        size = int(parts[1])
        stones.clear()
        ok()
    elif cmd == "clear_board":
        stones.clear()
        ok()
    elif cmd == "play":
        cell = parts[2]
        if cell in stones:
            fail("cell occupied")
        else:
            stones[cell] = parts[1]
            ok()
    elif cmd == "genmove":
        if mode == "refuse":
            fail("cannot think")
            continue
        if mode == "badcell":
            ok("z99")
            continue
        if mode == "swapper" and parts[1] == "w" and len(stones) == 1:
            ok("swap-pieces")
            continue
        for row in range(1, size + 1):
            cells = [f"{chr(96 + col)}{row}" for col in range(1, size + 1)]
            free = [c for c in cells if c not in stones]
            if free:
                stones[free[0]] = parts[1]
                if mode == "noblank":
                    sys.stdout.write(f"= {free[0]}\n")
                    sys.stdout.flush()
                else:
                    ok(free[0])
                break
        else:
            ok("resign")
    elif cmd == "quit":
        ok()
        sys.exit(0)
    else:
        fail("unknown command")
