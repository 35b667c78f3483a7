"""Noughts and crosses for people: the rules and their pictures (published through ``hexarena.games.rules``)."""

from __future__ import annotations

from typing import Any

from hexarena.games.pictures import COLOURS, Label, Picture, Polygon, ink_on, piece_colour
from hexarena.games.rules import Example, Rules, Section


def draw(game: Any, state: Any, example: Example) -> Picture:
    """The 3 x 3 grid from ``to_json``'s rows; the winning line the engine reports is marked."""
    view = game.to_json(state)
    line = set(view.get("line") or ())
    picture = Picture(example.caption, unit=56.0)
    for row, cells in enumerate(view["board"]):
        for col, mark in enumerate(cells):
            won = row * len(cells) + col in line
            square = [(col, row), (col + 1, row), (col + 1, row + 1), (col, row + 1)]
            fill = COLOURS["win"] if won else COLOURS["cell"]
            picture.add(Polygon(square, fill, cell=game.format((row, col)), mark="win" if won else None))
            if mark:
                side = mark.lower()
                picture.add(Label((col + 0.5, row + 0.5), mark, 0.7, piece_colour(side) if not won else ink_on(fill)))
    return picture


RULES = Rules(
    summary="Three in a row on a 3 x 3 grid: the smallest game, for trying a bot or the arena itself.",
    sections=(
        Section(
            "How to play",
            "- X moves first, then O; each move puts your mark on an empty square.\n"
            "- Three of your marks in a row, a column or a diagonal win.\n"
            "- A full grid with no line is a draw.\n"
            "- A square is named by its row letter (`a` at the top) and its column number (`1` at the left).",
            (Example("X has played a1, a2 and a3: three in the top row wins", ("a1", "b1", "a2", "b2", "a3")),),
        ),
    ),
    draw=draw,
)
