"""Live matches: the referee task, its spectators, its human seats, and its record in the store.

The manager is the listener of every referee it starts: it fans each event out to spectators through bounded
per-spectator queues (a slow spectator is dropped, never allowed to stall a match) and hands the game to the
recorder (:mod:`hexarena.store.recorder`): its row before the match is registered (a database that can't take it
refuses the match: no ghost games), each move as it is played, and its end with every move.

Seat tokens (a person's seat: ``WS /ws?token=`` for HTTTX, ``WS /api/play?token=`` in the web UI) are
``secrets.token_urlsafe(32)``, one per seat, and reach only whoever holds the seat: the creator gets the tokens of
the seats created for them in the create answer; a seat created open to anyone (a player with ``open_seat``, the
``open`` spec) has no token until somebody joins it (:meth:`MatchManager.join_open_seat`), and then the first
joiner gets one of its own and every later joiner gets nothing. Tokens live in ``LiveMatch.tokens`` and
``MatchManager.tokens`` only, never in lists, spectator messages or records, and uvicorn's log lines have them
blanked (:mod:`hexarena.server.redaction`). An open seat nobody has taken (joined and connected) within
``open_seat_seconds`` of the match's start ends the match ``aborted``: nobody played, so it is no result.

A finished match stays in memory (``MatchManager.finished``, the last :data:`KEEP_FINISHED`) for late spectators,
lookups and a rematch, as a summary (:meth:`LiveMatch.settle`): its moves, result and seats' descriptions, never
its position, players or sockets. A position of a board game shares its board with every position before it (a
few hundred KB), and a player keeps its match's positions, connection and buffers: kept whole, each finished
match held all of that, and the server's memory grew with every game it had played.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import dataclasses
import logging
import os
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Generic, Protocol, TypeVar, cast

import msgspec

from hexarena.core.contract import ClockConfig, MatchEnded
from hexarena.core.game import Game, ParamValue
from hexarena.core.jsonvalue import JsonObject, JsonValue, number
from hexarena.core.types import Outcome, Termination
from hexarena.players.base import BasePlayer, close_players
from hexarena.referee.match import MatchConfig, Referee
from hexarena.referee.result import MatchResult, PlayedMove
from hexarena.server import messages
from hexarena.server.redaction import redact_tokens_in_logs
from hexarena.server.rematch_offer import Rematch
from hexarena.store.recorder import GameEnd, NewGame, Recorder
from hexarena.store.records import MoveRecord, PlayerRecord

if TYPE_CHECKING:  # Redis is loaded only by a server started with --redis-url
    from hexarena.server.cluster import Cluster

log = logging.getLogger(__name__)

S = TypeVar("S")
M = TypeVar("M")

Send = Callable[[str], Awaitable[None]]

#: Messages queued for one spectator before it is considered too slow and dropped.
SPECTATOR_QUEUE = 1024
#: Finished matches kept in memory for late spectators and quick lookups (the store keeps them all).
KEEP_FINISHED = 512
#: Seconds a match's end waits for its result to be stored before it is announced anyway.
RESULT_WAIT = 2.0
#: Seconds an open seat waits to be taken before its match ends ``aborted`` (``$HEXARENA_OPEN_SEAT_SECONDS``).
OPEN_SEAT_SECONDS = 600.0
#: Player kinds another instance can reach again in the middle of a match (several instances, failover): built-in
#: bots, HTTTX stateless bots, which get the whole board with every request, and bws bots, which the new owner
#: connects to again and sets the position up for (a bot without ``free_setup`` can't: its match is interrupted).
RESUMABLE_KINDS = ("builtin", "stateless", "bws")


_encoder = msgspec.json.Encoder()


def _encode(message: JsonObject) -> str:
    return _encoder.encode(message).decode()


def utc(ts: float) -> datetime:
    return datetime.fromtimestamp(ts, tz=UTC)


class Spectator:
    """One watcher: a queue drained by its own writer task; ``moves_only``: its move updates leave out the board
    (``messages.update``)."""

    def __init__(self, send: Send, moves_only: bool = False) -> None:
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(SPECTATOR_QUEUE)
        self.send = send
        self.moves_only = moves_only
        self.closed = asyncio.Event()

    def push(self, message: JsonObject | str | None) -> bool:
        """Queue a message (a dict, or its JSON text already encoded); False when the spectator is too slow."""
        try:
            self.queue.put_nowait(message if message is None or isinstance(message, str) else _encode(message))
            return True
        except asyncio.QueueFull:
            self.closed.set()
            return False

    async def run(self) -> None:
        try:
            while True:
                text = await self.queue.get()
                if text is None:
                    return
                await self.send(text)
        except Exception:
            return
        finally:
            self.closed.set()


@dataclass(eq=False)
class LiveMatch(Generic[S, M]):
    """One match of a game whose states are ``S`` and moves ``M``, from its creation until it is forgotten."""

    match_id: str
    game: Game[S, M]
    players: list[BasePlayer]
    referee: Referee[S, M]
    created: float = field(default_factory=time.time)
    task: asyncio.Task[MatchResult[S]] | None = None
    spectators: set[Spectator] = field(default_factory=set)
    #: seat -> its token, held by the creator (their own seats) or by the seat's joiner; never listed anywhere
    tokens: dict[int, str] = field(default_factory=dict)
    #: seats created open to anyone that nobody has joined yet (such a seat has no token until it is joined)
    open_seats: set[int] = field(default_factory=set)
    expiry: asyncio.TimerHandle | None = None
    result: MatchResult[S] | None = None
    done: asyncio.Event = field(default_factory=asyncio.Event)
    #: a rematch offered by one person to the other once it is over (``server.ui.rematch``)
    rematch: Rematch | None = None
    #: another instance holds this match's lease now (this one was cut off from Redis): its end is not ours to
    #: store or announce
    disowned: bool = False
    #: the played moves as the store keeps them, made once as each is played (the end's record carries them all)
    records: list[MoveRecord] = field(default_factory=list)

    #: the starting position of a settled match that did not start from the game's own (``settle``)
    start: S | None = None

    @property
    def state(self) -> S:
        """The position: the referee's while it plays; once settled, the replay of the moves (made when asked,
        never kept: prefer :meth:`snapshot`, :meth:`end_message` and :meth:`state_json`, which let it go)."""
        state = self.referee.state
        if state is not None:
            return state
        assert self.result is not None, "only a settled match's referee forgets the position, and it has its result"
        return replay(self.game, self.start, self.referee.params, self.moves)

    def _done_with(self, state: S) -> None:
        """A settled match's replayed position, used: its memory goes now (``release_position``)."""
        if self.referee.state is None:
            release_position(self.game, state)

    def state_json(self) -> JsonObject:
        state = self.state
        out = self.game.to_json(state)
        self._done_with(state)
        return out

    def end_message(self) -> JsonObject:
        """The ``end`` spectators get; a settled match's final position is replayed for it."""
        assert self.result is not None
        result = self.result
        if result.final_state is not None:
            return messages.end(self.game, result)
        state = self.state
        out = messages.end(self.game, dataclasses.replace(result, final_state=state))
        self._done_with(state)
        return out

    def settle(self) -> None:
        """Keep only the summary of a finished match (module docstring): the referee forgets the position
        (``Referee.release``), each player becomes its description (:class:`FinishedSeat`), and a starting position
        that was given (a setup, an opening) is copied apart from the board it shares with the rest of the game."""
        final = self.referee.state
        if self.referee.config.initial_state is not None:
            self.start = copy.deepcopy(self.referee.config.initial_state)
            self.referee.config.initial_state = None
        self.referee.release()
        release_position(self.game, final)
        self.players = [FinishedSeat(p) for p in self.players]
        self.referee.players = list(self.players)
        self.records = []

    @property
    def moves(self) -> list[PlayedMove]:
        return self.referee.moves

    def describe_players(self) -> list[JsonObject]:
        out = []
        for seat, p in enumerate(self.players):
            d = p.describe()
            d["seat"] = seat
            d["side"] = self.game.seat_names[seat]
            out.append(d)
        return out

    def snapshot(self) -> JsonObject:
        state = self.state
        out = messages.snapshot(
            self.match_id, self.game, state, self.moves, self.describe_players(), self.referee.clock.snapshot()
        )
        self._done_with(state)
        return out

    def broadcast(self, message: JsonObject | None) -> None:
        if not self.spectators:
            return
        text = None if message is None else _encode(message)  # once, whatever the number of spectators
        for spectator in list(self.spectators):
            if not spectator.push(text):
                self.spectators.discard(spectator)

    def broadcast_move(self, record: PlayedMove, state: S) -> None:
        """A move to every spectator: each form (with the board, or moves only) built and encoded once, and only
        if someone watches in that form."""
        clocks = self.referee.clock.snapshot()
        texts: dict[bool, str] = {}
        for spectator in list(self.spectators):
            light = spectator.moves_only
            text = texts.get(light)
            if text is None:
                message = messages.update(self.match_id, self.game, record, state, clocks, board=not light)
                text = texts[light] = _encode(message)
            if not spectator.push(text):
                self.spectators.discard(spectator)


