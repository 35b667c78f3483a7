"""Bots (and their secret), contests, ratings and tournaments."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest

from hexarena.store import Conflict, InvalidRecord, NotFound, RatingRecord, Store


async def test_bot_secret_is_only_returned_on_request(store: Store) -> None:
    secret = await store.register_bot(bot_id="zed", game="numberwang", owner="ann", spec={"lang": "py"})
    assert re.fullmatch(r"[0-9a-f]{64}", secret)
    given = "ab" * 32
    assert await store.register_bot(bot_id="ygg", game="numberwang", owner="bo", pass_hash=given) == given

    bot = await store.get_bot("zed")
    assert bot is not None
    assert (bot.bot_id, bot.game, bot.owner, bot.kind, bot.spec) == (
        "zed",
        "numberwang",
        "ann",
        "battlebot",
        {"lang": "py"},
    )
    assert bot.date_registered.tzinfo is UTC
    listed = await store.list_bots()
    assert sorted(b.bot_id for b in listed) == ["ygg", "zed"]
    shown = repr(listed) + repr(bot) + str([vars(b) if hasattr(b, "__dict__") else b for b in listed])
    assert secret not in shown and given not in shown
    assert not hasattr(bot, "pass_hash")

    assert await store.bot_pass_hash("zed") == secret
    assert await store.bot_pass_hash("ygg") == given
    assert await store.bot_pass_hash("nobody") is None
    assert await store.get_bot("nobody") is None


async def test_bot_ids_are_unique_across_games(store: Store) -> None:
    first = await store.register_bot(bot_id="dup", game="numberwang", owner="ann")
    with pytest.raises(Conflict, match="'dup' is already registered"):
        await store.register_bot(bot_id="dup", game="tictactoe", owner="bob")
    assert await store.bot_pass_hash("dup") == first
    bot = await store.get_bot("dup")
    assert bot is not None and bot.owner == "ann" and bot.game == "numberwang"


async def test_list_bots_filters(store: Store) -> None:
    await store.register_bot(bot_id="a", game="numberwang", owner="ann")
    await store.register_bot(bot_id="b", game="tictactoe", owner="ann")
    await store.register_bot(bot_id="c", game="tictactoe", owner="cy", kind="bws", spec="ws://c/")
    assert [b.bot_id for b in await store.list_bots(game="tictactoe")] == ["b", "c"]
    assert [b.bot_id for b in await store.list_bots(owner="ann")] == ["a", "b"]
    assert [b.bot_id for b in await store.list_bots(game="tictactoe", owner="cy")] == ["c"]
    assert await store.list_bots(game="hive") == []


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"bot_id": ""}, "bot id ''"),
        ({"owner": ""}, "needs an owner"),
        ({"game": "x" * 40}, "game name"),
        ({"spec": {1j: 2}}, "JSON"),
    ],
)
async def test_register_bot_rejects_bad_input(store: Store, kwargs: dict[str, object], message: str) -> None:
    args: dict[str, object] = {"bot_id": "ok", "game": "numberwang", "owner": "ann"}
    args.update(kwargs)
    with pytest.raises(InvalidRecord, match=message):
        await store.register_bot(**args)  # type: ignore[arg-type]
    assert await store.list_bots() == []


async def test_contests(store: Store) -> None:
    cup = await store.create_contest(game="tictactoe", name="Summer cup", contest_id="summer")
    other = await store.create_contest(game="numberwang", name="NW open", contest_id="tz-open")
    generated = await store.create_contest(game="hive", name="no id given")
    assert len(generated.contest_id) == 32 and generated.created_at.tzinfo is UTC
    assert await store.get_contest("summer") == cup
    assert await store.get_contest("nope") is None
    assert await store.list_contests() == [cup, other, generated]
    assert await store.list_contests(game="numberwang") == [other]
    with pytest.raises(Conflict, match="'summer'"):
        await store.create_contest(game="hex", name="again", contest_id="summer")


async def test_ratings_upsert_and_leaderboard(store: Store) -> None:
    assert await store.get_rating("alice", "hex") is None
    await store.upsert_ratings(
        [RatingRecord("alice", "hex", 1500.0), RatingRecord("bob", "hex", 1550.0, rd=200.0, games=3)]
    )
    await store.upsert_rating(RatingRecord("alice", "hive", 1400.0))
    when = datetime(2026, 3, 1, tzinfo=UTC)
    await store.upsert_rating(RatingRecord("alice", "hex", 1620.5, rd=180.0, sigma=0.059, games=4, updated_at=when))
    alice = await store.get_rating("alice", "hex")
    assert alice == RatingRecord("alice", "hex", 1620.5, 180.0, 0.059, 4, when)
    board = await store.list_ratings("hex")
    assert [(r.key, r.rating) for r in board] == [("alice", 1620.5), ("bob", 1550.0)]
    assert [r.key for r in await store.list_ratings("hive")] == ["alice"]
    assert await store.list_ratings("hex", limit=1) == board[:1]
    # a player far down the board is found by key, with the limit counting only those asked for (the ladder)
    assert [r.key for r in await store.list_ratings("hex", limit=1, keys=["bob", "nobody"])] == ["bob"]
    with pytest.raises(InvalidRecord, match="rating of 'x'"):
        await store.upsert_rating(RatingRecord("x", "hex", float("nan")))


async def test_rating_history_keeps_every_update_in_order(store: Store) -> None:
    """``ratings`` holds the latest; ``rating_history`` every rating each player had, oldest first (the
    leaderboard plots it), in the same transaction as the update."""
    first = datetime(2026, 3, 1, tzinfo=UTC)
    later = datetime(2026, 3, 2, tzinfo=UTC)
    await store.upsert_ratings(
        [RatingRecord("alice", "hex", 1500.0, updated_at=first), RatingRecord("bob", "hex", 1500.0)]
    )
    await store.upsert_ratings(
        [RatingRecord("alice", "hex", 1516.0, games=1, updated_at=later), RatingRecord("bob", "hex", 1484.0, games=1)]
    )
    await store.upsert_rating(RatingRecord("alice", "hive", 1400.0))
    history = await store.rating_history("hex")
    assert sorted(history) == ["alice", "bob"]
    assert [(p.rating, p.games, p.updated_at) for p in history["alice"]] == [(1500.0, 0, first), (1516.0, 1, later)]
    assert [p.rating for p in history["bob"]] == [1500.0, 1484.0]
    assert list(await store.rating_history("hex", keys=["bob"])) == ["bob"]
    assert [p.rating for p in (await store.rating_history("hive"))["alice"]] == [1400.0]
    with pytest.raises(InvalidRecord):
        await store.upsert_rating(RatingRecord("alice", "hex", float("nan")))
    assert len((await store.rating_history("hex"))["alice"]) == 2  # a refused update leaves no history


async def test_rating_history_answers_each_players_newest_points_only(store: Store) -> None:
    """The leaderboard's plots must not read a player's whole history (one row per rated game, unbounded): each
    player gets at most ``points`` of its newest ratings, still oldest first."""
    for n in range(12):
        await store.upsert_ratings([RatingRecord("alice", "hex", 1500.0 + n), RatingRecord("bob", "hex", 1400.0 - n)])
    await store.upsert_rating(RatingRecord("carol", "hex", 1490.0))
    history = await store.rating_history("hex", points=5)
    assert [p.rating for p in history["alice"]] == [1507.0, 1508.0, 1509.0, 1510.0, 1511.0]
    assert [p.rating for p in history["bob"]] == [1393.0, 1392.0, 1391.0, 1390.0, 1389.0]
    assert [p.rating for p in history["carol"]] == [1490.0]
    assert len((await store.rating_history("hex"))["alice"]) == 12  # the default reads up to MAX_HISTORY_POINTS
    with pytest.raises(InvalidRecord, match="points"):
        await store.rating_history("hex", points=0)


async def test_tournaments(store: Store) -> None:
    config = {"format": "round_robin", "players": ["a", "b", "c"], "games_per_pair": 2}
    t = await store.create_tournament(name="RR", game="hex", config=config, tournament_id="rr1")
    assert (t.status, t.state, t.config) == ("pending", None, config)
    later = await store.create_tournament(name="Swiss", game="hive", config={"rounds": 5})
    await store.update_tournament_state("rr1", {"round": 2, "done": [[0, 1]]}, status="running")
    got = await store.get_tournament("rr1")
    assert got is not None
    assert (got.status, got.state, got.config, got.created_at) == (
        "running",
        {"round": 2, "done": [[0, 1]]},
        config,
        t.created_at,
    )
    assert got.updated_at >= t.updated_at
    assert {x.tournament_id for x in await store.list_tournaments()} == {"rr1", later.tournament_id}
    assert [x.tournament_id for x in await store.list_tournaments(status="running")] == ["rr1"]
    assert [x.tournament_id for x in await store.list_tournaments(game="hive")] == [later.tournament_id]
    assert await store.get_tournament("nope") is None
    with pytest.raises(NotFound, match="'nope'"):
        await store.update_tournament_state("nope", {})
    with pytest.raises(Conflict):
        await store.create_tournament(name="again", game="hex", config={}, tournament_id="rr1")
