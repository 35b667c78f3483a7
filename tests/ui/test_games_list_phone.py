"""The games list on a phone (issue 33 item 6): each game's row fits the screen, result and link included (as a
table the last columns ran off the phone's right edge, behind a sideways scroll), and it names games by their
titles and endings in words ("Hive", "draw (turn limit)"), not by the registry's ids ("hive", "turn_limit"); so
does the bots list.
"""

from __future__ import annotations

import time
from typing import Any

import httpx

PHONE = {"width": 390, "height": 844}

# every cell of the list that shows something, with its box and the scroll box's own widths
CELLS = """() => {
    const wrap = document.querySelector('#games').closest('.tablewrap');
    const cells = [...document.querySelectorAll('#games tbody td')].filter(td => td.offsetParent !== null)
        .map(td => { const b = td.getBoundingClientRect(); return {text: td.textContent, left: b.left, right: b.right}; });
    return {cells, scroll: wrap.scrollWidth - wrap.clientWidth, width: innerWidth};
}"""


def finished(server: str, game_id: str) -> None:
    for _ in range(400):
        if httpx.get(f"{server}/games/{game_id}").json()["status"] != "running":
            return
        time.sleep(0.05)
    raise AssertionError(f"game {game_id} did not finish")


def test_the_games_list_fits_a_phone_in_words(page: Any, server: str, shot: Any) -> None:
    for game, params in (("htttx", {"turn_limit": 3}), ("tictactoe", {}), ("hive", {})):
        body = {"game": game, "players": ["builtin:random", "builtin:random"], "params": params}
        created = httpx.post(f"{server}/api/matches", json=body)
        assert created.status_code == 200, created.text
        finished(server, created.json()["game_id"])
    page.set_viewport_size(PHONE)
    page.goto(f"{server}/ui/#/games")
    page.wait_for_selector("#games tbody tr")
    shot(page, "phone-games-list")
    laid = page.evaluate(CELLS)
    assert laid["scroll"] <= 0, f"the list scrolls sideways by {laid['scroll']} px"
    off = [c for c in laid["cells"] if c["left"] < 0 or c["right"] > laid["width"]]
    assert not off, off
    texts = [c["text"] for c in laid["cells"]]
    assert {"Hive", "Noughts and crosses", "Hexagonal tic-tac-toe (HTTTX)"} <= set(texts)
    assert not {"hive", "tictactoe", "htttx"} & set(texts)
    assert "draw (turn limit)" in texts and not any("_" in t for t in texts)
    assert texts.count("replay") == 3  # each row's link, on screen

    # the desktop keeps the table with its headers
    page.set_viewport_size({"width": 1200, "height": 900})
    assert page.is_visible("#games thead th:has-text('Result')")
    shot(page, "desktop-games-list")

    # the bots list names games by title too
    page.goto(f"{server}/ui/#/bots")
    page.wait_for_selector("#bots tbody tr")
    shown = set(page.eval_on_selector_all("#bots tbody td:first-child", "tds => tds.map(td => td.textContent)"))
    assert "Hive" in shown and not {"hive", "tictactoe", "htttx"} & shown, shown
