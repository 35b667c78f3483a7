"""The match loop: asks the seat to move, times it, validates the move with the rules, records everything.

The referee is the only clock. It races every move request against both players' failure signals, so a bot
that disconnects or misbehaves while its opponent is thinking is noticed at once. Whatever happens, the match
ends with an Outcome and a reason, every player is told (``finish``) and released, and the listener gets the
result, so nothing is left running and no result is lost.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Generic, Protocol

from hexarena.core.contract import (
    ClockConfig,
    M,
    MatchEnded,
    MatchInfo,
    MoveReply,
    MoveRequest,
    Player,
    PlayerResult,
    S,
    Takeback,
)
from hexarena.core.errors import (
    BotCrashed,
    BotError,
    BotTimeout,
    ConfigError,
    HexarenaError,
    IllegalMove,
    InvalidMove,
    ProtocolViolation,
)
from hexarena.core.game import Game, ParamValue
from hexarena.core.jsonvalue import JsonObject
from hexarena.core.types import Outcome, Seat, Termination, other
from hexarena.referee.clock import Clock
from hexarena.referee.offers import OfferDesk
from hexarena.referee.result import MatchResult, PlayedMove

log = logging.getLogger(__name__)

#: Extra seconds granted on top of a move budget before the referee cancels the request, to absorb the
#: transport's latency; the think time itself is still charged in full against the clock.
DEFAULT_GRACE = 0.05


class MatchListener(Protocol[S]):
    """Receives the match as it happens (spectators, the store, the UI). A listener that also has
    ``async on_takeback(match_id, ply, state)`` is told when the moves from ``ply`` on were taken back."""

    async def on_start(self, match_id: str, state: S) -> None: ...

    async def on_move(self, match_id: str, record: PlayedMove, state: S) -> None: ...

    async def on_end(self, result: MatchResult[S]) -> None: ...


@dataclass(slots=True)
class MatchConfig(Generic[S, M]):
    """Everything that defines a match of a ``Game[S, M]`` besides its players."""

    game: Game[S, M]
    params: dict[str, ParamValue] = field(default_factory=dict)
    initial_state: S | None = None  # a position to start from (opening, free setup); default: game.new(**params)
    clock: ClockConfig = field(default_factory=ClockConfig)
    heartbeat_ms: int = 5000
    grace: float = DEFAULT_GRACE
    time_margin: float = 0.0  # seconds a move may overrun its budget without a time forfeit (fastchess timemargin)
    start_timeout: float = 30.0
    finish_timeout: float = 5.0
    #: Safety cap for games whose rules may never end (a draw when reached); None takes the game's own
    #: ``max_plies`` class attribute, so no match can run forever by default.
    max_plies: int | None = None
    #: a casual match: a person may ask to take back moves, of a built-in bot or another person (never in rated
    #: or tournament games)
    takebacks: bool = False
    match_id: str = field(default_factory=lambda: uuid.uuid4().hex)
    meta: JsonObject = field(default_factory=dict)


def _loss(seat: Seat, termination: Termination, reason: str) -> MatchEnded:
    return MatchEnded(Outcome(other(seat), termination, reason), culprit=seat)


def _termination_for(error: BaseException) -> Termination:
    if isinstance(error, BotTimeout):
        return Termination.TIME
    if isinstance(error, BotCrashed):
        return Termination.DISCONNECT
    if isinstance(error, IllegalMove):
        return Termination.ILLEGAL_MOVE
    return Termination.PROTOCOL


class _Undo(Exception):
    """The referee's own ruling that a takeback was granted: interrupts whatever move is being awaited."""


def _error_text(error: BaseException) -> str:
    text = str(error) or type(error).__name__
    return text if len(text) <= 500 else text[:497] + "..."


