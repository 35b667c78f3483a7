"""Match leases and events in a real Redis (``server.cluster``): one holder at a time, renewed while held, released
only by its holder, taken over once expired (and the old holder told), events only to who subscribed."""

from __future__ import annotations

import asyncio
import json
import os
import random
import uuid
from collections.abc import AsyncIterator

import pytest

from hexarena.server.cluster import Cluster, lease_key, url_key, watched_key
from hexarena.server.cluster_timing import ClusterTiming

REDIS_URL = os.environ.get("HEXARENA_TEST_REDIS_URL", "redis://127.0.0.1:6379")
#: Instances that never renew during a test (the first renewal would come after a minute).
NO_RENEWAL = ClusterTiming(lease=120, renew=60)


@pytest.fixture
async def pair() -> AsyncIterator[tuple[Cluster, Cluster]]:
    a = Cluster(REDIS_URL, instance="a-" + uuid.uuid4().hex, timing=ClusterTiming(lease=0.6, renew=0.1))
    b = Cluster(REDIS_URL, instance="b-" + uuid.uuid4().hex, timing=ClusterTiming(lease=0.6, renew=0.1))
    try:
        await a.open()
        await b.open()
    except OSError:
        pytest.skip(f"no Redis at {REDIS_URL}")
    yield a, b
    await a.close()
    await b.close()


async def test_one_holder_renewed_while_held_released_only_by_it(pair: tuple[Cluster, Cluster]) -> None:
    a, b = pair
    match = uuid.uuid4().hex
    assert await a.claim(match, {"clock": {"kind": "turn", "seconds": 1.0}})
    assert not await b.claim(match)
    await asyncio.sleep(1.2)  # twice the lease's life: renewed meanwhile
    assert await b.owners([match]) == [a.instance]
    await b.release(match)  # not b's to release
    assert await a.owners([match]) == [a.instance]
    assert await b.meta(match) == {"clock": {"kind": "turn", "seconds": 1.0}}
    await a.release(match)
    assert await a.owners([match]) == [None]
    assert await a.meta(match) is None


async def test_an_expired_lease_is_taken_over_and_its_old_holder_told(pair: tuple[Cluster, Cluster]) -> None:
    a, b = pair
    match = uuid.uuid4().hex
    lost: list[str] = []
    a.on_lost = lost.append
    assert await a.claim(match)
    # as if a had been cut off from Redis past the lease's life and b had claimed the match meanwhile
    await b.redis.set(lease_key(match), b.instance, px=b.lease_ms)
    b.owned.add(match)
    for _ in range(50):
        if lost:
            break
        await asyncio.sleep(0.05)
    assert lost == [match] and match not in a.owned
    assert not await a.holds(match) and await b.holds(match)
    await b.release(match)


async def test_events_reach_subscribers_and_watched_matches_are_known_to_their_owner(
    pair: tuple[Cluster, Cluster],
) -> None:
    a, b = pair
    match = uuid.uuid4().hex
    assert await a.claim(match)
    assert match not in a.watched
    async with b.events(match) as events:
        for _ in range(50):  # the owner's next renewal sees the watcher's key
            if match in a.watched:
                break
            await asyncio.sleep(0.05)
        assert match in a.watched
        a.publish(match, {"type": "move", "ply": 0})
        assert await asyncio.wait_for(events.get(), 5) == {"type": "move", "ply": 0}
    await a.redis.delete(watched_key(match))
    await a.release(match)


async def test_a_lapsed_lease_nobody_took_is_taken_again_by_its_holder(pair: tuple[Cluster, Cluster]) -> None:
    """Redis away longer than a lease (here: the key vanished): the match still runs on its holder, which keeps
    it unless another instance took it first."""
    a, _ = pair
    match = uuid.uuid4().hex
    lost: list[str] = []
    a.on_lost = lost.append
    assert await a.claim(match)
    await a.redis.delete(lease_key(match))
    await asyncio.sleep(0.5)  # renewals
    assert await a.holds(match) and lost == []
    await a.release(match)


async def test_claiming_without_redis_is_a_503() -> None:
    from hexarena.server.cluster import ClusterUnavailable

    cluster = Cluster("redis://127.0.0.1:1")  # nothing listens there
    with pytest.raises(ClusterUnavailable):
        await cluster.claim(uuid.uuid4().hex)
    await cluster.redis.aclose()


