"""The match page says whether the game is rated or casual (issue 33), next to the players: a person's game is
casual unless created rated (then it moves the people's ratings too and has no takebacks)."""

from __future__ import annotations

from typing import Any

from test_browser_ui import create, wait_turn_or_end


def mode_text(page: Any) -> str:
    page.wait_for_selector("#rated-mode")
    return str(page.text_content("#rated-mode")).strip()


def test_a_game_with_a_person_is_casual_unless_created_rated(page: Any, server: str, shot: Any) -> None:
    create(page, server, "tictactoe", seat1="builtin:random")
    assert wait_turn_or_end(page)
    text = mode_text(page)
    assert text.startswith("Casual"), text
    assert "takebacks" in text, text
    # it sits with the player cards, where a person looks for who plays
    assert page.locator(".players #rated-mode").count() == 1
    shot(page, "match-casual")

    page.goto(f"{server}/ui/#/lobby")
    page.select_option("#game", "tictactoe")
    page.select_option("#seat0-kind", "you")
    page.fill("#seat0-extra", "ann")
    page.check("#rated")
    page.select_option("#seat1-kind", "builtin:random")
    page.click("#create")
    page.wait_for_function("() => /^#\\/play\\/[0-9a-f]+$/.test(location.hash) && document.querySelector('#result')")
    text = mode_text(page)
    assert text.startswith("Rated"), text
    shot(page, "match-rated")
