"""Issue 33, item 6's leftovers, in a real browser: a winning HTTTX turn lists its first stone alone (the second,
which the rules ignore, is not listed), replays pair the moves by turn as the live page does, the match page has
Moves and Evaluation headings, named clocks and a skip link, the leaderboard's empty text says what is rated, and
Hive's piece names stay readable on a phone."""

from __future__ import annotations

import time
from typing import Any

import httpx
from test_browser_ui import create, wait_turn_or_end

PHONE = {"width": 390, "height": 844}


def finished(server: str, game_id: str, seconds: float = 30) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        rec = httpx.get(f"{server}/games/{game_id}").json()
        if rec["status"] != "running":
            return rec  # type: ignore[no-any-return]
        time.sleep(0.1)
    raise AssertionError(f"game {game_id} did not finish in {seconds} s")


def test_a_winning_first_stone_is_listed_alone(page: Any, server: str, shot: Any) -> None:
    """Two in a row win: my first stone beside X's origin stone wins, the rules ignore the second (a move is still
    two cells on the wire, as the notation's grammar says); the live list and the replay show the first alone."""
    for _ in range(3):  # O's two random stones may stand side by side and win first
        game_id = create(page, server, "htttx", params={"win_distance": "2"})
        if wait_turn_or_end(page):
            break
    else:
        raise AssertionError("O won three games in a row before my first turn")
    page.focus(".boardbox svg.infinite")
    for key in ("ArrowRight", "ArrowLeft", "ArrowLeft", "ArrowUp", "ArrowDown", "ArrowDown"):
        page.keyboard.press(key)  # a free neighbour of the origin (O may have taken some)
        if "empty" in page.text_content(".cursor-status"):
            break
    cell = page.get_attribute(".boardbox svg.infinite", "data-cursor")
    page.keyboard.press("Enter")
    page.wait_for_function("() => !document.querySelector('#result').hidden")
    page.wait_for_function("() => document.querySelectorAll('#movelist .mv').length === 2")
    mine = f"[{cell}]"
    assert page.evaluate("() => [...document.querySelectorAll('#movelist .mv')].at(-1).textContent") == mine
    recorded = finished(server, game_id)["moves"][-1]["move"]
    assert recorded.startswith(mine) and recorded != mine  # the record keeps the pair
    shot(page, "htttx-winning-first-stone-live")
    page.goto(f"{server}/ui/#/replay/{game_id}")
    page.wait_for_selector("#movelist .mv", state="attached")
    assert page.evaluate("() => [...document.querySelectorAll('#movelist .mv')].at(-1).textContent") == mine


def test_replays_pair_the_moves_by_turn_as_the_live_page(page: Any, server: str, shot: Any) -> None:
    game_id = httpx.post(
        f"{server}/api/matches", json={"game": "tictactoe", "players": ["builtin:random", "builtin:random"]}
    ).json()["game_id"]
    moves = [m["move"] for m in finished(server, game_id)["moves"]]
    page.goto(f"{server}/ui/#/replay/{game_id}")
    page.wait_for_selector("#movelist li")
    rows = page.evaluate(
        "() => [...document.querySelectorAll('#movelist li')].map(li => [...li.querySelectorAll('.mv')].map(m => m.textContent))"
    )
    assert rows == [moves[i : i + 2] for i in range(0, len(moves), 2)], (rows, moves)
    # a click on a move shows that position, and the move is marked
    page.click("#movelist [data-ply='2']")
    page.wait_for_function("() => document.querySelector('#app').dataset.shown === '2'")
    assert page.get_attribute("#movelist [data-ply='2']", "class").split().count("current") == 1
    shot(page, "replay-paired")


def test_headings_named_clocks_and_a_skip_link(page: Any, server: str, shot: Any) -> None:
    create(page, server, "tictactoe", seat1="builtin:best", clock=("match", "300"))
    assert wait_turn_or_end(page)
    headings = page.evaluate("() => [...document.querySelectorAll('#app h2')].map(h => h.textContent.trim())")
    assert "Moves" in headings and "Evaluation" in headings, headings
    clocks = page.evaluate(
        "() => [...document.querySelectorAll('.clock')].map(c => [c.getAttribute('role'), c.getAttribute('aria-label')])"
    )
    assert clocks == [["timer", "X's clock"], ["timer", "O's clock"]], clocks
    # the skip link is the page's first Tab stop, shown when focused; following it puts the focus on the content
    first = page.evaluate(
        "() => document.querySelector('a[href], button, input, select, textarea, [tabindex=\"0\"]').className"
    )
    assert first == "skip", first
    page.focus("a.skip")
    assert page.evaluate("() => document.activeElement.textContent") == "Skip to the content"
    assert page.evaluate("() => document.activeElement.getBoundingClientRect().top") >= 0
    hash_before = page.evaluate("() => location.hash")
    page.keyboard.press("Enter")
    assert page.evaluate("() => document.activeElement.id") == "app"
    assert page.evaluate("() => location.hash") == hash_before
    page.keyboard.press("Tab")
    assert page.evaluate("() => !!document.activeElement.closest('#app')")
    shot(page, "headings-and-skip-link")


def test_the_empty_leaderboard_says_what_is_rated(page: Any, server: str) -> None:
    page.goto(f"{server}/ui/#/leaderboard/hive")
    page.wait_for_selector("p.muted:has-text('Nobody is rated')")
    text = page.text_content("p.muted:has-text('Nobody is rated')")
    assert "ratings come from tournaments" not in text, text  # API matches between bots are rated too
    assert "single matches" in text and "person" in text and "not rated" in text, text


def test_hive_piece_names_are_readable_on_a_phone(page: Any, server: str, shot: Any) -> None:
    page.set_viewport_size(PHONE)
    create(page, server, "hive")
    for _ in range(3):
        assert wait_turn_or_end(page)
        page.click("[data-hand^='w']:not([data-hand='wQ'])")
        page.click("[data-target]")
    assert wait_turn_or_end(page)
    sizes = page.evaluate(
        """() => [...document.querySelectorAll('.boardbox svg text')].filter(t => /^[wb][A-Z]\\d?$/.test(t.textContent))
            .map(t => parseFloat(t.getAttribute('font-size')) * t.ownerSVGElement.getScreenCTM().a)"""
    )
    assert len(sizes) >= 4 and min(sizes) >= 11.5, sizes
    shot(page, "phone-hive-names")
