"""Live matches: the referee task, its spectators, its human seats, and its record in the store.

The manager is the listener of every referee it starts: it fans each event out to spectators through bounded
per-spectator queues (a slow spectator is dropped, never allowed to stall a match) and writes the game to the
store when it starts and, with every move, when it ends, in one transaction, so a result is never half-written.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

import msgspec

from hexarena.core.types import Termination
from hexarena.players.base import BasePlayer, ClockConfig
from hexarena.referee.match import MatchConfig, Referee
from hexarena.referee.result import MatchResult, PlayedMove
from hexarena.server import messages

log = logging.getLogger(__name__)

Send = Callable[[str], Awaitable[None]]

#: Messages queued for one spectator before it is considered too slow and dropped.
SPECTATOR_QUEUE = 1024
#: Finished matches kept in memory for late spectators and quick lookups (the store keeps them all).
KEEP_FINISHED = 512


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

    def __init__(self, store: Any | None = None) -> None:
        self.store = store
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
        for seat, player in enumerate(players):
            if getattr(player, "kind", "") == "human":
                token = secrets.token_urlsafe(32)
                live.tokens[seat] = token
                self.tokens[token] = (live.match_id, seat)
        self.live[live.match_id] = live
        if self.store is not None:
            from hexarena.store.records import PlayerRecord

            await self.store.create_game(
                game_id=live.match_id,
                game=game.name,
                params=referee.params,
                players=[
                    PlayerRecord(name=str(d.get("name", "")), kind=str(d.get("kind", "")), spec=str(d.get("spec", "")))
                    for d in live.describe_players()
                ],
                status="running",
                contest_id=contest_id,
                tournament_id=tournament_id,
            )
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
        if self.store is not None:
            try:
                await self._store_result(result)
            except Exception:
                log.exception("could not store the result of match %s", result.match_id)
            try:
                await self._rate(live, result)
            except Exception:
                log.exception("could not update ratings after match %s", result.match_id)
        live.broadcast(messages.end(live.game, result))
        live.broadcast(None)
        live.spectators.clear()
        self.live.pop(result.match_id, None)
        self.finished[result.match_id] = live
        while len(self.finished) > KEEP_FINISHED:
            self.finished.pop(next(iter(self.finished)))
        live.done.set()

    async def _rate(self, live: LiveMatch, result: MatchResult) -> None:
        """Every finished bot-vs-bot game moves the leaderboard (``GET /leaderboard/<game>``); games that a
        server stop or error ended, and games with a person in them, don't."""
        from hexarena.tournament.ratings import update_ratings

        if result.outcome.termination in (Termination.ABORTED, Termination.ERROR):
            return
        described = live.describe_players()
        if any(d.get("kind") in ("human", "browser") for d in described):
            return
        names = [str(d.get("name", "")) for d in described]
        await update_ratings(self.store, live.game.name, names, result.outcome.winner)

    async def _store_result(self, result: MatchResult) -> None:
        """Store how the match ended, with its moves, in one transaction.

        The bots' analysis (``evaluation``, ``considerations``) is the one part the referee does not check; if
        the store refuses it (not JSON, nested too deeply) the result must not be lost over it, so the moves are
        stored again without their analysis.
        """
        from hexarena.store.errors import InvalidRecord
        from hexarena.store.records import MoveRecord

        store = self.store
        assert store is not None
        moves = [
            MoveRecord(
                ply=m.ply,
                seat=m.seat,
                move=m.move,
                timestamp=utc(m.timestamp),
                think_time=m.think_time,
                evaluation=m.evaluation,
                considerations=m.considerations,
            )
            for m in result.moves
        ]

        async def finish(moves: list[MoveRecord]) -> None:
            await store.finish_game(
                result.match_id,
                winner=result.outcome.winner,
                termination=str(result.outcome.termination),
                reason=result.outcome.reason,
                moves=moves,
                status="aborted" if result.outcome.termination == Termination.ABORTED else "finished",
            )

        try:
            await finish(moves)
        except InvalidRecord as exc:
            if not any(m.evaluation is not None or m.considerations is not None for m in moves):
                raise
            log.warning("match %s: storing its moves without the bots' analysis (%s)", result.match_id, exc)
            await finish([replace(m, evaluation=None, considerations=None) for m in moves])

    # ----- shutdown -----

    async def close(self) -> None:
        """Stop every live match; each ends as aborted and is stored as such."""
        tasks = [m.task for m in self.live.values() if m.task is not None]
        for task in tasks:
            task.cancel()
        with contextlib.suppress(Exception):
            await asyncio.gather(*tasks, return_exceptions=True)
