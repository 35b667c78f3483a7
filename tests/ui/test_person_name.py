"""A person's name kept in the browser (issue 33: people without accounts): the lobby fills it in for "Me" and
keeps what was typed, and joining a friend's game sends it, so the other person and the spectators see it; a
name the server cannot show (control characters, too long) is refused with why."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from browser_pages import browser_page
from test_two_people_ui import invite_game


@pytest.fixture
def friend(browser: Any) -> Iterator[Any]:
    with browser_page(browser, 390, 844, "the friend's page") as pg:
        yield pg


def test_the_name_kept_in_the_browser_is_shown_to_the_opponent_and_spectators(
    page: Any, friend: Any, server: str, shot: Any
) -> None:
    friend.goto(f"{server}/ui/#/lobby")
    friend.wait_for_selector("#create")
    friend.evaluate("() => localStorage.setItem('hexarena.name', 'Bob')")  # as a game of his own in the lobby left it
    game_id = invite_game(page, server, "Ann")
    assert page.evaluate("() => localStorage.getItem('hexarena.name')") == "Ann"
    friend.goto(page.input_value("#invite-link"))
    friend.wait_for_function(f"() => location.hash === '#/play/{game_id}'")
    page.wait_for_function("() => document.querySelector('#player1 .pname').textContent === 'Bob'")
    players = httpx.get(f"{server}/api/ui/matches/{game_id}").json()["players"]
    assert [p["name"] for p in players] == ["Ann", "Bob"]  # what a spectator's page shows
    shot(page, "person-names")
    # the lobby remembers: "Me" comes filled in
    page.goto(f"{server}/ui/#/lobby")
    page.wait_for_selector("#create")
    page.select_option("#seat0-kind", "you")
    assert page.input_value("#seat0-extra") == "Ann"
    page.select_option("#seat0-kind", "open")
    assert page.input_value("#seat0-extra") == ""  # not carried into another kind's field


def test_a_join_with_a_name_the_server_cannot_show_is_refused(page: Any, server: str) -> None:
    game_id = invite_game(page, server, "Ann")
    for bad in ("Bo\nb", "x" * 33, "   "):
        r = httpx.post(f"{server}/api/ui/matches/{game_id}/join", json={"seat": "O", "name": bad})
        assert r.status_code == 422 and "name" in r.text, (bad, r.text)
    r = httpx.post(f"{server}/api/ui/matches/{game_id}/join", json={"seat": "O", "name": "Bob"})
    assert r.status_code == 200
