"""A UAIS bot that misbehaves in one chosen way: ``bad_bot.py MODE black|white``.

It plays legal random moves until its Nth ``make_move`` (MODE may end with ``@N``, default 1), then does MODE.
Modes ``child``, ``setsid`` and ``daemon`` first start a sleeping process (in the bot's group; in a session of
its own; double-forked into a session of its own, so it is orphaned at once) and report its pid on stderr as
``CHILD <pid>``.
"""

import os
import random
import subprocess
import sys
import time

from uais_loop import Board, serve  # this folder, first on sys.path when run as a script

mode, _, nth = sys.argv[1].partition("@")
trigger = int(nth or 1)
asked = 0
if mode == "child":
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    print(f"CHILD {child.pid}", file=sys.stderr, flush=True)
elif mode == "setsid":
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"], start_new_session=True)
    print(f"CHILD {child.pid}", file=sys.stderr, flush=True)
elif mode == "daemon":
    read_end, write_end = os.pipe()
    if os.fork() == 0:  # the classic daemon: fork, setsid, fork again, and the middle process exits
        os.setsid()
        if os.fork() == 0:
            os.write(write_end, f"{os.getpid()}\n".encode())
            os.execv(sys.executable, [sys.executable, "-c", "import time; time.sleep(600)"])
        os._exit(0)
    os.wait()
    print(f"CHILD {os.read(read_end, 64).decode().strip()}", file=sys.stderr, flush=True)


def on_set(command: str) -> None:
    if mode == "error" and command == "seto":
        print("error", flush=True)


def make_move(board: Board) -> None:
    global asked
    asked += 1
    taken = board.taken
    if asked < trigger or mode in ("noflush", "error"):
        print(board.random_move())
        if mode != "noflush":
            sys.stdout.flush()
        return
    if mode == "garbage":
        print("hello world", flush=True)
    elif mode == "offboard":
        print("z99", flush=True)
    elif mode == "occupied":
        print(next(iter(taken)) if taken else "a1", flush=True)
        print("a1", flush=True) if not taken else None
    elif mode == "lines":
        move = random.choice(board.free())
        print(move, flush=True)
        print(move, flush=True)
    elif mode in ("silent", "child", "setsid", "daemon"):
        time.sleep(600)
    elif mode == "spin":
        while True:
            pass
    elif mode == "crash":
        print("about to crash", file=sys.stderr, flush=True)
        sys.exit(3)
    elif mode == "flood":
        while True:
            print("spam", flush=True)
    elif mode == "longline":
        print("x" * 200_000, flush=True)
    elif mode == "memory":
        _blob = bytearray(8 * 1024 * 1024 * 1024)
        print("a1", flush=True)


serve(make_move, on_set)
