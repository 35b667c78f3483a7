"""``stubborn_server.py PORT``: an ArenaServer (as ``hexarena serve`` runs it) whose app leaves a thread that never
ends, the kind of work no stop request reaches; only the shutdown watchdog can end this process."""

import sys
import threading
import time
from typing import Any

from hexarena.server.serving import FORCE_EXIT_AFTER, ArenaServer, server_config


async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] == "lifespan":
        await receive()
        threading.Thread(target=time.sleep, args=(3600,), name="stubborn").start()
        await send({"type": "lifespan.startup.complete"})
        await receive()
        await send({"type": "lifespan.shutdown.complete"})
        return
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"up"})


ArenaServer(server_config(app, "127.0.0.1", int(sys.argv[1]), log_level="warning"), FORCE_EXIT_AFTER).run()
