"""Matchmaking per game and contest, idle drops, API matches against other protocols, 100 bots, every game."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
from bbhelp import connect, play_random, register, waiting


async def finished(srv: Any, n: int, timeout: float = 20.0) -> list[Any]:
    for _ in range(int(timeout / 0.05)):
        games = await srv.store.list_games(limit=1000)
        done = [g for g in games if g.status == "finished"]
        if len(done) >= n and len(done) == len(games):
            return done
        await asyncio.sleep(0.05)
    raise AssertionError(f"expected {n} finished games, got {[(g.status, g.termination, g.reason) for g in games]}")


async def test_bots_of_the_same_id_or_other_games_are_not_paired(server: Any) -> None:
    auth = await register(server, "numberwang", "Solo")
    other = await register(server, "noughtsandcrosses", "Noughty")
    s1 = await connect(server, auth)
    s2 = await connect(server, auth)  # the same bot twice: never paired with itself
    s3 = await connect(server, other)
    assert await s1.silent(0.3) and await s2.silent(0.01) and await s3.silent(0.01)
    assert server.lobby.waiting_count() == 3
    for s in (s1, s2, s3):
        await s.close()


async def test_idle_bots_are_dropped(make_server: Any) -> None:
    async with make_server(idle_seconds=0.3) as srv:
        s = await connect(srv, await register(srv, "numberwang", "Lonely"))
        assert await s.closed(3)
        assert srv.lobby.waiting_count() == 0


async def test_contest_pairs_each_ordered_pair_at_most_n_times(make_server: Any) -> None:
    async with make_server(contest_rules="each-way", games_each_way=1, idle_seconds=1.0) as srv:
        a = await register(srv, "numberwang", "A")
        b = await register(srv, "numberwang", "B")
        for round_ in range(2):
            sa = await connect(srv, a, contest="cup")
            await waiting(srv)
            sb = await connect(srv, b, contest="cup")
            await asyncio.gather(play_random(sa, round_), play_random(sb, round_ + 10))
        games = await finished(srv, 2)
        orders = sorted((g.players[0].name, g.players[1].name) for g in games)
        assert orders == [("A", "B"), ("B", "A")]  # once each way
        assert {g.contest_id for g in games} == {"numberwang:cup"}
        sa = await connect(srv, a, contest="cup")
        sb = await connect(srv, b, contest="cup")
        assert await sa.silent(0.3)  # both orders used up: they never meet again in this contest
        assert await sa.closed(3) and await sb.closed(3)  # and are dropped when idle
        # outside the contest they still meet
        sa, sb = await connect(srv, a), await connect(srv, b)
        await asyncio.gather(play_random(sa, 1), play_random(sb, 2))
        assert len(await finished(srv, 3)) == 3


async def test_contest_rules_of_the_seeds_date_cap_each_pair_and_toss_for_the_first_move(make_server: Any) -> None:
    """The default contest rules are mid-2017's (the seed's date; docs/protocols/battlebot.md): a pair plays at
    most ``games_per_pair`` games in a contest whoever moved first, and the first mover is drawn at random
    (``seed=1`` draws: the newcomer first, then the waiting bot twice)."""
    async with make_server(games_per_pair=3, seed=1, idle_seconds=1.0) as srv:
        a = await register(srv, "numberwang", "A")
        b = await register(srv, "numberwang", "B")
        firsts = []
        for round_ in range(3):
            sa = await connect(srv, a, contest="cup")
            await waiting(srv)  # A waits, B comes
            sb = await connect(srv, b, contest="cup")
            first = (await asyncio.gather(play_random(sa, round_), play_random(sb, round_ + 10)))[0]
            firsts.append(first["state"]["players"][0])
        assert firsts == ["B", "A", "A"], firsts  # not always the waiting bot: the toss decides
        games = await finished(srv, 3)
        assert sorted(g.players[0].name for g in games) == ["A", "A", "B"]
        sa = await connect(srv, a, contest="cup")
        sb = await connect(srv, b, contest="cup")
        assert await sa.silent(0.3)  # 3 games for the pair in all: they never meet again in this contest
        await sa.close(), await sb.close()


def test_unknown_contest_rules_are_refused() -> None:
    from hexarena.core.errors import ConfigError
    from hexarena.server.battlebot.lobby import BattlebotSettings

    with pytest.raises(ConfigError, match="per-pair"):
        BattlebotSettings(contest_rules="swiss")


async def test_contest_counts_survive_a_restart(make_server: Any) -> None:
    async with make_server(contest_rules="each-way", games_each_way=1) as srv:
        a, b = await register(srv, "numberwang", "A"), await register(srv, "numberwang", "B")
        sa = await connect(srv, a, contest="cup")
        await waiting(srv)
        sb = await connect(srv, b, contest="cup")
        await asyncio.gather(play_random(sa, 1), play_random(sb, 2))
        await finished(srv, 1)
    async with make_server(contest_rules="each-way", games_each_way=1) as srv:  # same database, a fresh server
        sa = await connect(srv, a, contest="cup")
        await waiting(srv)
        sb = await connect(srv, b, contest="cup")
        first = await sa.recv()
        await sb.recv()
        assert first["state"]["players"] == ["B", "A"]  # A-B is used up, so the other order
        await sa.close(), await sb.close()


async def test_api_match_against_a_builtin_bot(server: Any) -> None:
    auth = await register(server, "noughtsandcrosses", "Connected")
    body = {"game": "noughtsandcrosses", "players": ["battlebot:Connected", "builtin:random"]}
    async with httpx.AsyncClient() as http:
        r = await http.post(f"{server.http}/api/matches", json=body)
        assert r.status_code == 400 and "not connected" in r.json()["detail"]
        session = await connect(server, auth)
        await waiting(server)
        r = await http.post(f"{server.http}/api/matches", json=body)
        assert r.status_code == 200, r.text
    final = await play_random(session, 3)
    state = final["state"]
    assert state["complete"] and state["players"] == ["Connected", "builtin:random"]
    (game,) = await finished(server, 1)
    assert [p.kind for p in game.players] == ["battlebot", "builtin"]


async def test_a_hundred_bots_connecting_at_once(make_server: Any) -> None:
    async with make_server(turn_seconds=5.0, login_seconds=10.0) as srv:
        async with httpx.AsyncClient() as http:
            names = [f"Bot{i:03d}" for i in range(100)]
            auths = await asyncio.gather(*(register(srv, "numberwang", name, http=http) for name in names))
        sessions = await asyncio.gather(*(connect(srv, a) for a in auths))
        finals = await asyncio.wait_for(asyncio.gather(*(play_random(s, i) for i, s in enumerate(sessions))), 60)
        assert all(f["state"]["complete"] for f in finals)
        games = await finished(srv, 50)
        assert len(games) == 50
        assert sorted(p.name for g in games for p in g.players) == sorted(a["bot_id"] for a in auths)


@pytest.mark.parametrize("game", ["htttx", "hex", "hexdots", "hive"])
async def test_every_game_over_the_protocol(server: Any, game: str) -> None:
    a = await connect(server, await register(server, game, "P1"))
    await waiting(server)
    b = await connect(server, await register(server, game, "P2"))
    turns = None if game == "hexdots" else 6  # hexagon dots ends quickly; the others stop by disconnecting
    fa, fb = await asyncio.gather(play_random(a, 1, turns), play_random(b, 2, turns))
    (record,) = await finished(server, 1)
    assert record.game == {"hexdots": "hexdots"}.get(game, game)
    full = await server.store.get_game(record.game_id)
    if game == "hexdots":
        assert fa["state"] == fb["state"] and fa["state"]["complete"] and fa["state"]["reason"] == "complete"
        assert full.termination == "normal"
    else:
        assert len(full.moves) >= 10 and full.termination == "disconnect"


async def test_disconnects_during_login_and_in_the_lobby_leave_nothing_behind(server: Any) -> None:
    import websockets

    auth = await register(server, "numberwang", "Flaky")
    async with websockets.connect(f"ws://{server.host}/") as ws:  # leaves before logging in
        await ws.recv()
    waiting = await connect(server, auth)  # leaves while waiting for an opponent
    assert server.lobby.waiting_count() == 1
    await waiting.close()
    for _ in range(100):
        if server.lobby.waiting_count() == 0 and server.lobby.pending_logins == 0:
            break
        await asyncio.sleep(0.02)
    assert server.lobby.waiting_count() == 0 and server.lobby.pending_logins == 0
    # the next bot is not paired with the one that left
    other = await connect(server, await register(server, "numberwang", "Steady"))
    assert await other.silent(0.3)
    await other.close()
    assert await server.store.list_games() == []


def test_serve_sets_the_contest_rules(tmp_path: Any) -> None:
    """`hexarena serve --battlebot-contest-rules each-way` reaches the lobby (the later server's rules)."""
    import subprocess
    import sys
    from pathlib import Path

    from hexarena.server.app import Settings

    assert Settings().battlebot.contest_rules == "per-pair"  # the seed's, by default
    src = str(Path(__file__).resolve().parents[2] / "src")
    out = subprocess.run(
        [sys.executable, "-m", "hexarena.cli", "serve", "--battlebot-contest-rules", "swiss"],
        capture_output=True, text=True, timeout=60, env={"PYTHONPATH": src, "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    assert out.returncode == 2 and "per-pair" in out.stderr and "each-way" in out.stderr, out.stderr
