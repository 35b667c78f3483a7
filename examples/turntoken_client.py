"""A hexagon dots bot for the turn-token HTTP protocol, as a newcomer would write it: plain Python and ``httpx``.

It asks the server for a game (``GET /match``) or creates one, joins (the request blocks until its turn), then
loops ``while X-Turn-Token``: pick a line, post it with the token, merge the Delta into its copy of the Game.
It plays greedily: complete a hexagon when it can, else avoid giving one away, else anything legal.

    python examples/turntoken_client.py --server http://127.0.0.1:8001 --name MyBot
"""

from __future__ import annotations

import argparse
import random
from typing import Any

import httpx

Dot = tuple[int, int]
Line = tuple[Dot, Dot]


def row_length(row: int, cols: int) -> int:
    return cols - 1 if row % 2 == 0 else cols  # the top row (0) and every other row are short


def neighbours(rows: int, cols: int, dot: Dot) -> list[Dot]:
    r, c = dot
    shift = (r + 1) % 2
    around = [
        (r, c - 1),
        (r - 1, c + shift - 1),
        (r - 1, c + shift),
        (r, c + 1),
        (r + 1, c + shift),
        (r + 1, c + shift - 1),
    ]
    return [(rr, cc) for rr, cc in around if 0 <= rr < rows and 0 <= cc < row_length(rr, cols)]


def key(a: Dot, b: Dot) -> Line:
    return (a, b) if a <= b else (b, a)


def choose(game: dict[str, Any]) -> Line:
    rows, cols = game["rows"], game["cols"]
    drawn = {key(*[(e["row"], e["col"]) for e in line["endpoints"]]) for line in game["lines"]}
    taken = {(h["center"]["row"], h["center"]["col"]) for h in game["hexagons"]}
    dots = [(r, c) for r in range(rows) for c in range(row_length(r, cols))]
    legal = sorted(
        {
            key(a, b)
            for a in dots
            for b in neighbours(rows, cols, a)
            if key(a, b) not in drawn and a not in taken and b not in taken
        }
    )

    def sides_left(centre: Dot, extra: Line | None) -> int | None:
        ring = neighbours(rows, cols, centre)
        if len(ring) != 6 or centre in taken or any(n in taken for n in ring):
            return None
        # the six perimeter lines join consecutive neighbours (they come in ring order)
        sides = [key(ring[i], ring[(i + 1) % 6]) for i in range(6)]
        return sum(1 for s in sides if s not in drawn and s != extra)

    def centres_of(line: Line) -> list[Dot]:
        a, b = line
        return [d for d in neighbours(rows, cols, a) if d in neighbours(rows, cols, b)]

    completes = [ln for ln in legal if any(sides_left(c, ln) == 0 for c in centres_of(ln))]
    if completes:
        return completes[0]
    safe = [ln for ln in legal if all((sides_left(c, ln) or 9) >= 2 for c in centres_of(ln))]
    return random.choice(safe or legal)


def play(
    server: str, name: str, game_url: str | None = None, rows: int | None = None, cols: int | None = None
) -> dict[str, Any]:
    """Join a game (``game_url``, a new ``rows`` x ``cols`` game, or one from ``GET /match``) and play it out."""
    with httpx.Client(base_url=server, timeout=120) as http:
        if game_url is None:
            if rows is not None and cols is not None:
                r = http.post("/", json={"rows": rows, "cols": cols})
            else:
                r = http.get("/match")
            r.raise_for_status()
            game_url = str(r.url.join(r.headers["Location"]))  # absolute: the server may live under a prefix
        r = http.post(f"{game_url}/players", json={"name": name})
        if r.status_code != 200:
            return {"error": r.json(), "status": r.status_code}
        game = r.json()
        token = r.headers.get("X-Turn-Token")
        while token:
            a, b = choose(game)
            r = http.post(
                f"{game_url}/moves",
                json=[{"row": a[0], "col": a[1]}, {"row": b[0], "col": b[1]}],
                headers={"X-Turn-Token": token},
            )
            if r.status_code != 200:
                return {"error": r.json(), "status": r.status_code}
            delta = r.json()
            game["lines"] += delta["lines"]
            game["hexagons"] += delta["hexagons"]
            game["players"] = delta["players"]
            game["state"] = delta["state"]
            token = r.headers.get("X-Turn-Token")
        return game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", default="http://127.0.0.1:8001", help="the dots port (or http://host:8000/dots)")
    parser.add_argument("--name", required=True)
    parser.add_argument("--game", default=None, help="a game path such as /abc123 (default: GET /match)")
    args = parser.parse_args()
    final = play(args.server, args.name, args.game)
    print(final.get("players"), final.get("state"), final.get("error", ""))


if __name__ == "__main__":
    main()
