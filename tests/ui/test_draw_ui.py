"""Draw offers in the browser (issue 33): one person clicks Offer draw, the other's page shows the offer with Accept
and Decline, and accepting ends the game a draw by agreement on both pages; against a bot the offer is declined at
once and the game goes on."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browser_pages import browser_page
from test_browser_ui import create, record, wait_turn_or_end
from test_two_people_ui import invite_game


@pytest.fixture
def friend(browser: Any) -> Iterator[Any]:
    with browser_page(browser, 390, 844, "the friend's page") as pg:
        yield pg


def test_a_draw_offered_on_one_page_is_accepted_on_the_other(page: Any, friend: Any, server: str, shot: Any) -> None:
    game_id = invite_game(page, server, "ann", "bob")
    friend.goto(page.input_value("#invite-link"))
    friend.wait_for_function(f"() => location.hash === '#/play/{game_id}'")
    assert wait_turn_or_end(page)
    page.click("[data-cell='b2']")
    friend.evaluate("() => { window.__seenTurns = 0; }")
    assert wait_turn_or_end(friend)
    friend.click("#draw-offer")
    friend.wait_for_function("() => /Draw offered/.test(document.querySelector('#msg').textContent)")
    assert friend.is_disabled("#draw-offer")
    page.wait_for_selector("#draw-box:not([hidden])")
    assert "O offers a draw" in page.text_content("#draw-box")
    shot(page, "draw-offer-received")
    page.click("#draw-accept")
    for pg in (page, friend):
        pg.wait_for_function("() => !document.querySelector('#result').hidden")
        assert pg.text_content("#result") == "Draw: draw by agreement"
    rec = record(server, game_id)
    assert rec["winner"] is None and rec["termination"] == "agreement"
    shot(friend, "draw-agreed")


def test_a_bot_declines_the_draw_and_the_game_goes_on(page: Any, server: str) -> None:
    create(page, server, "tictactoe")
    assert wait_turn_or_end(page)
    page.click("#draw-offer")
    page.wait_for_function("() => /declined: bots play on/.test(document.querySelector('#msg').textContent)")
    assert page.is_enabled("#draw-offer")
    page.click("[data-cell='b2']")
    assert wait_turn_or_end(page)
