"""The one recorder of games: every way a match is played (live server, battlebot contests, dots tables,
tournaments) writes its games through it, so a result means the same thing everywhere.

What it guarantees:

- **One mapping** from how a match ended to what is stored: :func:`status_for` (``finished`` for a result,
  ``aborted`` for a game that never really started, ``interrupted`` for one the server stopped mid-game) and
  :func:`rated` and :func:`rating_keys` (results between bots move ratings; a person's only in a game created
  rated, under their person key). Nothing else in hexarena decides either.
- **Moves written as played**: :meth:`Recorder.move` queues a move and returns at once; a background flusher
  writes every queued move of every game in one transaction at most :data:`FLUSH_INTERVAL` seconds after it
  was queued (plus the write itself). A crash loses at most the moves of that last fraction of a second.
- **No write lost to a database outage**: a write that fails stays queued and is retried with exponential
  backoff (up to :data:`MAX_BACKOFF` s); meanwhile it and everything queued after it go to a local journal
  (:mod:`hexarena.store.journal`) that a restart replays before anything else, so even a restart during the
  outage loses nothing. :attr:`Recorder.degraded` says so for ``/healthz``; new games are refused with
  :class:`StoreUnavailable` (the API answers 503) instead of starting games that could not be recorded.
- **Takebacks in order**: :meth:`Recorder.take_back` queues the deletion of a live game's moves from a ply on
  (a person took a move back against a bot) in the same queue and journal as the moves, so the moves played
  before it, its deletion and the moves played after it reach the database (or a restart's replay) in the order
  they happened; the stored game is then the game as it stands, never a mix of both lines.
- **One refused write never blocks the others**: a write the database refuses for what it carries
  (:class:`InvalidRecord`: a batch is first split to find it) is set aside in the dead-letter table
  (:mod:`hexarena.store.dead_letters`), logged and counted in :meth:`Recorder.health`, and the writes behind it go
  on; a journal replayed at start-up with such a record in it does the same, so start-up never fails over one
  record. A database that fails (a plain :class:`StoreError`) sets nothing aside: everything waits and is retried.
- **Idempotent writes**: creating a game twice is a no-op, moves are inserted with ``ON CONFLICT DO NOTHING``,
  a finish only ends an unfinished game and rates it in the same transaction; a retried or replayed write
  therefore never doubles anything.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import logging
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from hexarena.core.jsonvalue import JsonObject
from hexarena.core.person import claims_person, is_person_key
from hexarena.core.types import Termination
from hexarena.store.errors import Conflict, InvalidRecord, NotFound, StoreError
from hexarena.store.journal import Journal, orphans
from hexarena.store.records import GameFinish, GameStatus, MoveRecord, NewGame, PlayerRecord, RatedGame
from hexarena.store.repository import Store, check_new_game
from hexarena.store.validate import redact_spec

log = logging.getLogger(__name__)

#: Seconds a queued write waits for others to join its transaction: the bound on how late a move reaches the
#: database (README: "moves reach the store within about 0.2 s").
FLUSH_INTERVAL = 0.2
#: Longest pause between two retries while the database is away.
MAX_BACKOFF = 5.0
#: Seconds a new game's creation may take before the database counts as unreachable.
CREATE_TIMEOUT = 10.0
#: Player kinds that are people: their games are rated only when created rated, under their person key.
PEOPLE = ("human", "browser")
#: Longest stored reason; longer reasons are cut (the store refuses unbounded text).
MAX_REASON = 1000
#: Most game ends written in one transaction (games that end together: a wave of a tournament, a benchmark).
MAX_FINISH_BATCH = 64


class StoreUnavailable(StoreError):
    """The database cannot take new games right now; the caller should retry later (HTTP 503)."""


def status_for(termination: str, plies: int) -> GameStatus:
    """The stored status of a game that ended by ``termination`` after ``plies`` moves.

    A result (win, draw, forfeit) is ``finished``. A game that never really started (``aborted``: a bot that
    could not be reached, a setup failure) is ``aborted``. A game the server stopped (``interrupted``) or that
    hexarena itself broke (``error``) keeps its moves as ``interrupted``, or is ``aborted`` if no move was
    played.
    """
    try:
        term = Termination(termination)
    except ValueError:
        term = Termination.ERROR
    if term.is_result:
        return GameStatus.FINISHED
    if term == Termination.ABORTED or plies == 0:
        return GameStatus.ABORTED
    return GameStatus.INTERRUPTED


def rated(termination: str, kinds: Sequence[str], *, people: bool = False) -> bool:
    """Whether a game moves ratings: a result, between bots, or with people when it was created rated
    (``people``; each person must also have a key: :func:`rating_keys`)."""
    status = status_for(termination, 1)
    return status == GameStatus.FINISHED and (people or not any(k in PEOPLE for k in kinds))


def rating_keys(players: Sequence[PlayerRecord], *, people: bool = False) -> tuple[str, str] | None:
    """The rating keys of a game's two seats, or None if it cannot be rated: a bot is rated under its name, a
    person (only with ``people``: a game created rated) under the key their browser's identity gives
    (``spec``: :func:`hexarena.core.person.is_person_key`). A person without one, a person in both seats, and a
    bot whose name claims to be a person's key are never rated."""
    if len(players) != 2:
        return None
    first, second = (rating_key(p, people=people) for p in players)
    if first is None or second is None or (first == second and is_person_key(first)):
        return None
    return first, second


