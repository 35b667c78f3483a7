"""``hexarena serve`` itself (a real process, its own uvicorn configuration and WebSocket implementation, at
``--log-level debug``) never writes a seat token: two people play HTTTX over ``/ws?token=`` and a web UI seat
connects to ``/api/play?token=``; the process's whole output is then searched for the tokens."""

from __future__ import annotations

import asyncio
from pathlib import Path

from procs import ServeProcess, people_game, play_turns
from websockets.asyncio.client import connect


async def test_the_server_logs_no_seat_token(migrated_sqlite_url: str, tmp_path: Path) -> None:
    log = tmp_path / "serve.log"
    server = ServeProcess(migrated_sqlite_url, tmp_path / "data", log, log_level="debug")
    await server.start()
    try:
        _, x, o = await people_game(server)
        tokens = [p.ws.request.path.partition("token=")[2] for p in (x, o) if p.ws.request is not None]
        assert len(tokens) == 2 and all(len(t) >= 32 for t in tokens)
        assert await play_turns(x, o, 2) > 0
        r = await server.post("/api/matches", {"game": "tictactoe", "players": ["browser:ann", "builtin:random"]})
        tokens.append(r.json()["tokens"]["X"])
        async with connect(server.ws(f"/api/play?token={tokens[-1]}")) as page:
            await asyncio.wait_for(page.recv(), 30)
        await x.ws.close()
        await o.ws.close()
    finally:
        server.stop()
    text = log.read_text(errors="replace")
    assert "/ws?token=[redacted]" in text and "/api/play?token=[redacted]" in text, text[-3000:]
    for token in tokens:
        assert token not in text, [line for line in text.splitlines() if token in line]
