"""Watching a match that another instance plays (several instances, ``--redis-url``).

The spectator gets what it would get on the owning instance: a ``setup`` snapshot, a ``board_update`` per move
and the ``end``. The snapshot comes from the shared database (the stored moves, replayed on the game's start);
the moves after it come from the match's Redis channel (``server.cluster``), which carries each move, not the
board: this instance plays it on its own copy of the position and builds the same update the owner's spectators
get. Order of operations, and why nothing is missed: subscribe first, then read the store. A move published
after the subscription arrives on the channel; one played before it is in the store, or was still in the owner's
recorder queue (a fraction of a second): a move arriving with a ply beyond the position's is such a gap, filled
from the store once the owner's recorder wrote it. A ``takeback`` drops the moves from its ply on and sends the
position afresh, as the owner's spectators get it. A ``reset`` (another instance took the match over, after its
owner was lost) or a gap that does not fill starts again from the store with a fresh snapshot; a subscription
that broke and was made again (Redis restarted) plays the moves stored meanwhile.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from hexarena.core.game import AnyGame
from hexarena.core.jsonvalue import JsonObject, number
from hexarena.core.registry import get_game
from hexarena.referee.result import PlayedMove
from hexarena.server import messages
from hexarena.server.failover import as_played, contiguous, played_moves
from hexarena.server.live import Send, Spectator, moved_of
from hexarena.store.records import UNFINISHED, GameRecord

if TYPE_CHECKING:
    from hexarena.server.cluster import Cluster
    from hexarena.store import Store

log = logging.getLogger(__name__)

#: Seconds a gap between the store and the channel may take to fill before the watch starts again from the store.
GAP_WAIT = 3.0
#: Times a watch starts again from the store after a failure (see ``RemoteWatch._watch``).
RETRIES = 3
#: Seconds without an event after which the store is asked whether the match is still running (its owner died
#: and nobody announced anything yet, or the end was published before this instance subscribed).
QUIET_CHECK = 5.0


class RemoteWatch:
    """Feeds one spectator from the store and the match's channel (see the module docstring)."""

    def __init__(self, cluster: Cluster, store: Store, match_id: str, send: Send, *, moves_only: bool = False) -> None:
        self.cluster = cluster
        self.store = store
        self.match_id = match_id
        self.spectator = Spectator(send, moves_only)
        self.task: asyncio.Task[None] | None = None
        self.game: AnyGame | None = None  # set with the states below by the snapshot (``_load``), before any move
        self.state: object = None
        self.moves: list[PlayedMove] = []
        self.players: list[JsonObject] = []
        self.start_state: object = None  # the game's first position: a takeback replays the moves kept from it

    async def start(self) -> bool:
        """Subscribe, send the snapshot, follow; False (nothing sent) when the store has no such game."""
        ready: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self.task = asyncio.create_task(self._run(ready), name=f"remote-watch-{self.match_id}")
        return await ready

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)

    async def _run(self, ready: asyncio.Future[bool]) -> None:
        try:
            async with self.cluster.events(self.match_id) as events:
                record = await self.store.get_game(self.match_id)
                if record is None:
                    ready.set_result(False)
                    return
                ready.set_result(True)
                await self._watch(record, events)
        except Exception as exc:
            if not ready.done():
                ready.set_exception(exc)
            else:
                log.warning("watching match %s from another instance failed", self.match_id, exc_info=True)
        finally:
            self.spectator.push(None)

    async def _watch(self, record: GameRecord | None, events: asyncio.Queue[JsonObject]) -> None:
        """Snapshot and follow; a failure on the way (the database or Redis slow or away a moment) starts again
        from the store with a fresh snapshot, a few times, rather than leaving the spectator without the end."""
        for attempt in range(RETRIES + 1):
            try:
                if record is not None and await self._load(record):
                    await self._follow(events)
                return
            except Exception:
                if attempt == RETRIES:
                    raise
                log.warning("watching match %s from another instance failed; starting again", self.match_id)
                await asyncio.sleep(0.5)
                record = await self.store.get_game(self.match_id)

    async def _load(self, record: GameRecord) -> bool:
        """Position and snapshot from a stored record; False when the game is over (its end was sent too)."""
        game = self.game = get_game(record.game)
        self.players = [
            {"name": p.name, "kind": p.kind, "spec": p.spec, "seat": i} for i, p in enumerate(record.players)
        ]
        self.moves = played_moves(record.moves)
        state = self.start_state = game.new(**record.params)
        for m in contiguous(record.moves):
            state = game.play(state, game.parse(m.move))
        self.state = state
        self.spectator.push(messages.snapshot(self.match_id, game, state, self.moves, self.players))
        if record.status in UNFINISHED:
            return True
        from hexarena.server.records import stored_end_messages

        stored = await stored_end_messages(self.store, self.match_id)
        if stored:
            self.spectator.push(stored[-1])
        return False

    async def _reload(self) -> bool:
        record = await self.store.get_game(self.match_id)
        return record is not None and await self._load(record)

    async def _follow(self, events: asyncio.Queue[JsonObject]) -> None:
        while not self.spectator.closed.is_set():
            try:
                event = await asyncio.wait_for(events.get(), QUIET_CHECK)
            except TimeoutError:
                record = await self.store.get_game(self.match_id)
                if record is None or record.status not in UNFINISHED:
                    await self._reload()
                    return
                continue
            kind = event.get("type")
            if kind == "end":
                # the moves not published yet (played before the owner saw this watcher) are stored by now: the
                # owner announces the end once it is stored
                plies = number(event.pop("plies", 0), int)
                if plies > len(self.moves) and not await self._fill_gap(plies):
                    await self._reload()
                    return
                self.spectator.push(event)
                return
            if kind == "reset":
                if not await self._reload():
                    return
            elif kind == "resync":
                if not await self._catch_up():
                    return
            elif kind == "move" and not await self._move(event):
                return
            elif kind == "takeback":
                self._take_back(number(event["ply"], int))

    async def _move(self, event: JsonObject) -> bool:
        """Play a published move; False when the game turned out to be over while catching up."""
        record, clocks = moved_of(event)
        ply = record.ply
        if ply < len(self.moves):
            return True  # already in the snapshot (stored before the subscription took effect)
        if ply > len(self.moves) and not await self._fill_gap(ply):
            return await self._reload()
        self._play(record, clocks)
        return True

    async def _catch_up(self) -> bool:
        """After the subscription broke (``Cluster.events`` sends ``resync``): the moves stored meanwhile, or the
        end when the game is over; False when it is."""
        record = await self.store.get_game(self.match_id)
        if record is None or record.status not in UNFINISHED:
            await self._reload()
            return False
        for m in contiguous(record.moves)[len(self.moves) :]:
            self._play(as_played(m), None)
        return True

    async def _fill_gap(self, ply: int) -> bool:
        """Moves before ``ply`` from the store (the owner's recorder writes them within a fraction of a second)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + GAP_WAIT
        while loop.time() < deadline:
            stored = await self.store.get_moves(self.match_id, after_ply=len(self.moves) - 1)
            for m in stored:
                if m.ply == len(self.moves) and m.ply < ply:
                    self._play(as_played(m), None)
            if len(self.moves) >= ply:
                return True
            await asyncio.sleep(0.1)
        return False

    def _take_back(self, ply: int) -> None:
        """The moves from ``ply`` on were taken back: the position is replayed from the moves kept."""
        if ply >= len(self.moves):
            return
        game = self._game()
        del self.moves[ply:]
        state = self.start_state
        for m in self.moves:
            state = game.play(state, game.parse(m.move))
        self.state = state
        self.spectator.push(messages.snapshot(self.match_id, game, state, self.moves, self.players))

    def _play(self, record: PlayedMove, clocks: list[float | None] | None) -> None:
        game = self._game()
        self.state = game.play(self.state, game.parse(record.move))
        self.moves.append(record)
        board = not self.spectator.moves_only
        self.spectator.push(messages.update(self.match_id, game, record, self.state, clocks, board=board))

    def _game(self) -> AnyGame:
        """The game of the snapshot, which comes before any move is played here."""
        if self.game is None:
            raise RuntimeError("a move arrived before the snapshot")
        return self.game


__all__ = ["RemoteWatch"]
