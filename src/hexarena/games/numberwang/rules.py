"""Numberwang for people: the rules and their pictures (published through ``hexarena.games.rules``)."""

from __future__ import annotations

from typing import Any

from hexarena.games.numberwang.game import MAX_STEP, MIN_STEP, TARGET
from hexarena.games.pictures import COLOURS, Circle, Label, Picture, Segment
from hexarena.games.rules import Example, Rules, Section


def draw(game: Any, state: Any, example: Example) -> Picture:
    """The running total on a number line from one player's target to the other's."""
    n = game.to_json(state)["n"]
    picture = Picture(example.caption)
    picture.add(Segment((-TARGET, 0), (TARGET, 0), COLOURS["grid"], 0.12))
    for x in range(-TARGET, TARGET + 1, 5):
        picture.add(Segment((x, -0.4), (x, 0.4), COLOURS["grid"], 0.08), Label((x, 1.1), str(x), 0.8))
    over = max(-TARGET - 1, min(TARGET + 1, n))
    won = game.outcome(state) is not None and game.outcome(state).winner is not None
    picture.add(
        Circle((over, 0), 0.6, COLOURS["win"] if won else COLOURS["o"], cell=str(n), mark="win" if won else None)
    )
    picture.add(Label((over, -1.3), f"n = {n}", 0.8))
    return picture


RULES = Rules(
    summary="A protocol test game: push a shared number to your own side.",
    sections=(
        Section(
            "How to play",
            "- A number `n` starts at 0. On each turn the player to move adds an integer from "
            f"{MIN_STEP} to {MAX_STEP} to it.\n"
            f"- `n` reaching {TARGET} or more wins for the first player; {-TARGET} or less wins for the second.\n"
            "- An undecided game is a draw after `ply_limit` turns (100 unless the match sets another).\n"
            "- A move is written as the integer: `7`, `-3`.",
            (
                Example("After 7, then -3: n is 4, the first player to move", ("7", "-3")),
                Example("7, -2, then 5: n reaches 10 and the first player wins", ("7", "-2", "5")),
            ),
        ),
    ),
    draw=draw,
)