class MatchObserver(Protocol):
    """Told of every move and every end this instance plays (``server.metrics``): the one place they pass."""

    def move(self, live: LiveMatch, record: PlayedMove) -> None: ...

    def end(self, live: LiveMatch, result: MatchResult) -> None: ...


class FinishedSeat(BasePlayer):
    """A seat of a finished match, as kept: its player's name, kind, description and adapter class (a rematch is
    offered between browser players only), not the player with its positions, connection and buffers."""

    def __init__(self, player: BasePlayer) -> None:
        super().__init__()
        self.name = player.name
        self.kind = player.kind
        self._adapter = player.adapter
        self.described = player.describe()

    @property
    def adapter(self) -> type[BasePlayer]:
        return self._adapter

    def describe(self) -> JsonObject:
        return dict(self.described)


class MatchManager:
    """Creates, tracks and stores matches; the listener of every referee it runs."""

    def __init__(
        self,
        recorder: Recorder | None = None,
        open_seat_seconds: float | None = None,
        *,
        record_moves: bool = True,
        cluster: Cluster | None = None,
    ) -> None:
        self.recorder = recorder
        self.record_moves = record_moves
        #: several instances (``--redis-url``): each match is leased, its events published (``server.cluster``)
        self.cluster = cluster
        if cluster is not None:
            cluster.on_lost = self._lost
        self._releases: set[asyncio.Task[None]] = set()
        self.live: dict[str, LiveMatch] = {}
        #: told of every move and end (the server's metrics); None: nobody
        self.observer: MatchObserver | None = None
        self.finished: dict[str, LiveMatch] = {}
        #: token -> (match id, seat) while the match is live
        self.tokens: dict[str, tuple[str, int]] = {}
        self.open_seat_seconds = open_seat_seconds if open_seat_seconds is not None else _open_seat_seconds()
        redact_tokens_in_logs()  # the tokens this manager hands out never reach a log line

    # ----- creation -----

    async def create(
        self,
        game: Game[S, M],
        players: Sequence[BasePlayer],
        *,
        params: dict[str, ParamValue] | None = None,
        initial_state: S | None = None,
        clock: ClockConfig | None = None,
        heartbeat_ms: int = 5000,
        meta: JsonObject | None = None,
        contest_id: str | None = None,
        tournament_id: str | None = None,
        start: bool = True,
    ) -> LiveMatch[S, M]:
        """Register a match (and its human seats' tokens) and start its referee task."""
        config = MatchConfig(
            game=game,
            params=params or {},
            initial_state=initial_state,
            clock=clock or ClockConfig(),
            heartbeat_ms=heartbeat_ms,
            meta=meta or {},
            # a casual game: a person playing a built-in bot may take moves back; never a contest's or a
            # tournament's game, nor one its creator marked rated
            takebacks=contest_id is None and tournament_id is None and not (meta or {}).get("rated"),
        )
        referee = Referee(config, list(players), listener=self)
        live = LiveMatch(match_id=config.match_id, game=game, players=list(players), referee=referee)
        if self.cluster is not None:  # the lease before the row: a running row without a lease is an orphan
            await self.cluster.claim(live.match_id, match_meta(config))
        if self.recorder is not None:
            # the row first: a match the store can't record is refused (StoreUnavailable), never half-started
            try:
                await self.recorder.open_game(
                    NewGame(
                        game_id=live.match_id,
                        game=game.name,
                        params=referee.params,
                        players=player_records(live.describe_players()),
                        contest_id=contest_id,
                        tournament_id=tournament_id,
                    )
                )
            except BaseException:
                await close_players(players)
                if self.cluster is not None:
                    await self.cluster.release(live.match_id)
                raise
        for seat, player in enumerate(players):
            if player.kind != "human":
                continue
            if player.open_seat:
                live.open_seats.add(seat)  # its token is made when somebody joins it
                player.join_timeout = self.open_seat_seconds  # its own wait for a person agrees with the expiry
            else:
                self._issue_token(live, seat)  # the creator's own seat: the token goes back in the create answer
        self.live[live.match_id] = live
        if start:
            self.start(live)
        return live

    def start(self, live: LiveMatch) -> None:
        live.task = asyncio.create_task(live.referee.run(), name=f"match-{live.match_id}")
        if live.open_seats:
            loop = asyncio.get_running_loop()
            live.expiry = loop.call_later(self.open_seat_seconds, self._expire_open_seats, live)

    def adopt(self, live: LiveMatch) -> None:
        """Run a match taken over from a lost instance (``server.failover``): its lease and row exist already."""
        self.live[live.match_id] = live
        if self.cluster is not None:
            self.cluster.publish(live.match_id, {"type": "reset", "ply": len(live.moves)})
        self.start(live)

    def get(self, match_id: str) -> LiveMatch | None:
        return self.live.get(match_id) or self.finished.get(match_id)

    # ----- seat tokens -----

    def _issue_token(self, live: LiveMatch, seat: int) -> str:
        token = secrets.token_urlsafe(32)
        live.tokens[seat] = token
        self.tokens[token] = (live.match_id, seat)
        if self.cluster is not None:  # its sockets may reach another instance: they are relayed here
            self.cluster.add_token(token, live.match_id)
        return token

    def seat_of(self, token: str) -> tuple[LiveMatch, int] | None:
        """The live match and seat a token belongs to; None for an unknown token or a match that is over.

        A token stays valid for its match's life: the seat's player decides what a connection may do (one live
        socket at a time; an HTTTX seat is single-use, since leaving it forfeits)."""
        entry = self.tokens.get(token)
        live = self.live.get(entry[0]) if entry is not None else None
        if entry is None or live is None or live.result is not None:
            return None
        return live, entry[1]

    def join_open_seat(self, live: LiveMatch, seat: int) -> str | None:
        """A new token for an open seat, given once: the first joiner gets it, later ones get None (taken), as
        does a seat that was never open (the creator's own, a bot) or a match that is over."""
        if seat not in live.open_seats or live.result is not None:
            return None
        live.open_seats.discard(seat)
        return self._issue_token(live, seat)

    def _expire_open_seats(self, live: LiveMatch) -> None:
        """End the match ``aborted`` when a seat created open was not taken in time: nobody joined it, or whoever
        joined never connected. A match nobody played is not a result for the person who waited."""
        live.expiry = None
        if live.result is not None:
            return
        for seat, player in enumerate(live.players):
            if not player.open_seat or player.attached:
                continue
            side = live.game.seat_names[seat]
            reason = f"nobody joined seat {side} within {self.open_seat_seconds:g} s"
            if seat not in live.open_seats:
                reason += " (it was joined, but nobody connected)"
            live.open_seats.clear()  # a join arriving while the match ends is refused, not given a seat of it
            player.fail(MatchEnded(Outcome(None, Termination.ABORTED, reason)))
            return

    # ----- spectators -----

    async def spectate(self, live: LiveMatch, send: Send, *, moves_only: bool = False) -> Spectator:
        """Attach a spectator: it gets the snapshot now, then every update (``moves_only``: without the board),
        then the end."""
        spectator = Spectator(send, moves_only)
        spectator.push(live.snapshot())
        if live.result is not None:
            spectator.push(live.end_message())
            spectator.push(None)
        else:
            live.spectators.add(spectator)
        return spectator

    # ----- MatchListener -----

    async def on_start(self, match_id: str, state: object) -> None:
        return None

    async def on_move(self, match_id: str, record: PlayedMove, state: object) -> None:
        live = self.live.get(match_id)
        if self.observer is not None and live is not None:
            self.observer.move(live, record)
        if self.recorder is not None:
            stored = move_record(record)
            if live is not None:
                live.records.append(stored)
            if self.record_moves:
                self.recorder.move(match_id, stored)
        if live is not None and live.spectators:
            live.broadcast_move(record, state)
        if self.cluster is not None and match_id in self.cluster.watched and live is not None and not live.disowned:
            # watched elsewhere: the move, not the board; the watchers play it on their copy (``server.remote_watch``)
            self.cluster.publish(match_id, move_event(record, live.referee.clock.snapshot()))

    async def on_takeback(self, match_id: str, ply: int, state: object) -> None:
        """Moves from ``ply`` on were taken back: the store deletes them (in order with the moves written before
        and after, so a replay and a restart agree) and spectators, here and on other instances, get the position
        afresh."""
        if self.recorder is not None and self.record_moves:
            self.recorder.take_back(match_id, ply)
        live = self.live.get(match_id)
        if live is not None:
            del live.records[ply:]
        if live is not None and live.spectators:
            live.broadcast(live.snapshot())
        if self.cluster is not None and match_id in self.cluster.watched and live is not None and not live.disowned:
            # watched elsewhere: the watchers drop the moves from ``ply`` on (``server.remote_watch``)
            self.cluster.publish(match_id, {"type": "takeback", "ply": ply})

    async def on_end(self, result: MatchResult) -> None:
        live = self.live.get(result.match_id)
        if live is None:
            return
        live.result = result
        if live.expiry is not None:
            live.expiry.cancel()
            live.expiry = None
        live.open_seats.clear()
        for token in live.tokens.values():  # the seats' tokens end with their match
            self.tokens.pop(token, None)
            if self.cluster is not None:
                self.cluster.drop_token(token)
        if self.cluster is not None and not live.disowned and not await self.cluster.holds(result.match_id):
            # fenced: another instance took the match over while this one was cut off; its record is the game
            live.disowned = True
        # over: no longer listed as live (late spectators get the snapshot and the end at once)
        self.live.pop(result.match_id, None)
        if not live.disowned:  # a disowned match is followed from the instance that plays it now
            self.finished[result.match_id] = live
            if self.observer is not None:
                self.observer.end(live, result)
        while len(self.finished) > KEEP_FINISHED:
            self.finished.pop(next(iter(self.finished)))
        if self.recorder is not None and not live.disowned:
            written = self.recorder.finish(
                GameEnd(
                    game_id=result.match_id,
                    game=live.game.name,
                    winner=result.outcome.winner,
                    termination=str(result.outcome.termination),
                    reason=result.outcome.reason,
                    moves=_records_of(live, result),
                    players=player_records(live.describe_players()),
                    # created rated: its people are rated too; created casual: nobody's rating moves
                    rate=live.referee.config.meta.get("rated") is not False,
                    people=live.referee.config.meta.get("rated") is True,
                    finished_at=utc(result.finished),
                )
            )
            # tell spectators the game ended once it is stored, so whoever reads it next finds it; during a
            # database outage the result waits in the journal and the end is announced anyway
            if self.cluster is not None:
                self._release_when_stored(result.match_id, written)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(written), RESULT_WAIT)
        # The end message holds the whole board: made only for someone to tell (made for nobody it was ~1 % of the
        # server's CPU; a spectator who comes later gets it from ``spectate``). A disowned match's spectators are
        # just closed: reconnecting finds where it goes on.
        if not live.disowned and (live.spectators or self.cluster is not None):
            end = messages.end(live.game, result)
            if self.cluster is not None:
                self.cluster.publish(result.match_id, {**end, "plies": len(result.moves)})  # watchers catch up
            live.broadcast(end)
        live.broadcast(None)
        live.spectators.clear()
        live.done.set()
        live.settle()

    # ----- several instances -----

    def _release_when_stored(self, match_id: str, written: asyncio.Future[None]) -> None:
        """Give the lease up once the end is stored, not before: a running row without a lease is taken for an
        orphan by the other instances, whose ``interrupted`` would then win over this result."""
        cluster = self.cluster
        assert cluster is not None

        async def release() -> None:
            with contextlib.suppress(Exception):
                await asyncio.shield(written)
            await cluster.release(match_id)

        task = asyncio.create_task(release(), name=f"release-{match_id}")
        self._releases.add(task)
        task.add_done_callback(self._releases.discard)

    def _lost(self, match_id: str) -> None:
        """Another instance holds the lease now (this one lost Redis long enough): stop the match here without
        storing or announcing its end; the other instance continues it."""
        live = self.live.get(match_id)
        if live is None:
            return
        live.disowned = True
        if live.task is not None:
            live.task.cancel()

    # ----- shutdown -----

    async def close(self, wait: float = RESULT_WAIT) -> None:
        """Stop every live match; each ends ``interrupted`` (or ``aborted`` before its first move), moves kept.
        ``wait``: seconds to wait for the database (the handed-over matches' moves) and for Redis (their leases),
        each; what the database has not taken by then the recorder journals as it closes.

        With several instances a match whose players another instance can reach (:data:`RESUMABLE_KINDS`) is
        handed over instead: stopped here without an end, its moves flushed, its lease released, so another
        instance's failover scan continues it within a couple of seconds (a rolling restart loses no game)."""
        handed = [m for m in self.live.values() if self.cluster is not None and resumable(m)]
        for live in handed:
            live.disowned = True
        tasks = [m.task for m in self.live.values() if m.task is not None]
        for task in tasks:
            task.cancel()
        with contextlib.suppress(Exception):
            await asyncio.gather(*tasks, return_exceptions=True)
        if handed and self.cluster is not None:
            if self.recorder is not None:
                with contextlib.suppress(Exception):
                    await self.recorder.flush(wait)
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(wait):
                    for live in handed:
                        await self.cluster.release(live.match_id, keep_meta=True)
            log.warning("%d match(es) handed over to the other instances", len(handed))
        with contextlib.suppress(Exception):
            await asyncio.wait_for(asyncio.gather(*self._releases, return_exceptions=True), wait)


