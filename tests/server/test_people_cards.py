"""The ratings on the match page's cards (``server.people.ratings_of``): a person by their key, a bot by its
name, a person without an identity never; and with the database away the cards go without (the game goes on)."""

from __future__ import annotations

from hexarena.core.person import person_key
from hexarena.server.people import ratings_of
from hexarena.store import RatingRecord, Store

ANN = person_key("a" * 43)


async def test_cards_show_each_rated_player_and_nothing_while_the_store_is_away(migrated_database_url: str) -> None:
    store = await Store.open(migrated_database_url)
    seats = [
        {"name": "Ann", "kind": "human", "spec": ANN},
        {"name": "builtin:random", "kind": "builtin", "spec": "builtin:random"},
        {"name": ANN, "kind": "bws", "spec": "ws://x.example/"},  # a bot named like Ann's key is not Ann
        {"name": "Bo", "kind": "human", "spec": "browser"},
    ]
    try:
        await store.upsert_ratings([RatingRecord(ANN, "hex", 1620.0, rd=80.0, games=9)])
        await store.upsert_ratings([RatingRecord("builtin:random", "hex", 1400.0, games=2)])
        cards = await ratings_of(store, "hex", seats)
        assert cards[0] == {"rating": 1620.0, "rd": 80.0, "provisional": False, "games": 9}
        assert cards[1] is not None and cards[1]["rating"] == 1400.0 and cards[1]["provisional"] is True
        assert cards[2] is None and cards[3] is None
    finally:
        await store.close()
    assert await ratings_of(store, "hex", seats) == [None] * 4  # closed: as the database being away
