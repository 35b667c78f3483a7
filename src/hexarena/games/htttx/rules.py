"""HTTTX for people: the rules and their pictures (published through ``hexarena.games.rules``)."""

from __future__ import annotations

from typing import Any

from hexarena.games.pictures import COLOURS, Circle, Label, Picture, Polygon, axial_centre, hexagon, ink_on
from hexarena.games.rules import Example, Rules, Section

_AROUND = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))


def draw(game: Any, state: Any, example: Example) -> Picture:
    """The stones of ``to_json`` and the cells around them, on axial hexagons; the engine's winning line is
    marked, and with ``show="legal"`` the cells ``legal_view`` offers the next stone."""
    view = game.to_json(state)
    stones = {(c["q"], c["r"]): c["p"] for c in view["cells"]}
    line = {tuple(c) for c in view["win_line"] or ()}
    legal = set()
    if example.show == "legal":
        legal = {tuple(c) for c in game.legal_view(state).get("cells", ())}
    cells = set(stones) | legal | {(q + dq, r + dr) for q, r in stones for dq, dr in _AROUND}
    picture = Picture(example.caption)
    for q, r in sorted(cells, key=lambda c: (c[1], c[0])):
        mark = "win" if (q, r) in line else "legal" if (q, r) in legal else None
        fill = COLOURS["win"] if mark == "win" else "#d9efd5" if mark == "legal" else COLOURS["cell"]
        picture.add(Polygon(hexagon(axial_centre(q, r)), fill, cell=f"{q},{r}", mark=mark))
        side = stones.get((q, r))
        if side is not None:
            colour = COLOURS[side]
            picture.add(Circle(axial_centre(q, r), 0.6, colour, cell=f"{q},{r}", mark=side))
            picture.add(Label(axial_centre(q, r), side.upper(), 0.55, ink_on(colour)))
    return picture


_WIN = ("[0,2][1,2]", "[1,0][2,0]", "[0,3][1,3]", "[3,0][4,0]", "[2,3][3,3]", "[5,0][-2,4]")

RULES = Rules(
    summary="Infinite hexagonal tic-tac-toe: two stones a turn, six in a row wins (also known as HeXO or "
    "hexagonal Connect-6).",
    sections=(
        Section(
            "How to play",
            "- The board is an unbounded field of hexagons. X's first stone is already on the centre cell, (0, 0).\n"
            "- Then O places two stones, X two, O two, and so on: every turn but X's first is two stones.\n"
            "- A stone goes on an empty cell no more than `view_distance` steps (8 unless the match sets another) "
            "from a stone already on the board.",
            (
                Example("The start: X's stone on (0, 0), O to place two", ()),
                Example(
                    "With view_distance 2, the cells where O's first stone may go (marked)",
                    (),
                    {"view_distance": 2},
                    "legal",
                ),
            ),
        ),
        Section(
            "Winning",
            "- Six or more of your stones in a row along one of the three axes of the hexagons win "
            "(`win_distance`, 6 unless the match sets another).\n"
            "- The stones of a turn go down in order: if the first one wins, the game ends and the second is "
            "ignored.\n"
            "- A match may set `turn_limit`: after that many turns without a winner the game is a draw.",
            (Example("X's first stone of its fourth turn makes six in a row: X wins", _WIN),),
        ),
        Section(
            "Coordinates",
            "- Cells are axial coordinates `(q, r)`: `q` grows to the east, `r` to the south-east; the third axis "
            "runs north-east. The distance between two cells is max(|dq|, |dr|, |dq + dr|).\n"
            "- A move is written as its two cells: `[1,-2][0,3]`.",
        ),
    ),
    draw=draw,
)
