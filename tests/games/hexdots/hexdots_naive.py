"""A deliberately naive Hexagon dots referee written straight from docs/games/hexdots.md, for cross-checking.

Coordinates and sets only, no precomputed tables, no incremental counters: it rescans the whole board after
every move, as the original server did, so it is slow but hard to get subtly wrong in the same way as the
engine.
"""

from __future__ import annotations

Coord = tuple[int, int]
Line = tuple[Coord, Coord]


class NaiveDots:
    def __init__(self, rows: int, cols: int) -> None:
        self.rows, self.cols = rows, cols
        self.lines: dict[Line, int] = {}
        self.captured: dict[Coord, int] = {}
        self.turn = 0
        self.scores = [0, 0]

    def on_board(self, c: Coord) -> bool:
        r, col = c
        width = self.cols - 1 if r % 2 == 0 else self.cols
        return 0 <= r < self.rows and 0 <= col < width

    def ring(self, c: Coord) -> list[Coord]:
        r, col = c
        shift = (r + 1) % 2
        cand = [
            (r, col - 1),
            (r - 1, col + shift - 1),
            (r - 1, col + shift),
            (r, col + 1),
            (r + 1, col + shift),
            (r + 1, col + shift - 1),
        ]
        return [n for n in cand if self.on_board(n)]

    def dots(self) -> list[Coord]:
        return [(r, c) for r in range(self.rows) for c in range(self.cols) if self.on_board((r, c))]

    def all_lines(self) -> set[Line]:
        out: set[Line] = set()
        for d in self.dots():
            for n in self.ring(d):
                a, b = sorted((d, n))
                out.add((a, b))
        return out

    def is_center(self, c: Coord) -> bool:
        return len(self.ring(c)) == 6

    def complete(self, c: Coord) -> bool:
        ring = self.ring(c)
        if len(ring) != 6:
            return False
        for i in range(6):
            a, b = sorted((ring[i], ring[(i + 1) % 6]))
            if (a, b) not in self.lines or a in self.captured or b in self.captured:
                return False
        return True

    def possible(self) -> bool:
        for d in self.dots():
            if not self.is_center(d) or d in self.captured:
                continue
            if any(n in self.captured for n in self.ring(d)):
                continue
            return True
        return False

    def legal(self) -> set[Line]:
        if not self.possible():
            return set()
        return {
            ln
            for ln in self.all_lines()
            if ln not in self.lines and ln[0] not in self.captured and ln[1] not in self.captured
        }

    def play(self, line: Line) -> list[Coord]:
        a, b = sorted(line)
        assert (a, b) in self.legal()
        self.lines[(a, b)] = self.turn
        common = [c for c in self.ring(a) if c in self.ring(b)]
        new = [c for c in common if self.complete(c)]
        for c in new:
            self.captured[c] = self.turn
        self.scores[self.turn] += len(new)
        if not new:
            self.turn = 1 - self.turn
        return sorted(new)
