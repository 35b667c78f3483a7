"""A server-like parent for the crash test: ``crash_driver.py BOT_COMMAND`` starts the bot through BotProcess,
waits until the bot's reported child is recorded in its process tree, prints ``BOT <pid>``, ``CHILD <pid>`` and
``READY``, then waits to be killed (``kill -9``, as a crashing server would die). Its orphan watchdog is killed
first, as when a whole machine or container goes down: what is left is the next start's to sweep."""

import asyncio
import os
import signal
import sys

from hexarena.players import proctree
from hexarena.players.process import BotProcess, split_command


def _end_watchdogs() -> None:
    for watchdog, _ in proctree._watchdogs.values():
        os.kill(watchdog, signal.SIGKILL)
        os.waitpid(watchdog, 0)


async def main() -> None:
    bot = BotProcess(split_command(sys.argv[1]))
    await bot.start()
    assert bot.tree is not None and bot.pid is not None
    while True:
        children = [int(line.split()[1]) for line in bot.stderr_tail if line.startswith("CHILD ")]
        if children and all(c in bot.tree.members for c in children):
            break
        await asyncio.sleep(0.05)
    _end_watchdogs()
    print(f"BOT {bot.pid}", flush=True)
    for child in children:
        print(f"CHILD {child}", flush=True)
    print("READY", flush=True)
    await asyncio.sleep(3600)


asyncio.run(main())