def _open_seat_seconds() -> float:
    """``$HEXARENA_OPEN_SEAT_SECONDS`` or :data:`OPEN_SEAT_SECONDS`; a bad value stops the server at start-up."""
    text = os.environ.get("HEXARENA_OPEN_SEAT_SECONDS", "").strip()
    if not text:
        return OPEN_SEAT_SECONDS
    try:
        seconds = float(text)
    except ValueError:
        seconds = float("nan")
    if not 0 < seconds < float("inf"):
        raise ValueError(f"HEXARENA_OPEN_SEAT_SECONDS must be a positive number of seconds, got {text!r}")
    return seconds


def replay(game: Game[S, M], start: S | None, params: Mapping[str, object], moves: Sequence[PlayedMove]) -> S:
    """The position after ``moves`` from ``start`` (None: the game's own start with ``params``)."""
    state = start if start is not None else game.new(**params)
    for move in moves:
        state = game.play(state, game.parse(move.move))
    return state


def release_position(game: Game[S, M], state: S | None) -> None:
    """Let ``state`` and every position of its game go, when the game has a way (``RuleGame.release``)."""
    release = getattr(game, "release", None)
    if release is not None and state is not None:
        release(state)


def resumable(live: LiveMatch) -> bool:
    """Whether another instance can continue this match: each seat can be reached again from anywhere."""
    return all(p.kind in RESUMABLE_KINDS for p in live.players)


