"""How long a built-in bot thinks about one move, from the match clock.

Why here and not in each bot: the referee offers a player its whole remaining time under a match clock (that is
the most it may use without losing), and a bot that spends what it is offered loses on time a few moves later
(Hex MCTS once spent 21 s of a 30 s clock on its first move). So the in-process player turns the offer into a
budget once, for every built-in: under a turn clock the turn's time; under a match or incremental clock the
remaining time spread over the moves still expected, plus most of the increment, and never more than a small
share of what is left. ``SAFETY`` keeps room for the thread hop, the referee and the clock's granularity; each
search then stops itself at its deadline (``stopping.think_cap`` caps any budget, and gives one with no clock).
"""

from __future__ import annotations

from hexarena.core.contract import ClockConfig

#: Part of a budget a bot is told it has (the rest covers the thread hop and the referee's bookkeeping).
SAFETY = 0.8
#: Moves a bot plans for at the start of a game under a match clock; it plans for at least MIN_MOVES_TO_GO.
EXPECTED_MOVES = 40
MIN_MOVES_TO_GO = 15
#: The most of the remaining time (beyond the increment) one move may use.
MAX_SHARE = 0.1
#: Part of the increment a move may spend on top of its share.
INCREMENT_SHARE = 0.8


def move_budget(clock: ClockConfig, time_limit: float | None, time_left: float | None, moves_made: int) -> float | None:
    """Seconds the bot should think about its next move (None: no clock, the bot's own cap applies).

    ``time_limit`` is what the referee offers (the most it may use), ``time_left`` the player's clock,
    ``moves_made`` how many moves this player has made in the match.
    """
    if time_limit is None:
        return None
    budget = time_limit
    if clock.kind in ("match", "incremental"):
        left = time_limit if time_left is None else min(time_left, time_limit)
        to_go = max(MIN_MOVES_TO_GO, EXPECTED_MOVES - moves_made)
        increment = clock.increment if clock.kind == "incremental" else 0.0
        share = left / to_go + INCREMENT_SHARE * increment
        budget = min(share, left * MAX_SHARE + INCREMENT_SHARE * increment, time_limit)
    return max(0.0, budget * SAFETY)
