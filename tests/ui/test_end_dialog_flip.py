"""The game's end as a dialog with what to do next, and flipping the board (issue 33, lichess)."""

from __future__ import annotations

from typing import Any

from test_browser_ui import create, wait_turn_or_end


def test_the_end_is_a_dialog_with_the_result_and_what_next(page: Any, server: str, shot: Any) -> None:
    game_id = create(page, server, "tictactoe")
    assert wait_turn_or_end(page)
    page.click(".resign-ask")
    page.click(".resign-yes")
    page.wait_for_selector("#end-dialog[role=dialog]:not([hidden])")
    name = page.evaluate(
        "() => document.getElementById(document.querySelector('#end-dialog').getAttribute('aria-labelledby')).textContent"
    )
    assert name.startswith("O wins"), name
    assert page.is_visible("#end-dialog #rematch") and page.is_visible("#end-dialog #new-game")
    assert page.get_attribute("#end-dialog #replay-link", "href") == f"#/replay/{game_id}"
    shot(page, "end-dialog")
    page.click("#replay-link")
    page.wait_for_selector("#slider")


def test_flip_turns_the_board_and_clicks_still_play_the_cell(page: Any, server: str, shot: Any) -> None:
    create(page, server, "tictactoe")
    assert wait_turn_or_end(page)
    before = page.locator("[data-cell='a1']").bounding_box()
    page.click("#flip")
    assert page.get_attribute("#flip", "aria-pressed") == "true"
    after = page.locator("[data-cell='a1']").bounding_box()
    assert after["y"] > before["y"] + 50 and after["x"] > before["x"] + 50, (before, after)  # top-left to bottom-right
    shot(page, "board-flipped")
    page.click("[data-cell='a1']")
    page.wait_for_function("() => document.querySelectorAll('#movelist .mv').length >= 1")
    assert page.evaluate("() => document.querySelector('#movelist .mv').textContent") == "a1"
    page.reload()  # remembered in this browser
    page.wait_for_selector("#flip")
    assert page.get_attribute("#flip", "aria-pressed") == "true"
