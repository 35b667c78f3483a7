"""The web UI in a real browser (headless Debian chromium via Playwright) against a real server on loopback.

A person creates games in the lobby and plays them by clicks (noughts and crosses and Hex to the end against
``builtin:random``; a turn of HTTTX, Hive and hexagon dots); an illegal click shows the rules' reason; a
spectator page follows a live bot-vs-bot game to its end; a replay steps through a stored game; a person
resigns (inline confirm) and the stored game records it. Every page is screenshotted under ``test-artifacts/screenshots/``.
"""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Mapping
from typing import Any

import httpx
from browser_pages import PAGE_TIMEOUT_MS
from websockets.sync.client import connect as ws_connect


def create(
    page: Any,
    server: str,
    game: str,
    seat1: str = "builtin:random",
    params: Mapping[str, str | bool] | None = None,
    clock: tuple[str, str] | None = None,
) -> str:
    """Fill the lobby form (seat 1 is me) and create the match; returns the match id from the URL. A bool param
    sets its checkbox, any other is typed."""
    page.goto(f"{server}/ui/#/lobby")
    page.select_option("#game", game)
    for name, value in (params or {}).items():
        if isinstance(value, bool):
            page.set_checked(f"#param-{name}", value)
        else:
            page.fill(f"#param-{name}", value)
    if clock is not None:  # else the game's default preset
        page.select_option("#clock-type", clock[0])
        if clock[0] != "none":
            page.fill("#clock-seconds", clock[1])
    page.select_option("#seat0-kind", "you")
    page.select_option("#seat1-kind", seat1)
    page.click("#create")
    page.wait_for_function("() => /^#\\/play\\/[0-9a-f]+$/.test(location.hash) && document.querySelector('#result')")
    return str(page.evaluate("() => { window.__seenTurns = 0; return location.hash.split('/')[2]; }"))


def wait_turn_or_end(page: Any, timeout: float = 15.0) -> bool:
    """True when it is my turn (a new one since the last call), False once the game is over."""
    seen = page.evaluate("() => window.__seenTurns || 0")
    page.wait_for_function(
        "(seen) => { const r = document.querySelector('#result'); const a = document.querySelector('#app');"
        " return !!r && (!r.hidden || (Number(a.dataset.turns) > seen && /Your move/.test(document.querySelector('#msg').textContent))); }",
        arg=seen,
        timeout=timeout * 1000,
    )
    page.evaluate("() => { window.__seenTurns = Number(document.querySelector('#app').dataset.turns); }")
    return bool(page.locator("#result").is_hidden())