async def test_a_remote_watcher_catches_up_from_the_store_before_the_end(
    migrated_sqlite_url: str, pair: tuple[Cluster, Cluster]
) -> None:
    """A match that ends before its owner noticed the watcher published no move, only its end: the watcher
    sends the moves from the store first (once the owner announces the end, they are stored)."""
    from datetime import UTC, datetime

    from hexarena.core.registry import get_game
    from hexarena.server.remote_watch import RemoteWatch
    from hexarena.store import MoveRecord, PlayerRecord, Store

    a, b = pair
    store = await Store.open(migrated_sqlite_url)
    game = get_game("tictactoe")
    match = uuid.uuid4().hex
    players = [PlayerRecord("p", "builtin", "builtin:random"), PlayerRecord("q", "builtin", "builtin:random")]
    await store.create_game(game_id=match, game="tictactoe", params={}, players=players)
    state, moves, rng = game.new(), [], random.Random(0)
    for ply in range(5):  # nobody can have won before the fifth move
        move = game.random_move(state, rng)
        state = game.play(state, move)
        moves.append(MoveRecord(ply, ply % 2, game.format(move), datetime.now(UTC), 0.001))
    await store.append_moves([(match, m) for m in moves[:2]])
    sent: list[str] = []

    async def send(text: str) -> None:
        sent.append(text)

    watch = RemoteWatch(b, store, match, send)
    try:
        assert await watch.start()
        runner = asyncio.create_task(watch.spectator.run())
        await store.append_moves([(match, m) for m in moves[2:]])  # played and stored, never published
        a.publish(match, {"type": "end", "winner_seat": 0, "plies": 5})
        await asyncio.wait_for(runner, 10)
    finally:
        await watch.stop()
        await store.close()
    kinds = [json.loads(t) for t in sent]
    assert [k["type"] for k in kinds] == ["setup", "board_update", "board_update", "board_update", "end"]
    assert [k["ply"] for k in kinds[1:4]] == [2, 3, 4] and "plies" not in kinds[-1]


@pytest.fixture
async def homes() -> AsyncIterator[tuple[Cluster, Cluster, str]]:
    """Two instances just started that both want one home (a fresh role), before any renewal."""
    role = "test-home-" + uuid.uuid4().hex
    a = Cluster(REDIS_URL, instance="a-" + uuid.uuid4().hex, advertise_url="http://a.example:1", timing=NO_RENEWAL)
    b = Cluster(REDIS_URL, instance="b-" + uuid.uuid4().hex, advertise_url="http://b.example:2", timing=NO_RENEWAL)
    try:
        await a.open()
        await b.open()
    except OSError:
        pytest.skip(f"no Redis at {REDIS_URL}")
    a.want_home(role)
    b.want_home(role)
    yield a, b, role
    await b.redis.delete(f"home:{role}")
    await a.close()
    await b.close()


async def test_the_first_instance_asked_for_a_home_takes_it_at_once(homes: tuple[Cluster, Cluster, str]) -> None:
    """Two instances just started (no renewal yet): the first asked where a lobby lives takes it, the second is
    sent there. Before, both answered "here" until a renewal, and bots that logged in to different instances in
    that window waited in two lobbies forever."""
    a, b, role = homes
    assert await b.home_url(role) is None  # b is asked first: b holds it from now on
    assert b.homes[role]
    assert await a.home_url(role) == "http://b.example:2"


async def test_a_stopping_instance_gives_its_home_up_at_once(homes: tuple[Cluster, Cluster, str]) -> None:
    """The next test (or a rolling restart) used to find the lobby still held by the stopped instance for the
    rest of its lease and forward clients to an address nobody answered (502)."""
    a, b, role = homes
    assert await a.home_url(role) is None and a.homes[role]
    assert await b.home_url(role) == "http://a.example:1"
    await a.close()
    assert await b.home_url(role) is None and b.homes[role]  # b serves it now, not a dead address


async def test_other_instances_are_listed_once_and_never_this_one() -> None:
    """A dead instance's address record outlives it by seconds; a new instance may already listen at that address
    (this one, or another live one): each address is asked once, and this instance never asks itself."""
    port = random.randrange(20000, 60000)
    mine, theirs = f"http://127.0.0.1:{port}", f"http://127.0.0.1:{port + 1}"
    me = Cluster(REDIS_URL, instance="me-" + uuid.uuid4().hex, advertise_url=mine)
    try:
        await me.open()
    except OSError:
        pytest.skip(f"no Redis at {REDIS_URL}")
    try:
        for name, url in (("dead-mine", mine), ("dead-theirs", theirs), ("live-theirs", theirs)):
            await me.redis.set(url_key(f"{name}-{uuid.uuid4().hex}"), url, ex=5)
        urls = await me.instance_urls()
        assert urls.count(theirs) == 1 and mine not in urls, urls
    finally:
        await me.close()


