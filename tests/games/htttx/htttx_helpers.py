"""From-scratch reference computations for the HTTTX tests (deliberately slow and obvious)."""

from __future__ import annotations

AXES = ((1, 0), (0, 1), (1, -1))
MASK64 = (1 << 64) - 1


def dist(q1: int, r1: int, q2: int, r2: int) -> int:
    return max(abs(q1 - q2), abs(r1 - r2), abs(q1 - q2 + r1 - r2))


def scratch_legal(stones: list[tuple[int, int, int]], view: int) -> set[tuple[int, int]]:
    """Every empty cell within ``view`` of some stone, by looping over every stone's whole hexagon."""
    occupied = {(q, r) for q, r, _ in stones}
    covered = set()
    for q, r, _ in stones:
        for dq in range(-view, view + 1):
            for dr in range(-view, view + 1):
                if abs(dq + dr) <= view:
                    covered.add((q + dq, r + dr))
    return covered - occupied


def splitmix64(x: int) -> int:
    x = (x + 0x9E3779B97F4A7C15) & MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK64
    return x ^ (x >> 31)


def scratch_zobrist(stones: list[tuple[int, int, int]]) -> int:
    """XOR of splitmix64 of each stone packed as (q mod 2^32) << 33 | (r mod 2^32) << 1 | seat."""
    h = 0
    for q, r, seat in stones:
        h ^= splitmix64(((q & 0xFFFFFFFF) << 33) | ((r & 0xFFFFFFFF) << 1) | seat)
    return h


def scratch_winner(stones: list[tuple[int, int, int]], need: int) -> int | None:
    """The seat with ``need`` in a row anywhere, scanning every stone on every axis."""
    cells = {(q, r): s for q, r, s in stones}
    for (q, r), s in cells.items():
        for dq, dr in AXES:
            if cells.get((q - dq, r - dr)) == s:
                continue  # not the start of a run
            n = 0
            while cells.get((q + n * dq, r + n * dr)) == s:
                n += 1
            if n >= need:
                return s
    return None
