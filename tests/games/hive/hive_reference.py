"""Plain reference answers the Hive tests check the board's fast code against (written for clarity, not speed)."""

from __future__ import annotations

from hexarena.games.hive.board import DIRS


def connected(cells: set[int]) -> bool:
    """Whether ``cells`` (board cell ids) form one group through neighbouring cells: the one-hive rule, by a
    flood fill, the obvious way the board's articulation-point code must agree with."""
    if not cells:
        return True
    start = next(iter(cells))
    seen = {start}
    todo = [start]
    while todo:
        c = todo.pop()
        for d in DIRS:
            n = c + d
            if n in cells and n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == len(cells)
