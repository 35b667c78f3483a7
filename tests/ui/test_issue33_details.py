"""Smaller findings of issue 33, each seen in a real browser: the dark theme's black-seat dot stands out from its
card, tic-tac-toe's winning line is not drawn in the last-move yellow, the unknown-page page has a heading, and
the keyboard focus does not fall to <body> when a numberwang game ends."""

from __future__ import annotations

from typing import Any

import httpx
from test_browser_ui import create, record, wait_turn_or_end

CONTRAST = """(el) => {
  const rgb = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  let bgEl = el.parentElement, bg = null;
  while (bgEl) { const c = rgb(getComputedStyle(bgEl).backgroundColor); if (c.length === 3 || (c.length === 4 && c[3] > 0)) { bg = c; break; } bgEl = bgEl.parentElement; }
  const st = getComputedStyle(el);
  const ring = parseFloat(st.borderTopWidth) > 0 ? ratio(rgb(st.borderTopColor), bg) : 0;
  return Math.max(ratio(rgb(st.backgroundColor), bg), ring);
}"""


def test_both_seat_dots_stand_out_in_the_dark_theme(page: Any, server: str) -> None:
    page.emulate_media(color_scheme="dark")
    create(page, server, "hex", params={"size": "5"})
    assert wait_turn_or_end(page)
    page.wait_for_function("() => document.querySelector('#player1 .dot').style.background")  # the board's colours
    for i in (0, 1):  # WCAG 1.4.11: a graphical object that carries meaning keeps 3:1 against what it sits on
        ratio = page.eval_on_selector(f"#player{i} .dot", CONTRAST)
        assert ratio >= 3, f"seat {i}'s dot: {ratio:.2f}:1"


def test_the_tictactoe_winning_line_is_not_the_last_move_yellow(page: Any, server: str) -> None:
    for _ in range(30):  # random bots: most games have a winner
        r = httpx.post(f"{server}/api/matches", json={"game": "tictactoe", "players": ["builtin:random"] * 2})
        game_id = r.json()["game_id"]
        if record(server, game_id)["winner"] is not None:
            break
    else:
        raise AssertionError("30 random tic-tac-toe games and no winner")
    page.goto(f"{server}/ui/#/replay/{game_id}")
    page.wait_for_selector(".boardbox svg line", state="attached")
    last = page.eval_on_selector(".boardbox svg rect[fill=none]", "(r) => r.getAttribute('stroke')")
    win = page.eval_on_selector(".boardbox svg line", "(l) => l.getAttribute('stroke')")
    assert win.lower() != last.lower(), f"the winning line and the last move are both {win}"


def test_an_unknown_page_has_a_heading(page: Any, server: str) -> None:
    page.goto(f"{server}/ui/#/no-such-page")
    page.wait_for_selector("#app h1")
    assert "No page" in page.text_content("#app h1")


def test_the_focus_stays_on_the_page_when_numberwang_ends(page: Any, server: str) -> None:
    create(page, server, "numberwang")
    while wait_turn_or_end(page):
        assert page.evaluate("() => document.activeElement.type") == "number"  # the turn focuses the input
        page.keyboard.press("Control+A")
        page.keyboard.type("10")
        page.keyboard.press("Enter")
    assert page.evaluate("() => document.activeElement !== document.body"), "the focus fell to <body>"
    assert page.evaluate("() => document.activeElement.closest('#result, #after-game, .msg') !== null")
