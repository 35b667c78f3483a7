"""MatchManager without HTTP: spectators never stall a match, and every match is recorded (no store needed)."""

from __future__ import annotations

import asyncio
import functools
import json
from typing import Any

import pytest

from fakes.players import ScriptedPlayer, Step
from hexarena.core.registry import get_game
from hexarena.core.types import Termination
from hexarena.server import live as live_module
from hexarena.server.live import MatchManager
from hexarena.store.recorder import Recorder

TTT = get_game("tictactoe")


async def test_a_stuck_spectator_is_dropped_and_the_match_goes_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(live_module, "SPECTATOR_QUEUE", 2)
    manager = MatchManager(None)
    x = ScriptedPlayer("x", [Step(move=(0, 0), sleep=0.01), (0, 1), (0, 2)])
    o = ScriptedPlayer("o", [(1, 0), (1, 1)])
    match = await manager.create(TTT, [x, o])
    stuck = asyncio.Event()

    async def never(text: str) -> None:
        await stuck.wait()

    got: list[dict[str, object]] = []

    async def fine(text: str) -> None:
        got.append(json.loads(text))

    slow = await manager.spectate(match, never)
    quick = await manager.spectate(match, fine)
    writers = [asyncio.create_task(s.run()) for s in (slow, quick)]
    await asyncio.wait_for(match.done.wait(), 5)
    await asyncio.wait_for(writers[1], 5)
    assert match.result is not None and match.result.outcome.winner == 0
    assert slow not in match.spectators and slow.closed.is_set()  # dropped when its queue filled up
    assert [m["type"] for m in got] == ["setup"] + ["board_update"] * 5 + ["end"]
    assert got[-1]["termination"] == "normal" and got[1]["move"] == "a1"
    writers[0].cancel()
    await asyncio.gather(writers[0], return_exceptions=True)
    # finished matches stay readable in memory for late spectators
    assert manager.get(match.match_id) is match and match.match_id not in manager.live


async def test_the_end_message_is_made_only_for_someone_to_tell(monkeypatch: pytest.MonkeyPatch) -> None:
    # It holds the whole board: a match nobody watches ends without it; a watched one sends it once, and a
    # spectator who comes after the end still gets it (from spectate).
    made: list[str] = []
    real = live_module.messages.end

    def counting(game: Any, result: Any) -> dict[str, Any]:
        made.append(result.match_id)
        return real(game, result)

    monkeypatch.setattr(live_module.messages, "end", counting)
    manager = MatchManager(None)
    alone = await manager.create(
        TTT, [ScriptedPlayer("x", [(0, 0), (0, 1), (0, 2)]), ScriptedPlayer("o", [(1, 0), (1, 1)])]
    )
    await asyncio.wait_for(alone.done.wait(), 5)
    assert made == []
    got: list[dict[str, Any]] = []

    async def collect(text: str) -> None:
        got.append(json.loads(text))

    late = await manager.spectate(alone, collect)
    await asyncio.wait_for(late.run(), 5)
    assert made == [alone.match_id] and got[-1]["type"] == "end"
    x = ScriptedPlayer("x", [Step(move=(0, 0), sleep=0.05), (0, 1), (0, 2)])
    watched = await manager.create(TTT, [x, ScriptedPlayer("o", [(1, 0), (1, 1)])])
    seen: list[dict[str, Any]] = []

    async def watch(text: str) -> None:
        seen.append(json.loads(text))

    writer = await manager.spectate(watched, watch)
    await asyncio.wait_for(writer.run(), 5)
    assert made == [alone.match_id, watched.match_id] and seen[-1]["type"] == "end"


async def test_close_interrupts_live_matches() -> None:
    manager = MatchManager(None)
    x = ScriptedPlayer("x", [Step(hang=True)])
    o = ScriptedPlayer("o", [])
    match = await manager.create(TTT, [x, o])
    for _ in range(100):
        if x.calls.requests:
            break
        await asyncio.sleep(0.005)
    await manager.close()
    assert match.result is not None and match.result.outcome.termination == Termination.INTERRUPTED
    assert len(x.calls.finished) == 1 and match.done.is_set()


async def test_finished_bot_games_update_the_leaderboard(migrated_sqlite_url: str) -> None:
    """A bot-vs-bot match run by the server moves both players' ratings; the winner gains what the loser drops."""
    from hexarena.players.inprocess import InProcessPlayer
    from hexarena.store import Store

    store = await Store.open(migrated_sqlite_url)
    try:
        manager = MatchManager(None if store is None else Recorder(store))
        players = [InProcessPlayer.builtin("tictactoe", "perfect"), InProcessPlayer.builtin("tictactoe", "random")]
        live = await manager.create(get_game("tictactoe"), players)
        await live.done.wait()
        assert live.result is not None
        a = await store.get_rating("builtin:perfect", "tictactoe")
        b = await store.get_rating("builtin:random", "tictactoe")
        assert a is not None and b is not None and a.games == b.games == 1
        assert abs((a.rating - 1500) + (b.rating - 1500)) < 1e-9
        if live.result.outcome.winner == 0:
            assert a.rating > 1500 > b.rating
    finally:
        await store.close()


async def test_a_spectator_that_asks_for_moves_only_gets_the_move_not_the_board() -> None:
    """``moves_only``: the snapshot once (the board as it stands), then each move without the board (its cost grows
    with the board, on the server and on the wire); the moves rebuild what the others were sent in full."""
    from hexarena.players.inprocess import InProcessPlayer

    game = get_game("htttx")
    manager = MatchManager(None)
    players = [InProcessPlayer.builtin("htttx", "random", seed=s) for s in (1, 2)]
    match = await manager.create(game, players, params={"turn_limit": 40}, start=False)
    light: list[dict[str, Any]] = []
    full: list[dict[str, Any]] = []

    async def to(into: list[dict[str, Any]], text: str) -> None:
        into.append(json.loads(text))

    spectators = [
        await manager.spectate(match, functools.partial(to, light), moves_only=True),
        await manager.spectate(match, functools.partial(to, full)),
    ]
    writers = [asyncio.create_task(s.run()) for s in spectators]
    manager.start(match)
    await asyncio.wait_for(match.done.wait(), 30)
    await asyncio.wait_for(asyncio.gather(*writers), 5)
    assert [m["type"] for m in light] == [m["type"] for m in full]
    assert light[0]["type"] == "setup" and "state" in light[0] and light[-1]["type"] == "end"
    updates = [m for m in light if m["type"] == "board_update"]
    assert len(updates) > 10
    assert all("state" not in m and "board" not in m for m in updates), updates[0]
    assert all("state" in m and "board" in m for m in full if m["type"] == "board_update")
    keys = ("ply", "seat", "move", "to_move", "status", "clocks")
    assert [{k: m[k] for k in keys} for m in updates] == [
        {k: m[k] for k in keys} for m in full if m["type"] == "board_update"
    ]
    state = game.new(turn_limit=40)
    for m in light[0]["moves"] + updates:
        state = game.play(state, game.parse(m["move"]))
    assert game.to_json(state) == light[-1]["state"] == full[-1]["state"]
