"""Hive for people: the rules and their pictures (published through ``hexarena.games.rules``)."""

from __future__ import annotations

from typing import Any

from hexarena.games.pictures import COLOURS, Label, Picture, Polygon, axial_centre, hexagon, ink_on
from hexarena.games.rules import Example, Rules, Section

_PIECE = {"w": COLOURS["white"], "b": COLOURS["black"]}


def draw(game: Any, state: Any, example: Example) -> Picture:
    """The hive of ``to_json`` on axial hexagons, each cell labelled with its top piece (and the stack's height
    when pieces are stacked); surrounded queens are marked. With ``show`` naming a piece (``wL``), the cells
    ``legal_view`` lets it move or be placed to are marked green and the cell it stands on orange."""
    view = game.to_json(state)
    moves = [m for m in game.legal_view(state).get("moves", ()) if example.show and m["piece"] == example.show]
    targets = {tuple(m["to"]) for m in moves}
    sources = {tuple(m["from"]) for m in moves if m["from"] is not None}
    surrounded = {tuple(c) for c in view["surrounded"]}
    picture = Picture(example.caption, unit=30.0)
    for cell in view["board"]:
        at = (cell["q"], cell["r"])
        top = cell["stack"][-1]
        fill = _PIECE[top[0]]
        mark = "surrounded" if at in surrounded else "from" if at in sources else top
        stroke = COLOURS["win"] if at in surrounded else COLOURS["from"] if at in sources else COLOURS["grid"]
        picture.add(Polygon(hexagon(axial_centre(*at), 0.95), fill, stroke, 0.16, f"{at[0]},{at[1]}", mark))
        label = top if len(cell["stack"]) == 1 else f"{top}+{len(cell['stack']) - 1}"
        picture.add(Label(axial_centre(*at), label, 0.5, ink_on(fill)))
    for at in sorted(targets - {(c["q"], c["r"]) for c in view["board"]}):
        picture.add(
            Polygon(hexagon(axial_centre(*at), 0.9), "#d9efd5", COLOURS["legal"], 0.1, f"{at[0]},{at[1]}", "legal")
        )
    for at in sorted(targets & {(c["q"], c["r"]) for c in view["board"]}):  # a climb onto the hive
        picture.add(
            Polygon(hexagon(axial_centre(*at), 0.7), "none", COLOURS["legal"], 0.14, f"{at[0]},{at[1]}", "legal")
        )
    return picture


_OPENING = ("wG1", "bG1 wG1-", "wQ -wG1", "bQ bG1-")
_PILLBUG = (*_OPENING, "wP -wQ", "bA1 bQ-", "wA1 \\wP", "bA1 /wP", "wS1 wA1/", "bS1 bQ/")

RULES = Rules(
    summary="Surround the other queen bee with pieces of either colour. There is no board: the pieces are the "
    "board. hexarena plays the base game with the Mosquito, Ladybug and Pillbug.",
    sections=(
        Section(
            "The pieces",
            "- Each player has 11 pieces: a Queen Bee (`Q`), two Spiders (`S`), two Beetles (`B`), three "
            "Grasshoppers (`G`) and three Soldier Ants (`A`), plus one each of the expansions in play: the "
            "Mosquito (`M`), the Ladybug (`L`) and the Pillbug (`P`) (`expansions`, all three unless the match "
            "sets fewer).\n"
            "- A piece is named by its colour (`w` white, `b` black), its bug and, where there are several, its "
            "number: `wQ`, `bA2`. Identical bugs enter in number order.",
        ),
        Section(
            "Placing",
            "- White starts. A turn is either placing a piece from your hand or moving one of yours.\n"
            "- After the first two pieces, a new piece must touch at least one of your pieces and none of the "
            "opponent's.\n"
            "- The queen may not be placed on your first turn, and must be placed by your fourth.",
            (
                Example(
                    "White's second piece may go on the green cells: touching white, not black",
                    _OPENING[:2],
                    show="wA1",
                ),
            ),
        ),
        Section(
            "Moving",
            "- No piece may move before its side's queen is placed.\n"
            "- The hive must stay in one piece, even during a move, and a piece that slides must fit through the "
            "gap between its neighbours.\n"
            "- Queen: one step. Beetle: one step, and it may climb on top of the hive (a piece under a beetle "
            "cannot move). Grasshopper: jumps in a straight line over at least one piece to the first empty "
            "cell. Spider: exactly three steps around the hive. Soldier Ant: any number of steps around the "
            "hive.\n"
            "- A player with no legal move passes.",
            (Example("The white queen may step to either green cell", _OPENING, show="wQ"),),
        ),
        Section(
            "Ladybug",
            "- Three steps: two on top of the hive, then one down into an empty cell.",
            (Example("The white ladybug's legal destinations", (*_OPENING, "wL \\wQ", "bA1 bQ-"), show="wL"),),
        ),
        Section(
            "Mosquito",
            "- Moves as any piece it touches (not another mosquito); on top of the hive it moves as a beetle.",
            (
                Example(
                    "The white mosquito touches a grasshopper and a queen: it may jump or step",
                    (*_OPENING, "wM \\wG1", "bA1 bQ-"),
                    show="wM",
                ),
            ),
        ),
        Section(
            "Pillbug",
            "- Moves one step like the queen, or instead moves a piece next to it (of either colour): lifts it "
            "over itself onto another empty cell next to it.\n"
            "- It may not move a piece under a beetle, the piece that just moved, or a piece whose leaving would "
            "split the hive; the piece it moved cannot move on the next turn.",
            (Example("White's pillbug may move the black ant to the green cells", _PILLBUG, show="bA1"),),
        ),
        Section(
            "Winning",
            "- A queen surrounded on all six sides, by pieces of any colour, loses. Both queens surrounded at "
            "once is a draw.\n"
            "- There is no repetition rule; a match ends an endless game as a draw after its move cap.",
        ),
    ),
    draw=draw,
)
