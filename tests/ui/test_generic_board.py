"""The generic board (web/js/boards/generic.js) plays a game hexarena has no board for: examples/nim, installed
for real as a plugin, on a real ``hexarena serve`` with the plugin on its path, in headless Chromium.

The page knows nothing about nim: it shows the JSON position as a table, offers the legal moves the server
lists as buttons (filtered by typing) and sends a typed move as is; the server's rules say why one is refused.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from test_browser_ui import create, record, wait_turn_or_end

from cli.serving import start_serve, stop
from plugins.fakedist import shared_nim_site


@pytest.fixture(scope="module")
def nim_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    tmp = tmp_path_factory.mktemp("nim-ui")
    proc, url = start_serve(tmp, pythonpath=(shared_nim_site(tmp_path_factory),))
    try:
        yield url
    finally:
        stop(proc)


def legal_buttons(page: Any) -> list[str]:
    return [str(m) for m in page.eval_on_selector_all("[data-move]", "els => els.map(e => e.dataset.move)")]


def test_nim_by_buttons_and_typed_moves_on_the_generic_board(page: Any, nim_server: str, shot: Any) -> None:
    game_id = create(page, nim_server, "nim", params={"heaps": "2,3"})
    assert wait_turn_or_end(page)
    page.wait_for_selector("[data-field='heaps']")
    assert page.text_content("[data-field='heaps'] td") == "2  3"
    assert sorted(legal_buttons(page)) == ["1:1", "1:2", "2:1", "2:2", "2:3"]  # the server's list, as buttons
    shot(page, "generic-nim-turn")

    # typing narrows the buttons down; a move the rules refuse comes back with the game's own reason
    page.fill("#generic-move", "2")
    assert sorted(legal_buttons(page)) == ["2:1", "2:2", "2:3"]
    page.fill("#generic-move", "2:7")
    page.press("#generic-move", "Enter")
    page.wait_for_function("() => /Illegal/.test(document.querySelector('#msg').textContent)")
    assert "heap 2 does not have 7 stone(s) to take" in page.text_content("#msg")
    shot(page, "generic-nim-illegal")

    # a typed legal move, then clicks on the listed moves until the game ends
    page.fill("#generic-move", "2:1")
    page.press("#generic-move", "Enter")
    mine = ["2:1"]
    while wait_turn_or_end(page):
        moves = legal_buttons(page)
        assert moves, "my turn with no legal move listed"
        page.click(f"[data-move='{moves[0]}']")
        mine.append(moves[0])
    shot(page, "generic-nim-end")
    assert re.search(r"wins|won|lost|draw", page.text_content("#result") or "", re.I)
    stored = record(nim_server, game_id)
    assert stored["status"] == "finished" and stored["game"] == "nim"
    assert [m["move"] for m in stored["moves"][::2]] == mine  # I was first: every other move is mine

    # the replay steps through the same positions on the generic board
    page.goto(f"{nim_server}/ui/#/replay/{game_id}")
    page.wait_for_selector("#slider")
    n = len(stored["moves"])
    assert page.text_content("#plylabel") == f"{n} / {n}"
    assert page.text_content("[data-field='heaps'] td") == "0  0"
    page.click("#first")
    assert page.text_content("[data-field='heaps'] td") == "2  3"
    page.click("#forward")
    assert page.text_content("[data-field='heaps'] td") == "2  2"  # my typed 2:1
    assert page.locator("#generic-move").is_hidden()  # nothing to play in a replay
    shot(page, "generic-nim-replay")
