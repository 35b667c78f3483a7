"""Matchmaking of authenticated battlebot connections, per game and per contest (the original's Matcher).

A new connection is paired with the first waiting connection of the same game and contest that belongs to a
different bot; outside contests the waiting one moves first. Contests follow ``BattlebotSettings.contest_rules``
(docs/protocols/battlebot.md):

- ``per-pair`` (the default: the server of the seed's date, mid-2017): a pair plays at most ``games_per_pair``
  games in a contest, whoever moved first, and the first mover of each game is drawn at random;
- ``each-way`` (the later server): each ordered pair plays at most ``games_each_way`` games; the waiting bot
  moves first unless it has used up its games as first mover, and a pair that has used up both orders never
  meets again there.

Connections left unpaired for ``idle_seconds`` are closed. ``claim`` hands a waiting connection to a match
created through the API (``battlebot:BOT_ID``) so a battlebot bot can meet a bot of any other protocol.
"""

from __future__ import annotations

import asyncio
import logging
import random
import weakref
from collections import Counter
from dataclasses import dataclass
from typing import Any

from hexarena.core.contract import ClockConfig
from hexarena.core.errors import ConfigError
from hexarena.players.base import BasePlayer
from hexarena.players.battlebot import MAX_TURN_CHARS, BattlebotConnection, BattlebotPlayer, DisconnectJudge
from hexarena.players.spec import Scheme
from hexarena.wire.battlebot import shape_for

log = logging.getLogger(__name__)


#: Contest rules of the server of the seed's date (mid-2017): games per pair, first mover at random.
PER_PAIR = "per-pair"
#: Contest rules of the later server: games per ordered pair, the waiting bot first.
EACH_WAY = "each-way"
CONTEST_RULES = (PER_PAIR, EACH_WAY)


@dataclass
class BattlebotSettings:
    """Every limit of the protocol; the defaults are the original server's (of the seed's date where it changed)."""

    turn_seconds: float = 3.0  # a valid turn must arrive within this
    login_seconds: float = 10.0  # the login message must arrive within this after the salt
    idle_seconds: float = 300.0  # an unpaired connection is closed after this
    contest_rules: str = PER_PAIR  # see the module docstring
    games_per_pair: int = 5  # per pair and contest (per-pair rules)
    games_each_way: int = 5  # per ordered pair and contest (each-way rules)
    seed: int | None = None  # of the per-pair rules' coin toss for the first mover; None: unpredictable
    strikes: int = 3  # invalid turns that lose a game
    grace: float = 0.5  # a disconnect loses after this; both within it: a draw
    max_pending_logins: int = 1000  # sockets between accept and login; more are refused at once
    max_frame_chars: int = MAX_TURN_CHARS  # larger frames are refused (an invalid turn, or a failed login)
    reserve_seconds: float = 10.0  # a connection claimed for an API match returns to the pool if unused

    def __post_init__(self) -> None:
        if self.contest_rules not in CONTEST_RULES:
            raise ConfigError(f"contest rules must be one of {', '.join(CONTEST_RULES)}; got {self.contest_rules!r}")


Key = tuple[str, str | None]  # (game, contest id)


