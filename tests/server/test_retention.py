"""Nothing is kept per game once it ends but a small summary: a server that plays game after game must not grow.

The real match machinery (``MatchManager``, its referee tasks, the recorder on a real SQLite file) plays short HTTTX
games between built-in bots, twice as many as the finished matches it keeps for lookups
(:data:`~hexarena.server.live.KEEP_FINISHED`, made smaller here: the ratio is what the test needs, not the count).
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

import pytest

from hexarena.core.registry import get_game
from hexarena.players.inprocess import InProcessPlayer
from hexarena.server import live as live_module
from hexarena.server.live import MatchManager
from hexarena.store import Store
from hexarena.store.recorder import Recorder

#: Finished matches the manager keeps during the test (the server keeps more). Those kept after the first games
#: count in what the later games leave behind: a few times fewer first games than kept matches, and twice as many
#: later games, make a match that keeps its position (~100 KB) fail the test as clearly as the server's own number.
KEEP_FINISHED = 200
WARM = 50
GAMES = WARM + 2 * KEEP_FINISHED
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


@pytest.mark.slow
async def test_a_finished_game_leaves_only_a_small_summary_behind(
    migrated_sqlite_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(live_module, "KEEP_FINISHED", KEEP_FINISHED)
    assert GAMES - WARM >= 2 * KEEP_FINISHED
    store = await Store.open(migrated_sqlite_url)
    recorder = Recorder(store, tmp_path)
    await recorder.start()
    manager = MatchManager(recorder)
    tracemalloc.start(1)
    try:
        await _play(manager, 0, WARM)  # the first games: imports, caches and pools settle
        before = _held()
        await _play(manager, WARM, GAMES - WARM)
        await recorder.flush(30)
        grown = _held() - before
    finally:
        tracemalloc.stop()
        await manager.close()
        await recorder.close()
        await store.close()
    assert len(manager.finished) == KEEP_FINISHED and not manager.live and not manager.tokens
    games = GAMES - WARM
    assert grown < games * PER_GAME, f"{grown / games / 1024:.0f} KB held per game over {games} games"
    # and what a kept summary still serves: the final position, rebuilt from the moves
    kept = next(iter(manager.finished.values()))
    assert kept.state is not None and kept.game.outcome(kept.state) is not None
    assert kept.end_message()["type"] == "end"


async def test_a_finished_game_leaves_nothing_for_the_cyclic_collector() -> None:
    """What a finished match let go of is freed by reference counting, at once. A served process runs the cyclic
    collector's full passes rarely (``core.gc_tuning``): garbage that only it can free (an HTTTX game's positions
    and the board they share refer to each other) piled up a few hundred KB a game between two passes."""
    manager = MatchManager(None)
    await _play(manager, 0, 10)  # warm: imports, the loop's worker thread
    gc.collect()
    gc.disable()
    tracemalloc.start(1)
    try:
        await _play(manager, 10, 60)
        before = tracemalloc.get_traced_memory()[0]
        found = gc.collect()
        freed = before - tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
        gc.enable()
    assert freed < 60 * 20_000, f"{freed / 60 / 1024:.0f} KB a game ({found / 60:.0f} objects) left for the collector"


async def test_a_finished_bws_game_leaves_nothing_for_the_cyclic_collector(tmp_path: Path) -> None:
    """The same through the server and a real bot server over loopback WebSockets (the SDK's, in this process):
    the bws adapter's connection, reader task and the positions it was told of are freed when the game ends, and
    the bot server's position of each move request with it. What is left is what any request leaves (SQL
    statements, HTTP protocol objects: tens of KB a game, which die young); a board left behind was hundreds."""
    import httpx

    from fakes.servers import serve_app
    from hexarena.bots.sdk import bot_class_for, make_app
    from hexarena.server.app import Settings, create_app

    settings = Settings(database_url=f"sqlite+aiosqlite:///{tmp_path / 'b.sqlite3'}", data_dir=tmp_path)
    settings.create_rate_limit = None
    app = create_app(settings)
    async with serve_app(app) as server, serve_app(make_app(bot_class_for("random"))) as bot:
        seat = {"type": "bot", "bot_url": bot}
        body = {"player_x": seat, "player_o": seat, "match_config": {"turn_limit": 20, "win_distance": 32}}
        manager = app.state.services.manager

        async def games(count: int) -> None:
            async with httpx.AsyncClient(timeout=60) as client:
                for _ in range(count):
                    r = await client.post(f"{server}/game/new", json=body)
                    assert r.status_code == 200, r.text
                    live = manager.get(r.json()["game_id"])
                    assert live is not None
                    await asyncio.wait_for(live.done.wait(), 60)

        await games(3)
        gc.collect()
        gc.disable()
        tracemalloc.start(1)
        try:
            await games(30)
            await asyncio.sleep(0.5)  # the last game's sockets close
            before = tracemalloc.get_traced_memory()[0]
            gc.collect()
            freed = before - tracemalloc.get_traced_memory()[0]
        finally:
            tracemalloc.stop()
            gc.enable()
    assert freed < 30 * 120_000, f"{freed / 30 / 1024:.0f} KB a game left for the collector"
