"""Takebacks between two people and premoves, in the browser (issue 33): one person clicks Takeback (on either
turn), the other's page shows the request with Accept and Decline (keyboard reachable), accepting takes the move
back on both pages and in the record; a draw offer still works beside it. A person may queue their next move while
the opponent thinks (a premove): it is played the moment the turn comes if it is still legal, else dropped with a
word; Escape cancels it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from accessibility import axe_violations
from browser_pages import browser_page
from test_browser_ui import record, wait_turn_or_end
from test_lichess_ui import record_so_far
from test_two_people_ui import invite_game


@pytest.fixture
def friend(browser: Any) -> Iterator[Any]:
    with browser_page(browser, 1280, 900, "the friend's page") as pg:
        yield pg


def two_people(page: Any, friend: Any, server: str) -> str:
    """A tic-tac-toe game between ``page`` (X, ann) and ``friend`` (O, bob): both pages open, X to move."""
    game_id = invite_game(page, server, "ann", "bob")
    friend.goto(page.input_value("#invite-link"))
    friend.wait_for_function(f"() => location.hash === '#/play/{game_id}'")
    assert wait_turn_or_end(page)
    return game_id


def moves_shown(pg: Any, n: int) -> None:
    pg.wait_for_function(f"() => document.querySelectorAll('#movelist .mv').length === {n}")


def msg_matches(pg: Any, pattern: str) -> None:
    pg.wait_for_function(f"() => /{pattern}/.test(document.querySelector('#msg').textContent)")


def test_a_takeback_asked_by_one_person_is_accepted_by_the_other_by_keyboard(
    page: Any, friend: Any, server: str, shot: Any
) -> None:
    game_id = two_people(page, friend, server)
    assert page.is_disabled("#takeback"), "nothing of mine to take back yet"
    page.click("[data-cell='b2']")
    assert wait_turn_or_end(friend)
    friend.click("[data-cell='a1']")
    assert wait_turn_or_end(page)
    moves_shown(page, 2)
    # bob asks on ann's turn: her page asks her; she answers with the keyboard
    assert friend.is_enabled("#takeback")
    friend.click("#takeback")
    msg_matches(friend, "Takeback asked")
    assert friend.is_disabled("#takeback")
    page.wait_for_selector("#takeback-box:not([hidden])")
    assert "O asks to take back their last move" in page.text_content("#takeback-box")
    shot(page, "takeback-asked")
    page.focus("#takeback-accept")
    page.keyboard.press("Enter")
    msg_matches(friend, "Move taken back: your move again")
    for pg in (page, friend):
        moves_shown(pg, 1)
    msg_matches(page, "took back their last move")
    assert page.locator("#takeback-box").is_hidden()
    assert [m["move"] for m in record_so_far(server, game_id)] == ["b2"]
    assert not axe_violations(page)
    friend.click("[data-cell='c3']")  # the cell he took back is free; he plays another
    assert wait_turn_or_end(page)
    moves_shown(page, 2)
    # a draw offered beside it still ends the game by agreement
    page.click("#draw-offer")
    friend.wait_for_selector("#draw-box:not([hidden])")
    friend.click("#draw-accept")
    for pg in (page, friend):
        pg.wait_for_function("() => !document.querySelector('#result').hidden")
        assert pg.text_content("#result") == "Draw: draw by agreement"
    rec = record(server, game_id)
    assert rec["termination"] == "agreement" and [m["move"] for m in rec["moves"]] == ["b2", "c3"]


def test_a_takeback_declined_leaves_the_game_as_it_was(page: Any, friend: Any, server: str, shot: Any) -> None:
    game_id = two_people(page, friend, server)
    page.click("[data-cell='b2']")
    assert wait_turn_or_end(friend)
    # ann asks while bob thinks
    assert page.is_enabled("#takeback")
    page.click("#takeback")
    friend.wait_for_selector("#takeback-box:not([hidden])")
    shot(friend, "takeback-request-on-my-turn")
    friend.reload()  # the request still stands after a reload: the page asks again
    friend.wait_for_selector("#takeback-box:not([hidden])")
    assert "Your opponent asks to take back their last move" in friend.text_content("#takeback-box")
    friend.click("#takeback-decline")
    msg_matches(page, "Your takeback was declined")
    assert page.is_enabled("#takeback")  # she may ask again
    friend.wait_for_selector("#takeback-box", state="hidden")
    friend.click("[data-cell='a1']")  # his turn stayed his
    assert wait_turn_or_end(page)
    assert [m["move"] for m in record_so_far(server, game_id)] == ["b2", "a1"]


def test_a_premove_is_played_the_moment_the_turn_comes(page: Any, friend: Any, server: str, shot: Any) -> None:
    game_id = two_people(page, friend, server)
    page.click("[data-cell='b2']")
    assert wait_turn_or_end(friend)
    page.click("[data-cell='a3']")  # bob's turn: queued, not sent
    page.wait_for_selector("[data-cell='a3'][data-premove]")
    msg_matches(page, "Premove a3")
    shot(page, "premove-queued")
    friend.click("[data-cell='a1']")
    moves_shown(friend, 3)  # ann's a3 came at once, without a click of hers
    assert [m["move"] for m in record_so_far(server, game_id)] == ["b2", "a1", "a3"]
    assert page.locator("[data-premove]").count() == 0
    assert wait_turn_or_end(friend)


def test_a_premove_no_longer_legal_is_dropped_and_escape_cancels_one(page: Any, friend: Any, server: str) -> None:
    game_id = two_people(page, friend, server)
    page.click("[data-cell='b2']")
    assert wait_turn_or_end(friend)
    page.click("[data-cell='a1']")
    page.wait_for_selector("[data-cell='a1'][data-premove]")
    friend.click("[data-cell='a1']")  # bob takes the cell ann premoved
    assert wait_turn_or_end(page)
    msg_matches(page, "Premove a1 dropped")
    assert page.locator("[data-premove]").count() == 0
    assert [m["move"] for m in record_so_far(server, game_id)] == ["b2", "a1"]
    page.click("[data-cell='c3']")
    assert wait_turn_or_end(friend)
    # a premove made with the keyboard, then cancelled with Escape: nothing is played when the turn comes
    page.focus("[data-cell='c1']")
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-cell='c1'][data-premove]")
    page.keyboard.press("Escape")
    page.wait_for_selector("[data-premove]", state="detached")
    msg_matches(page, "Premove cancelled")
    friend.click("[data-cell='c1']")
    assert wait_turn_or_end(page)
    assert [m["move"] for m in record_so_far(server, game_id)] == ["b2", "a1", "c3", "c1"]


def test_a_hex_premove_is_played_and_the_board_says_it_is_queued(page: Any, friend: Any, server: str) -> None:
    """Hex's board has premoves too (one stone a turn): the queued cell is named so for a screen reader."""
    page.goto(f"{server}/ui/#/lobby")
    page.select_option("#game", "hex")
    page.fill("#param-size", "5")
    page.select_option("#seat0-kind", "you")
    page.select_option("#seat1-kind", "open")
    page.click("#create")
    page.wait_for_selector("#waiting")
    game_id = str(page.evaluate("() => location.hash.split('/')[2]"))
    friend.goto(page.input_value("#invite-link"))
    friend.wait_for_function(f"() => location.hash === '#/play/{game_id}'")
    assert wait_turn_or_end(page)
    page.click("[data-cell='c3']")
    assert wait_turn_or_end(friend)
    page.click("[data-cell='a1']")
    page.wait_for_selector("[data-cell='a1'][data-premove]")
    assert page.get_attribute("[data-cell='a1']", "aria-label").endswith(", premove")
    friend.click("[data-cell='e5']")
    moves_shown(friend, 3)
    assert [m["move"] for m in record_so_far(server, game_id)] == ["c3", "e5", "a1"]
