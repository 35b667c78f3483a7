"""Hexagon dots by keyboard and screen reader alone (issue 33): every dot's name says the lines drawn from it
(and by whom) and the lines that may be drawn from it now, a picked dot's legal neighbours say so, and drawn lines
and captured hexagons are named for their owner. The test plays a whole game with the arrows and Enter, choosing
each line from what the names say (never from the page's data), and checks the names against the game."""

from __future__ import annotations

import re
from typing import Any

from test_browser_ui import create, record, wait_turn_or_end


def focused(page: Any) -> tuple[str, str]:
    """The focused dot's key and its accessible name."""
    got = page.evaluate(
        "() => { const e = document.activeElement; return [e.dataset.dot || '', e.getAttribute('aria-label') || '']; }"
    )
    return got[0], got[1]


def go_to(page: Any, target: str) -> str:
    """Move the focus to dot ``target`` with the arrow keys (rows first: up and down always take the next row,
    then left and right along it); returns its name."""
    tr, tc = map(int, target.split(","))
    for _ in range(40):
        here, name = focused(page)
        assert here, "the focus left the board"
        r, c = map(int, here.split(","))
        if (r, c) == (tr, tc):
            return name
        page.keyboard.press("ArrowUp" if tr < r else "ArrowDown" if tr > r else "ArrowLeft" if tc < c else "ArrowRight")
    raise AssertionError(f"the arrows never reached dot {target}")


def dots_can_draw(name: str) -> list[str]:
    m = re.search(r"can draw to ([\d, and]+?)(?:,\s*(?:lines|no)|$)", name)
    return re.findall(r"\d+,\d+", m.group(1)) if m else []


def test_a_hexdots_game_played_by_keyboard_only_with_named_lines(page: Any, server: str) -> None:
    game_id = create(page, server, "hexdots", params={"rows": "3", "cols": "3"})
    dots = [f"{r},{c}" for r in range(3) for c in range(2 if r % 2 == 0 else 3)]
    played = 0
    page.keyboard.press("Tab")
    while wait_turn_or_end(page, 30):
        for _ in range(10):  # Tab into the board (past the controls before it), once
            if focused(page)[0]:
                break
            page.keyboard.press("Tab")
        # find a dot from which a line may be drawn, by what the dots say
        start, ends = "", []
        for dot in dots:
            ends = dots_can_draw(go_to(page, dot))
            if ends:
                start = dot
                break
        assert start, "it is my turn but no dot says a line can be drawn from it"
        page.keyboard.press("Enter")
        name = focused(page)[1]
        assert f"dot {start}, picked: draw a line to" in name, name
        target_name = go_to(page, ends[0])
        assert f"draw the line from {start} to here" in target_name, target_name
        page.keyboard.press("Enter")
        played += 1
        page.wait_for_function(
            "(k) => [...document.querySelectorAll('[data-line]')].some((l) => l.getAttribute('aria-label').startsWith(k))",
            arg=f"line {start} to {ends[0]}, drawn by first",
        )
    assert played >= 2
    rec = record(server, game_id)
    # the names tell the whole final position: each drawn line and captured hexagon by its owner
    lines = page.eval_on_selector_all(
        "[data-line]", "(ls) => ls.map((l) => [l.getAttribute('role'), l.getAttribute('aria-label')])"
    )
    assert len(lines) == len(rec["moves"]) and all(role == "img" for role, _ in lines)
    assert all(
        re.fullmatch(r"line \d+,\d+ to \d+,\d+, drawn by (first|second)(, the last move)?", n) for _, n in lines
    ), lines
    hexes = page.eval_on_selector_all("[data-hex]", "(hs) => hs.map((h) => h.getAttribute('aria-label'))")
    assert hexes, "the game ended without a captured hexagon"
    assert all(re.fullmatch(r"hexagon around \d+,\d+, captured by (first|second)", n) for n in hexes), hexes
    centre = page.get_attribute("[data-dot='1,1']", "aria-label")
    assert re.search(r"lines drawn to .*\((first|second)\)", centre), centre
