"""Who the ladder pairs next, and when: pure functions of the bots, their ratings and a clock.

Why pure: pairing is the ladder's whole policy (similar ratings meet; the operator's pace, the ladder's
concurrency and each bot's own limits hold), and as plain functions over plain values it is tested with a fake
clock, no server, no sleeping (``tests/ladder/test_pairing.py``). The scheduler (``server.ladder``) feeds it what
the store and the running games say and starts what it returns.

The rules, in order:

1. the ladder's pace: :class:`Pacer`, a token bucket of ``games_per_hour`` whose burst is the ladder's
   concurrency, so an idle ladder starts a few games at once and then one every ``3600 / games_per_hour`` s;
2. at most ``concurrency`` ladder games at once;
3. each bot: at most its ``max_concurrent`` games at once, and with ``games_per_hour`` set, one start every
   ``3600 / games_per_hour`` s;
4. the bot that has waited longest (never played first, then the oldest last start, then by name) plays the
   available bot of the same game whose rating is nearest its own (ties: the one that waited longer, then name);
5. seats alternate: a bot that moved first in its last game moves second in this one, when it can.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

#: Most bots on one server's ladder (each is read every scheduling pass).
MAX_LADDER_BOTS = 200
#: Most ladder games at once, whatever the operator asks (each holds a connection to two bots).
MAX_CONCURRENCY = 64
#: Most ladder games started an hour.
MAX_GAMES_PER_HOUR = 36_000
#: Most games at once one bot may ask for.
MAX_BOT_CONCURRENT = 8
#: Forfeits in a row (crash, timeout, illegal move, protocol error) after which a bot is paused.
DEFAULT_FAIL_LIMIT = 3


@dataclass
class LadderSettings:
    """What ``hexarena serve --ladder-...`` sets (the pace and the bounds of the ladder)."""

    #: Run the ladder's scheduler on this server (several instances: one of them pairs, see ``server.ladder``).
    enabled: bool = True
    games_per_hour: int = 120
    concurrency: int = 2
    fail_limit: int = DEFAULT_FAIL_LIMIT
    max_bots: int = 50
    #: Seconds each move may take in a ladder game (a turn clock).
    move_seconds: float = 5.0
    #: Seconds between two scheduling passes.
    tick: float = 1.0
    #: Game parameters of ladder games, by game name (e.g. a turn limit that bounds a game's length); a game not
    #: listed is played with its defaults.
    params: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: Called with (spec, game) to get a check-bot report for a paused bot: ``hexarena serve`` passes
    #: ``hexarena.checkbot.ladder.report_for`` (check-bot sits above the server); None: the pause reason alone.
    checker: object = field(default=None, repr=False)

    def __post_init__(self) -> None:
        self.check()

    def check(self) -> None:
        """ValueError naming the setting out of its bounds."""
        bounds = {
            "games_per_hour": (self.games_per_hour, 1, MAX_GAMES_PER_HOUR),
            "concurrency": (self.concurrency, 1, MAX_CONCURRENCY),
            "fail_limit": (self.fail_limit, 1, 1000),
            "max_bots": (self.max_bots, 2, MAX_LADDER_BOTS),
        }
        for name, (value, low, high) in bounds.items():
            if not (isinstance(value, int) and low <= value <= high):
                raise ValueError(f"ladder {name} must be a whole number from {low} to {high}, not {value!r}")
        if not 0.05 <= self.move_seconds <= 3600:
            raise ValueError(f"ladder move_seconds must be from 0.05 to 3600, not {self.move_seconds!r}")
        if not 0.01 <= self.tick <= 60:
            raise ValueError(f"ladder tick must be from 0.01 to 60 seconds, not {self.tick!r}")


class Pacer:
    """The ladder's pace: a token bucket of ``per_hour`` starts an hour holding at most ``burst`` of them."""

    def __init__(self, per_hour: int, burst: int, now: float) -> None:
        self.rate = per_hour / 3600.0
        self.burst = float(max(burst, 1))
        self.tokens = 1.0  # a new ladder starts one game at once, then builds up to the burst
        self.at = now

    def available(self, now: float) -> int:
        """Games that may start now."""
        self.tokens = min(self.burst, self.tokens + max(now - self.at, 0.0) * self.rate)
        self.at = now
        return int(self.tokens + 1e-9)

    def take(self, now: float) -> None:
        self.available(now)
        self.tokens -= 1.0


@dataclass
class Candidate:
    """A bot the ladder may pair: its entry's limits, its rating, what it plays now and when it last started."""

    name: str
    game: str
    rating: float = 1500.0
    max_concurrent: int = 1
    games_per_hour: int | None = None
    running: int = 0
    #: the clock's time of its last start; None: never started (since this scheduler began)
    last_start: float | None = None
    #: whether it moved first in its last game
    last_first: bool = False

    def free(self, now: float) -> bool:
        if self.running >= self.max_concurrent:
            return False
        if self.games_per_hour is not None and self.last_start is not None:
            return now - self.last_start >= 3600.0 / self.games_per_hour
        return True

    def waited(self) -> tuple[int, float, str]:
        """Sort key: never started first, then the oldest start, then the name."""
        return (0 if self.last_start is None else 1, self.last_start or 0.0, self.name)


def pick_pairs(candidates: Iterable[Candidate], slots: int, now: float) -> list[tuple[Candidate, Candidate]]:
    """Up to ``slots`` pairs to start now, seats in order (first mover first), following the module's rules;
    the candidates' ``running``/``last_start``/``last_first`` are updated for each pair picked."""
    pool = list(candidates)
    pairs: list[tuple[Candidate, Candidate]] = []
    while len(pairs) < slots:
        free = sorted((c for c in pool if c.free(now)), key=Candidate.waited)
        pair = _best_pair(free)
        if pair is None:
            break
        first, second = _seats(*pair)
        for seat, c in enumerate((first, second)):
            c.running += 1
            c.last_start = now
            c.last_first = seat == 0
        pairs.append((first, second))
    return pairs


def _best_pair(free: Sequence[Candidate]) -> tuple[Candidate, Candidate] | None:
    for waiting in free:  # the longest waiting bot that has somebody to play
        rivals = [c for c in free if c.game == waiting.game and c.name != waiting.name]
        if rivals:
            order = {c.name: i for i, c in enumerate(free)}
            rival = min(rivals, key=lambda c: (abs(c.rating - waiting.rating), order[c.name]))
            return waiting, rival
    return None


def _seats(a: Candidate, b: Candidate) -> tuple[Candidate, Candidate]:
    """``a`` moves first unless it did last time and ``b`` did not."""
    return (b, a) if a.last_first and not b.last_first else (a, b)


__all__ = [
    "DEFAULT_FAIL_LIMIT",
    "MAX_BOT_CONCURRENT",
    "MAX_CONCURRENCY",
    "MAX_GAMES_PER_HOUR",
    "MAX_LADDER_BOTS",
    "Candidate",
    "LadderSettings",
    "Pacer",
    "pick_pairs",
]