def record(server: str, game_id: str, seconds: float = 60) -> dict[str, Any]:
    """The game's record once it is over. A minute: a random Hive game of 1,000 plies takes its server a couple of
    seconds of CPU, several times that on a loaded machine."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        r = httpx.get(f"{server}/games/{game_id}", timeout=30)
        if r.json()["status"] != "running":
            return r.json()  # type: ignore[no-any-return]
        time.sleep(0.05)
    raise AssertionError(f"the game did not finish within {seconds:g} s ({len(r.json()['moves'])} moves so far)")


def test_tictactoe_by_clicks_illegal_click_and_replay(page: Any, server: str, shot: Any) -> None:
    page.goto(f"{server}/ui/")
    page.wait_for_selector("#create")
    shot(page, "lobby")
    page.set_viewport_size({"width": 390, "height": 844})
    shot(page, "lobby-phone")
    page.set_viewport_size({"width": 1200, "height": 900})
    game_id = create(page, server, "tictactoe", clock=("match", "300"))
    rng = random.Random(7)
    # the clock of the side to move runs on screen
    assert wait_turn_or_end(page)
    page.wait_for_function("() => /^4:5\\d$/.test(document.querySelector('#player0 .clock').textContent)", timeout=3000)
    first = page.text_content("#player0 .clock")
    assert re.fullmatch(r"4:5\d", first), first
    page.wait_for_function(
        "(t) => document.querySelector('#player0 .clock').textContent !== t", arg=first, timeout=3000
    )
    page.evaluate("() => { window.__seenTurns = 0; }")
    clicked_illegal = False
    while wait_turn_or_end(page):
        board = page.evaluate(
            "() => [...document.querySelectorAll('[data-cell]')].map(g => [g.dataset.cell, g.querySelectorAll('path,circle').length > 0])"
        )
        taken = [c for c, full in board if full]
        free = [c for c, full in board if not full]
        if taken and not clicked_illegal:
            page.click(f"[data-cell='{taken[0]}']")
            page.wait_for_function("() => /Illegal/.test(document.querySelector('#msg').textContent)")
            text = page.text_content("#msg")
            assert f"cell '{taken[0]}' is occupied" in text
            shot(page, "play-illegal-click")
            clicked_illegal = True
        page.click(f"[data-cell='{rng.choice(free)}']")
    assert clicked_illegal
    result = page.text_content("#result")
    shot(page, "play-tictactoe-end")
    stored = record(server, game_id)
    assert stored["status"] == "finished" and stored["termination"] in ("normal",)
    expected = "Draw" if stored["winner"] is None else f"{['X', 'O'][stored['winner']]} wins"
    assert result.startswith(expected)

    # the games list links to the replay, which steps through every position
    page.goto(f"{server}/ui/#/games")
    page.wait_for_selector(f"tr[data-game='{game_id}']")
    shot(page, "games")
    page.goto(f"{server}/ui/#/bots")
    page.wait_for_selector("#bots")
    assert page.locator("#bots tr", has_text="perfect").count() == 1
    shot(page, "bots")
    page.goto(f"{server}/ui/#/games?game=tictactoe")
    page.click(f"tr[data-game='{game_id}'] a")
    page.wait_for_selector("#slider")
    n = len(stored["moves"])
    marks = "() => document.querySelectorAll('[data-cell] path, [data-cell] circle').length"
    assert page.text_content("#plylabel") == f"{n} / {n}"
    assert page.evaluate(marks) == n
    page.click("#first")
    assert page.evaluate(marks) == 0 and page.text_content("#plylabel") == f"0 / {n}"
    page.click("#forward")
    page.click("#forward")
    assert page.evaluate(marks) == 2
    page.click("#back")
    assert page.evaluate(marks) == 1
    page.fill("#slider", "3")
    assert page.evaluate(marks) == 3
    page.click("#last")
    assert page.evaluate(marks) == n
    head, _, body = page.input_value("#notation").partition("\n\n")  # the export's headers, then the moves
    assert head.startswith('[Game "tictactoe"]\n') and body == " ".join(m["move"] for m in stored["moves"])
    shot(page, "replay-tictactoe")
    page.set_viewport_size({"width": 390, "height": 844})
    shot(page, "replay-tictactoe-phone")


def test_hex_game_to_the_end_by_clicks(page: Any, server: str, shot: Any) -> None:
    game_id = create(page, server, "hex", params={"size": "4"})
    rng = random.Random(3)
    turns = 0
    while wait_turn_or_end(page):
        free = page.evaluate(
            "() => [...document.querySelectorAll('[data-cell]')].filter(g => !g.querySelector('[data-stone]')).map(g => g.dataset.cell)"
        )
        page.click(f"[data-cell='{rng.choice(free)}']")
        turns += 1
        if turns == 1:
            shot(page, "play-hex")
            # a reload rejoins the seat with the stored token: the game goes on
            page.wait_for_function(
                "() => document.querySelectorAll('.moves .mv').length >= 2 || !document.querySelector('#result').hidden"
            )
            page.reload()
    shot(page, "play-hex-end")
    stored = record(server, game_id)
    assert stored["termination"] == "normal" and stored["winner"] in (0, 1)
    assert turns == sum(1 for m in stored["moves"] if m["seat"] == 0)
    assert "wins" in page.text_content("#result")


def test_spectator_follows_a_live_game_move_by_move_to_its_end(page: Any, server: str, shot: Any) -> None:
    """The watch page of a live game shows each move as it is played, then the result. The test plays one seat
    itself over the seat socket, so the game is live for as long as the test needs (a game between two bots
    could end before the page opened on a loaded machine, and a finished game is shown as a replay instead)."""
    r = httpx.post(
        f"{server}/api/matches",
        json={"game": "hex", "params": {"size": 5}, "players": ["browser:ann", "builtin:random"]},
    )
    assert r.status_code == 200, r.text
    game_id, token = r.json()["game_id"], next(iter(r.json()["tokens"].values()))
    page.goto(f"{server}/ui/#/watch/{game_id}")
    page.wait_for_selector("#result", state="attached")
    shown = "() => document.querySelectorAll('.moves .mv').length"
    played = 0
    with ws_connect("ws" + server[len("http") :] + f"/api/play?token={token}") as seat:
        while True:
            msg = json.loads(seat.recv(timeout=15))
            if msg["type"] == "end":
                break
            if msg["type"] != "your_turn":
                continue
            # the page shows every move so far (mine and the bot's replies) before the next one is played
            page.wait_for_function(f"() => ({shown})() >= {2 * played}", timeout=15000)
            played += 1
            seat.send(json.dumps({"type": "move", "move": msg["legal"]["moves"][0]["move"]}))
    page.wait_for_function("() => !document.querySelector('#result').hidden", timeout=15000)
    shot(page, "watch-hex-end")
    stored = record(server, game_id)
    assert page.evaluate(shown) == len(stored["moves"])
    assert played >= 3 and "wins" in page.text_content("#result")


def test_htttx_turn_by_two_clicks(page: Any, server: str, shot: Any) -> None:
    game_id = create(page, server, "htttx", seat1="builtin:random")
    # X's first stone is at the origin and O (the bot) moves first: wait for my turn
    assert wait_turn_or_end(page)
    stones = page.evaluate("() => document.querySelectorAll('[data-stone]').length")
    box = page.locator("svg.infinite").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    assert re.match(r"q -?\d+, r -?\d+", page.text_content(".hover"))

    # click through the page's own geometry: the pixel centre of (q, r) in the SVG's coordinate system
    def pixel(q: int, r: int) -> tuple[float, float]:
        x, y = page.evaluate(
            """([q, r]) => { const svg = document.querySelector('svg.infinite');
                const x = 20 * Math.sqrt(3) * (q + r / 2), y = 30 * r;
                const p = new DOMPoint(x, y).matrixTransform(svg.getScreenCTM());
                return [p.x, p.y]; }""",
            [q, r],
        )
        return float(x), float(y)

    def click_cell(q: int, r: int) -> None:
        page.mouse.click(*pixel(q, r))

    def on_screen(q: int, r: int) -> bool:  # the view fits the stones, so cells near the origin may be off it
        x, y = pixel(q, r)
        return box["x"] + 20 < x < box["x"] + box["width"] - 20 and box["y"] + 20 < y < box["y"] + box["height"] - 20

    taken = set(page.evaluate("() => [...document.querySelectorAll('[data-stone]')].map(e => e.dataset.stone)"))
    free = [(q, r) for q in range(-2, 3) for r in range(-2, 3) if f"{q},{r}" not in taken and on_screen(q, r)]
    (q1, r1), (q2, r2) = free[0], free[1]
    occupied = next(c for c in (tuple(map(int, t.split(","))) for t in taken) if on_screen(*c))
    click_cell(*occupied)
    page.wait_for_function("() => /Illegal: cell .* is occupied/.test(document.querySelector('#msg').textContent)")
    click_cell(q1, r1)
    page.wait_for_selector("[data-pending]")
    shot(page, "play-htttx-first-stone")
    click_cell(q2, r2)
    page.wait_for_function(f"() => document.querySelectorAll('[data-stone]').length >= {stones + 2}")
    stored = httpx.get(f"{server}/games/{game_id}").json()
    assert f"[{q1},{r1}][{q2},{r2}]" in [m["move"] for m in stored["moves"]]
    wait_turn_or_end(page)
    shot(page, "play-htttx")
    # pan by dragging, zoom with the wheel: the view box moves / shrinks, and no stone is placed by either
    view = "() => document.querySelector('svg.infinite').getAttribute('viewBox').split(' ').map(Number)"
    before = page.evaluate(view)
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(cx, cy)
    page.mouse.down()
    page.mouse.move(cx + 120, cy + 40, steps=5)
    page.mouse.up()
    panned = page.evaluate(view)
    assert panned[0] < before[0] and panned[1] < before[1] and panned[2] == before[2]
    page.mouse.wheel(0, -300)
    page.wait_for_function(f"(w) => ({view})()[2] < w", arg=panned[2])
    assert page.evaluate("() => document.querySelectorAll('[data-pending]').length") == 0
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_timeout(300)
    shot(page, "play-htttx-phone")


def test_hive_place_and_hexdots_line(page: Any, server: str, shot: Any) -> None:
    create(page, server, "hive")
    assert wait_turn_or_end(page)
    page.click("[data-hand='wQ']")  # the queen may not be placed on the first turn: explained
    page.wait_for_function("() => /You may not place a Queen/.test(document.querySelector('#msg').textContent)")
    page.click("[data-hand='wG']")
    page.click("[data-target]")
    page.wait_for_function("() => document.querySelectorAll('[data-piece]').length >= 2")
    assert wait_turn_or_end(page)
    assert page.evaluate("() => document.querySelectorAll('[data-target]').length") == 0
    page.click("[data-hand='wA']")
    targets = page.evaluate("() => document.querySelectorAll('[data-target]').length")
    assert targets > 0
    shot(page, "play-hive")

    create(page, server, "hexdots", params={"rows": "3", "cols": "3"})
    assert wait_turn_or_end(page)
    page.click("[data-dot='0,0']")
    page.click("[data-dot='2,1']")  # not neighbours: the rules say why
    page.wait_for_function("() => /Illegal/.test(document.querySelector('#msg').textContent)")
    page.click("[data-dot='0,0']")
    page.click("[data-dot='0,1']")
    page.wait_for_selector("[data-line='0,0-0,1']", state="attached")
    shot(page, "play-hexdots")


def test_join_an_open_seat_from_the_lobby_and_play_numberwang(page: Any, server: str, shot: Any) -> None:
    r = httpx.post(f"{server}/api/matches", json={"game": "numberwang", "players": ["open:guest", "builtin:random"]})
    assert r.status_code == 200, r.text
    game_id = r.json()["game_id"]
    page.goto(f"{server}/ui/#/lobby")
    page.click(f"tr[data-game='{game_id}'] button:has-text('join as first')")
    page.wait_for_function(f"() => location.hash === '#/play/{game_id}' && document.querySelector('#result')")
    page.evaluate("() => { window.__seenTurns = 0; }")
    assert wait_turn_or_end(page)
    page.fill("input[type=number]", "50")
    page.click("button:has-text('Add')")
    page.wait_for_function("() => /Illegal: move 50 is out of range/.test(document.querySelector('#msg').textContent)")
    shot(page, "play-numberwang-illegal")
    while True:
        page.fill("input[type=number]", "10")
        page.click("button:has-text('Add')")
        if not wait_turn_or_end(page):
            break
    assert page.text_content("#msg") == "You won!"
    assert httpx.get(f"{server}/games/{game_id}").json()["winner"] == 0


def test_a_friend_takes_the_open_seat_and_a_second_tab_cannot_play_mine(
    page: Any, browser: Any, server: str, shot: Any
) -> None:
    """The lobby's "Open seat" is anyone's and "Me" is mine: a friend in another browser sees a join button for the
    open seat only, joins it and plays; a second tab of mine (same stored token) is refused while mine is open."""
    game_id = create(page, server, "tictactoe", seat1="open")
    friend_context = browser.new_context(viewport={"width": 1200, "height": 900})
    try:
        friend = friend_context.new_page()
        friend.set_default_timeout(PAGE_TIMEOUT_MS)
        friend.goto(f"{server}/ui/#/lobby")
        row = f"tr[data-game='{game_id}']"
        friend.wait_for_selector(f"{row} button")
        assert friend.locator(f"{row} button").all_text_contents() == ["join as O"]
        shot(friend, "lobby-open-seat")
        friend.click(f"{row} button:has-text('join as O')")
        friend.wait_for_function(f"() => location.hash === '#/play/{game_id}' && document.querySelector('#result')")
        friend.evaluate("() => { window.__seenTurns = 0; }")
        assert wait_turn_or_end(page)
        page.click("[data-cell='b2']")
        assert wait_turn_or_end(friend)
        friend.click("[data-cell='a1']")
        assert wait_turn_or_end(page)
        # the same seat in a second tab: refused while the first tab holds it, and it gets no controls
        second = page.context.new_page()
        second.goto(f"{server}/ui/#/play/{game_id}")
        second.wait_for_function("() => /already connected/.test(document.querySelector('#msg')?.textContent || '')")
        assert second.locator(".resign-ask").count() == 0
        shot(second, "play-second-tab-refused")
        second.close()
        assert httpx.get(f"{server}/api/matches/live").json()[0]["open_seats"] == []
        played = httpx.get(f"{server}/games/{game_id}").json()
        assert played["status"] == "running" and [m["move"] for m in played["moves"]] == ["b2", "a1"]
        assert [p["name"] for p in played["players"]] == ["human", "guest"]
    finally:
        friend_context.close()


def test_resign_a_tictactoe_game_with_an_inline_confirm(page: Any, server: str, shot: Any) -> None:
    game_id = create(page, server, "tictactoe")
    assert wait_turn_or_end(page)
    page.click("[data-cell='b2']")
    assert wait_turn_or_end(page)
    ask = page.locator(".resign-ask")
    assert ask.count() == 1 and ask.is_enabled() and page.locator(".resign-confirm").is_hidden()
    # "No" takes it back: the game goes on
    ask.click()
    assert page.locator(".resign-confirm").is_visible() and ask.is_hidden()
    assert page.text_content(".resign-confirm").startswith("Really resign?")
    shot(page, "play-resign-confirm")
    page.click(".resign-no")
    assert ask.is_visible() and page.locator(".resign-confirm").is_hidden()
    assert page.locator("#result").is_hidden()
    ask.click()
    page.click(".resign-yes")
    page.wait_for_function("() => !document.querySelector('#result').hidden")
    page.wait_for_function("() => document.querySelector('#msg').textContent === 'You lost.'")
    result = page.text_content("#result")
    assert result == "O wins: X resigned", result
    assert ask.is_disabled() and page.locator(".resign-confirm").is_hidden()
    shot(page, "play-resign-end")
    stored = record(server, game_id)
    assert stored["termination"] == "resign" and stored["winner"] == 1
    assert len([m for m in stored["moves"] if m["seat"] == 0]) == 1


def test_a_link_followed_while_a_page_builds_shows_only_the_newer_page(page: Any, server: str) -> None:
    """Two routes in a row (a second link clicked before the first page is built): only the second page shows. The
    router's pages build asynchronously (imports, fetches); both used to append to the same ``#app``."""
    page.goto(f"{server}/ui/#/lobby")
    page.wait_for_selector("#create")
    for first in ("#/ladder", "#/games", "#/analysis"):
        page.evaluate(
            "(first) => { location.hash = first; setTimeout(() => { location.hash = '#/lobby'; }, 0); }", first
        )
        page.wait_for_selector("#create")
        page.wait_for_load_state("networkidle")  # the first page's fetches are answered: it has built what it builds
        titles = page.eval_on_selector_all("#app h1", "els => els.map(e => e.textContent)")
        assert titles == ["Lobby"], (first, titles)
