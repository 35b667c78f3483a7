"""axe (the pinned release, ``accessibility.AXE_VERSION``) on pages that hold a full board and a move list longer
than its box (issue 33): Hive pieces on the board, long dots, Hive and Hex games, live and replayed. Short games
never showed what axe 4.14 reports there: a piece whose spoken name lacks its visible letters, and a scrolling
move list that a keyboard cannot reach."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from accessibility import AXE_VERSION, axe_violations
from browser_pages import wait_or_say
from test_browser_ui import record
from websockets.sync.client import connect as ws_connect

#: Plies a game needs for its move list to overflow its box by more than :func:`overflowing_move_list` asks: the box
#: is 260 px high (``.moves`` in style.css) and a row of two plies 16 px, so a game of 31-34 plies fills it without
#: overflowing it by 20 px, and the wait would time out.
LONG_GAME = 40


def bots_game(server: str, game: str, params: dict[str, Any]) -> str:
    """A finished game of two random bots of at least :data:`LONG_GAME` plies. Random play sometimes ends sooner
    (about one Hive game in 27 surrounds a queen within 30 plies), so a short one is replaced by another, a few
    times at most."""
    body = {"game": game, "params": params, "players": ["builtin:random", "builtin:random"]}
    plies = []
    for _ in range(8):
        r = httpx.post(f"{server}/api/matches", json=body, timeout=30)
        assert r.status_code == 200, r.text
        game_id: str = r.json()["game_id"]
        plies.append(len(record(server, game_id)["moves"]))
        if plies[-1] >= LONG_GAME:
            return game_id
    raise AssertionError(f"no game of {game} between random bots lasted {LONG_GAME} plies: {plies}")


def overflowing_move_list(page: Any) -> None:
    """Wait for the move list, and check it does overflow its box (else the test proves nothing)."""
    wait_or_say(
        page, "() => { const m = document.querySelector('.moves'); return m && m.scrollHeight > m.clientHeight + 20; }"
    )


@pytest.mark.parametrize(("game", "params"), [("hive", {}), ("hexdots", {"rows": 7, "cols": 7}), ("hex", {"size": 11})])
def test_replays_of_long_games_are_axe_clean(page: Any, server: str, game: str, params: dict[str, Any]) -> None:
    game_id = bots_game(server, game, params)
    page.goto(f"{server}/ui/#/replay/{game_id}")
    overflowing_move_list(page)
    page.keyboard.press("End")  # the final position: every piece on the board
    found = axe_violations(page)
    assert not found, "\n".join(found)


def test_a_live_dots_game_with_a_long_move_list_is_axe_clean(page: Any, server: str) -> None:
    body = {"game": "hexdots", "params": {"rows": 7, "cols": 7}, "players": ["browser:ann", "builtin:random"]}
    m = httpx.post(f"{server}/api/matches", json=body, timeout=30).json()
    with ws_connect(f"ws{server[4:]}/api/play?token={m['tokens']['first']}") as sock:
        turns = 0
        while turns < 25:
            msg = json.loads(sock.recv(timeout=30))
            if msg["type"] == "your_turn":
                a, b = msg["legal"]["moves"][0]["a"], msg["legal"]["moves"][0]["b"]
                sock.send(json.dumps({"type": "move", "move": f"{a[0]},{a[1]}-{b[0]},{b[1]}"}))
                turns += 1
            assert msg["type"] != "end", msg
    page.goto(f"{server}/ui/#/watch/{m['game_id']}")  # a spectator of the live game (its seat within its grace)
    overflowing_move_list(page)
    found = axe_violations(page)
    assert not found, "\n".join(found)


def test_the_pinned_axe_is_the_one_that_runs(page: Any, server: str) -> None:
    page.goto(f"{server}/ui/#/lobby")
    page.wait_for_selector("#create")
    axe_violations(page)
    assert page.evaluate("() => axe.version") == AXE_VERSION
