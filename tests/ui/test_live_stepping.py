"""Stepping back through a live game (issue 33, lichess): a click on a move in the list shows the position after it
while the game goes on; the board takes no move meanwhile, and "Back to live" returns to the game and the turn."""

from __future__ import annotations

from typing import Any

from test_browser_ui import create, wait_turn_or_end

MARKS = "() => document.querySelectorAll('.boardbox [data-cell] path, .boardbox [data-cell] circle').length"


def test_a_click_on_a_move_shows_its_position_and_back_to_live_returns(page: Any, server: str, shot: Any) -> None:
    create(page, server, "tictactoe", clock=("none", ""))
    for cell in ("b2", "a1"):
        assert wait_turn_or_end(page)
        free = page.evaluate(
            "() => [...document.querySelectorAll('[data-cell]')].filter(g => !g.querySelector('path,circle'))"
            ".map(g => g.dataset.cell)"
        )
        page.click(f"[data-cell='{cell if cell in free else free[0]}']")
    assert wait_turn_or_end(page)  # 4 moves on the board, my turn
    assert page.evaluate(MARKS) == 4
    page.click("#movelist [data-ply='1']")
    page.wait_for_function("() => document.querySelector('#app').dataset.browsing === '1'")
    assert page.evaluate(MARKS) == 1  # the position after the first move
    assert page.is_visible("#back-to-live")
    assert "current" in page.get_attribute("#movelist [data-ply='1']", "class")
    shot(page, "live-looking-back")
    free = page.evaluate(
        "() => [...document.querySelectorAll('[data-cell]')].filter(g => !g.querySelector('path,circle'))"
        ".map(g => g.dataset.cell)"
    )
    page.click(f"[data-cell='{free[-1]}']")  # an old position takes no move
    page.wait_for_timeout(300)
    assert len(page.evaluate("() => [...document.querySelectorAll('#movelist .mv')]")) == 4
    page.click("#back-to-live")
    assert page.evaluate("() => document.querySelector('#app').dataset.browsing") is None
    assert page.evaluate(MARKS) == 4 and page.is_hidden("#back-to-live")
    live_free = page.evaluate(
        "() => [...document.querySelectorAll('[data-cell]')].filter(g => !g.querySelector('path,circle'))"
        ".map(g => g.dataset.cell)"
    )
    page.click(f"[data-cell='{live_free[0]}']")  # my turn is back
    page.wait_for_function("() => document.querySelectorAll('#movelist .mv').length >= 5")
