"""Abort in the browser (issue 33): the creator of a game whose open seat nobody took calls it off with Abort
instead of resigning; the game ends aborted (no result, said so in plain words), no Rematch is offered against
nobody and the page does not poll the rematch route. Once both sides have moved, the Abort button is gone."""

from __future__ import annotations

import time
from typing import Any

from test_browser_ui import create, record, wait_turn_or_end
from test_two_people_ui import invite_game


def test_abort_a_game_nobody_joined(page: Any, server: str, shot: Any) -> None:
    rematch_posts: list[str] = []
    page.on("request", lambda r: rematch_posts.append(r.url) if r.url.endswith("/rematch") else None)
    game_id = invite_game(page, server)
    page.wait_for_selector("#abort:not([disabled])")
    assert page.get_by_role("button", name="Abort").is_visible()
    page.click("#abort")
    page.wait_for_selector("#result:not([hidden])")
    assert page.text_content("#result").startswith("Game aborted"), page.text_content("#result")
    assert "Draw" not in page.text_content("#msg")
    rec = record(server, game_id)
    assert rec["termination"] == "aborted" and rec["winner"] is None
    assert page.locator("#rematch").count() == 0, "a rematch offered against nobody"
    assert page.locator("#new-game").is_visible()
    assert page.locator("#abort").is_hidden() or page.locator("#abort").is_disabled()
    shot(page, "abort-nobody-came")
    time.sleep(2.5)  # the rematch poll (if any) runs every second: it would have asked by now
    assert rematch_posts == [], rematch_posts


def test_the_abort_button_goes_once_both_sides_have_moved(page: Any, server: str) -> None:
    create(page, server, "tictactoe", seat1="builtin:random")
    assert wait_turn_or_end(page)
    assert page.is_visible("#abort")
    page.click("[data-cell='b2']")
    assert wait_turn_or_end(page)  # the bot replied: both sides have moved
    page.wait_for_selector("#abort", state="hidden")
    assert page.is_visible(".resign-ask")


def test_abort_comes_back_after_a_takeback_to_the_start(page: Any, server: str, shot: Any) -> None:
    """A takeback that returns the game to before both sides moved makes it abortable again, as at the start: the
    server grants an abort and the page shows the button again."""
    game_id = create(page, server, "tictactoe", seat1="builtin:random")
    assert wait_turn_or_end(page)
    page.click("[data-cell='b2']")
    assert wait_turn_or_end(page)  # the bot replied: both sides have moved
    page.wait_for_selector("#abort", state="hidden")
    page.click("#takeback:not([disabled])")  # my b2 and the bot's reply go back: nobody has moved
    page.wait_for_selector("#msg:has-text('Move taken back')")
    page.wait_for_selector("#abort:not([disabled])")
    shot(page, "abort-after-takeback")
    page.click("#abort")
    page.wait_for_selector("#result:not([hidden])")
    rec = record(server, game_id)
    assert rec["termination"] == "aborted" and rec["winner"] is None and rec["moves"] == []
