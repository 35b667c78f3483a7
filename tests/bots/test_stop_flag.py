"""The C engines watch their host's stop flag (``stopping.StopSignal``) without taking the GIL back.

Why it matters: a search that took the GIL back to ask whether to stop waited for whichever thread held it; on a
busy machine that thread may not be running, and a wait that straddled the search's deadline landed on the match
clock (a turn lost on time). Here a thread holds the GIL through a foreign call (``ctypes.PyDLL`` keeps it) for
longer than the search's deadline: a search that must not touch the GIL before it is done keeps searching all the
while, one that asks a Python callback stops at its first check and only goes on once its deadline is past.
"""

from __future__ import annotations

import ctypes
import random
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from test_think_limits import PATIENCE, run_in_thread

from hexarena.bots.hex import mcts as hex_mcts
from hexarena.bots.htttx import search as htttx_search
from hexarena.bots.stopping import StopSignal, stop_flag, stoppable
from hexarena.games.htttx import HTTTX

#: The search's deadline and how long the other thread holds the GIL (longer, so the search's deadline passes while
#: the GIL is held whatever the machine's load).
DEADLINE = 0.5
HOLD_MICROSECONDS = 900_000
#: The least part of an unhindered search's nodes the hindered one must reach. One that takes the GIL back to ask
#: whether to stop is held at its first such check for as long as the GIL is held; load slows both runs alike.
SHARE = 0.4

needs_c = pytest.mark.skipif(
    htttx_search.IMPLEMENTATION != "C" or hex_mcts.IMPLEMENTATION != "C", reason="the C engines are not built"
)


def htttx_stones() -> list[tuple[int, int, int]]:
    state = HTTTX.play(HTTTX.new(), HTTTX.random_move(HTTTX.new(), random.Random(7)))  # X to move, nothing to prove
    return list(state.board().stones)


def htttx_run(flag: Any, seconds: float, max_nodes: int = 1 << 40) -> int:
    """Nodes the C HTTTX search visited before it stopped."""
    result = htttx_search.engine("C")(htttx_stones(), 0, 6, 2, 64, max_nodes, seconds, flag, 12, 0)
    return int(result[3])


def hex_run(flag: Any, seconds: float, iterations: int = 1 << 40) -> int:
    """Simulations the C Hex MCTS ran before it stopped."""
    size = 9
    _, done, _, _, _ = hex_mcts.engine("C")(size, bytes(size * size), 1, -1, iterations, seconds, 1, flag, 2_000_000)
    return int(done)


RUNS: dict[str, Callable[..., int]] = {"htttx": htttx_run, "hex": hex_run}


@needs_c
@pytest.mark.parametrize("engine", ["htttx", "hex"])
def test_a_c_search_keeps_searching_while_another_thread_holds_the_gil(engine: str) -> None:
    run = RUNS[engine]

    def work() -> int:
        with stoppable(StopSignal()):
            return run(stop_flag(), DEADLINE)

    thread, out = run_in_thread(work)
    thread.join(PATIENCE)
    unhindered = out[0]
    thread, out = run_in_thread(work)
    time.sleep(0.02)  # the search is under way, without the GIL
    ctypes.PyDLL(None).usleep(HOLD_MICROSECONDS)  # this thread keeps the GIL all the while
    thread.join(PATIENCE)
    assert not thread.is_alive() and out
    assert out[0] >= SHARE * unhindered, f"{out[0]} of {unhindered}: the search waited for the GIL"


@needs_c
@pytest.mark.parametrize("engine", ["htttx", "hex"])
def test_a_c_search_stops_once_its_flag_is_set(engine: str) -> None:
    """Offered a day, it returns once another thread sets the signal (as a cancelled move's host does)."""
    run = RUNS[engine]
    signal = StopSignal()
    thread, out = run_in_thread(lambda: run(signal.flag, 86400.0))
    time.sleep(0.2)
    assert thread.is_alive(), "the search ended before it was asked to"
    signal.set()
    thread.join(PATIENCE)
    assert not thread.is_alive(), "the search ignored its stop flag"
    assert out and out[0] > 0


@needs_c
@pytest.mark.parametrize("engine", ["htttx", "hex"])
def test_a_flag_set_before_the_search_stops_it_at_its_first_check(engine: str) -> None:
    signal = StopSignal()
    signal.set()
    assert RUNS[engine](signal.flag, 0.0) <= 2 * 64  # its first look at the flag (every 64 nodes / simulations)


@needs_c
@pytest.mark.parametrize("engine", ["htttx", "hex"])
@pytest.mark.parametrize("wrong", [lambda: True, bytearray(), "stop"], ids=["callable", "empty", "str"])
def test_a_stop_that_is_not_a_one_byte_buffer_is_refused_with_what_to_pass(engine: str, wrong: Any) -> None:
    with pytest.raises((ValueError, TypeError), match="stop_flag"):
        RUNS[engine](wrong, 0.01)


def test_a_signal_cleared_again_reads_zero() -> None:
    signal = StopSignal()
    signal.set()
    assert signal.is_set() and signal.flag[0] == 1
    signal.clear()
    assert not signal.is_set() and signal.flag[0] == 0


def test_stop_flag_is_the_running_threads_and_none_outside_a_stoppable_block() -> None:
    signal = StopSignal()
    assert stop_flag() is None
    with stoppable(signal):
        assert stop_flag() is signal.flag
        seen: list[Any] = []
        other = threading.Thread(target=lambda: seen.append(stop_flag()))
        other.start()
        other.join()
        assert seen == [None]
    assert stop_flag() is None