class Referee(Generic[S, M]):
    """Runs one match between two players. Use ``await Referee(config, players).run()``."""

    def __init__(
        self,
        config: MatchConfig[S, M],
        players: Sequence[Player[S, M]],
        listener: MatchListener[S] | None = None,
        now: Callable[[], float] = time.time,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        if len(players) != 2:
            raise ConfigError(f"a match needs exactly 2 players, got {len(players)}")
        self.config = config
        self.max_plies = config.max_plies if config.max_plies is not None else getattr(config.game, "max_plies", None)
        self.game = config.game
        self.players = list(players)
        #: The seats told of every move: players whose ``observe`` does something (BasePlayer's says it does not).
        self._observing = [(s, p) for s, p in enumerate(self.players) if not getattr(p.observe, "does_nothing", False)]
        #: Per seat, whether the referee yields to the loop after its move: not after a player whose every move
        #: waits on its socket (``suspends_every_move``), which has handed the loop over already.
        self._yields = [not p.suspends_every_move for p in self.players]
        self.listener = listener
        self._now = now
        self._monotonic = monotonic
        self._watchers: list[asyncio.Future[BaseException] | None] = [None, None]
        self._task: asyncio.Task[object] | None = None  # the task running ``run``: what an _Interrupt cancels
        #: the position (None once :meth:`release` forgot it)
        self.state: S | None = (
            config.initial_state if config.initial_state is not None else self.game.new(**config.params)
        )
        self.params = self.game.params_of(self._position())
        self.clock = Clock(config.clock)
        self.moves: list[PlayedMove] = []
        self.history: list[tuple[Seat, M]] = []
        #: ply -> the position and both clocks before it was played: what a takeback restores (kept only in
        #: matches that allow takebacks: a long tournament game need not hold every position it went through)
        self._before: dict[int, tuple[S, list[float | None]]] = {}
        #: draw offers and takeback requests between the seats (lent to each as ``MatchInfo.offers``)
        self.desk = OfferDesk(self)
        #: what the desk decided for the whole match (a draw agreed: ``MatchEnded``; a takeback granted:
        #: ``_Undo``), raced against every move like the failure signals; made in ``run`` (it needs the loop)
        self._ruling: asyncio.Future[BaseException] | None = None
        #: only a match with a person in it is asked anything: the others race no ruling (the hot path)
        self._ruled = any(p.kind == "human" for p in self.players)
        #: the seat whose takeback was granted and is not carried out yet
        self._undo: Seat | None = None
        self.started = self._now()
        self.result: MatchResult[S] | None = None
        #: CPU seconds this referee spent on the last move it received, from its reply to the move's record:
        #: checking and applying it (the player's own thinking and the listeners' work are not in it)
        self.last_move_cpu = 0.0

    @property
    def match_id(self) -> str:
        return self.config.match_id

    def restore(self, moves: Sequence[PlayedMove]) -> None:
        """Continue a match from moves played elsewhere (another server instance that was lost): replay them on
        the position and charge each one's think time to its seat's clock, so the match goes on from the same
        position with the same clocks. Call before :meth:`run`; raises the game's error for a move that does not
        play (the caller ends such a match instead of continuing it)."""
        for record in moves:
            move = self.game.parse(record.move)
            self.state = self.game.play(self._position(), move)
            self.clock.charge(record.seat, record.think_time, float("inf"))
            self.moves.append(record)
            self.history.append((record.seat, move))

    async def run(self) -> MatchResult[S]:
        """Play the match to its end and return the result; never raises for anything a player does."""
        outcome: Outcome
        culprit: Seat | None = None
        # Looked up once, not once a move: asyncio.current_task() makes a getpid syscall on every call in 3.11.
        self._task = asyncio.current_task()
        self._ruling = asyncio.get_running_loop().create_future()
        try:
            await self._start_players()
            await self._await_seated()
            await self._notify("on_start", self.match_id, self._position())
            self.desk.open = True
            await self._loop()
            raise AssertionError("unreachable")  # pragma: no cover
        except MatchEnded as end:
            outcome, culprit = end.outcome, end.culprit
        except asyncio.CancelledError:
            outcome = Outcome(None, Termination.INTERRUPTED, "the match was stopped by the server")
            result = self._result(outcome, None)
            self._release_watchers()
            await asyncio.shield(self._finish_players(result, self._position()))
            await asyncio.shield(self._notify("on_end", result))
            raise
        except Exception as exc:  # a bug in hexarena or a game: no result, but never lose the match
            log.exception("match %s failed", self.match_id)
            outcome = Outcome(None, Termination.ERROR, f"server error: {_error_text(exc)}")
        result = self._result(outcome, culprit)
        self._release_watchers()
        await self._finish_players(result, self._position())
        await self._notify("on_end", result)
        return result

    def release(self) -> None:
        """Forget what only a running match needs once it is over: the position (which shares its game's board
        with every position before it, a few hundred KB for a board game), the history as ``(seat, move)`` and the
        takeback positions. The moves and the result stay; the final position is their replay
        (``server.live.LiveMatch.state``). The result's own position goes too: whoever kept the result for its
        moves and outcome would otherwise keep the board."""
        self.state = None
        self.history = []
        self._before = {}
        if self.result is not None:
            self.result.final_state = None

    # ----- phases -----

    async def _start_players(self) -> None:
        async def start(seat: Seat) -> None:
            info = MatchInfo(
                match_id=self.match_id,
                game=self.game,
                params=self.params,
                seat=seat,
                initial_state=self._position(),
                clock=self.config.clock,
                heartbeat_ms=self.config.heartbeat_ms,
                opponent=self.players[other(seat)].name,
                meta=self.config.meta,
                takebacks=self.may_take_back(seat),
                played=len(self.history),
                offers=self.desk,
            )
            await asyncio.wait_for(self.players[seat].start(info), self.config.start_timeout)

        results = await asyncio.gather(start(0), start(1), return_exceptions=True)
        failed = [(seat, r) for seat, r in enumerate(results) if isinstance(r, BaseException)]
        for _, err in failed:
            if isinstance(err, asyncio.CancelledError):
                raise err
            if not isinstance(err, HexarenaError | TimeoutError | OSError):
                raise err
        if failed:
            # A match that never started is no result for anyone: an unreachable bot, a capability mismatch or a
            # seat nobody took says nothing about who plays better, so nobody wins it (``aborted``).
            reasons = []
            for seat, err in failed:
                if isinstance(err, TimeoutError):
                    text = f"did not get ready within {self.config.start_timeout:g} s"
                elif isinstance(err, OSError):
                    text = f"could not connect: {_error_text(err)}"
                else:
                    text = _error_text(err)
                reasons.append(f"{self._seat_name(seat)} could not start: {text}")
            culprit = failed[0][0] if len(failed) == 1 else None
            # a match continued from moves played elsewhere (:meth:`restore`) had started: it is interrupted,
            # its moves kept, like any match stopped halfway
            ended = Termination.INTERRUPTED if self.moves else Termination.ABORTED
            raise MatchEnded(Outcome(None, ended, "; ".join(reasons)), culprit=culprit)

    async def _await_seated(self) -> None:
        """Wait until every seat is taken before the first move is asked for, so no clock runs for a seat whose
        opponent has not sat down yet (a person invited by link). A player that can be waited for has a
        ``seated()`` coroutine, which bounds its own wait; the wait is raced against both failure signals
        (:class:`_Interrupt`, as a move is), so an open seat that expires (the match manager fails it) or a
        resignation ends the match at once."""
        for seat, player in enumerate(self.players):
            if getattr(player.seated, "does_nothing", False):  # seated as soon as made (BasePlayer's)
                continue
            watchers = (self._watcher(0), self._watcher(1))
            interrupt = _Interrupt(self._running(), watchers, None)
            try:
                await player.seated()
            except (Exception, asyncio.CancelledError) as exc:
                if not interrupt.disarm():  # the wait itself failed (or the match is being stopped: re-raised)
                    if isinstance(exc, asyncio.CancelledError):
                        raise
                    raise self._ended_by(seat, exc) from None
            else:
                if not interrupt.disarm():
                    continue
            self._raise_failure(watchers)  # interrupted: a failure signal fired

    async def _loop(self) -> None:
        while True:
            state = self._position()
            outcome = self.game.outcome(state)
            if outcome is not None:
                raise MatchEnded(outcome)
            seat = self.game.to_move(state)
            if seat is None:  # pragma: no cover - a game must give an outcome when nobody is to move
                raise MatchEnded(Outcome(None, Termination.ERROR, "no player to move and no outcome"))
            if self.max_plies is not None and len(self.moves) >= self.max_plies:
                raise MatchEnded(Outcome(None, Termination.TURN_LIMIT, f"{self.max_plies} moves played"))
            await self._one_move(seat)
            # Once per move unless the player always waits for its answer (``suspends_every_move``): one that
            # answers without awaiting anything (an instant in-process bot) would otherwise play the whole match
            # in one step of the event loop, while spectators' writers, other matches and requests wait (a move
            # no longer runs in a task of its own).
            if self._yields[seat]:
                await asyncio.sleep(0)

    async def _one_move(self, seat: Seat) -> None:
        if self._ruling is not None and self._ruling.done():  # decided between two moves
            ruling = self._ruling.result()
            if not isinstance(ruling, _Undo):
                raise ruling
            await self._carry_out_undo()
            return
        player = self.players[seat]
        budget = self.clock.budget(seat)
        state = self._position()
        request = MoveRequest(
            state=state,
            history=self.history,  # a live view: valid during the call, the referee appends after it
            time_limit=budget,
            time_left=self.clock.remaining[seat],
        )
        clocks_before = self.clock.snapshot()  # what a takeback of this move restores
        begun = self._monotonic()
        try:
            reply = await self._ask(seat, player.move(request), budget)
        except _Undo:  # granted while this move was awaited: the clocks go back too, so nothing is charged
            await self._carry_out_undo()
            return
        except Takeback:
            elapsed = self._monotonic() - begun
            await self.desk.ask(seat, "takeback")
            if self._undo is not None:
                return  # granted at once: carried out before the next move is asked for
            # refused or waiting for the other seat: the time spent asking counts, and the seat is asked again
            if not self.clock.charge(seat, elapsed, self.config.time_margin):
                raise _loss(seat, Termination.TIME, f"{self._seat_name(seat)} ran out of time") from None
            return
        elapsed = self._monotonic() - begun
        cpu = time.thread_time()
        if not isinstance(reply, MoveReply):
            raise _loss(seat, Termination.PROTOCOL, f"{self._seat_name(seat)} sent no move")
        if not self.clock.charge(seat, elapsed, self.config.time_margin):
            raise _loss(
                seat,
                Termination.TIME,
                f"{self._seat_name(seat)} ran out of time ({elapsed:.3f} s used, {budget or 0:.3f} s allowed)",
            )
        try:
            new_state = self.game.play(state, reply.move)
        except (IllegalMove, InvalidMove) as exc:
            raise _loss(seat, Termination.ILLEGAL_MOVE, f"{self._seat_name(seat)}: {_error_text(exc)}") from None
        text = self.game.format(reply.move)
        record = PlayedMove(
            ply=len(self.moves),
            seat=seat,
            move=text,
            timestamp=self._now(),
            think_time=elapsed,
            evaluation=reply.evaluation,
            considerations=reply.considerations,
        )
        if self.config.takebacks:
            self._before[record.ply] = (state, clocks_before)
        self.state = new_state
        self.moves.append(record)
        self.history.append((seat, reply.move))
        self.last_move_cpu = time.thread_time() - cpu
        await self._notify("on_move", self.match_id, record, new_state)
        await self._observe(seat, reply.move, new_state)
        if self.desk.busy:
            await self.desk.moved(seat)

    def may_take_back(self, seat: Seat) -> bool:
        """Whether ``seat`` may ask for takebacks in this match (``takeback_refusal`` says why not)."""
        return self.takeback_refusal(seat) is None

    def takeback_refusal(self, seat: Seat) -> str | None:
        """Takebacks are for a person in a casual match, facing a built-in bot (which grants them) or another
        person (who is asked): never in a rated or tournament match (``MatchConfig.takebacks`` off), never asked
        by a bot, nor of a bot that cannot take a move back. Why not, in words, or None."""
        if not self.config.takebacks:
            return "no takebacks in rated or tournament games: this game counts as played"
        if self.players[seat].kind != "human":
            return "only a person may ask for a takeback"
        theirs = self.players[other(seat)].kind
        if theirs not in ("builtin", "human"):
            return f"your opponent (a {theirs} bot) cannot take moves back"
        return None

    # ----- what the offers desk decides -----

    @property
    def undo_pending(self) -> bool:
        return self._undo is not None

    def last_ply_of(self, seat: Seat) -> int | None:
        """The ply of ``seat``'s last move that a takeback could restore, or None."""
        ply = next((m.ply for m in reversed(self.moves) if m.seat == seat), None)
        return ply if ply is not None and ply in self._before else None

    def side_of(self, seat: Seat) -> str:
        """The side ``seat`` plays now (after a Hex swap the second seat plays black)."""
        return str(self.game.side_name(self._position(), seat))

    def ending(self) -> bool:
        """True once something has decided the match's end that the loop has not acted on yet."""
        if self._ruling is not None and self._ruling.done() and not isinstance(self._ruling.result(), _Undo):
            return True
        return any(p.failure_signal().done() for p in self.players)

    def agree_draw(self) -> None:
        """Both seats agreed to a draw: the match ends so at once, whoever is thinking."""
        self._rule(MatchEnded(Outcome(None, Termination.AGREEMENT, "draw by agreement")))

    def undo_for(self, asker: Seat) -> None:
        """``asker``'s takeback was granted: carried out at once, interrupting whichever seat is thinking."""
        self._undo = asker
        self._rule(_Undo())

    def _rule(self, ruling: BaseException) -> None:
        if self._ruling is not None and not self._ruling.done():
            self._ruling.set_result(ruling)

    async def _carry_out_undo(self) -> None:
        asker, self._undo = self._undo, None
        self._ruling = asyncio.get_running_loop().create_future()
        if asker is not None:
            await self._take_back(asker)

    async def _take_back(self, seat: Seat) -> bool:
        """Undo ``seat``'s last move and every move after it (the opponent's replies), restoring the position and
        both clocks to what they were before it; False (nothing undone) when it has no such move."""
        ply = self.last_ply_of(seat)
        if ply is None:
            return False
        state, clocks = self._before[ply]
        self.state = state
        self.clock.remaining = list(clocks)
        del self.moves[ply:], self.history[ply:]
        self._before = {p: kept for p, kept in self._before.items() if p < ply}
        if self.listener is not None and hasattr(self.listener, "on_takeback"):
            await self._notify("on_takeback", self.match_id, ply, state)
        for player in self.players:
            await player.taken_back(ply, state)
        return True

    async def _ask(self, seat: Seat, request: Awaitable[MoveReply[M]], budget: float | None) -> MoveReply[M]:
        """Await a move while watching both players' failure signals and the deadline.

        The move is awaited in the referee's own task, not a task of its own: a failure signal or the deadline
        interrupts it by cancelling this task (:class:`_Interrupt`, how ``asyncio.timeout`` works), so a move
        costs two callbacks and a timer, not a task, a waiter and their wake-ups: this is the referee's hot path.
        """
        timeout = None if budget is None else budget + self.config.grace + self.config.time_margin
        watchers: tuple[asyncio.Future[BaseException], ...] = (self._watcher(0), self._watcher(1))
        if self._ruled and self._ruling is not None:
            watchers = (*watchers, self._ruling)
        interrupt = _Interrupt(self._running(), watchers, timeout)
        try:
            reply = await request
        except (Exception, asyncio.CancelledError) as exc:
            if not interrupt.disarm():  # the move itself failed (or the match is being stopped: re-raised)
                if isinstance(exc, BotError | InvalidMove | IllegalMove):
                    raise _loss(seat, _termination_for(exc), f"{self._seat_name(seat)}: {_error_text(exc)}") from None
                if isinstance(exc, OSError | EOFError):
                    raise _loss(
                        seat, Termination.DISCONNECT, f"{self._seat_name(seat)} went away: {_error_text(exc)}"
                    ) from None
                raise
        else:
            if not interrupt.disarm():
                return reply
        # interrupted: whatever the move did after that, a failure signal or the deadline decides
        self._raise_failure(watchers)
        raise _loss(
            seat,
            Termination.TIME,
            f"{self._seat_name(seat)} did not move within {budget or 0:.3f} s",
        )

    def _ended_by(self, seat: Seat, error: BaseException) -> MatchEnded:
        """How ``seat``'s failure ends the match: a deliberate ending (a person resigned) as given, any other
        error as that seat's loss."""
        if isinstance(error, MatchEnded):
            return error
        return _loss(seat, _termination_for(error), f"{self._seat_name(seat)}: {_error_text(error)}")

    def _raise_failure(self, watchers: Sequence[asyncio.Future[BaseException]]) -> None:
        """Raise the ending of the first seat whose failure signal has fired, else the desk's ruling when it has
        (nothing if none has)."""
        for seat, watcher in enumerate(watchers[:2]):
            if watcher.done():
                raise self._ended_by(seat, watcher.result())
        for ruling in watchers[2:]:
            if ruling.done():
                raise ruling.result()

    def _watcher(self, seat: Seat) -> asyncio.Future[BaseException]:
        """A future that completes with the error once ``seat``'s player fails (never, for most players)."""
        fut = self._watchers[seat]
        if fut is None:
            fut = self.players[seat].failure_signal()
            self._watchers[seat] = fut
        return fut

    def _release_watchers(self) -> None:
        """Forget the players' failure signals once the match is over (they are the players' own futures)."""
        self._watchers = [None, None]

    async def _observe(self, seat: Seat, move: M, state: S) -> None:
        # Sequential awaits, not gather: observe is a no-op for almost every adapter and gather costs two tasks.
        for s, player in self._observing:
            try:
                await player.observe(seat, move, state)
            except (BotError, OSError) as exc:
                raise _loss(s, _termination_for(exc), f"{self._seat_name(s)}: {_error_text(exc)}") from None

    async def _finish_players(self, result: MatchResult[S], final: S) -> None:
        async def finish(seat: Seat) -> None:
            pr = PlayerResult(outcome=result.outcome, seat=seat, final_state=final, culprit=result.culprit)
            try:
                await asyncio.wait_for(self.players[seat].finish(pr), self.config.finish_timeout)
            except Exception:
                log.warning("finishing %s in match %s failed", self._seat_name(seat), self.match_id, exc_info=True)

        await asyncio.gather(finish(0), finish(1), return_exceptions=True)

    async def _notify(self, method: str, *args: object) -> None:
        if self.listener is None:
            return
        try:
            await getattr(self.listener, method)(*args)
        except Exception:
            log.exception("listener %s failed for match %s", method, self.match_id)

    # ----- helpers -----

    def _running(self) -> asyncio.Task[object]:
        assert self._task is not None, "the referee runs in a task (Referee.run)"
        return self._task

    def _position(self) -> S:
        """The position of a match not yet released (every phase of a match runs before :meth:`release`)."""
        assert self.state is not None, "the referee was released"
        return self.state

    def _seat_name(self, seat: Seat) -> str:
        colour = self.game.seat_names[seat]
        name = self.players[seat].name
        return f"{colour} ({name})" if name else colour

    def _result(self, outcome: Outcome, culprit: Seat | None) -> MatchResult[S]:
        self.desk.close()
        self.result = MatchResult(
            match_id=self.match_id,
            game=self.game.name,
            params=self.params,
            players=[p.describe() for p in self.players],
            outcome=outcome,
            moves=list(self.moves),
            final_state=self.state,
            started=self.started,
            finished=self._now(),
            culprit=culprit,
            clocks=self.clock.snapshot(),
        )
        return self.result


class _Interrupt:
    """Cancel ``task`` (the one awaiting) when one of ``watchers`` completes or ``timeout`` seconds pass, until
    disarmed.

    ``asyncio.timeout`` for a set of futures as well as a deadline: the cancellation is counted like the
    timeout's (``Task.uncancel`` on disarm), so a cancellation from outside (the server stopping the match) that
    arrives meanwhile still propagates, and :meth:`disarm` says whether this interrupt fired.
    """

    __slots__ = ("_cancelling", "_fired", "_live", "_task", "_timer", "_watchers")

    def __init__(
        self, task: asyncio.Task[object], watchers: Sequence[asyncio.Future[BaseException]], timeout: float | None
    ) -> None:
        self._task = task
        self._cancelling = task.cancelling()
        self._fired = False
        self._live = True
        self._watchers = watchers
        for fut in watchers:
            fut.add_done_callback(self._fire)
        self._timer = None if timeout is None else task.get_loop().call_later(timeout, self._fire)

    def _fire(self, _: object = None) -> None:
        # A watcher that completed during the move has its callback already scheduled: removing it then does
        # not stop it, so a disarmed interrupt must ignore it rather than cancel whatever the task does next.
        if self._live and not self._fired:
            self._fired = True
            self._task.cancel()

    def disarm(self) -> bool:
        """Stop watching; True if the interrupt fired (its cancellation is then withdrawn from the task).

        Raises CancelledError if the task was also cancelled from outside meanwhile: that one still counts.
        """
        self._live = False
        if self._timer is not None:
            self._timer.cancel()
        for fut in self._watchers:
            fut.remove_done_callback(self._fire)
        if self._fired and self._task.uncancel() > self._cancelling:
            raise asyncio.CancelledError
        return self._fired


async def play_match(
    config: MatchConfig, players: Sequence[Player], listener: MatchListener | None = None
) -> MatchResult:
    """Convenience: run one match to its end."""
    return await Referee(config, players, listener).run()


__all__ = [
    "DEFAULT_GRACE",
    "MatchConfig",
    "MatchEnded",
    "MatchListener",
    "MatchResult",
    "PlayedMove",
    "ProtocolViolation",
    "Referee",
    "play_match",
]
