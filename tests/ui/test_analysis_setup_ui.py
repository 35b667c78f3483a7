"""Setting up a position on the analysis board in chromium (issue 33: "set up or open any position"): the Edit
position mode, cells cycled by mouse and by keyboard, the side to move chosen, what is wrong with a setup said while
editing, Done analysing it (noughts and crosses, a Hex stone the swap rule does not reach, an HTTTX five on its unbounded board),
editing from the position shown, and a game that cannot be set up saying why with no editor; axe on every state
shot.

What the page must show is the rules engine's and the perfect bot's answer for the same stones, not the page's own.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

from test_analysis_board_ui import text, wait_for_bot

from hexarena.bots.tictactoe import best_moves
from hexarena.core.registry import get_game


def editor_ready(page: Any) -> None:
    """Wait for the editor's first draft: its board takes clicks as edits only once the server has drawn it (a
    click before that, on a loaded machine, went to the board still in analysis)."""
    page.wait_for_selector("#editor:not([hidden])")
    page.wait_for_function(
        "() => /press Done to analyse|Not a position to analyse yet/.test(document.getElementById('msg').textContent)"
    )


def cycle_to(page: Any, cell: str, clicks: int) -> None:
    for _ in range(clicks):
        page.click(f"[data-cell='{cell}']")


def test_a_tic_tac_toe_position_set_up_by_mouse_and_keyboard_shows_its_winning_move(
    page: Any, server: str, shot: Any
) -> None:
    # X on a1 a2, O on b1 b2, X to move: only a3 wins at once (the rules engine and the perfect bot agree)
    stones = [("a1", 0), ("a2", 0), ("b1", 1), ("b2", 1)]
    state = get_game("tictactoe").setup_position({}, stones, 0)
    assert [get_game("tictactoe").format(m) for m in best_moves(state)] == ["a3"]

    page.goto(f"{server}/ui/#/analysis/tictactoe")
    page.wait_for_function("() => document.getElementById('app').dataset.ply === '0'")
    page.click("#edit-position")
    editor_ready(page)
    cycle_to(page, "a1", 1)
    page.wait_for_function(
        "() => /Not a position to analyse yet: 1 X and 0 O/.test(document.getElementById('msg').textContent)"
    )
    cycle_to(page, "a2", 1)
    cycle_to(page, "b1", 2)
    # b2 by keyboard: arrows to it from b1, Enter twice (empty, X, O)
    page.focus("[data-cell='b1']")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    page.wait_for_function("() => /3 X and 1 O/.test(document.getElementById('msg').textContent)")
    page.keyboard.press("Enter")
    page.wait_for_function("() => /X to move: press Done/.test(document.getElementById('msg').textContent)")
    board = page.eval_on_selector_all("[data-cell]", "cs => cs.map(c => c.getAttribute('aria-label'))")
    assert "a1 X" in board and "b2 O" in board and "c3 empty" in board, board
    shot(page, "analysis-setup-editing")

    # the wrong side to move is said, and Done refuses it
    page.select_option("#setup-to-move", "1")
    page.wait_for_function("() => /not a position with O to move/.test(document.getElementById('msg').textContent)")
    page.click("#setup-done")
    page.wait_for_function(
        "() => /Cannot analyse this setup: .*O to move/.test(document.getElementById('msg').textContent)"
    )
    assert page.is_visible("#editor")
    page.select_option("#setup-to-move", "0")
    page.wait_for_function("() => /X to move: press Done/.test(document.getElementById('msg').textContent)")
    page.click("#setup-done")

    wait_for_bot(page, "perfect")
    assert text(page, "#bestmove strong") == "a3"
    assert "X wins with best play" in text(page, "#evaltext")
    assert page.is_hidden("#editor") and "setup=" in page.url
    shot(page, "analysis-setup-analysed")
    # the winning move played on from the setup ends the game
    page.click("#pv li button")
    page.wait_for_function("() => /The game is over: X wins/.test(document.getElementById('msg').textContent)")


def test_a_game_that_cannot_be_set_up_says_why_and_has_no_editor(page: Any, server: str, shot: Any) -> None:
    page.goto(f"{server}/ui/#/analysis/hive")
    page.wait_for_function("() => document.getElementById('app').dataset.ply === '0'")
    assert page.is_hidden("#edit-position")
    assert "needs its move history" in text(page, "#no-setup")
    shot(page, "analysis-no-setup")


def test_editing_starts_from_the_position_shown(page: Any, server: str, shot: Any) -> None:
    page.goto(f'{server}/ui/#/analysis/tictactoe?line=["a1","b1","a2","b2"]')
    page.wait_for_function("() => document.getElementById('app').dataset.ply === '4'")
    page.click("#edit-position")
    page.wait_for_function("() => /X to move: press Done/.test(document.getElementById('msg').textContent)")
    assert page.get_attribute("[data-cell='b2']", "aria-label") == "b2 O"
    cycle_to(page, "c1", 1)  # one more X: O's turn now, and O's row comes first
    page.select_option("#setup-to-move", "1")
    page.wait_for_function("() => /O to move: press Done/.test(document.getElementById('msg').textContent)")
    page.click("#setup-done")
    # the position before the edit was analysed by the same bot (X's a3 then): wait for the set-up one's answer
    page.wait_for_function("() => document.querySelector('#bestmove strong')?.textContent.trim() === 'b3'")
    assert "O wins with best play" in text(page, "#evaltext")
    shot(page, "analysis-setup-from-a-line")


def test_an_htttx_setup_edited_by_click_and_keyboard_finds_the_sixth_stone(page: Any, server: str, shot: Any) -> None:
    # X five in a row from the origin, six O stones, X to move
    xs = [[[q, 0], 0] for q in range(5)]
    os = [[[q, 4], 1] for q in (0, 1, 3, 4)] + [[[q, -4], 1] for q in (0, 2)]
    link = json.dumps({"stones": xs + os, "to_move": 0}, separators=(",", ":"))
    page.goto(f"{server}/ui/#/analysis/htttx?setup={quote(link)}")
    page.wait_for_function("() => document.getElementById('app').dataset.ply === '0'")
    page.click("#edit-position")
    page.wait_for_function("() => /x to move: press Done/.test(document.getElementById('msg').textContent)")
    page.click("[data-stone='4,4']")  # an O stone: the cycle empties it
    page.wait_for_function("() => /5 x and 5 o/.test(document.getElementById('msg').textContent)")
    page.focus(".boardbox svg")  # the keyboard cursor starts on the origin
    page.keyboard.press("ArrowLeft")  # (-1, 0): one end of the five
    page.keyboard.press("Enter")
    # an X there is six in a row: a finished position, refused while editing
    page.wait_for_function("() => /already has 6 in a row/.test(document.getElementById('msg').textContent)")
    page.keyboard.press("Enter")  # ...now O's: the five is blocked at one end
    page.wait_for_function("() => /x to move: press Done/.test(document.getElementById('msg').textContent)")
    shot(page, "analysis-setup-htttx")
    page.click("#setup-done")
    wait_for_bot(page, "search")
    assert "[5,0]" in text(page, "#bestmove strong")  # the open end


def test_a_hex_stone_set_up_on_the_centre_is_not_swapped(page: Any, server: str, shot: Any) -> None:
    # 3x3 with the swap rule: a set-up stone is no first move, so the position is played without the swap rule
    # (the page's parameters say so); the bot answers with a cell, every one of them lost to the centre
    page.goto(f'{server}/ui/#/analysis/hex?params={{"size":3,"swap":true}}')
    page.wait_for_function("() => document.getElementById('app').dataset.ply === '0'")
    page.click("#edit-position")
    editor_ready(page)
    cycle_to(page, "b2", 1)
    page.wait_for_function("() => /1 black and 0 white/.test(document.getElementById('msg').textContent)")
    page.select_option("#setup-to-move", "1")
    page.wait_for_function("() => /white to move: press Done/.test(document.getElementById('msg').textContent)")
    shot(page, "analysis-setup-hex")
    page.click("#setup-done")
    wait_for_bot(page, "mcts")
    assert text(page, "#bestmove strong") != "swap"
    assert not page.is_checked("#param-swap")


def test_an_analysis_that_returns_while_a_position_is_edited_is_not_shown(page: Any, server: str) -> None:
    """The start position's analysis, asked before Edit position and answered during the edit, must not show as
    the edited position's: the page says it is editing until Done."""
    held: list[Any] = []
    page.route("**/api/analysis/tictactoe", lambda route: held.append(route))  # the analysis, not /position
    page.goto(f"{server}/ui/#/analysis/tictactoe")
    page.wait_for_function("() => /is thinking/.test(document.getElementById('evaltext')?.textContent ?? '')")
    page.click("#edit-position")
    editor_ready(page)
    assert page.evaluate("() => document.getElementById('app').dataset.answers") is None
    held[0].continue_()
    page.wait_for_function("() => document.getElementById('app').dataset.answers === '1'")  # taken in, not shown
    assert text(page, "#evaltext") == "Editing a position: press Done to analyse it."
    assert text(page, "#bestmove") == "" and page.query_selector_all("#pv li") == []