def match_meta(config: MatchConfig) -> JsonObject:
    """What another instance needs to continue a match that the database does not keep: its clock."""
    clock = config.clock
    return {
        "clock": {"kind": clock.kind, "seconds": clock.seconds, "increment": clock.increment},
        "heartbeat_ms": config.heartbeat_ms,
    }


def move_event(m: PlayedMove, clocks: list[float | None]) -> JsonObject:
    """A move as published to the other instances (``server.cluster``): the move, never the board."""
    # a PlayedMoveJson is JSON, but mypy reads a TypedDict's values as ``object``
    return {"type": "move", **cast(JsonObject, m.to_json()), "clocks": clocks}


def moved_of(event: JsonObject) -> tuple[PlayedMove, list[float | None] | None]:
    """The move and the clocks a :func:`move_event` carries, as another instance reads it; TypeError or ValueError
    when a field is not what ``move_event`` writes there."""
    evaluation, considerations, clocks = event.get("evaluation"), event.get("considerations"), event.get("clocks")
    record = PlayedMove(
        ply=number(event["ply"], int),
        seat=number(event["seat"], int),
        move=str(event["move"]),
        timestamp=number(event["timestamp"], float),
        think_time=number(event["think_time"], float),
        evaluation=evaluation if isinstance(evaluation, dict) else None,
        considerations=considerations if isinstance(considerations, list) else None,
    )
    if not isinstance(clocks, list):
        return record, None
    return record, [None if c is None else number(c, float) for c in clocks]


def move_record(m: PlayedMove) -> MoveRecord:
    """A referee's accepted move as the store keeps it."""
    return MoveRecord(
        ply=m.ply,
        seat=m.seat,
        move=m.move,
        timestamp=utc(m.timestamp),
        think_time=m.think_time,
        evaluation=m.evaluation,
        considerations=m.considerations,
    )


def _records_of(live: LiveMatch, result: MatchResult) -> tuple[MoveRecord, ...]:
    """The ended match's moves as the store keeps them: those made as they were played, or made now if they do
    not line up with the referee's (a match whose moves did not all come through ``on_move``)."""
    kept = live.records
    if len(kept) == len(result.moves) and all(r.ply == m.ply for r, m in zip(kept, result.moves, strict=True)):
        return tuple(kept)
    return tuple(move_record(m) for m in result.moves)


def player_records(described: Sequence[Mapping[str, JsonValue]]) -> tuple[PlayerRecord, ...]:
    """The seats as the store keeps them, from ``describe()`` of each player."""
    return tuple(
        PlayerRecord(name=str(d.get("name", "")), kind=str(d.get("kind", "")), spec=str(d.get("spec", "")))
        for d in described
    )
