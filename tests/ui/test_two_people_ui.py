"""Two people on one game in a real browser (issue 15): the creator of a match with an open seat waits with an
invite link to copy, is not told "Your move" while the other seat is empty, and the friend who opens the link
takes the seat and plays; a second opener of the same link is told the seat is taken.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from accessibility import axe_violations
from browser_pages import browser_page
from test_browser_ui import create, wait_turn_or_end


@pytest.fixture
def friend(browser: Any) -> Iterator[Any]:
    """A second person: another browser profile (its own localStorage, so its own seat tokens), on a phone."""
    with browser_page(browser, 390, 844, "the friend's page") as pg:
        yield pg


def invite_game(page: Any, server: str, mine: str = "", theirs: str = "") -> str:
    """A tic-tac-toe game created in the lobby: this page plays X, O is open to whoever opens the invite link."""
    page.goto(f"{server}/ui/#/lobby")
    page.select_option("#game", "tictactoe")
    page.select_option("#seat0-kind", "you")
    page.fill("#seat0-extra", mine)
    page.select_option("#seat1-kind", "open")
    page.fill("#seat1-extra", theirs)
    page.click("#create")
    page.wait_for_selector("#waiting")
    return str(page.evaluate("() => location.hash.split('/')[2]"))


def test_the_creator_waits_with_an_invite_link_and_the_friend_joins_by_it(
    page: Any, friend: Any, server: str, shot: Any
) -> None:
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    game_id = invite_game(page, server)
    # X moves first but nobody sits opposite: no "Your move", the board takes no move
    page.wait_for_function("() => /Waiting for an opponent/.test(document.querySelector('#msg').textContent)")
    assert "Your move" not in page.text_content("#msg")
    page.click("[data-cell='b2']")
    link = page.input_value("#invite-link")
    assert link == f"{server}/ui/#/join/{game_id}/O", link
    page.click("#invite-copy")
    assert page.evaluate("() => navigator.clipboard.readText()") == link
    shot(page, "two-people-waiting")
    assert not axe_violations(page)

    friend.goto(link)
    friend.wait_for_function(f"() => location.hash === '#/play/{game_id}'")
    friend.wait_for_selector("#player1 .you:text(' (you)')")
    # the creator's page notices, drops the invite, and hands over the held turn
    page.wait_for_selector("#waiting", state="hidden")
    assert wait_turn_or_end(page)
    assert page.text_content("#msg") == "Your move (X)."
    assert httpx.get(f"{server}/api/ui/replay/{game_id}").json()["moves"] == []  # the click while waiting did nothing
    page.click("[data-cell='b2']")
    friend.evaluate("() => { window.__seenTurns = 0; }")
    assert wait_turn_or_end(friend)
    assert friend.text_content("#msg") == "Your move (O)."
    friend.click("[data-cell='a1']")
    assert wait_turn_or_end(page)
    shot(friend, "two-people-friend-phone")
    moves = [m["move"] for m in httpx.get(f"{server}/api/ui/replay/{game_id}").json()["moves"]]
    assert moves == ["b2", "a1"]

    # the link again, from a third browser: the seat is taken, said plainly
    third = friend.context.browser.new_context().new_page()
    third.goto(link)
    third.wait_for_selector("#join-error")
    assert "already taken" in third.text_content("#join-error")
    third.context.close()


def test_a_rematch_offer_reaches_the_other_person_who_accepts_it(
    page: Any, friend: Any, server: str, shot: Any
) -> None:
    """One person clicks Rematch; the other's page says so with Accept and Decline; Accept starts the new game
    with the colours swapped and takes both pages to it."""
    old_id = invite_game(page, server, "ann", "bob")
    friend.goto(page.input_value("#invite-link"))
    friend.wait_for_function(f"() => location.hash === '#/play/{old_id}'")
    assert wait_turn_or_end(page)
    page.click(".resign-ask")
    page.click(".resign-yes")
    for pg in (page, friend):
        pg.wait_for_selector("#result:not([hidden])")
    page.click("#rematch")
    page.wait_for_selector("#rematch:text('Rematch offered')")
    friend.wait_for_selector("#rematch-offer:has-text('ann offers a rematch')")
    assert friend.is_visible("#rematch-decline")
    shot(friend, "rematch-offer-phone")
    assert not axe_violations(friend)
    friend.click("#rematch-decline")  # no; then asked again, yes
    page.wait_for_selector("#rematch-offer:has-text('bob declined the rematch')")
    page.wait_for_selector("#rematch:text('Rematch'):not([disabled])")
    friend.wait_for_selector("#rematch-offer:has-text('You declined')")
    page.click("#rematch")
    friend.wait_for_selector("#rematch-accept")
    friend.focus("#rematch-accept")
    friend.keyboard.press("Enter")  # keyboard reachable
    for pg in (page, friend):
        pg.wait_for_function(f"() => /^#\\/play\\//.test(location.hash) && location.hash !== '#/play/{old_id}'")
        pg.evaluate("() => { window.__seenTurns = 0; }")  # a new page: its turns count from 0
    new_id = page.evaluate("() => location.hash.split('/')[2]")
    assert friend.evaluate("() => location.hash.split('/')[2]") == new_id
    # colours swapped: bob plays X (first) now, ann O
    friend.wait_for_selector("#player0 .you:text(' (you)')")
    page.wait_for_selector("#player1 .you:text(' (you)')")
    assert wait_turn_or_end(friend)
    assert friend.text_content("#msg") == "Your move (X)."
    players = httpx.get(f"{server}/api/ui/matches/{new_id}").json()["players"]
    assert [p["name"] for p in players] == ["bob", "ann"]
    friend.click("[data-cell='a1']")
    assert wait_turn_or_end(page)
    assert page.text_content("#msg") == "Your move (O)."
    assert not axe_violations(page)


def test_no_evaluation_panel_between_two_people_but_one_against_a_bot(page: Any, friend: Any, server: str) -> None:
    """Nobody in a game between two people reports an evaluation: neither player's page nor a spectator's shows
    the empty Evaluation and Considered moves panel (axe still clean); a game with a bot in it keeps it."""
    game_id = invite_game(page, server)
    friend.goto(page.input_value("#invite-link"))
    friend.wait_for_function(f"() => location.hash === '#/play/{game_id}'")
    assert wait_turn_or_end(page)
    watcher = friend.context.browser.new_context().new_page()
    watcher.goto(f"{server}/ui/#/watch/{game_id}")
    watcher.wait_for_selector("#movelist", state="attached")
    for pg in (page, friend, watcher):
        pg.wait_for_selector("#movelist", state="attached")
        assert pg.locator("#evaltext").is_hidden(), "an evaluation panel in a game between two people"
        assert pg.locator(".evalbar").is_hidden() and pg.locator(".considered").is_hidden()
        assert pg.get_by_text("Considered moves").is_hidden()
    assert not axe_violations(page)
    watcher.context.close()
    create(page, server, "tictactoe", seat1="builtin:random")
    assert wait_turn_or_end(page)
    assert page.locator("#evaltext").is_visible() and page.get_by_text("Considered moves").is_visible()
