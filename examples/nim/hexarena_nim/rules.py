"""Nim's rules for people, published through the ``hexarena.rules`` entry point (see pyproject.toml).

hexarena's web UI and docs replay each example's moves through this plugin's own engine and picture the
position with ``draw``, which lays out shapes from the engine's ``to_json``.
"""

from __future__ import annotations

from typing import Any

from hexarena.games.pictures import COLOURS, Circle, Label, Picture
from hexarena.games.rules import Example, Rules, Section


def draw(game: Any, state: Any, example: Example) -> Picture:
    """One row of stones a heap, numbered as moves name them."""
    picture = Picture(example.caption)
    for i, stones in enumerate(game.to_json(state)["heaps"]):
        picture.add(Label((-1.0, i * 1.2), str(i + 1), 0.6))
        for n in range(stones):
            picture.add(Circle((n * 1.1, i * 1.2), 0.45, COLOURS["black"], cell=f"{i + 1}:{n + 1}"))
    return picture


RULES = Rules(
    summary="Take stones from one heap a turn; whoever takes the last stone wins.",
    sections=(
        Section(
            "How to play",
            "- The game starts with a few heaps of stones (`heaps`, 3,4,5 unless the match sets others).\n"
            "- On your turn take one or more stones from a single heap.\n"
            "- Whoever takes the last stone wins.\n"
            "- A move is `HEAP:COUNT`, heaps numbered from 1: `2:3` takes three stones from the second heap.",
            (Example("After 2:3: heaps of 3, 1 and 5 stones", ("2:3",)),),
        ),
    ),
    draw=draw,
)
