"""``BotProcess``: ``say``, the unasked-output check every line protocol (HTP, UHP, Trylobot stdio) runs before a
question, so a stray line is a violation quoting it instead of a shifted answer; and a cancelled ``close``."""

from __future__ import annotations

import asyncio
import sys

import pytest

from hexarena.core.errors import ProtocolViolation
from hexarena.players.process import BotProcess

ECHO = "import sys\nprint('stray banner', flush=True)\nfor line in sys.stdin:\n    print('echo ' + line.strip(), flush=True)\n"


async def test_say_refuses_when_the_bot_printed_something_unasked() -> None:
    bot = BotProcess([sys.executable, "-c", ECHO], label="echo")
    await bot.start()
    try:
        for _ in range(500):  # wait (bounded) until the stray line has been read
            if not bot.lines.empty():
                break
            await asyncio.sleep(0.01)
        with pytest.raises(ProtocolViolation, match="the engine printed unexpected output: 'stray banner'"):
            await bot.say("hi", "engine")
        await bot.say("hi", "engine")  # the stray line was consumed by the check: the next exchange is in step
        assert await bot.read_line(10) == "echo hi"
    finally:
        await bot.close(0.5)
    assert bot.returncode is not None


STUBBORN = "import signal, sys, time\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\nprint('ready', flush=True)\ntime.sleep(120)\n"


async def test_a_cancelled_close_still_kills_the_bot() -> None:
    """The referee bounds ``finish`` (5 s) and cancels it, close included; the bot must not outlive that."""
    bot = BotProcess([sys.executable, "-c", STUBBORN], label="stubborn")
    await bot.start()
    assert await bot.read_line(10) == "ready"  # SIGTERM is ignored from here on
    assert bot.proc is not None
    try:
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(bot.close(grace=30), 0.2)  # cancelled while waiting for a clean exit
        code = await asyncio.wait_for(bot.proc.wait(), 10)  # a hang guard: before the mend it slept on
        assert code == -9
    finally:
        bot._signal_group(9)
