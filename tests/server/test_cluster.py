"""Several instances on one PostgreSQL database and one Redis (issue 17): two real ``hexarena serve`` processes.

A match created on instance A is watched over the WebSocket of instance B (the snapshot from the store, the moves
from Redis pub/sub); ``kill -9`` of the instance playing a match makes the other take it over (its lease expires)
and finish it from the stored moves, or end it ``interrupted`` when its players can't be reached from there.

The matches that must outlive a fault are played by a paced bot (``paced_bot.py``: a move every tenth of a second
under a clock no load uses up, no win until the test opens its gate), never by a search paced by its clock: on
a loaded machine such a search lost on time before the fault, and the test took that for a broken takeover.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import sys
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from procs import (
    FAST_CLUSTER,
    PACED_CLOCK,
    Person,
    ServeProcess,
    free_port,
    paced_bot_server,
    people_game,
    play_turns,
)
from websockets.asyncio.client import ClientConnection, connect

from fakes.procs import wait_up

REDIS_URL = os.environ.get("HEXARENA_TEST_REDIS_URL", "redis://127.0.0.1:6379")

pytestmark = [
    pytest.mark.slow,
    pytest.mark.fault,
    pytest.mark.postgres,
    pytest.mark.skipif(not os.environ.get("HEXARENA_TEST_DATABASE_URL"), reason="needs HEXARENA_TEST_DATABASE_URL"),
    pytest.mark.parametrize("database_url", ["postgresql"], indirect=True),
]


def instances(
    database_url: str, tmp_path: Path, n: int = 2, dots: bool = False, create_limit: str = "off"
) -> list[ServeProcess]:
    """``n`` instances on one database and Redis (``dots``: each also serves the dots protocol on its own port,
    ``.dots_port``), with short leases and scans (``FAST_CLUSTER``). Creates are not limited unless ``create_limit`` says so: the budgets are kept in the shared
    Redis, where every test's creates from 127.0.0.1 would add up."""
    out = []
    for i in range(n):
        dots_port = free_port()
        extra = ("--redis-url", REDIS_URL, "--create-rate-limit", create_limit, *FAST_CLUSTER)
        extra += ("--dots-port", str(dots_port)) if dots else ()
        server = ServeProcess(database_url, tmp_path / f"data{i}", tmp_path / f"serve{i}.log", extra=extra)
        server.dots_port = dots_port  # type: ignore[attr-defined]
        out.append(server)
    return out


@contextlib.asynccontextmanager
async def two_instances(
    database_url: str, tmp_path: Path, *, start_b: bool = True, dots: bool = False, create_limit: str = "off"
) -> AsyncIterator[tuple[ServeProcess, ServeProcess]]:
    """Instances A and B started (B only if ``start_b``: the test starts it later); both stopped at the end."""
    a, b = instances(database_url, tmp_path, dots=dots, create_limit=create_limit)
    await asyncio.gather(a.start(), b.start()) if start_b else await a.start()
    try:
        yield a, b
    finally:
        a.stop()
        b.stop()


async def once_over(server: ServeProcess, game_id: str, timeout: float = 10.0) -> dict[str, Any]:
    """The game's record once it is no longer running (or after ``timeout`` s)."""
    deadline = time.monotonic() + timeout
    while True:
        record: dict[str, Any] = (await server.get(f"/games/{game_id}")).json()
        if record["status"] != "running" or time.monotonic() > deadline:
            return record
        await asyncio.sleep(0.2)


async def until_stored(server: ServeProcess, game_id: str, plies: int, timeout: float = 60.0) -> None:
    """Until the game's record holds ``plies`` moves (never more: that fails at once)."""
    deadline = time.monotonic() + timeout
    while True:
        moves = len((await server.get(f"/games/{game_id}")).json()["moves"])
        assert moves <= plies, (moves, plies)
        if moves == plies:
            return
        assert time.monotonic() < deadline, f"{moves} of {plies} moves stored after {timeout} s"
        await asyncio.sleep(0.05)


