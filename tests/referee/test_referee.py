"""The referee with in-process scripted players on noughts and crosses (a game with a short, known end).

Clock arithmetic is checked on a fake monotonic clock (exact numbers); deadlines the referee enforces with the
event loop are checked with real sleeps far past the limit, so no assertion depends on how fast the machine is.
"""

from __future__ import annotations

import asyncio
import sys
from typing import Any

import pytest

from fakes.players import FakeClock, Recorder, ScriptedPlayer, Step, pair
from hexarena.core.contract import ClockConfig, MoveReply, MoveRequest
from hexarena.core.errors import BotCrashed, BotTimeout, ConfigError, ProtocolViolation
from hexarena.core.registry import get_game
from hexarena.core.types import Termination
from hexarena.players.base import BasePlayer
from hexarena.referee import Clock, MatchConfig, Referee, clock_from

TTT = get_game("tictactoe")
# X wins on the top row: X a1, O b1, X a2, O b2, X a3
X_WINS = [(0, 0), (0, 1), (0, 2)]
O_LOSES = [(1, 0), (1, 1)]


def config(**kw: Any) -> MatchConfig:
    kw.setdefault("game", TTT)
    return MatchConfig(**kw)


async def run(players: list[Any], fake: FakeClock | None = None, **kw: Any) -> tuple[Any, Recorder]:
    rec = Recorder()
    extra: dict[str, Any] = {}
    if fake is not None:
        extra["monotonic"] = fake
    result = await Referee(config(**kw), players, listener=rec, **extra).run()
    return result, rec


async def test_normal_win_records_every_move_and_tells_everyone() -> None:
    ev = {"heuristic": 0.5, "win_in": 2}
    cons = [{"pieces": [[1, 2]], "evaluation": None}]
    x = ScriptedPlayer("xbot", [Step(move=(0, 0), evaluation=ev, considerations=cons), (0, 1), (0, 2)])
    o = ScriptedPlayer("obot", O_LOSES)
    result, rec = await run(pair(x, o))
    assert result.outcome.winner == 0
    assert result.outcome.termination == Termination.NORMAL
    assert result.culprit is None
    assert [m.move for m in result.moves] == ["a1", "b1", "a2", "b2", "a3"]
    assert [m.seat for m in result.moves] == [0, 1, 0, 1, 0]
    assert [m.ply for m in result.moves] == [0, 1, 2, 3, 4]
    assert result.moves[0].evaluation == ev and result.moves[0].considerations == cons
    assert result.moves[1].evaluation is None
    assert all(m.think_time >= 0 and m.timestamp >= result.started for m in result.moves)
    assert result.finished >= result.moves[-1].timestamp
    # the history each seat saw grows with the game; every move was observed by both
    assert x.calls.history_lens == [0, 2, 4] and o.calls.history_lens == [1, 3]
    assert len(x.calls.observed) == len(o.calls.observed) == 5
    # everyone was told the same result, once
    for p, seat in ((x, 0), (o, 1)):
        assert len(p.calls.finished) == 1
        fin = p.calls.finished[0]
        assert fin.seat == seat and fin.outcome == result.outcome and not fin.violated
    assert [e[0] for e in rec.events] == ["start", "move", "move", "move", "move", "move", "end"]
    assert rec.result is result
    assert result.players[0]["name"] == "xbot"
    assert x.calls.started[0].seat == 0 and x.calls.started[0].opponent == "obot"


async def test_no_clock_means_no_limit() -> None:
    x, o = ScriptedPlayer("x", X_WINS), ScriptedPlayer("o", O_LOSES)
    result, _ = await run(pair(x, o))
    assert all(r.time_limit is None and r.time_left is None for r in x.calls.requests + o.calls.requests)
    assert result.clocks == [None, None]


async def test_turn_clock_gives_the_same_budget_each_move_and_forfeits_a_slow_move() -> None:
    fc = FakeClock()
    x = ScriptedPlayer("x", [Step(move=(0, 0), think=1.9), Step(move=(0, 1), think=2.5)], clock=fc)
    o = ScriptedPlayer("o", [Step(move=(1, 0), think=0.1)], clock=fc)
    result, _ = await run(pair(x, o), fake=fc, clock=ClockConfig("turn", 2.0))
    assert [r.time_limit for r in x.calls.requests + o.calls.requests] == [2.0, 2.0, 2.0]
    assert result.outcome.winner == 1
    assert result.outcome.termination == Termination.TIME
    assert result.culprit == 0
    assert "ran out of time" in result.outcome.reason and "2.500 s used" in result.outcome.reason
    assert len(result.moves) == 2  # the late move is not played
    assert not x.calls.finished[0].violated  # a time loss is not a protocol violation: end, not nope