class Lobby:
    """Waiting connections and the contests' pair counts of one server."""

    def __init__(self, manager: Any, store: Any, settings: BattlebotSettings | None = None) -> None:
        self.manager = manager
        self.store = store
        self.settings = settings or BattlebotSettings()
        self.waiting: dict[Key, list[BattlebotConnection]] = {}
        self.played: dict[Key, Counter[tuple[str, str]]] = {}
        self.pending_logins = 0
        self.rng = random.Random(self.settings.seed)
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._counts_lock = asyncio.Lock()
        self._tasks: set[asyncio.Task[Any]] = set()
        LOBBIES.add(self)

    # ----- pairing -----

    async def add(self, conn: BattlebotConnection) -> None:
        """Pair ``conn`` now, or keep it waiting (and drop it after ``idle_seconds``)."""
        key: Key = (conn.game, conn.contest)
        counts = await self._counts(key) if conn.contest is not None else None
        if conn.closed:
            return
        pool = self.waiting.setdefault(key, [])
        match = None
        for other in pool:
            if other.closed or other.bot_id == conn.bot_id:
                continue
            if counts is None or self._may_meet(counts, other.bot_id, conn.bot_id):
                match = other
                break
        if match is None:
            pool.append(conn)
            self._arm(conn)
            return
        pool.remove(match)
        self._disarm(match)
        first, second = match, conn
        if counts is not None:
            if self.settings.contest_rules == PER_PAIR:
                if self.rng.random() < 0.5:
                    first, second = conn, match
            elif counts[(match.bot_id, conn.bot_id)] >= self.settings.games_each_way:
                first, second = conn, match
            counts[(first.bot_id, second.bot_id)] += 1
        await self._start(first, second)

    def _may_meet(self, counts: Counter[tuple[str, str]], a: str, b: str) -> bool:
        """Whether bots ``a`` and ``b`` may play another game of a contest with these counts (per ordered pair)."""
        if self.settings.contest_rules == PER_PAIR:
            return counts[(a, b)] + counts[(b, a)] < self.settings.games_per_pair
        n = self.settings.games_each_way
        return counts[(a, b)] < n or counts[(b, a)] < n

    def remove(self, conn: BattlebotConnection) -> None:
        pool = self.waiting.get((conn.game, conn.contest))
        if pool is not None and conn in pool:
            pool.remove(conn)
        self._disarm(conn)

    def waiting_count(self) -> int:
        return sum(len(p) for p in self.waiting.values())

    def claim(self, bot_id: str, game: str) -> BattlebotConnection | None:
        """Take a waiting connection of ``bot_id`` for ``game`` (outside contests) for an API match."""
        pool = self.waiting.get((game, None), [])
        for conn in pool:
            if conn.bot_id == bot_id and not conn.closed:
                pool.remove(conn)
                self._disarm(conn)
                loop = asyncio.get_running_loop()
                loop.call_later(self.settings.reserve_seconds, self._unreserve, conn)
                return conn
        return None

    def _unreserve(self, conn: BattlebotConnection) -> None:
        player = conn.player
        if not conn.closed and (player is None or not player.started):
            conn.player = None
            self._spawn(self.add(conn))

    async def _counts(self, key: Key) -> Counter[tuple[str, str]]:
        async with self._counts_lock:
            if key not in self.played:
                counts: Counter[tuple[str, str]] = Counter()
                if self.store is not None and key[1] is not None:
                    from hexarena.store.contests import pair_counts

                    counts = await pair_counts(self.store, key[0], key[1])
                self.played[key] = counts
            return self.played[key]

    async def _start(self, first: BattlebotConnection, second: BattlebotConnection) -> None:
        shape = shape_for(first.game)
        judge = DisconnectJudge(self.settings.grace)
        turn_log: dict[int, dict[str, Any]] = {}
        players: list[BasePlayer] = [
            BattlebotPlayer(
                c,
                shape,
                judge=judge,
                turn_log=turn_log,
                strikes=self.settings.strikes,
                turn_seconds=self.settings.turn_seconds,
            )
            for c in (first, second)
        ]
        try:
            await self.manager.create(
                shape.game,
                players,
                clock=ClockConfig(kind="turn", seconds=self.settings.turn_seconds),
                meta={"protocol": "battlebot"},
                contest_id=first.contest,
            )
        except Exception:
            log.exception("could not start a %s match between %s and %s", first.game, first.bot_id, second.bot_id)
            for c in (first, second):
                await c.send({"state": {"complete": True, "victor": None, "reason": "error"}})
                await c.close(1011, "server error")

    # ----- idle connections -----

    def _arm(self, conn: BattlebotConnection) -> None:
        loop = asyncio.get_running_loop()
        self._timers[conn.id] = loop.call_later(self.settings.idle_seconds, self._idle, conn)

    def _disarm(self, conn: BattlebotConnection) -> None:
        timer = self._timers.pop(conn.id, None)
        if timer is not None:
            timer.cancel()

    def _idle(self, conn: BattlebotConnection) -> None:
        self._timers.pop(conn.id, None)
        pool = self.waiting.get((conn.game, conn.contest))
        if pool is not None and conn in pool:
            pool.remove(conn)
            self._spawn(conn.close(1000, f"no opponent within {self.settings.idle_seconds:g} s"))

    def _spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def close(self) -> None:
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()
        for pool in self.waiting.values():
            for conn in list(pool):
                await conn.close(1001, "server shutting down")
        self.waiting.clear()
        LOBBIES.discard(self)


LOBBIES: weakref.WeakSet[Lobby] = weakref.WeakSet()


async def _battlebot_scheme(game: str, bot_id: str) -> BasePlayer:
    """``battlebot:BOT_ID``: a connected, authenticated bot waiting in a lobby (outside contests)."""
    from hexarena.core.registry import get_game

    name = get_game(game).name
    if not bot_id:
        raise ConfigError("a battlebot player spec needs a bot id: battlebot:BOT_ID")
    if not LOBBIES:
        raise ConfigError(
            "battlebot:BOT_ID names a bot connected to a running hexarena server (`hexarena serve`), "
            "and no battlebot lobby runs in this process"
        )
    for lobby in list(LOBBIES):
        conn = lobby.claim(bot_id, name)
        if conn is not None:
            s = lobby.settings
            return BattlebotPlayer(conn, shape_for(name), strikes=s.strikes, turn_seconds=s.turn_seconds)
    raise ConfigError(
        f"battlebot bot {bot_id!r} is not connected and waiting for a {name} game; "
        "connect and authenticate it first (without a contest)"
    )


#: The ``battlebot:`` player scheme, a ``hexarena.players`` entry point (pyproject.toml): declared statically, it
#: refuses with a clear message where no server runs a lobby (e.g. ``hexarena play``).
SCHEME = Scheme(
    "battlebot",
    _battlebot_scheme,
    "battlebot:BOT_ID  a battlebot bot connected to this server",
    starts_program=False,
    remote=True,
    needs_server=True,
)
