"""Nothing is kept per game once it ends but a small summary: a server that plays game after game must not grow.

The real match machinery (``MatchManager``, its referee tasks, the recorder on a real SQLite file) plays 1,100 short
HTTTX games between built-in bots, more than the :data:`~hexarena.server.live.KEEP_FINISHED` it keeps for lookups.
What Python holds (``tracemalloc``, which counts the boards' C buffers too: they are ``PyMem`` allocations) after
the first games is compared with what it holds after all of them. A finished match that kept its position (whose
board is shared with every position of the game) or its players kept a few hundred KB a game; a summary is a few
KB. No wall-time bound: it measures bytes, which a loaded machine does not change.
"""

from __future__ import annotations

import asyncio
import gc
import tracemalloc
from pathlib import Path

from hexarena.core.registry import get_game
from hexarena.players.inprocess import InProcessPlayer
from hexarena.server.live import KEEP_FINISHED, MatchManager
from hexarena.store import Store
from hexarena.store.recorder import Recorder

GAMES = 1100
AT_ONCE = 32
#: Bytes a game may leave behind on average between the first games and the last (the finished matches' cache
#: fills up meanwhile: its summaries count). Each kept a few hundred KB before; a summary is well under this.
PER_GAME = 40_000


async def _play(manager: MatchManager, first: int, count: int) -> None:
    game = get_game("htttx")
    gate = asyncio.Semaphore(AT_ONCE)

    async def one(i: int) -> None:
        async with gate:
            players = [InProcessPlayer.builtin("htttx", "random", seed=i), InProcessPlayer.builtin("htttx", "random")]
            live = await manager.create(game, players, params={"turn_limit": 20, "win_distance": 32})
            await live.done.wait()
            assert live.result is not None and live.result.outcome.termination in ("normal", "turn_limit")

    await asyncio.gather(*(one(i) for i in range(first, first + count)))


def _held() -> int:
    gc.collect()
    return tracemalloc.get_traced_memory()[0]


async def test_a_finished_game_leaves_only_a_small_summary_behind(tmp_path: Path) -> None:
    assert GAMES > 2 * KEEP_FINISHED
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'soak.sqlite3'}")
    recorder = Recorder(store, tmp_path)
    await recorder.start()
    manager = MatchManager(recorder)
    tracemalloc.start(1)
    try:
        warm = 100
        await _play(manager, 0, warm)  # the first games: imports, caches and pools settle
        before = _held()
        await _play(manager, warm, GAMES - warm)
        await recorder.flush(30)
        grown = _held() - before
    finally:
        tracemalloc.stop()
        await manager.close()
        await recorder.close()
        await store.close()
    assert len(manager.finished) == KEEP_FINISHED and not manager.live and not manager.tokens
    games = GAMES - warm
    assert grown < games * PER_GAME, f"{grown / games / 1024:.0f} KB held per game over {games} games"
    # and what a kept summary still serves: the final position, rebuilt from the moves
    kept = next(iter(manager.finished.values()))
    assert kept.state is not None and kept.game.outcome(kept.state) is not None
    assert kept.end_message()["type"] == "end"