def rating_key(player: PlayerRecord, *, people: bool = True) -> str | None:
    """The key one seat is rated under (None: it cannot be): a person's key (only with ``people``), or a bot's
    name unless it claims to be a person's."""
    if player.kind in PEOPLE:
        return player.spec if people and is_person_key(player.spec) else None
    return None if claims_person(player.name) else player.name


@dataclass(frozen=True, slots=True)
class GameEnd:
    """How a game ended, with every move; the recorder derives status, winner and rating from it."""

    game_id: str
    game: str
    winner: int | None
    termination: str
    reason: str
    moves: tuple[MoveRecord, ...]
    #: The seats as stored (rating keys are their names; their kinds say whether people played).
    players: tuple[PlayerRecord, ...] = ()
    #: False for games that must never move ratings (an unrated tournament); otherwise :func:`rated` decides.
    rate: bool = True
    #: True for a game created rated: its people are rated too, under their person keys (:func:`rating_keys`)
    people: bool = False
    finished_at: datetime = field(default_factory=lambda: datetime.now(UTC))


# ----- queued operations -------------------------------------------------------------------------------------


@dataclass(slots=True)
class _Op:
    #: "create" | "move" | "takeback" (payload: the first ply taken back) | "finish" | "superseded" (a move a
    #: queued finish carries: skipped)
    kind: str
    game_id: str
    payload: Any
    journaled: bool = False
    written: asyncio.Future[None] | None = None  # resolved once the database took it


def _move_json(m: MoveRecord) -> JsonObject:
    return {
        "ply": m.ply,
        "seat": m.seat,
        "move": m.move,
        "timestamp": m.timestamp.isoformat(),
        "think_time": m.think_time,
        "evaluation": m.evaluation,
        "considerations": m.considerations,
    }


def _move_from(d: dict[str, Any]) -> MoveRecord:
    return MoveRecord(
        ply=int(d["ply"]),
        seat=int(d["seat"]),
        move=str(d["move"]),
        timestamp=datetime.fromisoformat(d["timestamp"]),
        think_time=float(d["think_time"]),
        evaluation=d.get("evaluation"),
        considerations=d.get("considerations"),
    )


def _to_json(op: _Op) -> JsonObject:
    p = op.payload
    if op.kind == "move":
        return {"op": "move", "game_id": op.game_id, "move": _move_json(p)}
    if op.kind == "takeback":
        return {"op": "takeback", "game_id": op.game_id, "ply": p}
    if op.kind == "create":
        return {
            "op": "create",
            "game_id": p.game_id,
            "game": p.game,
            "params": p.params,
            "players": [[x.name, x.kind, x.spec] for x in p.players],
            "contest_id": p.contest_id,
            "tournament_id": p.tournament_id,
            "created_at": p.created_at.isoformat(),
        }
    return {
        "op": "finish",
        "game_id": p.game_id,
        "game": p.game,
        "winner": p.winner,
        "termination": p.termination,
        "reason": p.reason,
        "moves": [_move_json(m) for m in p.moves],
        "players": [[x.name, x.kind, x.spec] for x in p.players],
        "rate": p.rate,
        "people": p.people,
        "finished_at": p.finished_at.isoformat(),
    }


