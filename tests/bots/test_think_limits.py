"""Every built-in search stops: at a think-time cap whatever the clock offers, at a node cap, and when its caller
gives up on the move (a cancelled match cannot kill the worker thread, so the search must return by itself)."""

from __future__ import annotations

import asyncio
import random
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest

import hexarena.bots.stopping as stopping
from hexarena.bots.hex import MctsHexBot
from hexarena.bots.hive import AlphaBetaBot
from hexarena.bots.htttx import SearchBot
from hexarena.bots.stopping import StopSignal, stop_all, stop_requested, stoppable
from hexarena.core.contract import MatchInfo, MoveRequest
from hexarena.games.hex import GAME as HEX
from hexarena.games.hive import GAME as HIVE
from hexarena.games.htttx import HTTTX
from hexarena.players.inprocess import InProcessPlayer

DAY = 86400.0
#: Bounded waits for liveness (never a timing assertion): far above what a stopped search needs.
PATIENCE = 15.0


def hive_midgame() -> Any:
    rng = random.Random(5)
    state = HIVE.new(expansions="MLP")
    for _ in range(14):
        state = HIVE.play(state, HIVE.random_move(state, rng))
    return state


def run_in_thread(work: Callable[[], Any]) -> tuple[threading.Thread, list[Any]]:
    out: list[Any] = []
    thread = threading.Thread(target=lambda: out.append(work()), daemon=True)
    thread.start()
    return thread, out


@pytest.mark.parametrize("bot_name", ["mcts", "mcts-python", "search", "search-python", "alphabeta"])
def test_a_search_offered_a_day_returns_once_its_caller_stops_it(bot_name: str) -> None:
    event = StopSignal()
    if bot_name.startswith("mcts"):
        bot: Any = MctsHexBot(implementation="Python" if bot_name.endswith("python") else None)
        game, state = HEX, HEX.new(size=11, swap=False)  # (with the swap rule the first move is a fixed opening)
    elif bot_name.startswith("search"):
        bot = SearchBot(implementation="Python" if bot_name.endswith("python") else None)
        game, state = HTTTX, HTTTX.new()
        state = HTTTX.play(state, HTTTX.random_move(state, random.Random(3)))  # one stone: nothing to prove soon
    else:
        bot = AlphaBetaBot(max_depth=40)
        game, state = HIVE, hive_midgame()

    def work() -> Any:
        with stoppable(event):
            return bot.choose(game, state, DAY, random.Random(1))

    thread, out = run_in_thread(work)
    time.sleep(0.3)
    assert thread.is_alive(), "the search ended before it was asked to"
    event.set()
    thread.join(PATIENCE)
    assert not thread.is_alive(), "the search ignored the stop request"
    assert out
    game.play(state, out[0])  # a legal move (it raises otherwise)


def test_stop_all_stops_every_running_search() -> None:
    bots = [MctsHexBot(), MctsHexBot()]
    state = HEX.new(size=9, swap=False)

    def work(bot: MctsHexBot) -> Callable[[], Any]:
        def go() -> Any:
            with stoppable(StopSignal()):
                return bot.choose(HEX, state, DAY, random.Random(2))

        return go

    threads = [run_in_thread(work(b))[0] for b in bots]
    time.sleep(0.3)
    assert stop_all() >= 2
    for thread in threads:
        thread.join(PATIENCE)
        assert not thread.is_alive()


def test_stop_requested_is_per_thread_and_scoped() -> None:
    event = StopSignal()
    event.set()
    assert not stop_requested()
    with stoppable(event):
        assert stop_requested()
        seen: list[bool] = []
        other = threading.Thread(target=lambda: seen.append(stop_requested()))
        other.start()
        other.join()
        assert seen == [False]
    assert not stop_requested()


@pytest.mark.parametrize("bot_name", ["mcts-iterations", "mcts-day", "alphabeta-day"])
def test_think_time_is_capped_whatever_the_clock(bot_name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A cap of 0.3 s for the test: without a clock (and an iteration count of a billion) or with a day."""
    monkeypatch.setattr(stopping, "MAX_THINK_SECONDS", 0.3)
    if bot_name == "mcts-iterations":
        bot: Any = MctsHexBot(iterations=10**9)
        game, state, limit = HEX, HEX.new(size=11, swap=False), None
    elif bot_name == "mcts-day":
        bot, game, state, limit = MctsHexBot(), HEX, HEX.new(size=11, swap=False), DAY
    else:
        bot, game, state, limit = AlphaBetaBot(max_depth=40), HIVE, hive_midgame(), DAY
    thread, out = run_in_thread(lambda: bot.choose(game, state, limit, random.Random(3)))
    thread.join(PATIENCE)
    assert not thread.is_alive(), "the search ran past its think-time cap"
    assert out and out[0] in game.legal(state)


def test_mcts_tree_is_capped_in_nodes() -> None:
    bot = MctsHexBot(iterations=5000, max_nodes=300)
    bot.choose(HEX, HEX.new(size=11, swap=False), None, random.Random(4))
    assert bot.stats.iterations == 5000  # the search goes on, from leaves that may no longer grow
    assert 0 < bot.stats.nodes <= 300


async def test_cancelling_a_threaded_move_stops_its_search() -> None:
    bot = MctsHexBot()
    player = InProcessPlayer(bot, seed=1)
    state = HEX.new(size=11, swap=False)
    await player.start(
        MatchInfo(match_id="m", game=HEX, params={"size": 11, "swap": False}, seat=0, initial_state=state)
    )
    task = asyncio.create_task(player.move(MoveRequest(state=state, history=[], time_limit=DAY)))
    await asyncio.sleep(0.3)
    assert bot.stats.iterations == 0  # still searching (stats are written when a search ends)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    for _ in range(int(PATIENCE / 0.05)):
        if bot.stats.iterations:
            break
        await asyncio.sleep(0.05)
    assert bot.stats.iterations > 0, "the worker thread is still searching after its move was cancelled"