async def until_some_stored(server: ServeProcess, game_id: str, timeout: float = 60.0) -> None:
    """Until the game's record holds a move: what another instance continues from. Moves that only the lost
    instance's journal holds come back when that instance restarts, not on the new owner, so a fault before the
    first flush would leave the new owner a match at its opening (any bot can start there)."""
    deadline = time.monotonic() + timeout
    while not (await server.get(f"/games/{game_id}")).json()["moves"]:
        assert time.monotonic() < deadline, f"no move stored after {timeout} s"
        await asyncio.sleep(0.05)


async def watch(ws: ClientConnection, timeout: float = 120.0) -> list[dict[str, Any]]:
    """Every message of a spectator socket until the end (or the socket closes)."""
    out: list[dict[str, Any]] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            text = await asyncio.wait_for(ws.recv(), deadline - time.monotonic())
        except Exception:
            break
        msg = json.loads(text)
        out.append(msg)
        if msg.get("type") == "end":
            break
    return out


def replay(messages: list[dict[str, Any]]) -> list[str]:
    """The moves a spectator saw, in order: each ``setup`` (again after a takeover) restarts from its list."""
    moves: list[str] = []
    for msg in messages:
        if msg["type"] == "setup":
            moves = [m["move"] for m in msg["moves"]]
        elif msg["type"] == "board_update":
            assert msg["ply"] == len(moves), (msg["ply"], len(moves))
            moves.append(msg["move"])
    return moves


@contextlib.asynccontextmanager
async def paced_bot(tmp_path: Path, opening_only: bool = False) -> AsyncIterator[tuple[str, Path]]:
    """A ``paced_bot.py`` server (its base URL) and its gate file: its games go on until the test creates it."""
    gate = tmp_path / "gate"
    with paced_bot_server(gate, tmp_path / "bot.log", opening_only) as url:
        yield url, gate


async def read_until(
    ws: ClientConnection, seen: list[dict[str, Any]], done: Callable[[list[dict[str, Any]]], bool]
) -> None:
    """Append a spectator socket's messages to ``seen`` until ``done(seen)``; the match must not end before."""
    while not done(seen):
        seen.append(json.loads(await asyncio.wait_for(ws.recv(), 60)))
        assert seen[-1]["type"] != "end", seen[-1]


def updates(seen: list[dict[str, Any]]) -> int:
    return sum(m["type"] == "board_update" for m in seen)


def taken_over(seen: list[dict[str, Any]]) -> bool:
    """A fresh snapshot came (the new owner's) and moves after it: the match plays on over there."""
    setups = [i for i, m in enumerate(seen) if m["type"] == "setup"]
    return len(setups) >= 2 and updates(seen[setups[-1] :]) >= 2


def paced_match(url: str, scheme: str = "stateless") -> dict[str, Any]:
    """An HTTTX match between the paced bot at ``url`` (X, over ``scheme``) and a built-in that moves at once:
    it lasts until the gate opens however loaded the machine, and any instance can play both seats."""
    return {"game": "htttx", "players": [f"{scheme}:{url}", "builtin:random"], "clock": PACED_CLOCK}


