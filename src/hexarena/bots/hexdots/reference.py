"""Two reference bots: a uniform random baseline and a greedy dots-and-boxes player.

``greedy`` is the classic first strategy of dots and boxes, adapted to hexagons: take every capture (a capture
also gives the move back, so it never costs anything now); otherwise draw a line that leaves no completable
hexagon with 5 of its 6 sides; when every line gives something away, give away the smallest chain, found by
letting the opponent take captures greedily on the mutable board and undoing. It does not sacrifice on purpose
(no double-dealing), which a chain-counting bot could exploit; it is a yardstick, not a champion.
"""

from __future__ import annotations

import random

from hexarena.core.game import Game
from hexarena.games.hexdots.board import DotsBoard, Line
from hexarena.games.hexdots.game import DotsState, HexDotsGame


class RandomBot:
    """Draws a uniformly random legal line."""

    name = "random"

    def choose(
        self, game: Game[DotsState, Line], state: DotsState, time_limit: float | None, rng: random.Random
    ) -> Line:
        return game.random_move(state, rng)


def _open(state: DotsState, h: int) -> bool:
    return not state.hex_blocked[h] and not state.hex_owner[h]


def chain_given(board: DotsBoard, lid: int) -> int:
    """Hexagons the opponent captures if we draw ``lid`` and it then takes every capture it can (board unchanged).

    Only hexagons the last drawn line is a side of can become capturable, so the search follows those.
    """
    geo = board.geo
    board.play(lid)
    played, taken = 1, 0
    stack = list(geo.line_hexes[lid])
    while stack:
        h = stack.pop()
        if board.hex_count[h] != 5 or board.hex_blocked[h] or board.hex_owner[h]:
            continue
        side = board.missing_side(h)
        taken += len(board.play(side))
        played += 1
        stack.extend(geo.line_hexes[side])
    for _ in range(played):
        board.undo()
    return taken


class GreedyBot:
    """Takes the biggest capture; else a line that gives nothing; else the line that gives the least."""

    name = "greedy"

    def choose(
        self, game: Game[DotsState, Line], state: DotsState, time_limit: float | None, rng: random.Random
    ) -> Line:
        geo, count = state.geo, state.hex_count
        legal = _rules(game).legal_ids(state)
        if not legal:
            raise ValueError("no legal move in this position")
        best_gain = 0
        captures: list[int] = []
        safe: list[int] = []
        for lid in legal:
            gain = gift = 0
            for h in geo.line_hexes[lid]:
                if _open(state, h):
                    if count[h] == 5:
                        gain += 1
                    elif count[h] == 4:
                        gift += 1
            if gain > best_gain:
                best_gain, captures = gain, [lid]
            elif gain and gain == best_gain:
                captures.append(lid)
            elif not gain and not gift and not best_gain:
                safe.append(lid)
        if captures:
            return geo.line_coords[rng.choice(captures)]
        if safe:
            return geo.line_coords[rng.choice(safe)]
        board = state.board()
        costs = [(chain_given(board, lid), lid) for lid in legal]
        least = min(c for c, _ in costs)
        return geo.line_coords[rng.choice([lid for c, lid in costs if c == least])]


def _rules(game: Game[DotsState, Line]) -> HexDotsGame:
    """The built-in HexDots rules, whose line ids the greedy bot counts on (every host passes that game)."""
    if not isinstance(game, HexDotsGame):
        raise TypeError(f"the hexdots bots play the built-in HexDots game, not {type(game).__name__}")
    return game
