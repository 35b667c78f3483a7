"""How a game was won, drawn on the board (issue 15): Hex marks the winner's chain edge to edge, Hive the queen
that was surrounded, on the live page, for screen readers, and in the replay.

The test plays both seats itself over the seat socket (two ``browser`` seats of one match) with a known game, so
the end is certain; the page watches it as a spectator would.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
from test_browser_ui import record
from websockets.sync.client import connect as ws_connect

HIVE_WHITE_WINS = (  # nokamute's UHP test game: Black's queen is surrounded on the last move
    "wS1;bS1 wS1-;wQ -wS1;bQ bS1/;wG1 -wQ;bG1 \\bQ;wG1 bQ\\;bG2 bQ/;wA1 wQ\\;bA1 bG2/;wA1 bG2\\;bA1 /bG1"
)


def play_both_seats(server: str, game: str, params: dict[str, Any], moves: list[str], page: Any) -> str:
    """Create a match of two browser seats, open its watch page, play ``moves`` alternately from both seats'
    sockets; returns the match id once the page shows the result."""
    r = httpx.post(
        f"{server}/api/matches", json={"game": game, "params": params, "players": ["browser:a", "browser:b"]}
    )
    assert r.status_code == 200, r.text
    game_id = r.json()["game_id"]
    tokens = list(r.json()["tokens"].values())
    page.goto(f"{server}/ui/#/watch/{game_id}")
    page.wait_for_selector("#result", state="attached")
    base = "ws" + server[len("http") :] + "/api/play?token="
    with ws_connect(base + tokens[0]) as first, ws_connect(base + tokens[1]) as second:
        seats = {}
        for sock in (first, second):
            hello = json.loads(sock.recv(timeout=15))
            while hello["type"] != "hello":
                hello = json.loads(sock.recv(timeout=15))
            seats[hello["seat"]] = sock
        for ply, move in enumerate(moves):
            sock = seats[ply % 2]
            while json.loads(sock.recv(timeout=15))["type"] != "your_turn":
                pass
            sock.send(json.dumps({"type": "move", "move": move}))
            reply = json.loads(sock.recv(timeout=15))
            assert reply["type"] == "accepted", (move, reply)
    page.wait_for_function("() => !document.querySelector('#result').hidden", timeout=15000)
    return str(game_id)


def marked(page: Any, selector: str) -> list[str]:
    return list(page.evaluate(f"() => [...document.querySelectorAll('{selector}')].map(e => e.dataset.cell)"))


def test_hex_marks_the_winning_chain_live_and_in_the_replay(page: Any, server: str, shot: Any) -> None:
    """Black wins down column 1 with b2 beside it: a1, b1, c1 are marked (b2 is joined but not needed), the
    line through them is drawn, and a screen reader hears "in the winning chain" on those cells."""
    moves = ["a1", "a3", "b2", "b3", "b1", "c3", "c1"]
    game_id = play_both_seats(server, "hex", {"size": 3, "swap": False}, moves, page)
    assert "connected top and bottom" in page.text_content("#result")
    page.wait_for_selector("[data-cell].win")
    assert sorted(marked(page, "[data-cell].win")) == ["a1", "b1", "c1"]
    assert page.locator("polyline.win-line").count() == 1
    assert "in the winning chain" in (page.get_attribute("[data-cell='b1']", "aria-label") or "")
    assert "winning" not in (page.get_attribute("[data-cell='b2']", "aria-label") or "")
    shot(page, "result-hex-chain")
    assert record(server, game_id)["winner"] == 0
    page.goto(f"{server}/ui/#/replay/{game_id}")
    page.wait_for_selector("#notation")
    page.wait_for_selector("[data-cell].win")  # a finished game's replay opens on its last position
    assert sorted(marked(page, "[data-cell].win")) == ["a1", "b1", "c1"]
    shot(page, "result-hex-chain-replay")


def test_hive_marks_the_surrounded_queen_live_and_in_the_replay(page: Any, server: str, shot: Any) -> None:
    """The black queen surrounded on the last move: its cell is marked (and only its), titled and announced."""
    game_id = play_both_seats(server, "hive", {"expansions": ""}, HIVE_WHITE_WINS.split(";"), page)
    assert "black queen surrounded" in page.text_content("#result").lower()
    page.wait_for_selector("[data-cell].surrounded")
    cells = marked(page, "[data-cell].surrounded")
    assert len(cells) == 1
    queen = page.locator(f"[data-cell='{cells[0]}']")
    assert queen.get_attribute("data-piece") == "bQ"
    assert "surrounded" in (queen.get_attribute("aria-label") or "")
    assert "surrounded" in queen.locator("title").text_content()
    shot(page, "result-hive-queen")
    assert record(server, game_id)["winner"] == 0
    page.goto(f"{server}/ui/#/replay/{game_id}")
    page.wait_for_selector("#notation")
    page.wait_for_selector("[data-cell].surrounded")
    assert marked(page, "[data-cell].surrounded") == cells
