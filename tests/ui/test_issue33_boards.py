"""Issue 33, item 4, in a real browser: Hive's hands are named groups and the opponent's is no Tab stop; Hex's Swap
pressed by keyboard leaves the focus on the board, and after it the cards and the move list name the colours each
seat plays; Hex cells read in common notation (letter = column) while the wire keeps the server's; on a phone the
zoomed 11x11 Hex board shows the bot's reply, and HTTTX's winning six is on screen however the board was panned."""

from __future__ import annotations

import time
from typing import Any

import httpx
from test_browser_ui import wait_turn_or_end

PHONE = {"width": 390, "height": 844}


def create_as(page: Any, server: str, game: str, kinds: tuple[str, str], params: dict[str, str] | None = None) -> str:
    """The lobby form with each seat's kind ("you" or a bot spec); returns the match id."""
    page.goto(f"{server}/ui/#/lobby")
    page.select_option("#game", game)
    for name, value in (params or {}).items():
        page.fill(f"#param-{name}", value)
    page.select_option("#seat0-kind", kinds[0])
    page.select_option("#seat1-kind", kinds[1])
    page.click("#create")
    page.wait_for_function("() => /^#\\/play\\/[0-9a-f]+$/.test(location.hash) && document.querySelector('#result')")
    return str(page.evaluate("() => { window.__seenTurns = 0; return location.hash.split('/')[2]; }"))


def test_hive_hands_are_named_groups_and_only_mine_is_in_the_tab_order(page: Any, server: str, shot: Any) -> None:
    create_as(page, server, "hive", ("you", "builtin:random"))
    assert wait_turn_or_end(page)
    names = page.evaluate(
        "() => [...document.querySelectorAll('.hand')].map(g => [g.getAttribute('role'),"
        " document.getElementById(g.getAttribute('aria-labelledby'))?.textContent])"
    )
    assert sorted(names) == [["group", "Black's hand"], ["group", "White's hand (yours)"]], names
    # a piece says what it is in words, its visible text first (label in name)
    label = page.get_attribute("[data-hand='wA']", "aria-label")
    assert label.startswith("A×3") and "Ant" in label, label
    stops = page.evaluate(
        "() => [...document.querySelectorAll('[data-hand]')].filter(b => b.tabIndex >= 0).map(b => b.dataset.hand)"
    )
    assert stops and all(s.startswith("w") for s in stops), stops
    # from the first piece of my hand, Tab reaches my Ant in a few presses, never through Black's pieces
    page.focus("[data-hand^='w']")
    for _ in range(8):
        if page.evaluate("() => document.activeElement.dataset.hand") == "wA":
            break
        page.keyboard.press("Tab")
        assert not (page.evaluate("() => document.activeElement.dataset.hand") or "").startswith("b")
    assert page.evaluate("() => document.activeElement.dataset.hand") == "wA"
    shot(page, "hive-hands-named")


def test_hex_swap_by_keyboard_keeps_focus_and_the_colours_follow(page: Any, server: str, shot: Any) -> None:
    create_as(page, server, "hex", ("builtin:random", "you"), params={"size": "5"})
    assert wait_turn_or_end(page)
    page.focus(".boardbox button:has-text('Swap')")
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.querySelectorAll('#movelist .mv').length >= 2")  # the swap is in
    active = page.evaluate(
        "() => document.activeElement.closest('[data-cell]')?.dataset.cell || document.activeElement.tagName"
    )
    assert active != "BODY", "the focus fell to <body> after Swap"
    assert page.evaluate("() => !!document.activeElement.closest('.boardbox')"), active
    # my seat (white's) plays black now: its card says so, and the list marks the swap and the bot's next move
    assert wait_turn_or_end(page)
    assert page.text_content("#player1 strong") == "black"
    assert page.text_content("#player0 strong") == "white"
    sides = page.evaluate(
        "() => [...document.querySelectorAll('#movelist .mv')].map(m => [m.dataset.side, m.lastChild.textContent])"
    )
    assert sides[0][0] == "black" and sides[1] == ["black", "swap"] and sides[2][0] == "white", sides
    shot(page, "hex-after-swap")


