"""Every game played from the keyboard alone in a real browser (issue 15): Tab reaches the board, the arrow keys
move a focus cell, Enter plays it, Escape drops a selection, and a live region announces the moves and the result.

The tests read the page (which cell has the focus, what it is labelled) but never click: every move is made with
``page.keyboard``.
"""

from __future__ import annotations

from typing import Any

from test_browser_ui import create, record, wait_turn_or_end

# the focused board cell: its name and what a screen reader is told (HTTTX's board is one focusable element with a
# cursor cell, described in its own live region)
FOCUSED = """() => { const a = document.activeElement; if (!a || !a.closest('.boardbox')) return null;
    if (a.dataset.cursor !== undefined)
        return {key: a.dataset.cursor, label: document.querySelector('.cursor-status').textContent};
    return {key: a.dataset.cell || a.dataset.dot || '', label: a.getAttribute('aria-label') || ''}; }"""


def focused(page: Any) -> dict[str, str] | None:
    return page.evaluate(FOCUSED)  # type: ignore[no-any-return]


def tab_to_board(page: Any) -> dict[str, str]:
    """Tab from the top of the page until a board cell has the focus (a keyboard user's way in)."""
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    for _ in range(40):
        page.keyboard.press("Tab")
        cell = focused(page)
        if cell is not None and cell["key"]:
            return cell
    raise AssertionError("Tab never reaches the board")


def press(page: Any, key: str) -> bool:
    """Press an arrow key; True when the focus cell moved."""
    before = focused(page)
    page.keyboard.press(key)
    after = focused(page)
    assert before is not None and after is not None, "the board lost the focus"
    return after["key"] != before["key"]


def walk_to(page: Any, wanted: Any, rows: int = 40) -> dict[str, str]:
    """Move the focus with the arrow keys to the first cell for which ``wanted(cell)`` holds, reading the board
    row by row as a keyboard user would: up and left to the corner, then each row from its left end to its
    right end, then down a row."""
    cell = focused(page)
    assert cell is not None, "the board lost the focus"
    if wanted(cell):
        return cell
    while press(page, "ArrowUp"):
        pass
    for _ in range(rows):
        while press(page, "ArrowLeft"):
            pass
        while True:
            cell = focused(page)
            if wanted(cell):
                return cell  # type: ignore[no-any-return]
            if not press(page, "ArrowRight"):
                break
        if not press(page, "ArrowDown"):
            break
    seen = page.evaluate(
        "() => [...document.querySelectorAll('.boardbox [aria-label]')].map(e => e.getAttribute('aria-label'))"
    )
    raise AssertionError(f"no wanted cell found by the arrow keys; at {focused(page)}; cells {seen}")


def announced(page: Any) -> str:
    return str(page.text_content("#announce"))


def test_tictactoe_by_keyboard_to_the_end_with_moves_and_result_announced(page: Any, server: str, shot: Any) -> None:
    game_id = create(page, server, "tictactoe")
    assert wait_turn_or_end(page)
    assert page.get_attribute("#announce", "aria-live") == "polite"
    cell = tab_to_board(page)
    assert cell["key"] == "b2" and cell["label"] == "b2 empty", cell
    page.keyboard.press("Enter")
    played = 0
    while wait_turn_or_end(page):
        played += 1
        page.wait_for_function("() => /^O played [a-c][1-3]\\.$/.test(document.querySelector('#announce').textContent)")
        # the board kept the focus through the redraws: no Tab needed again
        walk_to(page, lambda c: c["label"].endswith("empty"))
        page.keyboard.press("Enter")
    stored = record(server, game_id)
    assert stored["moves"][0]["move"] == "b2"
    page.wait_for_function("() => /^Game over\\./.test(document.querySelector('#announce').textContent)")
    assert page.text_content("#result") in announced(page)
    shot(page, "keyboard-tictactoe-end")


def stored_moves(server: str, game_id: str, seat: int = 0) -> list[str]:
    """The moves seat ``seat`` (mine) played so far."""
    import httpx

    moves = httpx.get(f"{server}/api/ui/replay/{game_id}").json()["moves"]
    return [m["move"] for m in moves if m["seat"] == seat]


def test_hex_by_keyboard_to_the_end(page: Any, server: str) -> None:
    game_id = create(page, server, "hex", params={"size": "4"})
    assert wait_turn_or_end(page)
    cell = tab_to_board(page)
    # the name is the common Hex notation (letter = column), the key the server's (letter = row): transposed
    row, col = cell["key"][0], int(cell["key"][1:])
    assert cell["label"] == f"{chr(96 + col)}{ord(row) - 96} empty", cell
    page.keyboard.press("Enter")
    mine = [cell["key"]]
    while wait_turn_or_end(page):
        cell = walk_to(page, lambda c: c["label"].endswith("empty"))
        mine.append(cell["key"])
        page.keyboard.press("Enter")
    moves = record(server, game_id)["moves"]
    assert [m["move"] for m in moves if m["seat"] == 0] == mine
    page.wait_for_function("() => /^Game over\\./.test(document.querySelector('#announce').textContent)")


def test_hexdots_by_keyboard_escape_drops_the_picked_dot(page: Any, server: str) -> None:
    game_id = create(page, server, "hexdots", params={"rows": "3", "cols": "3"})
    assert wait_turn_or_end(page)
    cell = tab_to_board(page)
    page.keyboard.press("Enter")
    assert focused(page)["label"].startswith(f"dot {cell['key']}, picked: draw a line to ")
    page.keyboard.press("Escape")
    assert focused(page)["label"].startswith(f"dot {cell['key']}, can draw to ")
    page.keyboard.press("Enter")
    page.keyboard.press("ArrowRight")
    other = focused(page)
    if other["key"] == cell["key"]:
        page.keyboard.press("ArrowLeft")
        other = focused(page)
    assert other["key"] != cell["key"]
    page.keyboard.press("Enter")
    assert wait_turn_or_end(page)
    first = stored_moves(server, game_id)[0]
    assert set(first.split("-")) == {cell["key"], other["key"]}, first
    page.wait_for_function("() => / played /.test(document.querySelector('#announce').textContent)")


