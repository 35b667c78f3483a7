"""``hexarena serve --dots-port``: the main app and the dots-only app served together from one process."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from hexarena.server.app import Settings, create_app
from hexarena.server.dots.routes import dots_servers, run_servers


async def test_both_ports_share_the_tables(migrated_database_url: str) -> None:
    app = create_app(Settings(database_url=migrated_database_url))
    main, dots = dots_servers(app, "127.0.0.1", 0, 0, log_level="warning")
    task = asyncio.create_task(run_servers(main, dots))
    try:
        for _ in range(400):
            if dots.started:
                break
            await asyncio.sleep(0.025)
        assert dots.started

        def port(server: Any) -> int:
            return int(server.servers[0].sockets[0].getsockname()[1])

        main_url, dots_url = f"http://127.0.0.1:{port(main)}", f"http://127.0.0.1:{port(dots)}"
        async with httpx.AsyncClient() as http:
            r = await http.post(f"{dots_url}/", json={"rows": 3, "cols": 3})
            assert r.status_code == 201
            game_id = r.headers["Location"].lstrip("/")
            listed = (await http.get(f"{main_url}/dots/")).json()
            assert listed == [{"id": game_id, "state": "initiating"}]
            assert (await http.get(f"{main_url}/healthz")).json()["ok"] is True
            assert (await http.get(f"{dots_url}/healthz")).status_code == 404  # only the protocol lives there
    finally:
        main.should_exit = True
        await asyncio.wait_for(task, 10)
