"""Game headers in exported notation, in the browser (issue 33): a replay's notation (its Copy and Download) starts
with the PGN-shaped header block (game, players, parameters, result, how it ended, date); pasted into the analysis
board it sets the game up with the parameters it states, while the board's own line stays moves only; a bad header
is refused saying which line and why."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qs, unquote

from browser_pages import wait_or_say
from test_analysis_board_ui import finished_game, load_record


def test_a_replay_exports_headers_and_the_analysis_board_reads_them(page: Any, server: str, shot: Any) -> None:
    rec = finished_game(server, "hex", ["builtin:random", "builtin:random"], {"size": 5, "swap": False})
    moves = [m["move"] for m in rec["moves"]]
    page.goto(f"{server}/ui/#/replay/{rec['game_id']}")
    page.wait_for_selector("#notation")
    page.wait_for_function("() => document.getElementById('notation').value.length > 0")
    text = page.input_value("#notation")
    head, _, body = text.partition("\n\n")
    winner = "1-0" if rec["winner"] == 0 else "0-1"
    assert head.splitlines() == [
        '[Game "hex"]',
        f'[First "{rec["players"][0]["name"]}"]',
        f'[Second "{rec["players"][1]["name"]}"]',
        '[Param "size=5"]',
        '[Param "swap=false"]',
        f'[Result "{winner}"]',
        '[Termination "normal"]',
        f'[Date "{rec["created_at"][:10]}"]',
    ], head
    assert body == " ".join(moves)  # Hex's own record: the moves
    shot(page, "replay-notation-headers")

    # pasted on a board of the default size, the headers set the game up: 5x5, no swap
    page.goto(f"{server}/ui/#/analysis/hex")
    page.wait_for_selector("#record")
    load_record(page, text.replace('[Param "size=5"]', '[Param "size=30"]'))
    wait_or_say(
        page, "() => /header line 4: parameter 'size' must be <= 26/.test(document.getElementById('msg').textContent)"
    )
    page.fill("#record", text)
    page.click("#load")
    wait_or_say(page, f"() => document.getElementById('app').dataset.ply === '{len(moves)}'")
    query = parse_qs(unquote(page.evaluate("() => location.hash")).split("?", 1)[1])
    assert json.loads(query["params"][0]) == {"size": 5, "swap": False}
    assert page.input_value("#param-size") == "5"
    assert page.input_value("#line") == " ".join(moves)  # the board's own line: moves only
    shot(page, "analysis-from-headed-record")