async def test_match_clock_arithmetic_and_forfeit() -> None:
    fc = FakeClock()
    x = ScriptedPlayer("x", [Step(move=(0, 0), think=3), Step(move=(0, 1), think=3), Step(move=(0, 2), think=5)], fc)
    o = ScriptedPlayer("o", [Step(move=(1, 0), think=1), Step(move=(1, 1), think=1)], fc)
    result, _ = await run(pair(x, o), fake=fc, clock=ClockConfig("match", 10.0))
    assert [r.time_limit for r in x.calls.requests] == [10.0, 7.0, 4.0]
    assert [r.time_left for r in o.calls.requests] == [10.0, 9.0]
    assert result.outcome.termination == Termination.TIME and result.outcome.winner == 1
    assert "5.000 s used, 4.000 s allowed" in result.outcome.reason
    assert result.clocks == [0.0, 8.0]


async def test_fischer_increment_arithmetic() -> None:
    fc = FakeClock()
    x = ScriptedPlayer("x", [Step(move=m, think=3) for m in X_WINS], fc)
    o = ScriptedPlayer("o", [Step(move=m, think=0.5) for m in O_LOSES], fc)
    result, _ = await run(pair(x, o), fake=fc, clock=ClockConfig("incremental", 10.0, 2.0))
    # x: 10 -> 10-3+2 = 9 -> 8 -> 7 ; o: 10 -> 11.5 -> 13
    assert [r.time_limit for r in x.calls.requests] == [10.0, 9.0, 8.0]
    assert [r.time_limit for r in o.calls.requests] == [10.0, 11.5]
    assert result.outcome.termination == Termination.NORMAL and result.outcome.winner == 0
    assert result.clocks == [7.0, 13.0]


async def test_fischer_forfeit_when_a_move_exceeds_what_is_left() -> None:
    fc = FakeClock()
    x = ScriptedPlayer("x", [Step(move=(0, 0), think=3), Step(move=(0, 1), think=4)], fc)
    o = ScriptedPlayer("o", [Step(move=(1, 0), think=0)], fc)
    result, _ = await run(pair(x, o), fake=fc, clock=ClockConfig("incremental", 5.0, 1.0))
    # x has 5, uses 3 (+1) -> 3 left, then uses 4 > 3: forfeit
    assert result.outcome.termination == Termination.TIME and result.culprit == 0
    assert result.clocks[0] == 0.0


async def test_deadline_is_enforced_without_waiting_for_the_bot() -> None:
    x = ScriptedPlayer("x", [Step(move=(0, 0), hang=True)])
    o = ScriptedPlayer("o", [])
    result, _ = await run(pair(x, o), clock=ClockConfig("turn", 0.05), grace=0.01)
    assert result.outcome.termination == Termination.TIME and result.outcome.winner == 1
    assert "did not move within 0.050 s" in result.outcome.reason
    assert x.calls.cancelled == 1  # the request was cancelled, not left running


async def test_match_clock_deadline_with_real_time() -> None:
    x = ScriptedPlayer("x", [Step(move=(0, 0), sleep=5.0)])
    o = ScriptedPlayer("o", [])
    result, _ = await run(pair(x, o), clock=ClockConfig("match", 0.1), grace=0.0)
    assert result.outcome.termination == Termination.TIME and result.culprit == 0
    assert x.calls.cancelled == 1


async def test_turn_limit_is_a_draw() -> None:
    x, o = ScriptedPlayer("x", X_WINS), ScriptedPlayer("o", O_LOSES)
    result, _ = await run(pair(x, o), max_plies=3)
    assert result.outcome.winner is None
    assert result.outcome.termination == Termination.TURN_LIMIT
    assert len(result.moves) == 3 and "3 moves" in result.outcome.reason


async def test_failure_is_noticed_while_the_opponent_thinks() -> None:
    # O goes away while X is thinking (X would think forever): O loses at once, X's request is cancelled.
    x = ScriptedPlayer("x", [(0, 0), Step(hang=True, fail_other=BotCrashed("the bot closed the connection"))])
    o = ScriptedPlayer("o", [(1, 0)])
    result, _ = await run(pair(x, o))
    assert result.outcome.winner == 0
    assert result.outcome.termination == Termination.DISCONNECT
    assert result.culprit == 1
    assert "O (o)" in result.outcome.reason and "closed the connection" in result.outcome.reason
    assert x.calls.cancelled == 1
    assert len(result.moves) == 2