def test_hex_cells_read_in_common_notation_the_wire_keeps_the_servers(page: Any, server: str) -> None:
    game_id = create_as(page, server, "hex", ("you", "builtin:random"), params={"size": "5"})
    assert wait_turn_or_end(page)
    # the server's a2 is row a, column 2: the top row, second column, which Hex players call b1
    assert page.get_attribute("[data-cell='a2']", "aria-label").startswith("b1 ")
    columns = page.evaluate("() => [...document.querySelectorAll('[data-axis=column]')].map(t => t.textContent)")
    rows = page.evaluate("() => [...document.querySelectorAll('[data-axis=row]')].map(t => t.textContent)")
    assert columns == list("abcde") and rows == ["1", "2", "3", "4", "5"], (columns, rows)
    page.click("[data-cell='a2']")
    page.wait_for_function("() => document.querySelectorAll('#movelist .mv').length >= 1")
    assert page.evaluate("() => document.querySelector('#movelist .mv').lastChild.textContent") == "b1"
    for _ in range(100):
        moves = httpx.get(f"{server}/games/{game_id}").json()["moves"]
        if moves:
            break
        time.sleep(0.05)
    assert moves[0]["move"] == "a2"  # the record keeps the server's notation


def test_the_zoomed_hex_board_shows_the_bots_reply_on_a_phone(page: Any, server: str, shot: Any) -> None:
    page.set_viewport_size(PHONE)
    create_as(page, server, "hex", ("you", "builtin:random"), params={"size": "11"})
    assert wait_turn_or_end(page)
    assert page.get_attribute("#hex-zoom", "aria-pressed") == "true"  # a phone zooms an 11x11 board
    checked = 0
    for _ in range(6):
        # I look at the left of the board and play there; the bot's reply may be anywhere
        page.evaluate(
            "() => { const s = document.querySelector('.scroller'); s.scrollLeft = 0; s.scrollTop = 0; window.scrollTo(0, 0); }"
        )
        free = page.evaluate(
            "() => [...document.querySelectorAll('[data-cell]')].filter(g => !g.querySelector('[data-stone]'))"
            ".map(g => { const b = g.getBoundingClientRect(); return [g.dataset.cell, b.left, b.right]; })"
            ".filter(([c, l, r]) => l >= 0 && r <= innerWidth).map(([c]) => c)"
        )
        page.click(f"[data-cell='{free[0]}']")
        if not wait_turn_or_end(page):
            break
        if (
            page.evaluate("() => [...document.querySelectorAll('#movelist .mv')].at(-1).lastChild.textContent")
            == "swap"
        ):
            continue
        reply = page.evaluate(
            """() => { const g = document.querySelector('.boardbox [data-cell] circle:not([data-stone])').closest('[data-cell]');
                const b = g.getBoundingClientRect(), s = document.querySelector('.scroller').getBoundingClientRect();
                return {cell: g.dataset.cell, left: b.left, right: b.right, top: b.top, bottom: b.bottom,
                        sl: s.left, sr: s.right, h: innerHeight}; }"""
        )
        assert reply["left"] >= reply["sl"] - 1 and reply["right"] <= reply["sr"] + 1, (
            f"the reply is off the board's box: {reply}"
        )
        assert reply["top"] >= 0 and reply["bottom"] <= reply["h"], f"the reply is off screen: {reply}"
        checked += 1
    assert checked >= 3, checked
    shot(page, "phone-hex-reply")


def test_the_htttx_winning_six_is_on_screen_after_panning(page: Any, server: str, shot: Any) -> None:
    for _ in range(5):
        r = httpx.post(
            f"{server}/api/matches", json={"game": "htttx", "players": ["builtin:heuristic", "builtin:random"]}
        )
        game_id = r.json()["game_id"]
        done = None
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            done = httpx.get(f"{server}/games/{game_id}").json()
            if done["status"] != "running":
                break
            time.sleep(0.1)
        if done and done["winner"] is not None and done["termination"] == "normal":
            break
    else:
        raise AssertionError("no HTTTX game won by six in a row")
    page.set_viewport_size(PHONE)
    page.goto(f"{server}/ui/#/replay/{game_id}")
    page.wait_for_selector("#slider")
    page.click("#back")
    page.wait_for_function(
        "() => Number(document.querySelector('#app').dataset.shown) < Number(document.querySelector('#slider').max)"
    )
    # pan far away from the stones with a drag
    svg = page.locator(".boardbox svg.infinite").bounding_box()
    x, y = svg["x"] + svg["width"] / 2, svg["y"] + svg["height"] / 2
    for _ in range(4):
        page.mouse.move(x, y)
        page.mouse.down()
        page.mouse.move(x - 150, y - 150, steps=5)
        page.mouse.up()
    page.click("#forward")
    page.wait_for_selector(".boardbox circle.win", state="attached")
    boxes = page.evaluate(
        """() => { const s = document.querySelector('.boardbox svg.infinite').getBoundingClientRect();
            return [...document.querySelectorAll('.boardbox circle.win')].map(c => { const b = c.getBoundingClientRect();
                return b.left >= s.left - 1 && b.right <= s.right + 1 && b.top >= s.top - 1 && b.bottom <= s.bottom + 1; }); }"""
    )
    assert len(boxes) >= 6 and all(boxes), boxes
    shot(page, "phone-htttx-win-on-screen")