def _settle(future: asyncio.Future[None], error: BaseException | None) -> None:
    if future.done():
        return
    if error is None:
        future.set_result(None)
    elif isinstance(error, asyncio.CancelledError):
        future.cancel()
    else:
        future.set_exception(error)


def _retrieve(future: asyncio.Future[None]) -> None:
    if not future.cancelled():
        future.exception()


def _from_json(d: dict[str, Any]) -> _Op:
    kind = d["op"]
    if kind == "move":
        return _Op("move", d["game_id"], _move_from(d["move"]), journaled=True)
    if kind == "takeback":
        return _Op("takeback", d["game_id"], int(d["ply"]), journaled=True)
    if kind == "create":
        new = NewGame(
            game_id=d["game_id"],
            game=d["game"],
            params=d["params"],
            players=tuple(PlayerRecord(*p) for p in d["players"]),
            contest_id=d.get("contest_id"),
            tournament_id=d.get("tournament_id"),
            created_at=datetime.fromisoformat(d["created_at"]),
        )
        return _Op("create", new.game_id, new, journaled=True)
    if kind == "finish":
        end = GameEnd(
            game_id=d["game_id"],
            game=d["game"],
            winner=d["winner"],
            termination=d["termination"],
            reason=d["reason"],
            moves=tuple(_move_from(m) for m in d["moves"]),
            players=tuple(PlayerRecord(*p) for p in d.get("players", ())),
            rate=bool(d.get("rate", True)),
            people=bool(d.get("people", False)),
            finished_at=datetime.fromisoformat(d["finished_at"]),
        )
        return _Op("finish", end.game_id, end, journaled=True)
    raise ValueError(f"unknown journal entry {kind!r}")


def _written(op: _Op) -> None:
    if op.written is not None and not op.written.done():
        op.written.set_result(None)


def _journal_safe(op: _Op) -> JsonObject:
    """The op as JSON; a bot's analysis that is not JSON is dropped rather than the op lost."""

    entry = _to_json(op)
    try:
        json.dumps(entry)
    except (TypeError, ValueError):
        op.payload = _without_analysis(op.payload)
        entry = _to_json(op)
    return entry


def _without_analysis(payload: Any) -> Any:
    if isinstance(payload, MoveRecord):
        return replace(payload, evaluation=None, considerations=None)
    if isinstance(payload, GameEnd):
        return replace(payload, moves=tuple(replace(m, evaluation=None, considerations=None) for m in payload.moves))
    return payload


def _without_secrets(entry: JsonObject) -> JsonObject:
    """``entry`` with its players' specs redacted as the store keeps them (a bot URL may carry a token): a
    dead letter is read by operators and may be logged, unlike the journal, which only this server reads."""
    players = entry.get("players")
    if not isinstance(players, list):
        return entry
    redacted = [
        [*p[:2], redact_spec(p[2])] if isinstance(p, list) and len(p) == 3 and isinstance(p[2], str) else p
        for p in players
    ]
    return {**entry, "players": redacted}


def _has_analysis(moves: Sequence[MoveRecord]) -> bool:
    return any(m.evaluation is not None or m.considerations is not None for m in moves)


def default_data_dir(database_url: str | None = None) -> Path:
    """Where local state lives: ``$HEXARENA_DATA_DIR``, else the SQLite file's folder, else ``./data``."""
    env = os.environ.get("HEXARENA_DATA_DIR")
    if env:
        return Path(env)
    from hexarena.store.engine import is_memory, resolve_url

    try:
        url = resolve_url(database_url)
    except StoreError:
        return Path("data")
    if url.get_backend_name() == "sqlite" and url.database and not is_memory(url):
        return Path(url.database).expanduser().resolve().parent
    return Path("data")


