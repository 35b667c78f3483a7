"""Issue 15 in a real browser: what a person saw go wrong on the play, lobby, bots and replay pages.

Each test drives the page as a person would (clicks in headless chromium against a real server on loopback) and
checks what the page says or shows; each failed on the code the issue was filed against.
"""

from __future__ import annotations

from typing import Any

from test_browser_ui import record, wait_turn_or_end


def create_as_second(page: Any, server: str, game: str, seat0: str, params: dict[str, str] | None = None) -> str:
    """The lobby form with a bot in seat 1 and me in seat 2; returns the match id."""
    page.goto(f"{server}/ui/#/lobby")
    page.select_option("#game", game)
    for name, value in (params or {}).items():
        page.fill(f"#param-{name}", value)
    page.select_option("#seat0-kind", seat0)
    page.select_option("#seat1-kind", "you")
    page.click("#create")
    page.wait_for_function("() => /^#\\/play\\/[0-9a-f]+$/.test(location.hash) && document.querySelector('#result')")
    return str(page.evaluate("() => { window.__seenTurns = 0; return location.hash.split('/')[2]; }"))


def test_hex_names_my_real_colour_and_the_winner_by_colour_after_i_swap(page: Any, server: str, shot: Any) -> None:
    """Seat 2 starts as white; after my swap I play black: the page says so, and the result names colours."""
    game_id = create_as_second(page, server, "hex", "builtin:random", params={"size": "5"})
    assert wait_turn_or_end(page)
    assert page.text_content("#msg") == "Your move (white)."
    page.click("button:has-text('Swap')")
    assert wait_turn_or_end(page)
    assert page.text_content("#msg") == "Your move (black).", page.text_content("#msg")
    assert "plays black" in page.text_content("#player1")
    shot(page, "issue15-hex-after-swap")
    page.click(".resign-ask")
    page.click(".resign-yes")
    page.wait_for_function("() => !document.querySelector('#result').hidden")
    result = page.text_content("#result")
    stored = record(server, game_id)
    assert stored["winner"] == 0 and stored["termination"] == "resign"
    assert "White wins" in result and "black resigned" in result, result
    assert "white resigned" not in result and "Black wins" not in result, result