async def test_protocol_violation_while_opponent_thinks_is_a_violation_of_the_culprit() -> None:
    x = ScriptedPlayer(
        "x", [Step(hang=True, fail_other=ProtocolViolation("move_response sent without a pending request"))]
    )
    o = ScriptedPlayer("o", [])
    result, _ = await run(pair(x, o))
    assert result.outcome.termination == Termination.PROTOCOL and result.culprit == 1
    assert o.calls.finished[0].violated and not x.calls.finished[0].violated


async def test_illegal_move_loses_with_the_rules_reason() -> None:
    x = ScriptedPlayer("x", [(0, 0), (0, 0)])
    o = ScriptedPlayer("o", [(1, 0)])
    result, _ = await run(pair(x, o))
    assert result.outcome.termination == Termination.ILLEGAL_MOVE and result.outcome.winner == 1
    assert "'a1' is occupied" in result.outcome.reason
    assert x.calls.finished[0].violated


@pytest.mark.parametrize(
    ("error", "termination"),
    [
        (ProtocolViolation("a move must have exactly 2 pieces, got 3"), Termination.PROTOCOL),
        (BotCrashed("the bot closed the connection"), Termination.DISCONNECT),
        (BotTimeout("no answer"), Termination.TIME),
        (ConnectionResetError("reset by peer"), Termination.DISCONNECT),
    ],
)
async def test_adapter_errors_map_to_terminations(error: BaseException, termination: Termination) -> None:
    x = ScriptedPlayer("x", [(0, 0), Step(raise_=error)])
    o = ScriptedPlayer("o", [(1, 0)])
    result, _ = await run(pair(x, o))
    assert result.outcome.termination == termination and result.culprit == 0 and result.outcome.winner == 1
    assert str(error) in result.outcome.reason


class BrokenObserver(ScriptedPlayer):
    async def observe(self, seat: int, move: Any, state: Any) -> None:
        raise RuntimeError("bug in an adapter")


async def test_a_bug_ends_the_match_as_an_error_draw(caplog: pytest.LogCaptureFixture) -> None:
    x = BrokenObserver("x", X_WINS)
    o = ScriptedPlayer("o", O_LOSES)
    result, rec = await run(pair(x, o))
    assert result.outcome.winner is None
    assert result.outcome.termination == Termination.ERROR
    assert "bug in an adapter" in result.outcome.reason
    assert len(x.calls.finished) == len(o.calls.finished) == 1
    assert rec.result is result


async def test_start_failures() -> None:
    x = ScriptedPlayer("x", [], start_error=BotCrashed("connection refused"))
    o = ScriptedPlayer("o", [])
    result, _ = await run(pair(x, o))
    # a match that never started is nobody's win (a bot URL at a closed port used to hand the other seat a win)
    assert result.outcome.termination == Termination.ABORTED and result.outcome.winner is None
    assert result.culprit == 0
    assert "could not start" in result.outcome.reason and "connection refused" in result.outcome.reason
    assert len(o.calls.finished) == 1 and len(x.calls.finished) == 1

    x = ScriptedPlayer("x", [], start_error=BotCrashed("refused"))
    o = ScriptedPlayer("o", [], start_error=ProtocolViolation("bad capabilities"))
    result, _ = await run(pair(x, o))
    assert result.outcome.termination == Termination.ABORTED and result.outcome.winner is None
    assert "refused" in result.outcome.reason and "bad capabilities" in result.outcome.reason

    x = ScriptedPlayer("x", [], start_error=ConfigError("does not declare free_setup"))
    result, _ = await run(pair(x, ScriptedPlayer("o", [])))
    assert result.outcome.termination == Termination.ABORTED and "free_setup" in result.outcome.reason

    x = ScriptedPlayer("x", [], start_hang=True)
    result, _ = await run(pair(x, ScriptedPlayer("o", [])), start_timeout=0.05)
    assert result.outcome.termination == Termination.ABORTED and result.culprit == 0
    assert result.outcome.winner is None and "did not get ready within 0.05 s" in result.outcome.reason