# ----- one write, as the recorder makes it ------------------------------------------------------------------


def _finishing(end: GameEnd, moves: Sequence[MoveRecord], kept: int) -> GameFinish:
    """The store's finish for ``end``: status, winner (a result only), reason cut to size, the rating if any."""
    status = status_for(end.termination, len(end.moves))
    rate = None
    keys = rating_keys(end.players, people=end.people)
    if end.rate and keys is not None and rated(end.termination, [p.kind for p in end.players], people=end.people):
        names = tuple(p.name if p.kind in PEOPLE else None for p in end.players)
        rate = RatedGame(game=end.game, keys=keys, names=(names[0], names[1]))
    reason = end.reason if len(end.reason) <= MAX_REASON else end.reason[: MAX_REASON - 3] + "..."
    return GameFinish(
        end.game_id,
        winner=end.winner if status == GameStatus.FINISHED else None,
        termination=end.termination,
        reason=reason,
        moves=list(moves),
        status=status,
        finished_at=end.finished_at,
        rate=rate,
        kept_plies=kept,
    )


async def _create_game(store: Store, new: NewGame) -> None:
    try:
        await store.create_game(
            game_id=new.game_id,
            game=new.game,
            params=new.params,
            players=list(new.players),
            status=GameStatus.RUNNING,
            contest_id=new.contest_id,
            tournament_id=new.tournament_id,
            created_at=new.created_at,
        )
    except Conflict:
        pass  # created by an earlier try whose answer was lost: already done


async def write_entry(store: Store, entry: dict[str, Any]) -> str:
    """Write one journal entry (a dead letter's, mended or not) straight to the store, and say what was done.

    For an operator replaying the writes the database once refused (``hexarena dead-letters replay``): a game's
    creation, a move, a takeback or a game's end, as the recorder would have written them. A game's end lands
    on a game a restart has since marked interrupted (:meth:`Store.restore_result`). Raises ValueError when the
    entry is not a write, InvalidRecord when the database still refuses it, NotFound when its game is missing
    (replay the game's creation first) and Conflict when the game already has a result."""
    try:
        op = _from_json(entry)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise ValueError(f"not a write hexarena journals ({type(exc).__name__}: {exc})") from None
    if op.kind == "create":
        check_new_game(op.payload)
        await _create_game(store, op.payload)
        return f"created game {op.game_id}"
    if op.kind == "move":
        await store.append_moves([(op.game_id, op.payload)])
        return f"game {op.game_id}: stored move {op.payload.ply}"
    if op.kind == "takeback":
        await store.take_back_moves(op.game_id, op.payload)
        return f"game {op.game_id}: took back the moves from ply {op.payload}"
    end: GameEnd = op.payload
    result = await store.restore_result(_finishing(end, end.moves, 0))
    if result is None:
        raise NotFound(f"no game {op.game_id!r}: replay its creation first (a dead letter of kind 'create')")
    if not result:
        raise Conflict(f"game {op.game_id!r} already has a result: nothing was changed")
    return f"game {op.game_id}: stored its end ({end.termination}, {len(end.moves)} moves)"


# ----- the recorder ---------------------------------------------------------------------------------------------


