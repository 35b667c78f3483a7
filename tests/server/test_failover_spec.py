"""The spec a taken-over match's seat is built from (``server.failover.seat_spec``): over the protocol the seat
was played over, also for rows stored when a stateless or bws seat's spec was its bare URL."""

from __future__ import annotations

import pytest

from hexarena.players.policy import SpecPolicy, make_remote_player
from hexarena.server.failover import seat_spec
from hexarena.store.records import PlayerRecord

URL = "http://127.0.0.1:8002"


@pytest.mark.parametrize(
    ("stored", "kind", "cls"),
    [
        (PlayerRecord("bot", "stateless", URL), "stateless", "StatelessPlayer"),  # an older row
        (PlayerRecord("bot", "stateless", f"stateless:{URL}"), "stateless", "StatelessPlayer"),
        (PlayerRecord("bot", "bws", URL), "bws", "BwsPlayer"),  # an older row
        (PlayerRecord("bot", "bws", f"bws:{URL}"), "bws", "BwsPlayer"),
        (PlayerRecord("builtin:search", "builtin", "builtin:search"), "builtin", "InProcessPlayer"),
    ],
)
async def test_a_stored_seat_is_built_again_over_its_own_protocol(stored: PlayerRecord, kind: str, cls: str) -> None:
    # building a bws or stateless player contacts nothing (a bare URL would: it asks the bot which it speaks)
    player = await make_remote_player(seat_spec(stored), "htttx", SpecPolicy())
    assert type(player).__name__ == cls and player.kind == kind
    assert player.describe()["spec"] == seat_spec(stored)
