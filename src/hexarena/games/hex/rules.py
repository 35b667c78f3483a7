"""Hex for people: the rules and their pictures (published through ``hexarena.games.rules``)."""

from __future__ import annotations

from typing import Any

from hexarena.games.pictures import COLOURS, Circle, Label, Picture, Polygon, Segment, axial_centre, hexagon
from hexarena.games.rules import Example, Rules, Section

_STONES = {"B": "black", "W": "white"}


def draw(game: Any, state: Any, example: Example) -> Picture:
    """The rhombus from ``to_json``: cell (row, col) is the axial hexagon (col, row), as the engine's neighbours
    are; Black's edges (top and bottom) and White's (left and right) are drawn in their colours, and the chain the
    engine reports as winning is marked."""
    view = game.to_json(state)
    n = view["size"]
    winning = set(view["winning"])
    picture = Picture(example.caption)
    for row, stones in enumerate(view["board"]):
        for col, stone in enumerate(stones):
            name = game.format((row, col))
            won = name in winning
            picture.add(
                Polygon(
                    hexagon(axial_centre(col, row)),
                    COLOURS["win"] if won else COLOURS["cell"],
                    cell=name,
                    mark="win" if won else None,
                )
            )
            if stone in _STONES:
                picture.add(
                    Circle(axial_centre(col, row), 0.62, COLOURS[_STONES[stone]], cell=name, mark=_STONES[stone])
                )
    top, bottom = axial_centre(0, 0)[1] - 1.25, axial_centre(0, n - 1)[1] + 1.25
    west, east = axial_centre(0, 0)[0] - 1.2, axial_centre(n - 1, 0)[0] + 1.2
    slant = axial_centre(0, n - 1)[0] - axial_centre(0, 0)[0]  # how far the last row sits right of the first
    x0, x1 = axial_centre(0, 0)[0] - 0.8, axial_centre(n - 1, 0)[0] + 0.8
    picture.add(
        Segment((x0, top), (x1, top), COLOURS["black"], 0.22),
        Segment((x0 + slant, bottom), (x1 + slant, bottom), COLOURS["black"], 0.22),
        Segment((west, top + 0.4), (west + slant, bottom - 0.4), COLOURS["grid"], 0.3),
        Segment((west, top + 0.4), (west + slant, bottom - 0.4), COLOURS["white"], 0.2),
        Segment((east, top + 0.4), (east + slant, bottom - 0.4), COLOURS["grid"], 0.3),
        Segment((east, top + 0.4), (east + slant, bottom - 0.4), COLOURS["white"], 0.2),
    )
    for col in range(n):
        x, _ = axial_centre(col, 0)
        picture.add(Label((x, top - 0.5), game.format((0, col))[1:], 0.45))
    for row in range(n):
        x, y = axial_centre(0, row)
        picture.add(Label((x - 1.75, y), game.format((row, 0))[0], 0.45))
    return picture


RULES = Rules(
    summary="Connect your two sides of a rhombus of hexagons: there are no draws.",
    sections=(
        Section(
            "The board",
            "- An N x N rhombus of hexagons (1 <= N <= 26; 11 unless the match sets `size`).\n"
            "- A cell is named by a letter, the row (`a` at the top), and a number, the column from 1 at the left: "
            "`c3`.\n"
            "- Each cell touches up to six others: left and right in its row, two in the row above (straight up and "
            "up-right) and two in the row below (straight down and down-left).",
        ),
        Section(
            "How to play",
            "- Black moves first; then the players take turns, each putting one stone of their colour on an empty "
            "cell. Stones never move.\n"
            "- Black wins by a chain of touching black stones joining the top edge to the bottom edge; White by "
            "joining the left edge to the right edge. The board can never fill without one of them.",
            (
                Example(
                    "Black has joined top and bottom down column 3 and wins",
                    ("a3", "a1", "b3", "b1", "c3", "c1", "d3", "d1", "e3"),
                    {"size": 5},
                ),
            ),
        ),
        Section(
            "The swap rule",
            "- Moving first is a big advantage, so the second player may answer the first move with `swap`: the "
            "colours are exchanged and the stone stays where it is. The first player then moves again, as White.\n"
            "- So the first player does best with an opening move that is neither too strong nor too weak. A match "
            "may turn the rule off (`swap`: false).",
            (
                Example(
                    "b2 was answered with swap: the first player now plays White, the second Black",
                    ("b2", "swap"),
                    {"size": 5},
                ),
            ),
        ),
    ),
    draw=draw,
)
