"""Opening sets: the positions each game pair starts from, so a pairing is not decided by the same first moves.

An opening is a list of moves in the game's notation, played from the initial position before the bots take
over. Both games of a pair use the same opening with the colours swapped. Two sources:

* ``random:K``: K uniformly random legal plies from the start (``game.random_move``), regenerated when they end
  the game; a random walk of a few plies rarely decides a game, and the swapped-colour pair balances what bias
  remains. Opening ``i`` is drawn from ``Random(f"{seed}:{i}")``, so the set is the same on every run.
* a file: one opening per line, moves separated by spaces or commas; ``#`` starts a comment. Every line is
  replayed on load and a bad move is reported with its line number.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from hexarena.core.errors import ConfigError, HexarenaError

_SPLIT = re.compile(r"[\s,]+")


def play_opening(game: Any, params: dict[str, Any], moves: Sequence[str]) -> Any:
    """The state after ``moves`` from ``game.new(**params)``; ConfigError names the move that fails."""
    state = game.new(**params)
    for i, text in enumerate(moves):
        if game.to_move(state) is None:
            raise ConfigError(f"opening {' '.join(moves)!r} ends the game before move {i + 1} ({text!r})")
        try:
            state = game.play(state, game.parse(text))
        except HexarenaError as exc:
            raise ConfigError(f"opening move {i + 1} {text!r} is not playable: {exc}") from None
    if game.to_move(state) is None:
        raise ConfigError(f"opening {' '.join(moves)!r} ends the game")
    return state


def random_opening(game: Any, params: dict[str, Any], plies: int, rng: random.Random, tries: int = 50) -> list[str]:
    """``plies`` random legal moves that leave the game open (retried up to ``tries`` times, then shortened)."""
    for length in range(plies, -1, -1):
        for _ in range(tries):
            state = game.new(**params)
            moves: list[str] = []
            for _ in range(length):
                if game.to_move(state) is None:
                    break
                move = game.random_move(state, rng)
                moves.append(game.format(move))
                state = game.play(state, move)
            if len(moves) == length and game.to_move(state) is not None:
                return moves
    return []


def parse_openings(text: str, game: Any, params: dict[str, Any], source: str = "openings") -> list[list[str]]:
    """Openings from the text of an openings file, each replayed to check it."""
    out: list[list[str]] = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        moves = [m for m in _SPLIT.split(line) if m]
        try:
            play_opening(game, params, moves)
        except ConfigError as exc:
            raise ConfigError(f"{source} line {number}: {exc}") from None
        out.append(moves)
    if not out:
        raise ConfigError(f"{source} holds no opening")
    return out


def load_openings(path: str | Path, game: Any, params: dict[str, Any]) -> list[list[str]]:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot read openings file {str(p)!r}: {exc.strerror or exc}") from None
    return parse_openings(text, game, params, source=str(p))


class OpeningBook:
    """Opening ``i`` of a tournament: from a fixed list (shuffled once by the seed) or random plies."""

    def __init__(
        self, game: Any, params: dict[str, Any], seed: int, plies: int = 0, lines: Sequence[Sequence[str]] | None = None
    ) -> None:
        self.game = game
        self.params = params
        self.seed = seed
        self.plies = plies
        self.lines = [list(m) for m in lines] if lines else None
        if self.lines:
            random.Random(f"{seed}:order").shuffle(self.lines)

    def opening(self, index: int) -> list[str]:
        if self.lines:
            return list(self.lines[index % len(self.lines)])
        if self.plies <= 0:
            return []
        return random_opening(self.game, self.params, self.plies, random.Random(f"{self.seed}:{index}"))


__all__ = ["OpeningBook", "load_openings", "parse_openings", "play_opening", "random_opening"]
