"""A first-game hint on the board (issue 33): on a person's first game of a game the match page shows, after the
board, how to make a move in it (the board module's own ``hint``), until they press "Got it" (remembered in this
browser, per game). It takes no focus, is reached by Tab after the board, and axe finds nothing wrong with it.
Spectators and replays never see it; a game without a board module of its own gets the generic board's hint."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
from test_browser_ui import create, record, wait_turn_or_end
from test_generic_board import nim_server  # noqa: F401 -- the fixture: nim installed as a plugin, served

BOARDS = Path(__file__).parents[2] / "src" / "hexarena" / "web" / "js" / "boards"
#: Hex's hint is a function of the game's params: how to move, and the swap rule only when the game has it.
HEX_MOVE = "Click an empty cell to place a stone"
HEX_SWAP = "The swap rule is on: the second player may take over the first stone"


def board_hint(module: str) -> str:
    """The ``hint`` a board module exports, read from its source (what the page must show)."""
    found = re.search(r'^export const hint = "(.*)";$', (BOARDS / module).read_text(), re.M)
    assert found, f"{module} exports no hint"
    return found.group(1)


def focus_in_hint(page: Any) -> bool:
    return bool(page.evaluate("() => !!document.activeElement?.closest('#first-hint')"))


def test_the_first_game_shows_how_to_move_until_got_it(page: Any, server: str, shot: Any) -> None:
    create(page, server, "tictactoe", seat1="builtin:random")
    assert wait_turn_or_end(page)
    page.wait_for_selector("#first-hint")
    assert board_hint("tictactoe.js") in page.text_content("#first-hint")
    assert page.get_attribute("#first-hint", "role") == "note"
    # after the board, and it took no focus from anything
    assert page.evaluate(
        "() => !!(document.querySelector('.boardbox').compareDocumentPosition("
        "document.getElementById('first-hint')) & Node.DOCUMENT_POSITION_FOLLOWING)"
    )
    assert not focus_in_hint(page)
    shot(page, "first-game-hint")
    # the game goes on under it: a move by click
    page.click("[data-cell='b2']")
    assert wait_turn_or_end(page)
    # by keyboard: Tab from the board reaches "Got it"; Enter dismisses it and the focus goes back to the board
    page.focus(".boardbox [tabindex='0']")
    for _ in range(10):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.id") == "hint-ok":
            break
    assert page.evaluate("() => document.activeElement.id") == "hint-ok"
    page.keyboard.press("Enter")
    page.wait_for_selector("#first-hint", state="detached")
    assert page.evaluate("() => !!document.activeElement.closest('.boardbox')")
    assert page.evaluate("() => localStorage.getItem('hexarena.hinted.tictactoe')") == "1"

    # the next game of it: no hint; a first game of another game: that game's hint
    create(page, server, "tictactoe", seat1="builtin:random")
    assert wait_turn_or_end(page)
    assert page.locator("#first-hint").count() == 0
    create(page, server, "hex", seat1="builtin:random", params={"size": "5"})
    assert wait_turn_or_end(page)
    page.wait_for_selector("#first-hint")
    said = page.text_content("#first-hint")
    assert HEX_MOVE in said and HEX_SWAP in said  # swap on: the game's default
    shot(page, "first-game-hint-hex")


def test_a_hex_game_without_the_swap_rule_is_not_told_of_it(page: Any, server: str) -> None:
    create(page, server, "hex", seat1="builtin:random", params={"size": "5", "swap": False})
    assert wait_turn_or_end(page)
    page.wait_for_selector("#first-hint")
    said = page.text_content("#first-hint")
    assert HEX_MOVE in said
    assert "swap" not in said.lower(), said


def test_spectators_and_replays_get_no_hint(page: Any, server: str) -> None:
    r = httpx.post(f"{server}/api/matches", json={"game": "tictactoe", "players": ["browser:ann", "builtin:random"]})
    assert r.status_code == 200, r.text
    game_id = r.json()["game_id"]
    page.goto(f"{server}/ui/#/watch/{game_id}")
    page.wait_for_selector(".boardbox")
    page.wait_for_selector("#result", state="attached")
    page.wait_for_timeout(500)  # a hint would come with a seat's hello, at once
    assert page.locator("#first-hint").count() == 0
    done = httpx.post(f"{server}/api/matches", json={"game": "tictactoe", "players": ["builtin:random"] * 2})
    rec = record(server, done.json()["game_id"])
    page.goto(f"{server}/ui/#/replay/{rec['game_id']}")
    page.wait_for_selector(".boardbox")
    assert page.locator("#first-hint").count() == 0


def test_a_game_without_a_board_module_gets_the_generic_hint(
    page: Any,
    nim_server: str,  # noqa: F811 -- the fixture imported above
    shot: Any,
) -> None:
    create(page, nim_server, "nim", params={"heaps": "2,3"})
    assert wait_turn_or_end(page)
    page.wait_for_selector("#first-hint")
    assert board_hint("generic.js") in page.text_content("#first-hint")
    assert not focus_in_hint(page)
    shot(page, "first-game-hint-generic")