async def test_after_redis_restarts_empty_owners_take_back_leases_and_meta_before_anyone_claims() -> None:
    """Redis on a private server of the test's own, killed and started again empty: the owner takes its lease
    and writes its meta back from its own copy; meanwhile another instance does not trust a missing lease
    (``settled``) for a grace of a lease's life and two renewals, and ``health`` says Redis is degraded."""
    from procs import private_redis

    with private_redis() as server:
        # a lease of 5 s: the grace (5.2 s) outlasts the owner's next renewal however loaded the machine is
        a = Cluster(
            server.url,
            instance="a-" + uuid.uuid4().hex,
            timing=ClusterTiming(lease=5, renew=0.1),
            advertise_url="http://a",
        )
        b = Cluster(server.url, instance="b-" + uuid.uuid4().hex, timing=ClusterTiming(lease=5, renew=0.1))
        await a.open()
        await b.open()
        try:
            assert await b.settled()  # Redis had its epoch already when b started: nothing was lost
            match, meta = uuid.uuid4().hex, {"clock": {"kind": "turn", "seconds": 2.0}, "heartbeat_ms": 5000}
            assert await a.claim(match, meta)
            token = uuid.uuid4().hex
            a.add_token(token, match)  # a person's seat: sockets reaching b are relayed to a
            for _ in range(600):
                if await b.seat_url(token) == "http://a":
                    break
                await asyncio.sleep(0.05)
            assert await b.seat_url(token) == "http://a"
            server.stop()
            for _ in range(600):
                if a.degraded:
                    break
                await asyncio.sleep(0.05)
            assert a.health()["status"] == "degraded" and not await b.settled()
            server.start()  # empty
            for _ in range(600):
                if await b.owners([match]) == [a.instance] and await b.meta(match) == meta:
                    break
                await asyncio.sleep(0.05)
            assert await b.owners([match]) == [a.instance] and await b.meta(match) == meta
            assert a.health() == {"status": "ok"}
            for _ in range(600):
                if await b.seat_url(token) == "http://a":
                    break
                await asyncio.sleep(0.05)
            assert await b.seat_url(token) == "http://a"
            # the lease is back well before b trusts Redis again, and b trusts it once the grace has passed
            assert not await b.settled()
            for _ in range(1200):
                if await b.settled():
                    break
                await asyncio.sleep(0.05)
            assert await b.settled() and await b.owners([match]) == [a.instance]
        finally:
            await a.close()
            await b.close()


async def test_a_lease_released_while_a_renewal_is_in_flight_stays_released(pair: tuple[Cluster, Cluster]) -> None:
    """A renewal that took its list of leases before a release must not take the released lease again (the way a
    lease Redis lost is taken back): the match is over, or handed to another instance that could not claim it."""
    a, b = pair
    matches = [uuid.uuid4().hex for _ in range(100)]  # many leases: each renewal takes long enough to overlap
    for match in matches:
        assert await a.claim(match)
    for match in matches:
        await a.release(match)
        await asyncio.sleep(random.uniform(0, 0.005))
    await asyncio.sleep(3 * a.renew_every)  # every renewal that was in flight has ended
    assert await b.owners(matches) == [None] * len(matches)


@pytest.mark.parametrize("fault", ["emptied", "restarted"])
async def test_a_watch_is_known_to_the_owner_again_once_redis_is_back(
    fault: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Redis emptied (FLUSHALL: every connection stays up) or killed and started again empty: the watcher writes
    its ``match-watched`` key again as soon as its renewals see Redis back, not at its next periodic write (made
    ten minutes away here), so the owner goes on publishing the moves to the instance whose spectators follow."""
    from procs import private_redis

    import hexarena.server.cluster as cluster_module

    monkeypatch.setattr(cluster_module, "WATCH_TTL", 1800)
    with private_redis() as server:
        timing = ClusterTiming(lease=5, renew=0.1)
        owner = Cluster(server.url, instance="a-" + uuid.uuid4().hex, timing=timing)
        watcher = Cluster(server.url, instance="b-" + uuid.uuid4().hex, timing=timing)
        await owner.open()
        await watcher.open()
        match = uuid.uuid4().hex

        async def until_watched(timeout: float = 60.0) -> bool:
            for _ in range(int(timeout / 0.05)):
                if match in owner.watched:
                    return True
                await asyncio.sleep(0.05)
            return False

        try:
            assert await owner.claim(match)
            async with watcher.events(match):
                assert await until_watched()
                if fault == "emptied":
                    await owner.redis.flushall()
                else:
                    server.stop()
                    for _ in range(600):
                        if owner.degraded and watcher.degraded:
                            break
                        await asyncio.sleep(0.05)
                    server.start()
                for _ in range(600):  # the owner's renewal found the key gone
                    if match not in owner.watched:
                        break
                    await asyncio.sleep(0.05)
                assert await until_watched(), "the owner never saw the watch again"
        finally:
            await owner.close()
            await watcher.close()