async def test_a_continued_match_whose_player_cannot_start_ends_interrupted_with_its_moves() -> None:
    """A match continued from moves played elsewhere (another instance took it over) had started: a seat that
    cannot be started again ends it ``interrupted`` with those moves, not ``aborted`` (never started)."""
    from hexarena.referee.result import PlayedMove

    x = ScriptedPlayer("x", [], start_error=ConfigError("does not declare free_setup"))
    referee = Referee(config(), pair(x, ScriptedPlayer("o", [])), listener=Recorder())
    referee.restore([PlayedMove(ply=0, seat=0, move="a1", timestamp=0.0, think_time=0.1)])
    result = await referee.run()
    assert result.outcome.termination == Termination.INTERRUPTED and result.outcome.winner is None
    assert "could not start" in result.outcome.reason and "free_setup" in result.outcome.reason
    assert [m.move for m in result.moves] == ["a1"]


async def test_cancelling_the_match_interrupts_it_and_still_reports() -> None:
    x = ScriptedPlayer("x", [Step(hang=True)])
    o = ScriptedPlayer("o", [])
    rec = Recorder()
    task = asyncio.create_task(Referee(config(), pair(x, o), listener=rec).run())
    for _ in range(1000):
        if x.calls.requests:
            break
        await asyncio.sleep(0.001)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert rec.result.outcome.termination == Termination.INTERRUPTED and rec.result.outcome.winner is None
    assert len(x.calls.finished) == 1 and len(o.calls.finished) == 1


async def test_a_move_is_awaited_in_the_referees_own_task() -> None:
    # The hot path: no task per move (a task, its waiter and their wake-ups were a tenth of the game server's CPU
    # a move); tasks the loop creates while a five-move match runs stay a handful, however many moves it has.
    loop = asyncio.get_running_loop()
    created: list[Any] = []

    def factory(loop: asyncio.AbstractEventLoop, coro: Any, **kw: Any) -> asyncio.Task[Any]:
        created.append(coro)
        return asyncio.Task(coro, loop=loop, **kw)

    loop.set_task_factory(factory)
    try:
        x, o = ScriptedPlayer("x", X_WINS), ScriptedPlayer("o", O_LOSES)
        result, _ = await run(pair(x, o))
    finally:
        loop.set_task_factory(None)
    assert len(result.moves) == 5
    assert not [c for c in created if "move" in getattr(c, "__qualname__", "")], created


async def test_players_that_never_await_still_let_the_loop_run_between_moves() -> None:
    # Scripted players answer without awaiting anything; with no task per move the referee must still yield
    # once a move, or a match of instant in-process bots would hold the event loop until it ends.
    ticks = 0
    stop = False

    async def ticker() -> None:
        nonlocal ticks
        while not stop:
            ticks += 1
            await asyncio.sleep(0)

    class TickRecorder(Recorder):
        def __init__(self) -> None:
            super().__init__()
            self.seen: list[int] = []

        async def on_move(self, match_id: str, record: Any, state: Any) -> None:
            self.seen.append(ticks)

    counting = asyncio.create_task(ticker())
    x, o = ScriptedPlayer("x", X_WINS), ScriptedPlayer("o", O_LOSES)
    rec = TickRecorder()
    result = await Referee(config(), pair(x, o), listener=rec).run()
    stop = True
    await counting
    assert len(result.moves) == len(rec.seen) == 5
    assert all(a < b for a, b in zip(rec.seen, rec.seen[1:], strict=False)), rec.seen  # the loop ran between


