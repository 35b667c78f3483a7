"""Opening sets: the positions each game pair starts from, so a pairing is not decided by the same first moves.

An opening is a list of moves in the game's notation, played from the initial position before the bots take
over. Both games of a pair use the same opening with the colours swapped. Two sources:

* ``random:K``: K uniformly random legal plies from the start (``game.random_move``), regenerated when they end
  the game; a random walk of a few plies rarely decides a game, and the swapped-colour pair balances what bias
  remains. With ``balance`` > 0 each candidate is also judged by that many random playouts and kept only when
  the first seat scores within :data:`BALANCE_WINDOW` (else the most even of the candidates tried), which
  weeds out openings that already lean hard to one side. Opening ``i`` is drawn from ``Random(f"{seed}:{i}")``,
  so the set is the same on every run.
* a file: one opening per line, moves separated by spaces or commas; ``#`` starts a comment. Every line is
  replayed on load and a bad move is reported with its line number.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Generic, TypeVar

from hexarena.core.errors import ConfigError, HexarenaError
from hexarena.core.game import Game

S = TypeVar("S")
M = TypeVar("M")

_SPLIT = re.compile(r"[\s,]+")

#: Playout score range (first seat's view) in which a random opening counts as balanced.
BALANCE_WINDOW = (0.3, 0.7)
#: Plies after which a balance playout is scored as a draw (games that could run for long).
PLAYOUT_PLIES = 400


def play_opening(game: Game[S, M], params: Mapping[str, object], moves: Sequence[str]) -> S:
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


def playout_score(game: Game[S, M], state: S, rng: random.Random, playouts: int) -> float:
    """Seat 0's mean score over ``playouts`` uniformly random games from ``state``."""
    total = 0.0
    for _ in range(playouts):
        s = state
        for _ in range(PLAYOUT_PLIES):
            if game.to_move(s) is None:
                break
            s = game.play(s, game.random_move(s, rng))
        outcome = game.outcome(s)
        total += 0.5 if outcome is None else outcome.score(0)
    return total / playouts


def random_opening(
    game: Game[S, M], params: Mapping[str, object], plies: int, rng: random.Random, tries: int = 50, balance: int = 0
) -> list[str]:
    """``plies`` random legal moves that leave the game open (retried up to ``tries`` times, then shortened).

    With ``balance`` playouts per candidate, returns the first candidate whose playout score is inside
    :data:`BALANCE_WINDOW`, or the most even one of ``tries`` candidates.
    """
    best: tuple[float, list[str]] | None = None
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
            if len(moves) != length or game.to_move(state) is None:
                continue
            if balance <= 0:
                return moves
            score = playout_score(game, state, rng, balance)
            if BALANCE_WINDOW[0] <= score <= BALANCE_WINDOW[1]:
                return moves
            if best is None or abs(score - 0.5) < best[0]:
                best = (abs(score - 0.5), moves)
        if best is not None:
            return best[1]
    return []


def parse_openings(
    text: str, game: Game[S, M], params: Mapping[str, object], source: str = "openings"
) -> list[list[str]]:
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


def load_openings(path: str | Path, game: Game[S, M], params: Mapping[str, object]) -> list[list[str]]:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot read openings file {str(p)!r}: {exc.strerror or exc}") from None
    return parse_openings(text, game, params, source=str(p))


class OpeningBook(Generic[S, M]):
    """Opening ``i`` of a tournament: from a fixed list (shuffled once by the seed) or random plies."""

    def __init__(
        self,
        game: Game[S, M],
        params: Mapping[str, object],
        seed: int,
        plies: int = 0,
        lines: Sequence[Sequence[str]] | None = None,
        balance: int = 0,
    ) -> None:
        self.game = game
        self.params = params
        self.seed = seed
        self.plies = plies
        self.balance = balance
        self.lines = [list(m) for m in lines] if lines else None
        if self.lines:
            random.Random(f"{seed}:order").shuffle(self.lines)

    def opening(self, index: int) -> list[str]:
        if self.lines:
            return list(self.lines[index % len(self.lines)])
        if self.plies <= 0:
            return []
        rng = random.Random(f"{self.seed}:{index}")
        return random_opening(self.game, self.params, self.plies, rng, balance=self.balance)


__all__ = ["OpeningBook", "load_openings", "parse_openings", "play_opening", "random_opening"]
