"""What lichess users expect, in a real browser (issue 15): clock presets with per-game defaults in the lobby,
rematch and "new game" after a game, a move list paired by turn with the notation on the live page, sound on
moves (off until asked for, remembered), a dark theme that follows the system's and keeps axe's contrast, and
a watch speed that lets a game between instant bots be followed move by move.
"""

from __future__ import annotations

from typing import Any

import httpx
from test_browser_ui import create, record, wait_turn_or_end


def pressed_preset(page: Any) -> list[str]:
    return page.evaluate(  # type: ignore[no-any-return]
        "() => [...document.querySelectorAll('#clock-presets [aria-pressed=true]')].map(b => b.textContent)"
    )


def test_clock_presets_with_a_default_per_game(page: Any, server: str) -> None:
    page.goto(f"{server}/ui/#/lobby")
    page.wait_for_selector("#create")
    page.select_option("#game", "hive")
    assert pressed_preset(page) == ["10+5"]
    assert page.input_value("#clock-type") == "incremental"
    assert (page.input_value("#clock-seconds"), page.input_value("#clock-increment")) == ("600", "5")
    page.select_option("#game", "tictactoe")
    assert pressed_preset(page) == ["1 min"]
    page.click("[data-preset='3+2']")
    assert pressed_preset(page) == ["3+2"]
    page.fill("#clock-seconds", "200")  # a clock of one's own: no preset claims it
    assert pressed_preset(page) == []
    page.click("[data-preset='3+2']")
    page.select_option("#seat0-kind", "you")
    page.click("#create")
    page.wait_for_function("() => /^#\\/play\\//.test(location.hash)")
    game_id = page.evaluate("() => location.hash.split('/')[2]")
    clock = httpx.get(f"{server}/api/ui/matches/{game_id}").json()["clock"]
    assert clock == {"kind": "incremental", "seconds": 180.0, "increment": 2.0}, clock
    page.wait_for_function("() => document.querySelector('#player1 .clock')?.textContent === '3:00'")
