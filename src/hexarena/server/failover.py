"""Failover: an instance takes over the live matches of an instance that died (several instances, ``--redis-url``).

Every ``Cluster.scan_every`` seconds (``hexarena serve --cluster-scan``) each instance lists the unfinished games of
the shared database and asks Redis who holds their leases (``server.cluster``). A game nobody holds was left by an
instance that is gone (it stopped renewing: dead, frozen or cut off), or by an older server without Redis. The first instance to claim the lease
(``SET NX``) takes the match over:

- if every seat can be reached again from here (``live.RESUMABLE_KINDS``: built-in bots, HTTTX stateless bots,
  which get the whole board with every request, and bws bots, connected to again and given the position) and
  the match's meta (its clock) is in Redis, the match continues from its stored moves, with each seat's clock
  charged for the think time of its stored moves; a seat that then cannot start (a bws bot that can't be set
  up in the middle of a game) ends it ``interrupted``;
- otherwise (a person's socket, a bot connected to the lost instance, an engine process that lived there) it ends
  ``interrupted``, its moves kept, exactly as a restart of a single server ends it.

Spectators on any instance follow the match across the change (the new owner publishes ``reset``, then its
moves). The moves the lost instance had not flushed yet (its last fraction of a second) are not in the
database: the match continues from the last stored one, so the record stays one consistent game.

The same scan replaces the start-up sweep of a single server (``Store.mark_unfinished_as_interrupted``), which
must not run when other instances share the database: their matches are live, and leased.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from hexarena.core.contract import ClockConfig
from hexarena.core.registry import get_game
from hexarena.core.types import Outcome, Termination
from hexarena.players.base import BasePlayer, close_players
from hexarena.players.policy import SpecPolicy, make_answering_player
from hexarena.referee.match import MatchConfig, Referee
from hexarena.referee.result import MatchResult, PlayedMove
from hexarena.server import messages
from hexarena.server.background import stop_if_cancelled
from hexarena.server.live import RESUMABLE_KINDS, LiveMatch, MatchManager
from hexarena.store.recorder import GameEnd
from hexarena.store.records import UNFINISHED, GameRecord, MoveRecord, PlayerRecord

if TYPE_CHECKING:
    from hexarena.server.cluster import Cluster
    from hexarena.store import Store
    from hexarena.store.recorder import Recorder

log = logging.getLogger(__name__)

#: Unfinished games read per query, and queries per scan at most (the oldest beyond are seen once others end).
SCAN_LIMIT = 500
SCAN_PAGES = 20
INTERRUPTED_REASON = "the server instance playing it was lost, and it cannot continue on another"


@dataclass
class Failover:
    """The takeover loop of one instance (see the module docstring)."""

    cluster: Cluster
    store: Store
    recorder: Recorder
    manager: MatchManager
    policy: SpecPolicy
    #: matches this instance took over, continued or ended (for logs and tests)
    continued: list[str] = field(default_factory=list)
    interrupted: list[str] = field(default_factory=list)

    async def run(self) -> None:
        while True:
            try:
                await self.scan()
            except Exception:
                stop_if_cancelled()  # a stop a driver answered with an error of its own
                log.warning("the failover scan failed; trying again", exc_info=True)
            stop_if_cancelled()
            await asyncio.sleep(self.cluster.scan_every)

    async def scan(self) -> int:
        """Claim and take over every unfinished game nobody holds; returns how many were taken. Nothing is claimed
        while Redis is not settled (``Cluster.settled``): just after Redis came back, or started again empty,
        the leases of live owners are missing until their next renewal."""
        if not await self.cluster.settled():
            return 0
        ids: list[str] = []
        for page in range(SCAN_PAGES):
            rows = await self.store.list_games(status=list(UNFINISHED), limit=SCAN_LIMIT, offset=page * SCAN_LIMIT)
            ids += [r.game_id for r in rows if r.game_id not in self.manager.live]
            if len(rows) < SCAN_LIMIT:
                break
        taken = 0
        for match_id, owner in zip(ids, await self.cluster.owners(ids), strict=True):
            if owner is None and await self.cluster.claim(match_id):
                taken += 1
                try:
                    await self.take_over(match_id)
                except Exception:
                    log.exception("taking over match %s failed; it ends interrupted", match_id)
                    await self._interrupt_by_id(match_id, "taking it over failed")
        self.cluster.scans["matches"] += 1
        return taken

    async def take_over(self, match_id: str) -> None:
        record = await self.store.get_game(match_id)
        if record is None or record.status not in UNFINISHED:  # it ended meanwhile
            await self.cluster.release(match_id)
            return
        meta = await self.cluster.meta(match_id)
        why = self._why_not_resumable(record, meta)
        players: list[BasePlayer] = []
        if why is None:
            try:
                for p in record.players:
                    players.append(await make_answering_player(seat_spec(p), record.game, self.policy))
            except Exception as exc:
                why = f"a player cannot be reached again ({exc})"
                await close_players(players)
        if why is not None:
            await self._interrupt(record, why)
            return
        assert meta is not None
        live = self._restored(record, meta, players)
        log.warning(
            "match %s: taken over from a lost instance at ply %d (instance %s)",
            match_id,
            len(live.moves),
            self.cluster.instance,
        )
        self.continued.append(match_id)
        self.manager.adopt(live)

    def _why_not_resumable(self, record: GameRecord, meta: dict[str, Any] | None) -> str | None:
        kinds = [p.kind for p in record.players]
        if any(kind not in RESUMABLE_KINDS for kind in kinds):
            return f"its players ({', '.join(kinds)}) cannot be reached from another instance"
        if meta is None:
            return "its clock is unknown (no meta in Redis)"
        return None

    def _restored(self, record: GameRecord, meta: dict[str, Any], players: list[BasePlayer]) -> LiveMatch:
        game = get_game(record.game)
        clock = meta.get("clock") or {}
        config = MatchConfig(
            game=game,
            params=dict(record.params),
            clock=ClockConfig(
                kind=str(clock.get("kind", "none")),
                seconds=clock.get("seconds"),
                increment=float(clock.get("increment") or 0.0),
            ),
            heartbeat_ms=int(meta.get("heartbeat_ms", 5000)),
            match_id=record.game_id,
        )
        referee = Referee(config, players, listener=self.manager)
        referee.restore(played_moves(record.moves))
        if record.created_at is not None:
            referee.started = record.created_at.timestamp()
        live = LiveMatch(match_id=record.game_id, game=game, players=players, referee=referee)
        if record.created_at is not None:
            live.created = record.created_at.timestamp()
        return live

    async def _interrupt_by_id(self, match_id: str, why: str) -> None:
        record = await self.store.get_game(match_id)
        if record is not None and record.status in UNFINISHED:
            await self._interrupt(record, why)
        else:
            await self.cluster.release(match_id)

    async def _interrupt(self, record: GameRecord, why: str) -> None:
        """End a match that cannot continue here: ``interrupted`` with its moves (``aborted`` without any)."""
        reason = f"{INTERRUPTED_REASON}: {why}"
        log.warning("match %s: %s", record.game_id, reason)
        moves = contiguous(record.moves)
        written = self.recorder.finish(
            GameEnd(
                game_id=record.game_id,
                game=record.game,
                winner=None,
                termination="interrupted",
                reason=reason,
                moves=moves,
                players=record.players,
            )
        )
        try:
            await asyncio.wait_for(asyncio.shield(written), 10.0)
        finally:
            self.interrupted.append(record.game_id)
            self.cluster.publish(record.game_id, {**end_message(record, moves, reason), "plies": len(moves)})
            await self.cluster.release(record.game_id)


def seat_spec(player: PlayerRecord) -> str:
    """The spec that builds a stored seat again, over the protocol it was played over. Seats are stored with
    their scheme (``stateless:URL``); rows written before that hold the bare URL, which would be built over bws
    whenever the bot declares bws too: the kind says which protocol it was."""
    spec = player.spec.strip()
    if player.kind in ("stateless", "bws") and spec.startswith(("http://", "https://")):
        return f"{player.kind}:{spec}"
    return spec


def contiguous(moves: tuple[MoveRecord, ...]) -> tuple[MoveRecord, ...]:
    """The stored moves from ply 0 up to the first gap (moves are written in order, so a gap is the end)."""
    out: list[MoveRecord] = []
    for m in moves:
        if m.ply != len(out):
            break
        out.append(m)
    return tuple(out)


def as_played(m: MoveRecord) -> PlayedMove:
    """A stored move as the referee keeps it."""
    return PlayedMove(
        ply=m.ply,
        seat=m.seat,
        move=m.move,
        timestamp=m.timestamp.timestamp(),
        think_time=m.think_time,
        evaluation=m.evaluation if isinstance(m.evaluation, dict) else None,
        considerations=m.considerations if isinstance(m.considerations, list) else None,
    )


def played_moves(moves: tuple[MoveRecord, ...]) -> list[PlayedMove]:
    """The stored moves from ply 0 to the first gap, as the referee keeps them."""
    return [as_played(m) for m in contiguous(moves)]


def end_message(record: GameRecord, moves: tuple[MoveRecord, ...], reason: str) -> dict[str, Any]:
    """The spectators' ``end`` of a match ended ``interrupted`` here."""
    game = get_game(record.game)
    state = game.new(**record.params)
    for m in moves:
        state = game.play(state, game.parse(m.move))
    result = MatchResult(
        match_id=record.game_id,
        game=record.game,
        params=record.params,
        players=[],
        outcome=Outcome(None, Termination.INTERRUPTED, reason),
        moves=[],
        final_state=state,
        started=0.0,
        finished=time.time(),
    )
    return messages.end(game, result)


__all__ = ["Failover", "as_played", "contiguous", "end_message", "played_moves", "seat_spec"]
