"""Settings of Python's cyclic garbage collector for the long-running servers: ``hexarena serve`` and the bot
SDK's bot server.

Why: a server keeps a lot alive for as long as a game lasts (the SDK one ``Cell`` model per stone per game, the
arena every game's positions and records), and with the default thresholds (a young collection every 700 new
containers, a full one after ten middle ones) the collector walked all of it again and again: at 1,000 stones
the SDK's bot server spent more CPU per move collecting than doing anything else (``bench/move_cost_by_stones.py``
measures it). Nearly everything a server frees is freed by
reference counting anyway; the collector only finds cycles, so running it less often costs a little memory held
by cyclic garbage for longer, not correctness.
"""

from __future__ import annotations

import gc

#: New containers between two young collections (the default is 700).
YOUNG_THRESHOLD = 50_000
#: Young collections between two middle ones (default 10), and middle ones between two full ones (default 10).
MIDDLE_THRESHOLD = 20
FULL_THRESHOLD = 10


def tune_for_serving() -> None:
    """Freeze what exists now (modules, classes, the app: never garbage, so out of every later collection) and
    collect less often. Call once, when the server has been built and before it serves."""
    gc.collect()
    gc.freeze()
    young, middle, full = gc.get_threshold()
    if young == 0:  # the collector was switched off on purpose: leave it so
        return
    gc.set_threshold(max(young, YOUNG_THRESHOLD), max(middle, MIDDLE_THRESHOLD), max(full, FULL_THRESHOLD))
