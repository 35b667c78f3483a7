"""SIGTERM with the store degraded (PostgreSQL stopped): ``hexarena serve`` still ends by itself within its
shutdown bound, without its last-resort forced exit, and the journal keeps what could not be written."""

from __future__ import annotations

import asyncio
import signal
import subprocess
from pathlib import Path

import pytest
from procs import ServeProcess, people_game, play_turns, private_postgres
from test_durability import _until_degraded

from hexarena.server.serving import FORCED_EXIT_STATUS

pytestmark = pytest.mark.fault


async def test_sigterm_with_postgresql_down_ends_cleanly_and_journals(tmp_path: Path) -> None:
    with private_postgres() as pg:
        server = ServeProcess(pg.url, tmp_path / "data", tmp_path / "serve.log")
        await server.start()
        try:
            games = [await people_game(server) for _ in range(3)]
            await asyncio.gather(*(play_turns(x, o, 3) for _, x, o in games))
            pg.stop()
            await asyncio.gather(*(play_turns(x, o, 3) for _, x, o in games))
            for _, x, _ in games[:2]:
                await x.ws.close()  # two games end during the outage: their results wait for the database
            await _until_degraded(server)
            assert server.proc is not None
            server.proc.send_signal(signal.SIGTERM)
            try:
                code = server.proc.wait(60)
            except subprocess.TimeoutExpired:
                raise AssertionError("hexarena serve did not end within 60 s of SIGTERM") from None
            log = server.log.read_text()
            # the mechanism, not the wall time: past its bound the shutdown is ended by force (and says so)
            assert code != FORCED_EXIT_STATUS and "forcing exit" not in log, log[-3000:]
            assert list((tmp_path / "data").glob("journal-*.jsonl")), "the journal lost what was not written"
        finally:
            server.stop()
