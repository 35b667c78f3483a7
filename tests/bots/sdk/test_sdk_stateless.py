"""The stateless ``turn`` handle over a real socket: good and bad bodies."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from sdk_wire_helpers import cells, running

from hexarena.bots.sdk import bot_class_for, make_app
from hexarena.games.htttx import HTTTX
from hexarena.wire.htttx import MAX_SERVER_PACKET_BYTES

URL = "/stateless/v1-alpha/turn"


async def _post(body: Any, raw: bytes | None = None) -> httpx.Response:
    async with running(make_app(bot_class_for("heuristic"))) as host, httpx.AsyncClient() as client:
        if raw is not None:
            return await client.post(f"http://{host}{URL}", content=raw)
        return await client.post(f"http://{host}{URL}", json=body)


async def test_turn_answers_a_legal_move_and_takes_a_win() -> None:
    stones = [(0, 0, "x"), (1, 0, "o"), (0, 1, "x"), (0, 2, "x"), (0, 3, "x"), (2, 0, "o"), (5, -3, "o")]
    r = await _post({"board": {"to_move": "x", "cells": cells(*stones)}, "time_limit": 5})
    assert r.status_code == 200
    move = r.json()["move"]
    state = HTTTX.from_cells([(q, r_, 0 if p == "x" else 1) for q, r_, p in stones], 0)
    (a, b) = [(p["q"], p["r"]) for p in move["pieces"]]
    after = HTTTX.play(state, (a, b))
    assert after.winner == 0  # X has four in a row with room on both ends: two stones make six


@pytest.mark.parametrize(
    ("body", "raw", "needle"),
    [
        (None, b"{not json", "not valid JSON"),
        ({"board": {"cells": []}}, None, "to_move"),
        ({"board": {"to_move": "z", "cells": []}}, None, "to_move"),
        ({"board": {"to_move": "o", "cells": [{"q": "a", "r": 0, "p": "x"}]}}, None, "q"),
        ({"board": {"to_move": "o", "cells": [{"q": 0, "r": 0, "p": "x"}]}, "time_limit": -1}, None, "time_limit"),
        ([1, 2], None, "turn request"),
        ({"board": {"to_move": "o", "cells": cells((1 << 20, 0, "x"))}}, None, "(1048576, 0) is too far"),
        ({"board": {"to_move": "x", "cells": cells((0, 0, "x"), (-(10**30), 0, "o"))}}, None, "too far from the"),
    ],
)
async def test_bad_bodies_get_400_with_a_reason(body: Any, raw: bytes | None, needle: str) -> None:
    r = await _post(body, raw)
    assert r.status_code == 400
    assert needle in r.json()["error"]


async def test_oversized_body_is_refused() -> None:
    r = await _post(None, b" " * (MAX_SERVER_PACKET_BYTES + 1))  # larger than any turn request a server sends
    assert r.status_code == 413 and "larger" in r.json()["error"]
