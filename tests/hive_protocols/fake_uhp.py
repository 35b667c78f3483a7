"""A scripted UHP engine with one fault: ``fake_uhp.py MODE``.

It keeps the game with hexarena's engine and answers like Mzinga (banner, ``ok`` after every answer) until its
first ``bestmove``, then: ``garbage`` answers a non-move; ``err`` answers ``err``; ``nook`` never sends ``ok``;
``silent`` sleeps; ``crash`` exits; ``illegal`` answers a well-formed but illegal move; ``good`` plays randomly;
``chatter`` answers ``bestmove`` with prose and no ``ok``. ``notuhp`` is not a UHP engine at all: it greets
with prose and never says ``ok``.
"""

import random
import sys
import time

mode = sys.argv[1]
if mode == "notuhp":  # greets at once, before the engine's imports (the test waits a few seconds for a banner)
    print("Welcome to FooChess 2.1! Type 'help' for help.", flush=True)
    time.sleep(600)

from hexarena.core.registry import get_game  # noqa: E402

game = get_game("hive")
state = game.new()
print("id FakeUHP 1.0\nMosquito;Ladybug;Pillbug\nok", flush=True)
for line in sys.stdin:
    parts = line.split(maxsplit=1)
    if not parts:
        continue
    cmd = parts[0]
    arg = parts[1].strip() if len(parts) > 1 else ""
    if cmd == "newgame":
        state = game.from_game_string(arg) if arg else game.new()
        print(game.game_string(state) + "\nok", flush=True)
    elif cmd in ("play", "pass"):
        state = game.play(state, game.parse(arg or "pass"))
        print(game.game_string(state) + "\nok", flush=True)
    elif cmd == "bestmove":
        if mode == "good":
            print(game.format(game.random_move(state, random.Random())) + "\nok", flush=True)
        elif mode == "garbage":
            print("hello there\nok", flush=True)
        elif mode == "err":
            print("err out of memory\nok", flush=True)
        elif mode == "nook":
            print("wS1", flush=True)
            time.sleep(600)
        elif mode == "silent":
            time.sleep(600)
        elif mode == "chatter":
            print("let me think about this position", flush=True)
            time.sleep(600)
        elif mode == "crash":
            sys.exit(7)
        elif mode == "illegal":
            print("wQ\nok", flush=True)  # the queen may not be placed on the first turn
    elif cmd == "exit":
        sys.exit(0)
    else:
        print("ok", flush=True)
