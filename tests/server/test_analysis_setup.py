"""Free position setup on the analysis board (issue 33: "set up or open any position"): ``{params, setup: {stones,
to_move}}`` instead of moves on ``POST /api/analysis/{game}``, ``/position`` and ``/probe``, on a real server.

Positions whose answer the rules decide (a tic-tac-toe win in one, a 3x3 Hex board the centre stone wins, an HTTTX
five with the sixth to play), moves played on from a setup, no swap after a setup (a played first stone keeps it), and every kind of
bad setup: a cell given twice, off the board, stone counts no game reaches, a finished position, too large a
position, a game that cannot be set up (which says why in GET /api/games too).
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from test_analysis_board import client, ok, refused

from hexarena.server.analysis_board import MAX_SETUP_STONES

__all__ = ["client"]  # the fixture: a served app on a fresh SQLite database


def setup(stones: list[list[Any]], to_move: int, **more: Any) -> dict[str, Any]:
    return {"setup": {"stones": stones, "to_move": to_move}, **more}


# X on a1 a2, O on b1 b2, X to move: a3 wins at once
WIN_IN_ONE = [["a1", 0], ["a2", 0], ["b1", 1], ["b2", 1]]


async def test_a_tic_tac_toe_setup_is_analysed_and_played_on(client: httpx.AsyncClient) -> None:
    out = await ok(client, "/api/analysis/tictactoe", setup(WIN_IN_ONE, 0))
    assert out["to_move"] == 0 and out["ply"] == 0 and out["history"] == [] and not out["over"]
    assert out["state"]["board"] == [["X", "X", ""], ["O", "O", ""], ["", "", ""]]
    assert out["setup"] == {"stones": WIN_IN_ONE, "to_move": 0}
    a = out["analysis"]
    assert a["best_move"] == "a3" and a["evaluation"]["proven"] == "win"
    after = await ok(client, "/api/analysis/tictactoe/position", setup(WIN_IN_ONE, 0, moves=["a3"]))
    assert after["over"] and after["result"]["winner"] == 0 and after["history"] == [{"move": "a3", "seat": 0}]
    # one more X and O to move: O's own row comes first (b3)
    o_turn = [["a1", 0], ["a2", 0], ["b1", 1], ["b2", 1], ["c1", 0]]
    out = await ok(client, "/api/analysis/tictactoe", setup(o_turn, 1))
    assert out["side"] == "O" and out["analysis"]["best_move"] == "b3"


async def test_a_hex_setup_is_searched_by_mcts(client: httpx.AsyncClient) -> None:
    # 3x3 without swap, black on the centre, white to move: every white reply loses (as in a game from b2)
    body = setup([["b2", 0]], 1, params={"size": 3, "swap": False}, time_limit=1)
    out = await ok(client, "/api/analysis/hex", body)
    assert out["side"] == "white" and out["analysis"]["bot"] == "builtin:mcts"
    assert out["analysis"]["evaluation"]["proven"] == "loss"


async def test_a_hex_setup_has_no_swap_while_a_played_first_stone_keeps_it(client: httpx.AsyncClient) -> None:
    """The swap answers the first player's first move; a set-up position has none (its stones have no order), so
    it is played without the swap rule whatever the parameters say, as SGF setup stones are no moves. Otherwise
    the stone left after a real swap, set up again (Edit position), could be swapped a second time."""
    swap_on = {"size": 3}
    one = await ok(client, "/api/analysis/hex/position", setup([["b2", 0]], 1, params=swap_on))
    assert one["legal"]["extra"] == [] and one["params"] == {"size": 3, "swap": False}
    detail = await refused(
        client, "/api/analysis/hex/position", setup([["b2", 0]], 1, params=swap_on, moves=["swap"]), 400, "swap"
    )
    assert "set-up position" in detail, detail
    # the bot plays a cell: on 3x3 every white reply to the centre loses, and it says so
    took = await ok(client, "/api/analysis/hex", setup([["b2", 0]], 1, params=swap_on, time_limit=0.5))
    assert took["analysis"]["best_move"] != "swap" and took["analysis"]["evaluation"]["proven"] == "loss"
    # the same stone played as the game's first move: the swap is the second player's to take
    played = await ok(client, "/api/analysis/hex/position", {"params": swap_on, "moves": ["b2"]})
    assert played["legal"]["extra"] == ["swap"] and played["params"] == {"size": 3, "swap": True}
    # a real swap, then its position as stones (the editor's start) set up again: no second swap
    swapped = await ok(client, "/api/analysis/hex/position", {"params": swap_on, "moves": ["b2", "swap"]})
    again = await ok(client, "/api/analysis/hex/position", {"params": swap_on, "setup": swapped["as_setup"]})
    assert again["legal"]["extra"] == [] and again["state"]["board"] == swapped["state"]["board"]
    # more stones: no swap either
    later = await ok(client, "/api/analysis/hex/position", setup([["b2", 0], ["a1", 1]], 0, params=swap_on))
    assert later["legal"]["extra"] == [] and later["state"]["board"] == ["W..", ".B.", "..."]


async def test_an_htttx_setup_finds_the_sixth_stone(client: httpx.AsyncClient) -> None:
    xs = [[[q, 0], 0] for q in range(5)]  # five in a row, open at both ends
    os = [[[q, 4], 1] for q in (0, 1, 3, 4)] + [[[q, -4], 1] for q in (0, 2)]  # six O stones, no four in a row
    out = await ok(client, "/api/analysis/htttx", setup(xs + os, 0, time_limit=0.5))
    assert out["to_move"] == 0 and not out["over"]
    best = out["analysis"]["best_move"]
    assert "[5,0]" in best or "[-1,0]" in best, best
    done = await ok(client, "/api/analysis/htttx/position", setup(xs + os, 0, moves=[best]))
    assert done["over"] and done["result"]["winner"] == 0
    # the board's first-stone check runs on the set-up position too
    probe = await ok(client, "/api/analysis/htttx/probe", setup(xs + os, 0, what="htttx_first", args=[5, 0]))
    assert probe["ok"] and probe["wins"]


@pytest.mark.parametrize(
    ("game", "params", "moves"),
    [
        ("tictactoe", {}, ["b2", "a1", "c3"]),
        ("hex", {"size": 5}, ["c3", "swap", "b2", "d4"]),  # after the swap seat 0 plays white
        ("htttx", {}, ["[1,0][0,1]", "[-1,0][0,-1]"]),
    ],
)
async def test_a_played_position_as_stones_sets_up_the_same_position(
    client: httpx.AsyncClient, game: str, params: dict[str, Any], moves: list[str]
) -> None:
    # what the editor starts from: the position shown, as stones, sets up a position with the same board and turn
    played = await ok(client, f"/api/analysis/{game}/position", {"params": params, "moves": moves})
    again = await ok(client, f"/api/analysis/{game}/position", {"params": params, "setup": played["as_setup"]})
    for key in ("board", "cells"):
        if key in played["state"]:
            assert again["state"][key] == played["state"][key], key
    assert again["side"] == played["side"] and again["legal"] == played["legal"]
    assert again["as_setup"] == played["as_setup"]


async def test_bad_setups_are_refused_with_what_to_do(client: httpx.AsyncClient) -> None:
    path = "/api/analysis/tictactoe/position"
    await refused(client, path, setup([["a1", 0], ["a1", 1]], 0), 400, "a1", "twice")
    await refused(client, path, setup([["d4", 0]], 1), 400, "d4")
    await refused(client, "/api/analysis/hex/position", setup([["d1", 0]], 1, params={"size": 3}), 400, "off the 3x3")
    await refused(client, path, setup([["a1", 0], ["a2", 0]], 1), 400, "2 X and 0 O", "to move")
    await refused(client, path, setup([["a1", 0]], 0), 400, "1 X and 0 O", "O")  # X moved: O's turn
    await refused(
        client, path, setup([["a1", 0], ["a2", 0], ["a3", 0], ["b1", 1], ["b2", 1]], 1), 400, "three in a row"
    )
    full = [["a1", 0], ["a2", 1], ["a3", 0], ["b1", 0], ["b2", 1], ["b3", 0], ["c1", 1], ["c2", 0], ["c3", 1]]
    await refused(client, path, setup(full, 1), 400, "full")
    hex_won = setup([["a2", 0], ["b2", 0], ["c2", 0], ["a1", 1], ["b1", 1]], 1, params={"size": 3})
    await refused(client, "/api/analysis/hex/position", hex_won, 400, "black", "connect")
    await refused(client, "/api/analysis/htttx/position", setup([[[0, 0], 0], [[1, 0], 0]], 1), 400, "2 x and 0 o")
    await refused(client, "/api/analysis/htttx/position", setup([["a1", 0]], 1), 400, "[q, r]")
    await refused(client, path, {**setup(WIN_IN_ONE, 0), "record": "a3"}, 400, "setup", "record")
    await refused(client, path, setup(WIN_IN_ONE, 0, moves=["a1"]), 400, "move 1", "occupied")
    # the request's shape: seats are 0 or 1, stones are bounded in number
    await refused(client, path, setup([["a1", 2]], 1), 422)
    too_many = [[[q, 0], q % 2] for q in range(MAX_SETUP_STONES + 1)]
    await refused(client, "/api/analysis/htttx/position", setup(too_many, 0), 422)


async def test_a_setup_too_large_to_build_is_refused_before_it_is_built(client: httpx.AsyncClient) -> None:
    # 401 stones 50 cells apart at view 16: each brings a hexagon of 817 candidate cells, 327,617 in all
    stones = [[[50 * i, 0], 0] for i in range(200)] + [[[50 * i, 50], 1] for i in range(201)]
    body = setup(stones, 0, params={"view_distance": 16})
    for route in ("", "/position"):
        await refused(client, f"/api/analysis/htttx{route}", body, 400, "candidate cells", "closer together")


async def test_games_that_cannot_be_set_up_say_why(client: httpx.AsyncClient) -> None:
    games = {g["name"]: g for g in (await client.get("/api/games")).json()}
    for name in ("tictactoe", "hex", "htttx"):
        assert games[name]["setup"] == {"supported": True, "reason": None}, name
    for name, word in (("hive", "history"), ("hexdots", "lines"), ("numberwang", "total")):
        assert games[name]["setup"]["supported"] is False and word in games[name]["setup"]["reason"], name
        await refused(client, f"/api/analysis/{name}/position", setup([["a1", 0]], 1), 400, word)


async def test_a_draft_setup_is_drawn_with_what_is_wrong(client: httpx.AsyncClient) -> None:
    # the editor draws every step, sane or not, and says what keeps it from being analysed
    draft = {"setup": {"stones": [["a1", 0], ["a2", 0]], "to_move": 0, "draft": True}}
    out = await ok(client, "/api/analysis/tictactoe/position", draft)
    assert out["draft"] and out["state"]["board"][0] == ["X", "X", ""] and "2 X and 0 O" in out["problem"]
    fine = await ok(
        client, "/api/analysis/tictactoe/position", {"setup": {**setup(WIN_IN_ONE, 0)["setup"], "draft": True}}
    )
    assert fine["draft"] and fine["problem"] is None
    hexd = await ok(client, "/api/analysis/hex/position", {"params": {"size": 3}, **draft})
    assert hexd["state"]["board"] == ["BB.", "...", "..."] and "2 black and 0 white" in hexd["problem"]
    await refused(client, "/api/analysis/tictactoe", draft, 400, "draft")
    await refused(client, "/api/analysis/tictactoe/position", {**draft, "moves": ["c3"]}, 400, "draft")
