"""Hexagon dots for people: the rules and their pictures (published through ``hexarena.games.rules``)."""

from __future__ import annotations

from typing import Any

from hexarena.games.hexdots.geometry import neighbour_coords, row_length
from hexarena.games.pictures import COLOURS, SQRT3, Circle, Picture, Point, Polygon, Segment
from hexarena.games.rules import Example, Rules, Section

_SEAT_COLOURS = (COLOURS["x"], COLOURS["o"])
_CAPTURED = ("#f2c4c0", "#c3d3f2")


def dot(row: int, col: int) -> Point:
    """Where dot (row, col) sits: even rows are short and half a spacing to the right (the engine's lattice)."""
    return (col + (0.5 if row % 2 == 0 else 0.0), row * SQRT3 / 2)


def draw(game: Any, state: Any, example: Example) -> Picture:
    """The dots, the lines drawn (in their drawer's colour) and the captured hexagons of ``to_json``; with
    ``show="legal"`` the lines ``legal_view`` still allows, dotted in green."""
    view = game.to_json(state)
    seats = list(game.seat_names)
    picture = Picture(example.caption, unit=40.0)
    for hexagon in view["hexagons"]:
        centre = hexagon["center"]
        owner = seats.index(hexagon["owner"]["name"])
        corners = [dot(r, c) for r, c in neighbour_coords(centre["row"], centre["col"])]
        picture.add(Polygon(corners, _CAPTURED[owner], "none", 0, f"{centre['row']},{centre['col']}", seats[owner]))
    if example.show == "legal":
        for move in game.legal_view(state).get("moves", ()):
            picture.add(Segment(dot(*move["a"]), dot(*move["b"]), COLOURS["legal"], 0.05, move["move"], "legal"))
    for line in view["lines"]:
        a, b = ((e["row"], e["col"]) for e in line["endpoints"])
        owner = seats.index(line["owner"]["name"])
        name = f"{a[0]},{a[1]}-{b[0]},{b[1]}"
        picture.add(Segment(dot(*a), dot(*b), _SEAT_COLOURS[owner], 0.12, name, seats[owner]))
    for row in range(view["rows"]):
        for col in range(row_length(row, view["cols"])):
            picture.add(Circle(dot(row, col), 0.09, COLOURS["text"], "none", 0, f"{row},{col}"))
    return picture


_CAPTURE = ("0,0-1,0", "0,0-0,1", "0,1-1,2", "1,2-2,1", "2,0-2,1", "1,0-2,0")

RULES = Rules(
    summary="Dots and boxes on a triangular lattice: close hexagons to capture them.",
    sections=(
        Section(
            "The board",
            "- Rows of dots, offset by half a spacing so that the dots form a triangular lattice; `rows` (odd) and "
            "`cols` set its size (5 x 5 unless the match sets another). The top and bottom rows are one dot short.\n"
            "- A line joins two neighbouring dots. A hexagon is the six lines around any dot whose six neighbours "
            "are all on the board.\n"
            "- A dot is named `row,col` from 0 at the top left, a line by its two dots: `0,0-1,0`.",
        ),
        Section(
            "How to play",
            "- The players take turns drawing one line between two neighbouring dots.\n"
            "- Drawing the last of a hexagon's six lines captures it, and you draw again; otherwise the turn "
            "passes. One line can close two hexagons at once.\n"
            "- A captured hexagon's centre is off limits: no line may touch it. So a hexagon centred next to a "
            "captured one can never be closed.\n"
            "- The game ends when no hexagon can still be captured, even if lines remain. The most hexagons wins.",
            (
                Example(
                    "Five of the six lines around the centre dot are drawn; second (blue) may draw any green line next",
                    _CAPTURE[:5],
                    {"rows": 3, "cols": 3},
                    "legal",
                ),
                Example(
                    "Second (blue) closed the hexagon with 1,0-2,0 and captured it: no hexagon is left, second wins",
                    _CAPTURE,
                    {"rows": 3, "cols": 3},
                ),
            ),
        ),
    ),
    draw=draw,
)
