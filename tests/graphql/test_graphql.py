"""GraphQL and its REST twin over stored bots, contests and games (SQLite, and PostgreSQL when configured)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import httpx

from hexarena.store import MoveRecord, PlayerRecord
from hexarena.store.contests import ensure_contest

T0 = datetime(2026, 1, 1, tzinfo=UTC)


async def add_game(
    store: Any,
    gid: str,
    game: str,
    players: list[str],
    moves: list[str],
    winner: int | None,
    contest: str | None = None,
    at: int = 0,
) -> None:
    cid = None
    if contest:
        cid = (await ensure_contest(store, game, contest)).contest_id
    await store.create_game(
        game_id=gid,
        game=game,
        params={},
        players=[PlayerRecord(p, "battlebot", f"battlebot:{p}") for p in players],
        contest_id=cid,
        created_at=T0 + timedelta(minutes=at),
    )
    recs = [
        MoveRecord(ply=i, seat=i % 2, move=m, timestamp=T0 + timedelta(minutes=at, seconds=i), think_time=0.01)
        for i, m in enumerate(moves)
    ]
    await store.finish_game(gid, winner=winner, termination="normal", reason="three in a row", moves=recs)


async def seed(store: Any) -> None:
    for bot in ("A", "B", "C"):
        await store.register_bot(bot_id=bot, game="tictactoe", owner="owner1" if bot != "C" else "owner2")
    x_wins = ["a1", "b1", "a2", "b2", "a3"]
    await add_game(store, "g1", "tictactoe", ["A", "B"], x_wins, 0, "spring", at=1)
    await add_game(store, "g2", "tictactoe", ["B", "C"], x_wins, 0, "spring", at=2)
    await add_game(
        store,
        "g3",
        "tictactoe",
        ["C", "A"],
        ["b2", "a1", "c3", "a3", "a2", "c2", "b1", "b3", "c1"],
        None,
        "spring",
        at=3,
    )
    await add_game(store, "g4", "tictactoe", ["A", "C"], x_wins, 0, None, at=4)


async def gql(base: str, query: str, **variables: Any) -> dict[str, Any]:
    async with httpx.AsyncClient(timeout=30) as http:  # the first request imports the schema: slow on a loaded machine
        r = await http.post(f"{base}/graphql", json={"query": query, "variables": variables})
    body = r.json()
    assert r.status_code == 200 and "errors" not in body, body
    return body["data"]  # type: ignore[no-any-return]


async def test_the_seeds_queries(served: tuple[str, Any]) -> None:
    base, app = served
    await seed(app.state.services.store)
    d = await gql(base, "{ gameTypes { id name } }")
    ids = [t["id"] for t in d["gameTypes"]]
    assert ids[:2] == ["numberwang", "noughtsandcrosses"] and {"htttx", "hex", "hexdots", "hive"} <= set(ids)

    q = """query($owner: String) { gameType(id: "noughtsandcrosses") {
        bots(owner: $owner) { id owner gameType }
        contests { id }
        contest(id: "spring") {
          ambitious: rankings { bot wins draws losses played score }
          punitive: rankings(method: PUNITIVE) { bot score }
          balanced: rankings(method: BALANCED) { bot score }
        }
    } }"""
    d = (await gql(base, q, owner="owner1"))["gameType"]
    assert sorted(b["id"] for b in d["bots"]) == ["A", "B"]
    assert d["contests"] == [{"id": "spring"}]
    amb = {r["bot"]: r for r in d["contest"]["ambitious"]}
    # A: win g1, draw g3; B: loss g1, win g2; C: loss g2, draw g3 (g4 is outside the contest)
    assert (amb["A"]["wins"], amb["A"]["draws"], amb["A"]["losses"], amb["A"]["played"]) == (1, 1, 0, 2)
    assert {k: v["score"] for k, v in amb.items()} == {"A": 4, "B": 3, "C": 1}
    assert {r["bot"]: r["score"] for r in d["contest"]["punitive"]} == {"A": 5, "B": 3, "C": 2}
    assert {r["bot"]: r["score"] for r in d["contest"]["balanced"]} == {"A": 3, "B": 2, "C": 1}
    assert [r["bot"] for r in d["contest"]["ambitious"]] == ["A", "B", "C"]


async def test_game_filters_and_one_game_with_turns(served: tuple[str, Any]) -> None:
    base, app = served
    await seed(app.state.services.store)

    async def ids(filters: str) -> list[str]:
        d = await gql(base, f'{{ gameType(id: "noughtsandcrosses") {{ games(filters: {filters}) {{ id }} }} }}')
        return [g["id"] for g in d["gameType"]["games"]]

    assert await ids("{}") == ["g4", "g3", "g2", "g1"]
    assert await ids("{limit: 2}") == ["g4", "g3"]
    assert await ids('{victor: "A"}') == ["g4", "g1"]
    assert await ids('{contest: "spring"}') == ["g3", "g2", "g1"]
    assert await ids('{anyPlayers: ["B", "C"]}') == ["g4", "g3", "g2", "g1"]
    assert await ids('{anyPlayers: ["B"]}') == ["g2", "g1"]
    assert await ids('{players: ["A", "C"]}') == ["g4", "g3"]
    assert await ids('{players: ["A", "C"], contest: "spring"}') == ["g3"]

    d = await gql(
        base,
        '{ gameType(id: "noughtsandcrosses") { game(id: "g1") { players victor reason contest startTime turns { player time move turn } state } } }',
    )
    g = d["gameType"]["game"]
    assert g["players"] == ["A", "B"] and g["victor"] == "A" and g["reason"] == "complete" and g["contest"] == "spring"
    assert [t["turn"]["space"] for t in g["turns"]] == [[0, 0], [1, 0], [0, 1], [1, 1], [0, 2]]
    assert [t["turn"]["mark"] for t in g["turns"]] == ["X", "O", "X", "O", "X"]
    assert g["turns"][1]["player"] == "B" and g["turns"][1]["time"].startswith("2026-01-01T00:01:01")
    assert g["state"]["board"][0] == ["X", "X", "X"] and g["state"]["complete"] is True and g["state"]["victor"] == "A"
    missing = await gql(base, '{ gameType(id: "numberwang") { game(id: "g1") { id } } }')
    assert missing["gameType"]["game"] is None


async def test_rest_twin_serves_the_same_data(served: tuple[str, Any]) -> None:
    base, app = served
    await seed(app.state.services.store)
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        assert [t["id"] for t in (await http.get("/api/gametypes")).json()][:2] == ["numberwang", "noughtsandcrosses"]
        bots = (await http.get("/api/gametypes/noughtsandcrosses/bots", params={"owner": "owner2"})).json()
        assert [b["id"] for b in bots] == ["C"] and "pass_hash" not in bots[0]
        c = (await http.get("/api/gametypes/noughtsandcrosses/contests/spring", params={"method": "PUNITIVE"})).json()
        assert {r["bot"]: r["score"] for r in c["rankings"]} == {"A": 5, "B": 3, "C": 2}
        assert (
            await http.get("/api/gametypes/noughtsandcrosses/contests/spring", params={"method": "nope"})
        ).status_code == 400
        games = (await http.get("/api/gametypes/tictactoe/games", params=[("anyPlayers", "B"), ("limit", "1")])).json()
        assert [g["id"] for g in games] == ["g2"]
        one = (await http.get("/api/gametypes/noughtsandcrosses/games/g3")).json()
        assert one["victor"] is None and len(one["turns"]) == 9 and one["state"]["victor"] is None
        assert (await http.get("/api/gametypes/noughtsandcrosses/games/zzz")).status_code == 404
        assert (await http.get("/api/gametypes/chess")).status_code == 404
        page = await http.get("/graphql", headers={"Accept": "text/html"})
        assert page.status_code == 200 and "graphiql" in page.text.lower()


async def test_every_game_type_shows_its_turns_in_battlebot_shapes(served: tuple[str, Any]) -> None:
    import random

    from hexarena.wire.battlebot import shape_for

    base, app = served
    store = app.state.services.store
    for i, wire in enumerate(["numberwang", "noughtsandcrosses", "htttx", "hex", "hexdots", "hive"]):
        shape = shape_for(wire)
        game, rng = shape.game, random.Random(i)
        state = game.new()
        moves = []
        for _ in range(8):
            if game.to_move(state) is None:
                break
            seat = game.to_move(state)
            move = game.random_move(state, rng)
            moves.append((seat, game.format(move), shape.turn(move, seat, state)))
            state = game.play(state, move)
        gid = f"game-{wire}"
        await store.create_game(
            game_id=gid,
            game=game.name,
            params=game.params_of(game.new()),
            players=[PlayerRecord("P", "battlebot"), PlayerRecord("Q", "builtin")],
        )
        recs = [
            MoveRecord(ply=k, seat=s, move=m, timestamp=T0 + timedelta(seconds=k), think_time=0.0)
            for k, (s, m, _) in enumerate(moves)
        ]
        await store.finish_game(gid, winner=None, termination="disconnect", reason="both bots disconnected", moves=recs)
        d = await gql(
            base,
            f'{{ gameType(id: "{wire}") {{ game(id: "{gid}") {{ players reason turns {{ player move turn }} state }} }} }}',
        )
        g = d["gameType"]["game"]
        assert g["reason"] == "disconnect" and g["state"]["complete"] is True and g["state"]["victor"] is None
        assert [t["move"] for t in g["turns"]] == [m for _, m, _ in moves]
        for t, (seat, _, turn) in zip(g["turns"], moves, strict=True):
            assert t["player"] == ("P", "Q")[seat]
            assert {k: v for k, v in t["turn"].items() if k not in ("player", "time", "valid")} == turn
