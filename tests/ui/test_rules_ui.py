"""The rules pages in a real browser: reached from the lobby and from a game's page, showing every section and
picture the server publishes for the game, axe-clean (every state screenshotted and the last one are checked)."""

from __future__ import annotations

from typing import Any

import httpx
from test_browser_ui import create


def pictures_loaded(page: Any) -> list[str]:
    """The alt texts of the rules pictures the browser decoded (an SVG it could not read has no width)."""
    return page.evaluate(
        "() => [...document.querySelectorAll('figure.rules-example img')].filter(i => i.complete && i.naturalWidth > 0)"
        ".map(i => i.alt)"
    )  # type: ignore[no-any-return]


def test_the_rules_of_the_chosen_game_open_from_the_lobby(page: Any, server: str, shot: Any) -> None:
    page.goto(f"{server}/ui/#/lobby")
    page.wait_for_selector("#create")
    page.select_option("#game", "hive")
    link = page.locator("#rules-link")
    assert link.inner_text() == "Rules of Hive"
    link.click()
    page.wait_for_selector("h1:has-text('Rules of Hive')")
    published = httpx.get(f"{server}/api/games/hive/rules").json()
    captions = [e["caption"] for s in published["sections"] for e in s["examples"]]
    page.wait_for_function(f"() => document.querySelectorAll('figure.rules-example img').length === {len(captions)}")
    page.wait_for_function(
        "() => [...document.querySelectorAll('figure.rules-example img')].every(i => i.complete && i.naturalWidth > 0)"
    )
    assert pictures_loaded(page) == captions
    headings = page.locator("section.rules-section h2").all_inner_texts()
    assert headings == [s["title"] for s in published["sections"]]
    assert {"Mosquito", "Ladybug", "Pillbug"} <= set(headings)
    shot(page, "rules-hive")
    page.click("text=Every game's rules")
    page.wait_for_selector("#rules-games")
    titles = page.locator("#rules-games a").all_inner_texts()
    assert "Hive" in titles and len(titles) == len(httpx.get(f"{server}/api/games").json())
    shot(page, "rules-index")


def test_a_games_page_links_to_its_rules(page: Any, server: str, shot: Any) -> None:
    create(page, server, "tictactoe")  # seat 1 is me: the game waits on its page for my move
    page.click("a.rules-link")
    page.wait_for_selector("h1:has-text('Rules of')")
    page.wait_for_function("() => document.querySelectorAll('figure.rules-example img').length > 0")
    assert "#/rules/tictactoe" in page.url
    shot(page, "rules-tictactoe")