def tab_to(page: Any, selector: str) -> None:
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate("(s) => document.activeElement.matches(s)", selector):
            return
    raise AssertionError(f"Tab never reaches {selector}")


def test_hive_by_keyboard_place_move_and_escape(page: Any, server: str, shot: Any) -> None:
    game_id = create(page, server, "hive")
    assert wait_turn_or_end(page)
    tab_to(page, "[data-hand='wG']")
    page.keyboard.press("Enter")
    # the focus jumps to the first place the grasshopper may go
    target = focused(page)
    assert target is not None and target["label"].endswith("a legal destination"), target
    page.keyboard.press("Enter")
    assert wait_turn_or_end(page)
    tab_to(page, "[data-hand='wQ']")
    page.keyboard.press("Enter")
    page.keyboard.press("Escape")  # changed my mind
    assert page.locator("[data-target]").count() == 0
    assert page.locator("[data-hand='wQ'].selected").count() == 0
    tab_to(page, "[data-hand='wQ']")
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")
    assert wait_turn_or_end(page)
    # a piece on the board: walk to one that can move, pick it, drop it with Escape, pick it again and move it
    tab_to_board(page)
    piece = walk_to(page, lambda c: c["label"].endswith("can move"))
    page.keyboard.press("Enter")
    assert page.locator("[data-target]").count() > 0
    assert "selected" in focused(page)["label"]
    page.keyboard.press("Escape")
    assert page.locator("[data-target]").count() == 0
    page.keyboard.press("Enter")
    walk_to(page, lambda c: c["label"].endswith("a legal destination"))
    page.keyboard.press("Enter")
    assert wait_turn_or_end(page)
    moves = stored_moves(server, game_id)
    shot(page, "keyboard-hive")
    assert moves[0].startswith("wG1") and moves[1].startswith("wQ") and moves[2].startswith(piece["label"][:3]), moves


def test_htttx_by_keyboard_cursor_first_stone_escape_and_second(page: Any, server: str) -> None:
    game_id = create(page, server, "htttx")
    assert wait_turn_or_end(page)
    cursor = tab_to_board(page)
    assert cursor["key"] == "0,0" and "X stone" in cursor["label"], cursor
    first = walk_line(page, "ArrowRight", lambda c: c["label"].endswith(": empty, playable"))
    page.keyboard.press("Enter")
    page.wait_for_selector(f"[data-pending='{first['key']}']")
    assert focused(page)["label"].endswith("your first stone")
    page.keyboard.press("Escape")
    page.wait_for_function("() => !document.querySelector('[data-pending]')")
    page.keyboard.press("Enter")
    page.wait_for_selector(f"[data-pending='{first['key']}']")
    second = walk_line(page, "ArrowUp", lambda c: c["label"].endswith(": empty, playable"))
    page.keyboard.press("Enter")
    assert wait_turn_or_end(page)
    assert stored_moves(server, game_id)[0] == f"[{first['key']}][{second['key']}]"


def walk_line(page: Any, key: str, wanted: Any) -> dict[str, str]:
    """Press ``key`` until the focus cell is one ``wanted``; the HTTTX cursor reports where it is."""
    for _ in range(12):
        page.keyboard.press(key)
        cell = focused(page)
        assert cell is not None
        if wanted(cell):
            return cell
    raise AssertionError(f"{key} never reached a wanted cell")


def test_numberwang_by_keyboard(page: Any, server: str) -> None:
    game_id = create(page, server, "numberwang")
    assert wait_turn_or_end(page)
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    tab_to(page, "input[aria-label='number to add']")
    page.keyboard.press("Control+A")
    page.keyboard.type("2")
    page.keyboard.press("Enter")
    # my turn again, or the end: the random reply may be 8, 9 or 10, which takes the total to 10 or more (a win)
    wait_turn_or_end(page)
    assert stored_moves(server, game_id)[0] == "2"
    page.wait_for_function("() => /played|Game over/.test(document.querySelector('#announce').textContent)")


def test_arrow_keys_keep_to_rows_on_a_hex_board(page: Any, server: str) -> None:
    """Left and right stay in the row (no jump to the row above at its end); down takes the next row, not the one
    after it (on a rhombus the cell straight below is two rows down)."""
    page.goto(f"{server}/ui/#/games")
    page.wait_for_selector("h1")
    log = page.evaluate(
        """async () => {
            const { make } = await import('/ui/js/boards/hex.js');
            const board = make({size: 4});
            const box = document.createElement('div');
            box.className = 'boardbox';
            box.append(board.el);
            document.querySelector('#app').append(box);
            board.render({size: 4, board: ['B...', '....', '....', '....']}, {});
            box.querySelector('[data-cell=a1]').focus();
            const log = [];
            for (const key of ['ArrowRight', 'ArrowRight', 'ArrowRight', 'ArrowDown', 'ArrowLeft', 'ArrowLeft',
                               'ArrowLeft', 'ArrowDown', 'ArrowUp', 'ArrowUp']) {
                document.activeElement.dispatchEvent(new KeyboardEvent('keydown', {key, bubbles: true}));
                log.push(document.activeElement.dataset.cell);
            }
            box.remove();
            return log; }"""
    )
    assert log == ["a2", "a3", "a4", "b3", "b2", "b1", "b1", "c1", "b1", "a1"], log
