"""Starting and stopping the real processes a test or a benchmark runs (a server, a bot server): one way to wait
for a server to answer and one way to stop it, shared with ``bench/`` (which puts ``tests`` on its path)."""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
import time

import httpx


def stop_process(proc: subprocess.Popen[bytes], grace: float = 10) -> None:
    """SIGTERM, then SIGKILL if it has not exited after ``grace`` seconds: a server gets to shut down as it
    does in use (and write what it writes on exit, such as a profile), and one that hangs still goes."""
    proc.terminate()
    try:
        proc.wait(grace)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


async def wait_up(url: str, seconds: float = 60) -> None:
    """Wait until a GET of ``url`` answers 200 (a server just started); fail after ``seconds``, a margin for a
    loaded machine rather than a measure."""
    deadline = time.monotonic() + seconds
    async with httpx.AsyncClient() as client:
        while time.monotonic() < deadline:
            with contextlib.suppress(httpx.HTTPError):
                if (await client.get(url)).status_code == 200:
                    return
            await asyncio.sleep(0.05)
    raise AssertionError(f"{url} did not come up within {seconds:g} s")