@pytest.mark.parametrize("suspends", [False, True])
async def test_the_yield_after_a_move_is_skipped_only_for_players_that_always_wait(
    suspends: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A player declaring ``suspends_every_move`` has let the loop run while it waited for its answer: the referee's
    # own yield after its move is one more loop step for nothing. Undeclared players keep the yield (above).
    import hexarena.referee.match as match

    yields = 0
    sleep = asyncio.sleep

    async def counting_sleep(delay: float, *args: Any) -> Any:
        nonlocal yields
        if delay == 0 and sys._getframe(1).f_code.co_name == "_loop":
            yields += 1
        return await sleep(delay, *args)

    monkeypatch.setattr(match.asyncio, "sleep", counting_sleep)

    class Waiting(ScriptedPlayer):
        suspends_every_move = suspends

        async def move(self, request: MoveRequest) -> MoveReply:
            answered: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            asyncio.get_running_loop().call_soon(answered.set_result, None)  # the reply arrives in a later step
            await answered
            return await super().move(request)

    x, o = Waiting("x", X_WINS), Waiting("o", O_LOSES)
    result = await Referee(config(), pair(x, o)).run()
    assert len(result.moves) == 5
    assert yields == (0 if suspends else 5)


async def test_players_whose_observe_does_nothing_are_not_told_of_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    # BasePlayer's observe does nothing (most adapters keep it): the referee no longer calls it twice a move.
    # Players that override it are still told of every move, both seats' (the first test of this file).
    calls = 0

    async def counting(self: BasePlayer, seat: int, move: Any, state: Any) -> None:
        nonlocal calls
        calls += 1

    counting.does_nothing = True  # type: ignore[attr-defined]
    monkeypatch.setattr(BasePlayer, "observe", counting)

    class Quiet(ScriptedPlayer):
        observe = BasePlayer.observe

    x, o = Quiet("x", X_WINS), ScriptedPlayer("o", O_LOSES)
    result = await Referee(config(), pair(x, o)).run()
    assert len(result.moves) == 5
    assert calls == 0
    assert len(o.calls.observed) == 5 and not x.calls.observed


async def test_a_stop_from_outside_wins_over_a_failure_in_the_same_moment() -> None:
    # The opponent fails (the referee interrupts the move) and the server stops the match before the referee
    # runs again: one CancelledError reaches the referee for both; the stop must not be swallowed as the failure.
    holder: dict[str, asyncio.Task[Any]] = {}

    class Stopper(ScriptedPlayer):
        async def move(self, request: MoveRequest) -> MoveReply:
            assert self.opponent is not None
            self.opponent.fail(BotCrashed("the bot closed the connection"))
            holder["task"].cancel()
            return await super().move(request)

    x, o = Stopper("x", [Step(hang=True)]), ScriptedPlayer("o", [])
    rec = Recorder()
    holder["task"] = task = asyncio.create_task(Referee(config(), pair(x, o), listener=rec).run())
    with pytest.raises(asyncio.CancelledError):
        await task
    assert rec.result.outcome.termination == Termination.INTERRUPTED


async def test_a_failure_that_lands_with_the_reply_does_not_cancel_what_comes_next() -> None:
    # O fails in the very step X's reply completes: the watcher's callback is already scheduled when the referee
    # stops watching; it must not cancel whatever the referee awaits next (the listener here), and the match
    # still ends by O's failure, recorded with X's move.
    class FailsWithReply(ScriptedPlayer):
        async def move(self, request: MoveRequest) -> MoveReply:
            reply = await super().move(request)
            assert self.opponent is not None
            self.opponent.fail(BotCrashed("the bot closed the connection"))
            return reply

    class SlowListener(Recorder):
        async def on_move(self, match_id: str, record: Any, state: Any) -> None:
            await asyncio.sleep(0.01)
            await super().on_move(match_id, record, state)

    x, o = FailsWithReply("x", [(0, 0)]), ScriptedPlayer("o", [Step(hang=True)])
    rec = SlowListener()
    result = await Referee(config(), pair(x, o), listener=rec).run()
    assert [e[0] for e in rec.events] == ["start", "move", "end"]
    assert result.outcome.termination == Termination.DISCONNECT and result.culprit == 1


def test_clock_from_validates() -> None:
    assert clock_from(None) == ClockConfig()
    assert clock_from("Turn", 5) == ClockConfig("turn", 5.0)
    assert clock_from("incremental", 60, 5) == ClockConfig("incremental", 60.0, 5.0)
    with pytest.raises(ConfigError, match="'blitz'"):
        clock_from("blitz", 5)
    with pytest.raises(ConfigError, match="needs 'clock'"):
        clock_from("match")
    with pytest.raises(ConfigError, match="positive"):
        clock_from("match", -1)
    with pytest.raises(ConfigError, match="only meaningful"):
        clock_from("turn", 5, 1)
    with pytest.raises(ConfigError, match="non-negative"):
        clock_from("incremental", 5, -1)


def test_clock_charge_unit() -> None:
    c = Clock(ClockConfig("incremental", 10.0, 1.5))
    assert c.budget(0) == 10.0
    assert c.charge(0, 4.0) and c.remaining[0] == 7.5
    assert not c.charge(0, 7.6) and c.remaining[0] == 0.0
    assert c.charge(1, 10.04, margin=0.05) and c.remaining[1] == 1.5  # within the margin: charged, clamped at 0
    t = Clock(ClockConfig("turn", 1.0))
    assert t.charge(0, 1.04, margin=0.05) and not t.charge(0, 1.06, margin=0.05)
    assert t.charge(1, 1.0) and not t.charge(1, 1.01) and t.budget(1) == 1.0
    assert Clock(ClockConfig()).budget(0) is None


async def test_base_player_failure_is_first_report_wins() -> None:
    p = BasePlayer()
    assert p.failure is None
    p.fail(BotCrashed("first"))
    p.fail(BotCrashed("second"))
    assert str(p.failure) == "first"
    assert str(await p.failed()) == "first"


async def test_time_margin_forgives_a_small_overrun() -> None:
    fc = FakeClock()
    x = ScriptedPlayer("x", [Step(move=m, think=2.3) for m in X_WINS], fc)
    o = ScriptedPlayer("o", O_LOSES, fc)
    result, _ = await run(pair(x, o), fake=fc, clock=ClockConfig("turn", 2.0), time_margin=0.5)
    assert result.outcome.termination == Termination.NORMAL and result.outcome.winner == 0


async def test_an_adapter_may_end_the_match_with_its_own_outcome() -> None:
    from hexarena.core.contract import MatchEnded
    from hexarena.core.types import Outcome

    ending = MatchEnded(Outcome(None, Termination.DISCONNECT, "both bots left within 500 ms"))
    x = ScriptedPlayer("x", [(0, 0), Step(raise_=ending)])
    o = ScriptedPlayer("o", [(1, 0)])
    result, _ = await run(pair(x, o))
    assert result.outcome == ending.outcome and result.culprit is None


async def test_a_match_ended_failure_ends_the_match_with_exactly_that_outcome_while_the_opponent_thinks() -> None:
    # O resigns (fails with a MatchEnded) while X thinks forever: the outcome is O's, not a protocol loss.
    from hexarena.core.contract import MatchEnded
    from hexarena.core.types import Outcome

    resign = MatchEnded(Outcome(0, Termination.RESIGN, "O resigned"), culprit=1)
    x = ScriptedPlayer("x", [(0, 0), Step(hang=True, fail_other=resign)])
    o = ScriptedPlayer("o", [(1, 0)])
    result, rec = await run(pair(x, o))
    assert result.outcome == Outcome(0, Termination.RESIGN, "O resigned")
    assert result.culprit == 1
    assert x.calls.cancelled == 1 and len(result.moves) == 2
    assert x.calls.finished[0].outcome.termination == Termination.RESIGN
    assert not o.calls.finished[0].violated
    assert rec.result is result


async def test_a_games_own_ply_cap_ends_a_match_that_sets_none() -> None:
    """Games whose rules allow endless play declare ``max_plies``; the referee applies it unless the match caps."""
    from hexarena.players.inprocess import InProcessPlayer
    from hexarena.referee.match import MatchConfig, Referee

    base = get_game("tictactoe")
    capped = type("Capped", (type(base),), {"max_plies": 3})()
    players = [InProcessPlayer.builtin("tictactoe", "random"), InProcessPlayer.builtin("tictactoe", "random")]
    result = await Referee(MatchConfig(game=capped), players).run()
    assert result.outcome.termination == Termination.TURN_LIMIT and len(result.moves) == 3
    players = [InProcessPlayer.builtin("tictactoe", "random"), InProcessPlayer.builtin("tictactoe", "random")]
    result = await Referee(MatchConfig(game=capped, max_plies=1), players).run()
    assert len(result.moves) == 1  # the match's own cap wins


async def test_an_htttx_move_is_checked_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The referee's ``play`` checks a move's shape; writing the move it accepted must not check it again
    (``coerce_move`` ran twice per move: in ``play`` and again in ``format``)."""
    from hexarena.games.htttx import game as htttx_game

    calls = []
    real = htttx_game.coerce_move

    def counting(move: Any) -> Any:
        calls.append(move)
        return real(move)

    monkeypatch.setattr(htttx_game, "coerce_move", counting)
    o = ScriptedPlayer("o", [((1, 0), (2, 0)), ((1, 1), (2, 1))])
    x = ScriptedPlayer("x", [((-1, 0), (-2, 0)), ((-1, 1), (-2, 1))])
    result, _ = await run(pair(x, o), game=get_game("htttx"), max_plies=4)
    assert [m.move for m in result.moves] == ["[1,0][2,0]", "[-1,0][-2,0]", "[1,1][2,1]", "[-1,1][-2,1]"]
    assert len(calls) == len(result.moves)