async def continued_on_b(
    a: ServeProcess, b: ServeProcess, body: dict[str, Any], gate: Path, fault: Callable[[ServeProcess], None]
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Create ``body`` on A, apply ``fault`` to A (``kill9``, ``stop``) once 4 moves are seen from B and one is
    stored, open the gate once B plays it on (or once its spectator sees it end: B may not be able to), and return
    its record once over and what B's spectator saw."""
    r = await a.post("/api/matches", body)
    assert r.status_code == 200, r.text
    game_id = r.json()["game_id"]
    async with connect(b.ws(f"/spectate/{game_id}")) as ws:
        seen: list[dict[str, Any]] = []
        await read_until(ws, seen, lambda s: updates(s) >= 4)
        await until_some_stored(b, game_id)
        fault(a)
        with contextlib.suppress(AssertionError):  # an end instead (a match B can't continue) is for the test
            await read_until(ws, seen, taken_over)
        gate.touch()
        if seen[-1]["type"] != "end":
            seen += await watch(ws)
    return await once_over(b, game_id, 60), seen


async def test_a_match_on_one_instance_is_watched_on_another(database_url: str, tmp_path: Path) -> None:
    async with paced_bot(tmp_path) as (url, gate), two_instances(database_url, tmp_path) as (a, b):
        r = await a.post("/api/matches", paced_match(url))
        assert r.status_code == 200, r.text
        game_id = r.json()["game_id"]
        async with (
            connect(b.ws(f"/spectate/{game_id}")) as ws,
            connect(b.ws(f"/spectate/{game_id}?updates=moves")) as light,
        ):
            watching = asyncio.gather(watch(ws), watch(light))
            gate.touch()
            seen, moves_only = await watching
        assert seen[0]["type"] == "setup" and seen[-1]["type"] == "end", [m["type"] for m in seen]
        assert any(m["type"] == "board_update" for m in seen)
        assert all("state" in m for m in seen if m["type"] == "board_update")
        assert all("state" not in m for m in moves_only if m["type"] == "board_update")
        record = (await a.get(f"/games/{game_id}")).json()
        assert record["status"] == "finished"
        assert replay(seen) == replay(moves_only) == [m["move"] for m in record["moves"]]
        assert seen[-1]["winner_seat"] == record["winner"]
        # the same record through B (the database is shared)
        assert (await b.get(f"/games/{game_id}")).json()["moves"] == record["moves"]


async def test_kill_9_of_the_owner_hands_the_match_to_the_other_instance(database_url: str, tmp_path: Path) -> None:
    async with paced_bot(tmp_path) as (url, gate), two_instances(database_url, tmp_path) as (a, b):
        record, seen = await continued_on_b(a, b, paced_match(url), gate, ServeProcess.kill9)
        assert seen[-1]["type"] == "end", [m["type"] for m in seen]
        assert taken_over(seen), "the spectator on B was sent a fresh snapshot when B took the match over"
        assert record["status"] == "finished" and record["termination"] == "normal", record["reason"]
        plies = [m["ply"] for m in record["moves"]]
        assert plies == list(range(len(plies)))
        assert replay(seen) == [m["move"] for m in record["moves"]]


@pytest.mark.parametrize("opening_only", [False, True], ids=["free_setup", "opening_only"])
async def test_a_stateless_match_is_continued_over_stateless_even_when_the_bot_speaks_bws_too(
    database_url: str, tmp_path: Path, opening_only: bool
) -> None:
    """A stateless HTTTX bot gets the whole board with every request: the new owner just asks it again.

    The seat's spec is stored as given (``stateless:URL``), not as the bare URL: the instance that takes the
    match over used to build a bws player from it, which a bot declaring bws without ``free_setup`` can't start
    from the middle of a game: the match ended ``aborted``. The other seat is a built-in, which B builds anew.
    """
    async with paced_bot(tmp_path, opening_only) as (url, gate), two_instances(database_url, tmp_path) as (a, b):
        spec, body = f"stateless:{url}", paced_match(url)
        record, seen = await continued_on_b(a, b, body, gate, ServeProcess.kill9)
        assert record["status"] == "finished" and record["termination"] == "normal", record["reason"]
        assert record["players"][0]["spec"] == spec and record["players"][0]["kind"] == "stateless"
        assert taken_over(seen), [m["type"] for m in seen]  # taken over, not replayed from the start
        assert replay(seen) == [m["move"] for m in record["moves"]]


@pytest.mark.parametrize("free_setup", [True, False], ids=["free_setup", "opening_only"])
async def test_a_bws_match_continues_on_the_other_instance_when_its_bot_can_start_from_a_position(
    database_url: str, tmp_path: Path, free_setup: bool
) -> None:
    """The new owner connects to the bws bot again and sets the position up (``free_setup``). A bot that can
    start only from the opening ends the match ``interrupted``, its moves kept (it had started: not ``aborted``)."""
    async with paced_bot(tmp_path, not free_setup) as (url, gate), two_instances(database_url, tmp_path) as (a, b):
        spec, body = f"bws:{url}", paced_match(url, "bws")
        record, seen = await continued_on_b(a, b, body, gate, ServeProcess.kill9)
        assert record["players"][0]["spec"] == spec and record["players"][0]["kind"] == "bws"
        plies = [m["ply"] for m in record["moves"]]
        assert plies == list(range(len(plies))) and plies, record["moves"]
        if free_setup:  # won on the board: the bot was given the right position and the moves after it
            assert record["status"] == "finished" and record["winner"] is not None, record["reason"]
            assert record["termination"] == "normal", record["reason"]
            assert taken_over(seen), [m["type"] for m in seen]  # taken over, not replayed from the start
            assert replay(seen) == [m["move"] for m in record["moves"]]
        else:
            assert record["status"] == "interrupted", (record["status"], record["reason"])
            assert "free_setup" in record["reason"], record["reason"]


async def test_a_stopping_instance_hands_its_bot_matches_over(database_url: str, tmp_path: Path) -> None:
    """A rolling restart: SIGINT of A ends nothing that B can continue; B finishes it."""
    async with paced_bot(tmp_path) as (url, gate), two_instances(database_url, tmp_path) as (a, b):
        record, seen = await continued_on_b(a, b, paced_match(url), gate, ServeProcess.stop)
        log = (tmp_path / "serve0.log").read_text()
        # a clean stop, not a forced exit (70): the forced exit logs every thread's stack and the step that overran
        assert a.proc is not None and a.proc.returncode == 0, log[-6000:]
        assert record["status"] == "finished" and record["termination"] == "normal", record["reason"]
        assert "handed over" in log
        assert replay(seen) == [m["move"] for m in record["moves"]]


async def test_a_match_between_people_ends_interrupted_on_the_other_instance(database_url: str, tmp_path: Path) -> None:
    async with two_instances(database_url, tmp_path) as (a, b):
        game_id, x, o = await people_game(a)
        plies = await play_turns(x, o, 5)
        await until_stored(b, game_id, plies)  # flushed by A's recorder
        a.kill9()
        record = await once_over(b, game_id)
        assert record["status"] == "interrupted" and record["winner"] is None
        assert len(record["moves"]) == plies
        assert "cannot be reached from another instance" in record["reason"]


async def test_a_restarting_instance_leaves_the_other_instances_matches_alone(
    database_url: str, tmp_path: Path
) -> None:
    async with two_instances(database_url, tmp_path, start_b=False) as (a, b):
        game_id, x, o = await people_game(a)
        await play_turns(x, o, 3)
        await b.start()  # a second instance starting up: A's match is leased, so it is not swept
        await b.until_scanned("matches")  # nor taken by B's failover scans
        assert (await b.get(f"/games/{game_id}")).json()["status"] == "running"
        await play_turns(x, o, 2)  # and it goes on, on A


async def test_seat_sockets_that_reach_another_instance_are_relayed_to_the_owner(
    database_url: str, tmp_path: Path
) -> None:
    async with two_instances(database_url, tmp_path) as (a, b):
        r = await a.post("/game/new", {"player_x": {"type": "human"}, "player_o": {"type": "human"}})
        body = r.json()
        game_id = body["game_id"]
        x = Person(await connect(b.ws(f"/ws?token={body['token_x']}")), 0)  # both people come in through B
        o = Person(await connect(b.ws(f"/ws?token={body['token_o']}")), 1)
        plies = await play_turns(x, o, 4)
        await until_stored(b, game_id, plies)
        # a second socket for a seat is refused by the owner, through the relay too
        second = await connect(b.ws(f"/ws?token={body['token_x']}"))
        assert json.loads(await asyncio.wait_for(second.recv(), 10))["type"] == "nope"
        await second.close()
        await x.ws.close()  # leaving forfeits, as on the owner itself
        record = await once_over(a, game_id)
        assert record["status"] == "finished" and record["winner"] == 1, record
        async with connect(b.ws("/ws?token=nonsense")) as unknown:  # refused as before
            assert json.loads(await asyncio.wait_for(unknown.recv(), 10))["reason"] == "unknown or expired token"
        await o.ws.close()


class Address:
    """What the battlebot test helpers need of a server."""

    def __init__(self, server: ServeProcess) -> None:
        self.host = f"127.0.0.1:{server.port}"
        self.http = server.url


async def lobby_home(tmp_path: Path, role: str = "battlebot", timeout: float = 30.0) -> int:
    """Which instance (0 or 1) holds the ``role`` lobby, once one says so in its log (its first renewal; an
    instance killed by an earlier test may hold it for up to a lease's life)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for i in (0, 1):
            log = tmp_path / f"serve{i}.log"
            if log.exists() and f"holds the {role} home" in log.read_text():
                return i
        await asyncio.sleep(0.1)
    raise AssertionError(f"no instance took the {role} lobby")


async def test_battlebot_bots_connected_to_different_instances_are_matched(database_url: str, tmp_path: Path) -> None:
    from battlebot.bbhelp import connect as bb_connect
    from battlebot.bbhelp import play_random, register

    async with two_instances(database_url, tmp_path) as (a, b):
        await lobby_home(tmp_path)
        one = await register(Address(a), "tictactoe", "one")
        two = await register(Address(b), "tictactoe", "two")  # the database is shared: either instance registers
        first = await bb_connect(Address(a), one)
        second = await bb_connect(Address(b), two)
        ends = await asyncio.wait_for(asyncio.gather(play_random(first, 1), play_random(second, 2)), 60)
        assert all(e["state"]["complete"] for e in ends)
        games = (await a.get("/games?game=tictactoe")).json()
        assert len(games) == 1 and {p["name"] for p in games[0]["players"]} == {"one", "two"}
        await first.close()
        await second.close()


async def test_an_api_match_with_a_battlebot_seat_can_be_created_on_any_instance(
    database_url: str, tmp_path: Path
) -> None:
    from battlebot.bbhelp import connect as bb_connect
    from battlebot.bbhelp import play_random, register

    async with two_instances(database_url, tmp_path, create_limit="3/minute") as (a, b):
        home = await lobby_home(tmp_path)
        other = (a, b)[1 - home]
        auth = await register(Address(other), "noughtsandcrosses", "Connected")
        session = await bb_connect(Address(other), auth)  # relayed to the home's lobby
        await asyncio.sleep(0.1)
        # one client (uvicorn believes X-Forwarded-For from 127.0.0.1), new to Redis's create budgets at each run
        client = {"X-Forwarded-For": f"10.{random.randrange(256)}.{random.randrange(256)}.{random.randrange(1, 255)}"}
        body = {"game": "noughtsandcrosses", "players": ["battlebot:Connected", "builtin:random"]}
        r = await other.post("/api/matches", body, client)  # created where the bot waits
        assert r.status_code == 200, r.text
        final = await play_random(session, 3)
        assert final["state"]["complete"] and final["state"]["players"] == ["Connected", "builtin:random"]
        record = await once_over(other, r.json()["game_id"])
        assert record["status"] == "finished" and [p["kind"] for p in record["players"]] == ["battlebot", "builtin"]
        await session.close()
        # the forwarded create counted once, and the instances share the client's budget of 3 a minute
        quick = {"game": "numberwang", "players": ["builtin:random", "builtin:random"]}
        assert (await a.post("/api/matches", quick, client)).status_code == 200
        assert (await b.post("/api/matches", quick, client)).status_code == 200
        refused = await other.post("/api/matches", quick, client)
        assert refused.status_code == 429 and "3 per 1 minute" in refused.text, refused.text


#: A UAIS bot that answers only once its gate file exists (``gated_uais_bot.py``).
GATED_BOT = Path(__file__).with_name("gated_uais_bot.py")


async def test_a_tournament_runs_on_one_instance_only_and_moves_on_when_it_stops(
    database_url: str, tmp_path: Path
) -> None:
    """An instance starting up used to resume every running API tournament, those of live instances too.

    The tournament's bot waits at its first move until the test opens its gate: the tournament is still running
    however long B's start-up and scans take, and once A has stopped it plays out on B at once."""
    gate = tmp_path / "gate"
    a, b = instances(database_url, tmp_path)
    for server in (a, b):
        server.extra += ("--engine", f"gated=uais:{sys.executable} {GATED_BOT} {gate}")
    await a.start()
    try:
        body = {
            "game": "hex",
            "params": {"size": 5},
            "players": ["engine:gated", "builtin:random"],
            "names": ["gated", "random"],
            "games_per_pairing": 4,
            # the gated bot may wait as long as the test needs: no clock ends a game meanwhile
            "clock": {"kind": "turn", "seconds": 3600},
        }
        r = await a.post("/api/tournaments", body)
        assert r.status_code == 201, r.text
        tid = r.json()["id"]
        await b.start()  # its start-up must leave A's tournament alone
        await b.until_scanned("tournaments")  # and so must B's scans
        early = (await a.get(f"/api/tournaments/{tid}")).json()
        assert early["status"] == "running" and early["games_finished"] == 0, early
        assert f"resuming tournament {tid}" not in (tmp_path / "serve1.log").read_text()
        a.stop()  # and when A stops, B resumes it (the game A left unfinished is played on B)
        gate.touch()
        deadline = time.monotonic() + 300
        info: dict[str, Any] = {}
        while time.monotonic() < deadline:
            info = (await b.get(f"/api/tournaments/{tid}")).json()
            if info["status"] == "finished":
                break
            await asyncio.sleep(0.2)
        assert info["status"] == "finished" and info["games_finished"] == 4, info
        assert f"resuming tournament {tid}" in (tmp_path / "serve1.log").read_text()
    finally:
        a.stop()
        b.stop()


async def test_dots_clients_of_different_instances_meet_at_one_table(database_url: str, tmp_path: Path) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples"))  # as tests/dots_http does
    import turntoken_client as client

    async with two_instances(database_url, tmp_path, dots=True) as (a, b):
        await lobby_home(tmp_path, "dots")  # one of these instances holds the tables
        one = asyncio.to_thread(client.play, f"{a.url}/dots", "Alice")  # GET /match under /dots of A
        bob = f"http://127.0.0.1:{b.dots_port}"  # type: ignore[attr-defined]
        await wait_up(bob + "/")
        two = asyncio.to_thread(client.play, bob, "Bob")  # and on B's dots port: the same table
        ga, gb = await asyncio.wait_for(asyncio.gather(one, two), 60)
        assert ga["state"] == gb["state"] == "completed"
        drawn = [[(line["endpoints"], line["owner"]["name"]) for line in g["lines"]] for g in (ga, gb)]
        assert drawn[0] == drawn[1] and {p["name"] for p in ga["players"]} == {"Alice", "Bob"}
        for server in (a, b):  # either instance lists it
            listed = (await server.get("/dots/")).json()
            assert [t["state"] for t in listed] == ["completed"]
        record = await once_over(b, (await b.get("/games?game=hexdots")).json()[0]["game_id"])
        assert record["status"] == "finished" and len(record["moves"]) == len(ga["lines"])


async def test_a_match_page_and_its_open_seat_work_through_any_instance(database_url: str, tmp_path: Path) -> None:
    async with two_instances(database_url, tmp_path) as (a, b):
        r = await a.post("/api/matches", {"game": "tictactoe", "players": ["open", "builtin:random"]})
        assert r.status_code == 200, r.text
        game_id = r.json()["game_id"]
        page = (await b.get(f"/api/ui/matches/{game_id}")).json()  # answered by A, which plays it
        assert page["live"] is True and page["open_seats"] == ["X"]
        listed = (await b.get("/api/matches/live")).json()  # every instance's live matches
        assert [m["game_id"] for m in listed] == [game_id] and listed[0]["open_seats"] == ["X"]
        assert (await b.get("/api/matches/live?local=true")).json() == []
        joined = await b.post(f"/api/ui/matches/{game_id}/join", {"seat": "x"})
        assert joined.status_code == 200, joined.text
        assert (await b.post(f"/api/ui/matches/{game_id}/join", {"seat": "x"})).status_code == 409  # once
        async with connect(b.ws(f"/api/play?token={joined.json()['token']}")) as ws:  # relayed to A
            hello = json.loads(await asyncio.wait_for(ws.recv(), 10))
            assert hello["type"] in ("welcome", "state", "setup", "your_turn", "hello"), hello
