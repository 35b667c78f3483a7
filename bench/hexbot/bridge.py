"""Runs inside hexbot's own venv (not hexarena's): one JSON request a line on stdin, one JSON answer on stdout.

    /tmp/hexbot-venv/bin/python bench/hexbot/bridge.py   (started by bench/strength.py; not a benchmark itself)

Request: ``{"x": [[q, r], ...], "o": [[q, r], ...], "to_move": 0 | 1, "seconds": S, "engine": "ab"}``; answer:
``{"move": [[q1, r1], [q2, r2]], "depth": D}``. hexbot's C alpha-beta (``HexGame.search(depth)``, one stone per
call) has no clock, so each stone gets iterative deepening (depth 2, 4, ...) while the next depth is expected to
fit in the time left for that stone (each depth costs ~4-10x the one before; the first stone gets half the
turn), starting from its move scorer's best stone. ``engine: "heuristic"`` plays
hexbot's one-ply heuristic instead. The position is replayed in turn order (X's first stone, then two stones a
turn), which is all hexbot's engine needs. Kept free of hexarena imports: hexbot's venv does not have it.
"""

from __future__ import annotations

import json
import sys
import time

from hexgame import HexGame  # type: ignore[import-not-found]


def replay(xs: list[list[int]], os_: list[list[int]]) -> HexGame:
    order: list[list[int]] = []
    xi, oi = 1, 0
    if xs:
        order.append(xs[0])
    side = 1
    while xi < len(xs) or oi < len(os_):
        for _ in range(2):
            if side == 1 and oi < len(os_):
                order.append(os_[oi])
                oi += 1
            elif side == 0 and xi < len(xs):
                order.append(xs[xi])
                xi += 1
        side = 1 - side
    game = HexGame(max_stones=400)
    for q, r in order:
        game.place(q, r)
    return game


def one_stone(game: HexGame, deadline: float, engine: str) -> tuple[tuple[int, int], int]:
    top = game.scored_moves(1)
    best = (top[0][0], top[0][1])
    if engine == "heuristic":
        return best, 0
    depth = 0
    last = 0.0
    while depth < 16:
        left = deadline - time.monotonic()
        if left <= 0 or last * 6 > left:
            break
        began = time.monotonic()
        best = game.search(depth=depth + 2)["best_move"]
        last = time.monotonic() - began
        depth += 2
    return (best[0], best[1]), depth


def main() -> None:
    for line in sys.stdin:
        req = json.loads(line)
        began = time.monotonic()
        game = replay(req["x"], req["o"])
        seconds = float(req["seconds"])
        engine = req.get("engine", "ab")
        first, d1 = one_stone(game, began + seconds / 2, engine)
        game.place(*first)
        if game.winner is not None:  # the second stone is ignored: any empty neighbour
            taken = set(map(tuple, req["x"] + req["o"])) | {first}
            q, r = first
            second = next(c for c in ((q + 1, r), (q - 1, r), (q, r + 1), (q, r - 1), (q + 1, r - 1)) if c not in taken)
            d2 = 0
        else:
            second, d2 = one_stone(game, began + seconds, engine)
        print(json.dumps({"move": [list(first), list(second)], "depth": min(d1, d2) if d2 else d1}), flush=True)


if __name__ == "__main__":
    main()
