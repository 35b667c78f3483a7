"""Live matches: the referee task, its spectators, its human seats, and its record in the store.

The manager is the listener of every referee it starts: it fans each event out to spectators through bounded
per-spectator queues (a slow spectator is dropped, never allowed to stall a match) and hands the game to the
recorder (:mod:`hexarena.store.recorder`): its row before the match is registered (a database that can't take it
refuses the match: no ghost games), each move as it is played, and its end with every move.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import msgspec

from hexarena.players.base import BasePlayer, ClockConfig
from hexarena.referee.match import MatchConfig, Referee
from hexarena.referee.result import MatchResult, PlayedMove
from hexarena.server import messages
from hexarena.store.recorder import GameEnd, NewGame, Recorder
from hexarena.store.records import MoveRecord, PlayerRecord

log = logging.getLogger(__name__)

Send = Callable[[str], Awaitable[None]]

#: Messages queued for one spectator before it is considered too slow and dropped.
SPECTATOR_QUEUE = 1024
#: Finished matches kept in memory for late spectators and quick lookups (the store keeps them all).
KEEP_FINISHED = 512
#: Seconds a match's end waits for its result to be stored before it is announced anyway.
RESULT_WAIT = 2.0


_encoder = msgspec.json.Encoder()


def _encode(message: dict[str, Any]) -> str:
    return _encoder.encode(message).decode()


def utc(ts: float) -> datetime:
    return datetime.fromtimestamp(ts, tz=UTC)


class Spectator:
    """One watcher: a queue drained by its own writer task."""

    def __init__(self, send: Send) -> None:
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(SPECTATOR_QUEUE)
        self.send = send
        self.closed = asyncio.Event()

    def push(self, message: dict[str, Any] | str | None) -> bool:
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
class LiveMatch:
    match_id: str
    game: Any
    players: list[BasePlayer]
    referee: Referee
    created: float = field(default_factory=time.time)
    task: asyncio.Task[MatchResult] | None = None
    spectators: set[Spectator] = field(default_factory=set)
    tokens: dict[int, str] = field(default_factory=dict)
    result: MatchResult | None = None
    done: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def state(self) -> Any:
        return self.referee.state

    @property
    def moves(self) -> list[PlayedMove]:
        return self.referee.moves

    def describe_players(self) -> list[dict[str, Any]]:
        out = []
        for seat, p in enumerate(self.players):
            d = p.describe()
            d["seat"] = seat
            d["side"] = self.game.seat_names[seat]
            out.append(d)
        return out

    def snapshot(self) -> dict[str, Any]:
        return messages.snapshot(
            self.match_id, self.game, self.state, self.moves, self.describe_players(), self.referee.clock.snapshot()
        )

    def broadcast(self, message: dict[str, Any] | None) -> None:
        text = None if message is None else _encode(message)  # once, whatever the number of spectators
        for spectator in list(self.spectators):
            if not spectator.push(text):
                self.spectators.discard(spectator)


class MatchManager:
    """Creates, tracks and stores matches; the listener of every referee it runs."""

    def __init__(self, recorder: Recorder | None = None, *, record_moves: bool = True) -> None:
        self.recorder = recorder
        self.record_moves = record_moves
        self.live: dict[str, LiveMatch] = {}
        self.finished: dict[str, LiveMatch] = {}
        self.tokens: dict[str, tuple[str, int]] = {}

    # ----- creation -----

    async def create(
        self,
        game: Any,
        players: Sequence[BasePlayer],
        *,
        params: dict[str, Any] | None = None,
        initial_state: Any = None,
        clock: ClockConfig | None = None,
        heartbeat_ms: int = 5000,
        meta: dict[str, Any] | None = None,
        contest_id: str | None = None,
        tournament_id: str | None = None,
        start: bool = True,
    ) -> LiveMatch:
        """Register a match (and its human seats' tokens) and start its referee task."""
        config = MatchConfig(
            game=game,
            params=params or {},
            initial_state=initial_state,
            clock=clock or ClockConfig(),
            heartbeat_ms=heartbeat_ms,
            meta=meta or {},
        )
        referee = Referee(config, list(players), listener=self)
        live = LiveMatch(match_id=config.match_id, game=game, players=list(players), referee=referee)
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
                await _close_players(players)
                raise
        for seat, player in enumerate(players):
            if getattr(player, "kind", "") == "human":
                token = secrets.token_urlsafe(32)
                live.tokens[seat] = token
                self.tokens[token] = (live.match_id, seat)
        self.live[live.match_id] = live
        if start:
            self.start(live)
        return live

    def start(self, live: LiveMatch) -> None:
        live.task = asyncio.create_task(live.referee.run(), name=f"match-{live.match_id}")

    def get(self, match_id: str) -> LiveMatch | None:
        return self.live.get(match_id) or self.finished.get(match_id)

    def claim_token(self, token: str) -> tuple[LiveMatch, int] | None:
        """A human seat's token, used once: it is forgotten as soon as it is claimed."""
        entry = self.tokens.pop(token, None)
        if entry is None:
            return None
        live = self.live.get(entry[0])
        if live is None:
            return None
        return live, entry[1]

    # ----- spectators -----

    async def spectate(self, live: LiveMatch, send: Send) -> Spectator:
        """Attach a spectator: it gets the snapshot now, then every update, then the end."""
        spectator = Spectator(send)
        spectator.push(live.snapshot())
        if live.result is not None:
            spectator.push(messages.end(live.game, live.result))
            spectator.push(None)
        else:
            live.spectators.add(spectator)
        return spectator

    # ----- MatchListener -----

    async def on_start(self, match_id: str, state: Any) -> None:
        return None

    async def on_move(self, match_id: str, record: PlayedMove, state: Any) -> None:
        if self.recorder is not None and self.record_moves:
            self.recorder.move(match_id, move_record(record))
        live = self.live.get(match_id)
        if live is not None and live.spectators:
            live.broadcast(messages.update(match_id, live.game, record, state, live.referee.clock.snapshot()))

    async def on_end(self, result: MatchResult) -> None:
        live = self.live.get(result.match_id)
        if live is None:
            return
        live.result = result
        for token, (mid, _) in list(self.tokens.items()):
            if mid == result.match_id:
                del self.tokens[token]
        # over: no longer listed as live (late spectators get the snapshot and the end at once)
        self.live.pop(result.match_id, None)
        self.finished[result.match_id] = live
        while len(self.finished) > KEEP_FINISHED:
            self.finished.pop(next(iter(self.finished)))
        if self.recorder is not None:
            written = self.recorder.finish(
                GameEnd(
                    game_id=result.match_id,
                    game=live.game.name,
                    winner=result.outcome.winner,
                    termination=str(result.outcome.termination),
                    reason=result.outcome.reason,
                    moves=tuple(move_record(m) for m in result.moves),
                    players=player_records(live.describe_players()),
                    finished_at=utc(result.finished),
                )
            )
            # tell spectators the game ended once it is stored, so whoever reads it next finds it; during a
            # database outage the result waits in the journal and the end is announced anyway
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(written), RESULT_WAIT)
        live.broadcast(messages.end(live.game, result))
        live.broadcast(None)
        live.spectators.clear()
        live.done.set()

    # ----- shutdown -----

    async def close(self) -> None:
        """Stop every live match; each ends ``interrupted`` (or ``aborted`` before its first move), moves kept."""
        tasks = [m.task for m in self.live.values() if m.task is not None]
        for task in tasks:
            task.cancel()
        with contextlib.suppress(Exception):
            await asyncio.gather(*tasks, return_exceptions=True)


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


def player_records(described: list[dict[str, Any]]) -> tuple[PlayerRecord, ...]:
    """The seats as the store keeps them, from ``describe()`` of each player."""
    return tuple(
        PlayerRecord(name=str(d.get("name", "")), kind=str(d.get("kind", "")), spec=str(d.get("spec", "")))
        for d in described
    )


async def _close_players(players: Sequence[BasePlayer]) -> None:
    """Release players of a match that will not be played (their sockets, processes)."""
    for player in players:
        close = getattr(player, "close", None)
        if close is None:
            continue
        try:
            await close()
        except Exception:
            log.debug("closing %s failed", player, exc_info=True)
