"""The analysis board's API (``POST /api/analysis/{game}``, ``/position``, ``/probe``) on a real server on loopback.

Positions whose answer is known from the game itself (a tic-tac-toe win in one, a Hex board the first stone wins,
an HTTTX five in a row), the built-in bots' real searches, and every kind of bad input: an unknown game, an
illegal move, a move after the end, a huge move list, bad parameters, a record that does not read, too long a
think, a full server (429).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from fakes.servers import serve_app
from hexarena.core.game import RecordFacts, headed_record
from hexarena.core.registry import get_game
from hexarena.games.builtin import BUILTIN
from hexarena.server import analysis_board
from hexarena.server.analysis_board import MAX_ANALYSES, MAX_MOVES, MAX_TIME
from hexarena.server.app import Settings, create_app


@pytest.fixture
async def client(migrated_sqlite_url: str) -> AsyncIterator[httpx.AsyncClient]:
    app = create_app(Settings(database_url=migrated_sqlite_url))
    async with serve_app(app) as url, httpx.AsyncClient(base_url=url, timeout=60) as c:
        yield c


async def ok(client: httpx.AsyncClient, path: str, body: dict[str, Any]) -> dict[str, Any]:
    r = await client.post(path, json=body)
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


async def refused(client: httpx.AsyncClient, path: str, body: dict[str, Any], status: int, *words: str) -> str:
    r = await client.post(path, json=body)
    assert r.status_code == status, r.text
    detail = str(r.json()["detail"])
    for word in words:
        assert word in detail, detail
    return detail


# ----- what the board gets -----


async def test_a_tic_tac_toe_win_in_one_is_found_with_every_move_scored(client: httpx.AsyncClient) -> None:
    # X on a1 a2, O on b1 b2, X to move: a3 wins, b3 blocks O's row and draws, anything else lets O win on b3
    out = await ok(client, "/api/analysis/tictactoe", {"moves": ["a1", "b1", "a2", "b2"]})
    assert out["ply"] == 4 and out["to_move"] == 0 and not out["over"]
    a = out["analysis"]
    assert a["best_move"] == "a3" and a["pv"] == ["a3"]
    assert a["evaluation"]["proven"] == "win" and a["evaluation"]["heuristic"] == 1.0
    scored = {c["move"]: c["evaluation"]["proven"] for c in a["considered"]}
    assert scored == {"a3": "win", "b3": "draw", "c1": "loss", "c2": "loss", "c3": "loss"}
    assert a["reports"] == {"evaluation": True, "pv": True, "considered": True} and out["notes"] == []


async def test_a_perfect_line_runs_to_the_end_of_the_game(client: httpx.AsyncClient) -> None:
    out = await ok(client, "/api/analysis/tictactoe", {"moves": ["b2"]})
    a = out["analysis"]
    assert a["evaluation"]["proven"] == "draw"
    line = await ok(client, "/api/analysis/tictactoe/position", {"moves": ["b2", *a["pv"]]})
    assert line["over"] and line["result"]["winner"] is None  # perfect play from the centre draws


async def test_hex_reports_scores_and_a_line_that_plays(client: httpx.AsyncClient) -> None:
    # 3x3 without swap: the first player wins from the centre, so white's every reply is lost (proven at once)
    out = await ok(
        client, "/api/analysis/hex", {"params": {"size": 3, "swap": False}, "moves": ["b2"], "time_limit": 1}
    )
    a = out["analysis"]
    assert out["side"] == "white" and a["bot"] == "builtin:mcts"
    assert a["evaluation"]["proven"] == "loss" and a["evaluation"]["heuristic"] == 1.0  # black's point of view
    # 5x5: a search with a tree, so a line past the bot's own move
    params = {"size": 5, "swap": False}
    out = await ok(client, "/api/analysis/hex", {"params": params, "moves": ["c3"], "time_limit": 1})
    a = out["analysis"]
    assert a["considered"] and all("heuristic" in c["evaluation"] for c in a["considered"])
    # the MCTS's line: its move, then the most visited replies of its tree, each a legal move from the position
    assert a["reports"]["pv"] and len(a["pv"]) >= 2 and a["pv"][0] == a["best_move"]
    assert not any("no best line" in n for n in out["notes"]), out["notes"]
    line = await ok(client, "/api/analysis/hex/position", {"params": params, "moves": ["c3", *a["pv"]]})
    assert line["ply"] == 1 + len(a["pv"])


async def test_htttx_best_line_plays_and_its_considered_moves_are_notation(client: httpx.AsyncClient) -> None:
    out = await ok(client, "/api/analysis/htttx", {"moves": ["[1,0][0,1]"], "time_limit": 0.5})
    a = out["analysis"]
    assert a["reports"] == {"evaluation": True, "pv": True, "considered": True}
    assert a["pv"][0] == a["best_move"]
    line = await ok(client, "/api/analysis/htttx/position", {"moves": ["[1,0][0,1]", *a["pv"]]})
    assert line["ply"] == 1 + len(a["pv"])
    game = get_game("htttx")
    for c in a["considered"]:
        game.parse(c["move"])  # the cells the search gives are written as moves of the game


async def test_greedy_and_random_bots_give_their_move_and_say_what_is_missing(client: httpx.AsyncClient) -> None:
    out = await ok(client, "/api/analysis/hexdots", {"time_limit": 0.2})
    a = out["analysis"]
    assert a["reports"] == {"evaluation": False, "pv": False, "considered": False}
    assert a["pv"] == [a["best_move"]] and a["evaluation"] is None
    assert len(out["notes"]) == 3 and all("greedy" in n for n in out["notes"]), out["notes"]
    after = await ok(client, "/api/analysis/hexdots/position", {"moves": [a["best_move"]]})
    assert after["ply"] == 1


@pytest.mark.parametrize("name", [g.name for g in BUILTIN])
async def test_every_game_is_analysed_from_its_start_and_its_best_move_plays(
    client: httpx.AsyncClient, name: str
) -> None:
    """Issue 33's "an analysis board for every game": each built-in game's best bot answers from the start, says
    which reports it has (a reason for each it lacks), and its move and line are legal moves of the game."""
    out = await ok(client, f"/api/analysis/{name}", {"time_limit": 0.3})
    a = out["analysis"]
    assert out["ply"] == 0 and not out["over"] and a["bot"].startswith("builtin:")
    assert a["pv"][0] == a["best_move"]
    assert len(out["notes"]) == sum(not v for v in a["reports"].values()), (a["reports"], out["notes"])
    line = await ok(client, f"/api/analysis/{name}/position", {"moves": a["pv"]})
    assert line["ply"] == len(a["pv"])


async def test_a_finished_game_has_nothing_to_analyse(client: httpx.AsyncClient) -> None:
    out = await ok(client, "/api/analysis/tictactoe", {"moves": ["a1", "b1", "a2", "b2", "a3"]})
    assert out["over"] and out["result"]["winner"] == 0 and out["analysis"] is None
    assert out["notes"] == ["the game is over in this position: nothing to analyse"]


async def test_position_gives_the_boards_clickable_moves(client: httpx.AsyncClient) -> None:
    out = await ok(client, "/api/analysis/tictactoe/position", {"moves": ["b2"]})
    assert out["state"]["to_move"] == 1 and out["side"] == "O"
    assert sorted(m["move"] for m in out["legal"]["moves"]) == ["a1", "a2", "a3", "b1", "b3", "c1", "c2", "c3"]


# ----- records in each game's notation -----


async def test_records_are_read_in_each_games_notation(client: httpx.AsyncClient) -> None:
    facts = RecordFacts(players=["a", "b"])
    for name, params, moves in [
        ("htttx", {}, ["[1,0][0,1]", "[-1,0][0,-1]"]),
        ("hive", {"expansions": "M"}, ["wM", "bM wM-", "wQ -wM"]),
        ("hex", {"size": 5}, ["c3", "swap", "b2"]),
        ("tictactoe", {}, ["b2", "a1"]),
    ]:
        game = get_game(name)
        text = game.record_notation(game.validate_params(params), moves, facts)
        out = await ok(client, f"/api/analysis/{name}/position", {"params": params, "record": text})
        assert out["ply"] == len(moves), (name, text)
        assert out["params"] == game.validate_params(params), (name, out["params"])
    # a Hive GameString states its expansions itself
    out = await ok(client, "/api/analysis/hive/position", {"record": "Base+M;InProgress;Black[1];wM"})
    assert out["params"]["expansions"] == "M" and out["moves"] == ["wM"]
    # a generic record with move numbers and a header line
    out = await ok(client, "/api/analysis/tictactoe/position", {"record": '[Event "casual"]\n1. b2 a1\n2. c3'})
    assert out["moves"] == ["b2", "a1", "c3"]


# ----- partial moves -----


async def test_a_probe_checks_a_partial_move_on_the_position(client: httpx.AsyncClient) -> None:
    out = await ok(client, "/api/analysis/htttx/probe", {"moves": [], "what": "htttx_first", "args": [1, 0]})
    assert out["ok"] and out["cell"] == [1, 0] and [0, 0] not in out["cells"]
    out = await ok(client, "/api/analysis/htttx/probe", {"what": "htttx_first", "args": [0, 0]})
    assert not out["ok"] and out["reason"]
    await refused(client, "/api/analysis/tictactoe/probe", {"what": "htttx_first"}, 400, "no probe")


# ----- bad input -----


async def test_bad_input_is_refused_with_what_to_do(client: httpx.AsyncClient) -> None:
    await refused(client, "/api/analysis/chess", {}, 404, "unknown game 'chess'", "known games")
    await refused(client, "/api/analysis/chess/position", {}, 404, "unknown game")
    await refused(
        client, "/api/analysis/tictactoe", {"moves": ["b2", "b2"]}, 400, "move 2 ('b2') is not legal here", "occupied"
    )
    await refused(client, "/api/analysis/tictactoe/position", {"moves": ["z9"]}, 400, "move 1 ('z9')")
    await refused(
        client,
        "/api/analysis/tictactoe/position",
        {"moves": ["a1", "b1", "a2", "b2", "a3", "c3"]},
        400,
        "move 6 ('c3') comes after the game ended",
    )
    await refused(client, "/api/analysis/hex", {"params": {"size": 0}}, 400, "'size' must be >= 1")
    await refused(client, "/api/analysis/hex", {"params": {"colour": "red"}}, 400, "unknown parameter", "'colour'")
    await refused(client, "/api/analysis/hex", {"params": {"size": "big"}}, 400, "must be an integer")
    detail = await refused(client, "/api/analysis/hex", {"moves": ["a1"] * (MAX_MOVES + 1)}, 422)
    assert str(MAX_MOVES) in detail
    await refused(client, "/api/analysis/hex", {"moves": ["a" * 1000]}, 422)
    await refused(client, "/api/analysis/tictactoe", {"time_limit": MAX_TIME + 1}, 422)
    await refused(client, "/api/analysis/tictactoe", {"time_limit": 0}, 422)
    await refused(client, "/api/analysis/tictactoe", {"moves": ["b2"], "record": "b2"}, 400, "either moves or a record")
    await refused(client, "/api/analysis/htttx/position", {"record": "1. [1,0];"}, 400, "cannot read the record")
    await refused(client, "/api/analysis/hive/position", {"record": "Base+X"}, 400, "unknown game type")
    # a record may be shorter than the body cap yet longer than an analysis replays
    many = " ".join(["swap"] * (MAX_MOVES + 1))
    await refused(client, "/api/analysis/hex/position", {"record": many}, 400, f"at most {MAX_MOVES:,}")


async def test_searches_beyond_the_cap_get_429_and_the_slots_come_back(client: httpx.AsyncClient) -> None:
    body = {"params": {"size": 11}, "moves": ["f6"], "time_limit": 2}
    running = [asyncio.create_task(client.post("/api/analysis/hex", json=body)) for _ in range(MAX_ANALYSES)]
    for _ in range(400):
        if analysis_board._slots["busy"] == MAX_ANALYSES:
            break
        await asyncio.sleep(0.01)
    r = await client.post("/api/analysis/tictactoe", json={})
    assert r.status_code == 429, r.text
    assert "analyses are running" in r.json()["detail"] and r.headers["Retry-After"]
    assert all(r.status_code == 200 for r in await asyncio.gather(*running))
    for _ in range(400):  # the slots are the threads': given back once they have returned
        if analysis_board._slots["busy"] == 0:
            break
        await asyncio.sleep(0.01)
    await ok(client, "/api/analysis/tictactoe", {})


async def test_a_position_too_large_to_build_is_refused_before_it_is_built(client: httpx.AsyncClient) -> None:
    # stones 64 apart at view_distance 64: each brings a hexagon of 12,481 candidate cells of its own
    far = [f"[{128 * i + 64},0][{128 * i + 128},0]" for i in range(20)]
    for route in ("/position", "", "/probe"):
        body: dict[str, Any] = {"params": {"view_distance": 64}, "moves": far, "what": "htttx_first", "args": [1, 1]}
        await refused(client, f"/api/analysis/htttx{route}", body, 400, "candidate cells", "lower view_distance")
    # the same stones packed together fit
    near = [f"[{2 * i + 1},0][{2 * i + 2},0]" if i % 2 else f"[{-2 * i - 1},1][{-2 * i - 2},1]" for i in range(20)]
    out = await ok(client, "/api/analysis/htttx/position", {"params": {"view_distance": 64}, "moves": near})
    assert out["ply"] == 20


async def test_an_exported_record_with_headers_sets_the_game_up_from_them(client: httpx.AsyncClient) -> None:
    """A record as a replay exports it (``headed_record``): its ``Param`` headers set the game up (no params sent),
    its body still reads in the game's own notation; a bad header is a 400 saying which line and why."""
    facts = RecordFacts(players=["a", "b"], termination="resign", winner=0)
    for name, params, moves in [
        ("hex", {"size": 7, "swap": False}, ["c3", "b2"]),
        ("htttx", {"view_distance": 5, "win_distance": 4}, ["[1,0][0,1]", "[-1,0][0,-1]"]),
        ("hive", {"expansions": "M"}, ["wM", "bM wM-"]),
        ("hexdots", {"rows": 3, "cols": 4}, []),
    ]:
        game = get_game(name)
        text = headed_record(game, game.validate_params(params), moves, facts)
        out = await ok(client, f"/api/analysis/{name}/position", {"record": text})
        assert out["params"] == game.validate_params(params), (name, out["params"])
        assert out["moves"] == moves and out["record"] == game.record_notation(
            out["params"], moves, RecordFacts(game.seat_names)
        )
    await refused(
        client,
        "/api/analysis/hex/position",
        {"record": '[Game "hex"]\n[Param "size=99"]\n\nc3'},
        400,
        "header line 2",
        "'size' must be <= 26",
    )
    await refused(
        client, "/api/analysis/hex/position", {"record": '[Game "hive"]\n\nwQ'}, 400, "game of 'hive', not hex"
    )