class Recorder:
    """Queues every game write, flushes them in batches, retries and journals them through outages.

    Use::

        recorder = Recorder(store, data_dir)
        await recorder.start()              # replays journals of crashed processes first
        await recorder.open_game(NewGame(...))   # StoreUnavailable if the database can't take it
        recorder.move(game_id, MoveRecord(...))  # returns at once
        recorder.finish(GameEnd(...))            # returns at once
        await recorder.close()              # flushes; what the database can't take stays in the journal
    """

    def __init__(
        self,
        store: Store,
        data_dir: Path | None = None,
        *,
        interval: float = FLUSH_INTERVAL,
        max_backoff: float = MAX_BACKOFF,
        create_timeout: float = CREATE_TIMEOUT,
    ) -> None:
        self.store = store
        self.data_dir = data_dir
        self.journal = Journal(data_dir) if data_dir is not None else None
        self.interval = interval
        self.max_backoff = max_backoff
        self.create_timeout = create_timeout
        self._queue: collections.deque[_Op] = collections.deque()
        #: while the database is away, the ops queued since the last journal write (healthy: empty; an op then
        #: needs no journal, and keeping each one here until the queue ran dry kept every move of a busy server)
        self._unjournaled: list[_Op] = []
        self._wake = asyncio.Event()
        self._idle = asyncio.Event()
        self._idle.set()
        self._task: asyncio.Task[None] | None = None
        #: games waiting to be created, and the task creating them (``open_game``: one transaction for all the
        #: games that start while the previous creation is being written)
        self._creating: list[tuple[NewGame, asyncio.Future[None]]] = []
        self._creator: asyncio.Task[None] | None = None
        self._backoff = 0.0
        self._retry_at = 0.0
        self._urgent = False
        self.degraded = False
        self.last_error = ""
        self.written_moves = 0
        self.written_results = 0
        #: writes this process set aside as dead letters (refused by the database; see the module docstring)
        self.dead_letters = 0
        #: per live game, how many of its first moves are known to be stored (contiguous from ply 0): its finish
        #: does not write them again
        self._stored_plies: dict[str, int] = {}

    # ----- life cycle -----

    async def start(self) -> int:
        """Replay the journals of processes that are gone, then start flushing; returns the entries replayed.

        Raises StoreError if the database cannot take the replayed writes: they stay on disk for the next start.
        """
        replayed = 0
        if self.data_dir is not None:
            with orphans(self.data_dir) as found:
                for path, entries in found:
                    ops = []
                    for entry in entries:
                        try:
                            ops.append(_from_json(entry))
                        except (KeyError, ValueError, TypeError) as exc:
                            error = f"journal {path.name}: the entry cannot be read as a write ({exc!r})"
                            await self._set_aside("journal", str(entry.get("game_id", "")), error, entry)
                    if ops:
                        log.warning("replaying %d write(s) journaled by an earlier process (%s)", len(ops), path)
                    self._queue.extend(ops)
                    replayed += len(ops)
                if self._queue:
                    await self._apply()  # raises: the files stay for the next start
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="hexarena-recorder")
        return replayed

    async def close(self, timeout: float = 5.0) -> None:
        """Write what is queued (waiting at most ``timeout`` s); anything left is journaled for the next start."""
        with contextlib.suppress(TimeoutError):
            await self.flush(timeout)
        if self._creator is not None:  # creations in progress: their callers wait for the answer
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(self._creator), timeout)
            self._creator.cancel()
            await asyncio.gather(self._creator, return_exceptions=True)
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(TimeoutError):  # a write cancelled on a database that hangs may hang too
                await asyncio.wait_for(asyncio.gather(self._task, return_exceptions=True), timeout)
            self._task = None
        if self._queue:
            log.warning(
                "the database did not take %d write(s) before shutdown; they wait in the journal", len(self._queue)
            )
            # all of them: a database that hangs rather than fails never made the recorder journal as it went
            self._unjournaled = list(self._queue)
            self._journal_pending()
        if self.journal is not None:
            self.journal.close()

    # ----- writes -----

    async def open_game(self, new: NewGame) -> None:
        """Create the game's row now (a live game must exist before its first move is accepted).

        StoreUnavailable when the database is failing: the caller must not start the game.
        """
        if self.degraded:
            raise StoreUnavailable(f"the database is unreachable ({self.last_error}); try again in a few seconds")
        try:
            await asyncio.wait_for(asyncio.shield(self._create_soon(new)), self.create_timeout)
        except TimeoutError:
            self._failed(f"creating a game took over {self.create_timeout:g} s")
            raise StoreUnavailable("the database did not answer in time; try again in a few seconds") from None
        except (InvalidRecord, Conflict):
            raise
        except StoreError as exc:
            self._failed(str(exc))
            raise StoreUnavailable(f"the database is unreachable ({exc}); try again in a few seconds") from exc

    def move(self, game_id: str, move: MoveRecord) -> None:
        """Queue one accepted move; it reaches the database within about :data:`FLUSH_INTERVAL` s."""
        self._push(_Op("move", game_id, move))

    def take_back(self, game_id: str, ply: int) -> None:
        """Queue the deletion of a live game's moves from ``ply`` on (taken back), after the moves queued before."""
        self._push(_Op("takeback", game_id, ply))

    def finish(self, end: GameEnd) -> asyncio.Future[None]:
        """Queue a game's end with all its moves (the stored moves are replaced by these, atomically).

        Written at once, without waiting for others to join; the future resolves when the database took it
        (the server waits on it, briefly, so that a client told "the game ended" finds it stored).
        """
        # queued moves of this game are superseded by the finish, which carries them all; they are marked, not
        # removed: the flusher may be writing the head of the queue right now, and only ever pops from the left
        for op in self._queue:
            if op.kind == "move" and op.game_id == end.game_id and not op.journaled:
                op.kind = "superseded"
        op = _Op("finish", end.game_id, end, written=asyncio.get_running_loop().create_future())
        self._urgent = True
        self._push(op)
        assert op.written is not None
        return op.written

    def record(self, new: NewGame, end: GameEnd) -> asyncio.Future[None]:
        """Queue a whole game at once (tournament games, which are stored when they end); resolves when written."""
        self._push(_Op("create", new.game_id, new))
        return self.finish(end)

    async def flush(self, timeout: float | None = None) -> None:
        """Wait until everything queued so far is written (TimeoutError after ``timeout`` s)."""
        if not self._queue:
            return
        self._wake.set()
        await asyncio.wait_for(self._idle.wait(), timeout)

    # ----- health -----

    @property
    def pending(self) -> int:
        return len(self._queue)

    def health(self) -> JsonObject:
        """For ``/healthz``: ``ok``, or ``degraded`` with what waits and why."""
        out: JsonObject = {
            "status": "degraded" if self.degraded else "ok",
            "pending_writes": len(self._queue),
            "journaled": 0 if self.journal is None else self.journal.entries,
            "dead_letters": self.dead_letters,
        }
        if self.degraded:
            out["error"] = self.last_error
            out["retry_in"] = round(max(0.0, self._retry_at - time.monotonic()), 2)
        return out

    # ----- internals -----

    def _push(self, op: _Op) -> None:
        self._queue.append(op)
        self._idle.clear()
        if self.degraded:  # healthy, an op needs no journal: the database takes it within a flush
            self._unjournaled.append(op)
        if self._task is None:  # a recorder used without start(): nothing to replay, flush as usual
            self._task = asyncio.create_task(self._run(), name="hexarena-recorder")
        self._wake.set()

    def _journal_pending(self) -> None:
        if self.journal is None:
            self._unjournaled.clear()
            return
        # the ops queued since the last journal write, in order (kept apart so a tick costs O(new), not O(queue))
        fresh = [op for op in self._unjournaled if not op.journaled and op.kind != "superseded"]
        if not fresh:
            self._unjournaled.clear()
            return
        try:
            self.journal.append([_journal_safe(op) for op in fresh])
        except OSError:
            log.exception("could not write the journal %s", self.journal.path)
            return
        for op in fresh:
            op.journaled = True
        self._unjournaled.clear()

    def _failed(self, error: str) -> None:
        if not self.degraded:
            log.error("the database is failing (%s); writes are kept and retried", error)
            # from now on each tick journals what arrived since the last one; first, all that waits now
            self._unjournaled = [op for op in self._queue if not op.journaled and op.kind != "superseded"]
        self.degraded = True
        self.last_error = error
        self._backoff = min(self.max_backoff, max(0.1, self._backoff * 2))
        self._retry_at = time.monotonic() + self._backoff
        self._journal_pending()

    def _recovered(self) -> None:
        if self.degraded:
            log.warning("the database is back; queued writes are flushed")
        self.degraded = False
        self.last_error = ""
        self._backoff = 0.0
        self._unjournaled.clear()  # healthy again: what is still queued is journaled if the database fails again
        if not self._queue and self.journal is not None and self.journal.entries:
            self.journal.clear()  # everything queued so far is in the database

    async def _run(self) -> None:
        while True:
            if not self._queue:
                self._idle.set()
                self._wake.clear()
                await self._wake.wait()
            if self.degraded:
                # the database is away: what arrived since the last tick goes to the journal, once per tick (one
                # fsync for a batch, not one per move), and the write is retried when its backoff is over
                self._journal_pending()
                wait = self._retry_at - time.monotonic()
                if wait > 0:
                    await asyncio.sleep(min(self.interval, wait))
                    continue
            elif not self._urgent:
                await asyncio.sleep(self.interval)  # let the moves of every game join one transaction
            self._urgent = False
            try:
                await self._apply()
            except StoreError as exc:
                self._failed(str(exc))
            except Exception as exc:  # a bug must not stop the recorder: keep the writes, retry later
                log.exception("the recorder failed")
                self._failed(f"internal error: {exc}")
            else:
                self._recovered()

    async def _apply(self) -> None:
        """Write the queue in order; each step leaves the queue once the database took it. Raises StoreError."""
        while self._queue:
            head = self._queue[0]
            if head.kind == "superseded":
                _written(self._queue.popleft())
            elif head.kind == "move":  # this move and those queued right after it: one transaction
                group = self._leading("move")
                await self._append_moves(group)
                self._drop_written(group)
            elif head.kind == "create":
                try:
                    await self._create(head.payload)
                except InvalidRecord as exc:
                    await self._set_aside_op(head, exc)
                _written(self._queue.popleft())
            elif head.kind == "takeback":
                try:
                    await self.store.take_back_moves(head.game_id, head.payload)
                except InvalidRecord as exc:
                    await self._set_aside_op(head, exc)
                if head.game_id in self._stored_plies:
                    self._stored_plies[head.game_id] = min(self._stored_plies[head.game_id], head.payload)
                _written(self._queue.popleft())
            else:  # this finish and those queued right after it: one transaction (group commit)
                group = self._leading("finish", MAX_FINISH_BATCH)
                await self._finish_all([op.payload for op in group])
                self._drop_written(group)

    def _leading(self, kind: str, limit: int | None = None) -> list[_Op]:
        """The run of ``kind`` ops at the head of the queue (superseded ops skipped), at most ``limit``."""
        group: list[_Op] = []
        for op in self._queue:
            if op.kind == "superseded":
                continue
            if op.kind != kind or len(group) == limit:
                break
            group.append(op)
        return group

    def _drop_written(self, group: list[_Op]) -> None:
        """Take ``group`` (the head of the queue, with the superseded ops among it) off the queue as written."""
        written = {id(op) for op in group}
        while self._queue and (id(self._queue[0]) in written or self._queue[0].kind == "superseded"):
            _written(self._queue.popleft())

    def _create_soon(self, new: NewGame) -> asyncio.Future[None]:
        """The game's creation, written with every other game waiting when the creator next writes (group
        commit: a wave of games that start together costs a transaction or two, not one each)."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        done.add_done_callback(_retrieve)  # a caller that timed out must not leave "never retrieved" behind
        self._creating.append((new, done))
        if self._creator is None or self._creator.done():
            self._creator = loop.create_task(self._create_waiting())
        return done

    async def _create_waiting(self) -> None:
        while self._creating:
            waiting, self._creating = self._creating, []
            batch = []
            for new, done in waiting:
                try:
                    check_new_game(new)  # a refused game fails alone, before the others are written together
                except InvalidRecord as exc:
                    _settle(done, exc)
                else:
                    batch.append((new, done))
            if not batch:
                continue
            try:
                await self.store.create_games([new for new, _ in batch])
            except InvalidRecord:  # one of them is refused: each alone, so that only the bad one fails
                for new, done in batch:
                    try:
                        await self._create(new)
                    except Exception as exc:
                        _settle(done, exc)
                    else:
                        _settle(done, None)
            except BaseException as exc:  # the database is away (or this task is stopped): every caller is told
                for _, done in batch:
                    _settle(done, exc)
                if not isinstance(exc, Exception):
                    raise
            else:
                for _, done in batch:
                    _settle(done, None)

    async def _create(self, new: NewGame) -> None:
        await _create_game(self.store, new)

    async def _append_moves(self, ops: list[_Op]) -> None:
        batch = [(op.game_id, op.payload) for op in ops]
        try:
            self.written_moves += await self.store.append_moves(batch)
            self._note_stored(batch)
            return
        except InvalidRecord as exc:
            log.warning("a batch of moves was refused (%s); storing them one by one", exc)
        for op in ops:  # find the bad one(s): a bot's analysis the store refuses, most likely
            gid, move = op.game_id, op.payload
            error: InvalidRecord | None = None
            for candidate in (move, _without_analysis(move)):
                try:
                    self.written_moves += await self.store.append_moves([(gid, candidate)])
                    break
                except InvalidRecord as exc:
                    log.warning("game %s: move %r cannot be stored (%s)", gid, move.ply, exc)
                    error = exc
            else:
                await self._set_aside_op(op, error or "refused")

    def _note_stored(self, batch: list[tuple[str, MoveRecord]]) -> None:
        for gid, move in batch:
            if self._stored_plies.get(gid, 0) == move.ply:
                self._stored_plies[gid] = move.ply + 1

    async def _finish_all(self, ends: list[GameEnd]) -> None:
        """Games that ended together, in one transaction; if the store refuses any of them, each alone (so a bad
        one is found and the others are written all the same)."""
        if len(ends) > 1:
            finishes = [_finishing(end, end.moves, self._stored_plies.get(end.game_id, 0)) for end in ends]
            try:
                results = await self.store.finish_games(finishes)
            except InvalidRecord as exc:
                log.warning("%d game ends written together were refused (%s); writing them one by one", len(ends), exc)
            else:
                for end, result in zip(ends, results, strict=True):
                    self._stored_plies.pop(end.game_id, None)
                    await self._finished(end, result)
                return
        for end in ends:
            await self._finish(end)

    async def _finished(self, end: GameEnd, result: bool | None) -> None:
        if result is None:  # its creation was refused (set aside too), or never queued: keep the result all the same
            await self._set_aside_op(_Op("finish", end.game_id, end), "the game was never stored")
        else:
            self.written_results += 1

    async def _finish(self, end: GameEnd) -> None:
        kept = self._stored_plies.pop(end.game_id, 0)
        for moves in (end.moves, tuple(_without_analysis(m) for m in end.moves)):
            finish = _finishing(end, moves, kept)
            try:
                (result,) = await self.store.finish_games([finish])
            except InvalidRecord as exc:
                if not _has_analysis(moves):
                    await self._set_aside_op(_Op("finish", end.game_id, end), exc)
                    return
                log.warning("game %s: storing its moves without the bots' analysis (%s)", end.game_id, exc)
                kept = 0  # rewrite them all: a stored move may carry the analysis the store now refuses
                continue
            await self._finished(end, result)
            return

    async def _set_aside_op(self, op: _Op, error: BaseException | str) -> None:
        await self._set_aside(op.kind, op.game_id, str(error), _to_json(op))

    async def _set_aside(self, kind: str, game_id: str, error: str, entry: dict[str, Any]) -> None:
        """Keep a write the database refused in the dead-letter table, so the writes behind it go on.

        Raises StoreError when the database fails meanwhile: the write then stays queued (or journaled) and is
        found refused again on the next try. A dead letter the store refuses too (it should never: its entry is
        ASCII JSON) is logged whole and dropped, so that it cannot block the queue either."""
        text = json.dumps(_without_secrets(entry), separators=(",", ":"), default=repr)  # ASCII: all escaped
        log.error("game %s: a %s the database refuses is set aside as a dead letter (%s)", game_id, kind, error)
        try:
            await self.store.add_dead_letter(kind, game_id, error, text)
        except InvalidRecord as exc:
            log.error("game %s: the dead letter itself was refused (%s); the write was %.10000s", game_id, exc, text)
        self.dead_letters += 1


__all__ = [
    "FLUSH_INTERVAL",
    "GameEnd",
    "NewGame",
    "Recorder",
    "StoreUnavailable",
    "default_data_dir",
    "rated",
    "rating_key",
    "rating_keys",
    "status_for",
    "write_entry",
]
