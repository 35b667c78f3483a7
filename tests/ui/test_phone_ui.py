"""The UI on a phone (390x844, issue 15) in a real browser: every page fits the width with finger-sized controls
(at least 40 px), each game's board cells are at least 40 px (a large Hex board zooms and pans), and the player
cards with their clocks are on screen together with the board while playing. Sizes and positions are read from
the laid-out page (bounding boxes). Each game is screenshotted at phone and desktop size.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from test_browser_ui import create, record, wait_turn_or_end

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}

# every visible control a finger must hit, with its box; inline links inside sentences are exempt (WCAG 2.5.8)
SMALL_CONTROLS = """() => [...document.querySelectorAll(
        'button, select, input, summary, header a, td a, .panel > a, .boardbox [role=button]')]
    .filter(e => e.offsetParent !== null || e instanceof SVGElement)
    .filter(e => !e.closest('.sr-only'))
    .map(e => { const b = e.getBoundingClientRect();
        return {what: e.outerHTML.slice(0, 70), w: Math.round(b.width), h: Math.round(b.height)}; })
    .filter(c => c.w > 0 && (c.w < 40 || c.h < 40))"""

OVERFLOW = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"


def fits_a_phone(page: Any, name: str) -> list[str]:
    problems = [f"{name}: {c}" for c in page.evaluate(SMALL_CONTROLS)]
    over = page.evaluate(OVERFLOW)
    if over > 0:
        wide = page.evaluate(
            "() => [...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > innerWidth)"
            ".slice(0, 5).map(e => e.outerHTML.slice(0, 80))"
        )
        problems.append(f"{name}: the page is {over} px wider than the phone: {wide}")
    return problems


def test_every_page_fits_a_phone_with_finger_sized_controls(page: Any, server: str, shot: Any) -> None:
    page.set_viewport_size(PHONE)
    problems: list[str] = []
    page.goto(f"{server}/ui/#/lobby")
    page.wait_for_selector("#create")
    problems += fits_a_phone(page, "lobby")
    shot(page, "phone-lobby")
    game_id = create(page, server, "tictactoe")
    assert wait_turn_or_end(page)
    problems += fits_a_phone(page, "play")
    page.click(".resign-ask")
    problems += fits_a_phone(page, "play, confirming")
    page.click(".resign-yes")
    page.wait_for_function("() => !document.querySelector('#result').hidden")
    record(server, game_id)
    for name, url, ready in (
        ("games", "#/games", f"tr[data-game='{game_id}']"),
        ("bots", "#/bots", "#bots tbody tr"),
        ("leaderboard", "#/leaderboard/tictactoe", "h1"),
        ("replay", f"#/replay/{game_id}", "#notation"),
    ):
        page.goto(f"{server}/ui/{url}")
        page.wait_for_selector(ready)
        problems += fits_a_phone(page, name)
        shot(page, f"phone-{name}")
    assert not problems, "\n".join(problems)


# each game, a small parameter set, and what a board cell is on its page (the element a finger hits)
GAMES = {
    "tictactoe": ({}, "[data-cell] rect"),
    "hex": ({"size": "11"}, "[data-cell] polygon"),
    "hexdots": ({}, "[data-dot] circle:first-child"),
    "hive": ({}, "polygon[data-cell]"),
    "htttx": ({}, "[data-stone]"),
    "numberwang": ({}, ".boardbox input, .boardbox button"),
}


@pytest.mark.parametrize("game", list(GAMES))
def test_playing_on_a_phone_board_and_clocks_on_screen_cells_finger_sized(
    page: Any, server: str, shot: Any, game: str
) -> None:
    params, cell = GAMES[game]
    page.set_viewport_size(PHONE)
    create(page, server, game, params=params, clock=("match", "300"))
    assert wait_turn_or_end(page)
    page.evaluate("() => window.scrollTo(0, 0)")
    boxes = page.evaluate(
        """(cell) => { const box = (e) => { const b = e.getBoundingClientRect();
                return {top: b.top, bottom: b.bottom, left: b.left, right: b.right, w: b.width, h: b.height}; };
            return {clocks: [...document.querySelectorAll('.player .clock')].map(box),
                    board: box(document.querySelector('.boardbox')),
                    cells: [...document.querySelectorAll(cell)].map(box), height: innerHeight, width: innerWidth}; }""",
        cell,
    )
    shot(page, f"phone-{game}")
    assert len(boxes["clocks"]) == 2
    # my clock shows my time as soon as it is my turn (it read "—" until the next tick)
    mine = page.text_content("#player0 .clock")
    assert re.fullmatch(r"5:00|4:[0-5]\d", mine), mine
    # my card says "(you)" where it can be seen, not cut off by a long name's ellipsis
    you = page.evaluate(
        """() => { const y = document.querySelector('#player0 .you').getBoundingClientRect();
            const box = document.querySelector('#player0 > span').getBoundingClientRect();
            return {left: y.left, right: y.right, end: box.right}; }"""
    )
    assert you["right"] > you["left"] and you["right"] <= you["end"] + 1, you
    for clock in boxes["clocks"]:
        assert clock["top"] >= 0 and clock["bottom"] <= boxes["height"], f"a clock is off screen: {clock}"
        assert clock["right"] <= boxes["width"], f"a clock is cut off: {clock}"
    board = boxes["board"]
    # the board starts on screen with the clocks, and most of it is visible without scrolling
    seen = min(board["bottom"], boxes["height"]) - board["top"]
    assert board["top"] < boxes["height"] * 0.4 and (seen > 300 or board["bottom"] <= boxes["height"]), board
    assert boxes["cells"], f"no {cell} on the {game} page"
    small = [c for c in boxes["cells"] if c["w"] < 40 or c["h"] < 40]
    assert not small, f"{len(small)} of {len(boxes['cells'])} cells under 40 px, e.g. {small[0]}"
    assert page.evaluate(OVERFLOW) <= 0, "the page scrolls sideways (only a zoomed board may pan inside its box)"
    page.set_viewport_size(DESKTOP)
    shot(page, f"desktop-{game}")
