"""The ladder's scheduler: pairs the registered bots continuously, follows their games, pauses failing bots.

A ladder game is an ordinary match (``MatchManager.create``): recorded, rated on the server's Glicko-2
leaderboard, listed and watchable like any other. What the ladder adds is around it:

- each pass (every ``LadderSettings.tick`` s) it reads the active bots and their ratings from the store and asks
  :func:`~hexarena.server.ladder_pairing.pick_pairs` whom to start, within the operator's pace and bounds;
- each seat is made as an API client's would be (``make_answering_player`` under the server's spec policy: the
  bot must answer its capabilities, its address must pass the bot-host check), named by its ladder name, which is
  its rating key;
- when a game ends its ``ladder_games`` row is settled (:meth:`Store.finish_ladder_game`): a forfeit (time, an
  illegal move, a protocol error, a disconnect) is the loser's failure, and so is a game that could not start
  because of one bot (aborted, the referee's ``culprit``); a bot that does not even answer fails too. ``fail_limit`` failures in a row pause the bot with the reason, and ``check-bot`` is run on it (the
  checker ``hexarena serve`` passes in) so its owner reads what is wrong on the ladder page and in the API;
- on start, and every :data:`SETTLE_EVERY` passes, the games nobody follows (a restart, another instance's) are
  settled from their stored record once it is over: a restart resumes the ladder where it was.

Several instances (``--redis-url``): exactly one pairs, the one holding the cluster's ``ladder`` home (the
lease every instance renews, ``Cluster.want_home``; another takes over within a lease's life when it dies). A
``battlebot:`` bot sits in the battlebot lobby, which one instance holds: the ladder pairs it only there.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from hexarena.core.errors import ConfigError, HexarenaError
from hexarena.core.jsonvalue import JsonObject
from hexarena.core.registry import get_game
from hexarena.core.types import Termination, is_result
from hexarena.players.base import BasePlayer, close_players
from hexarena.players.policy import make_answering_player
from hexarena.referee.clock import clock_from
from hexarena.server.background import stop_if_cancelled, stop_tasks
from hexarena.server.ladder_pairing import Candidate, LadderSettings, Pacer, pick_pairs
from hexarena.store.errors import StoreError
from hexarena.store.ladder import ACTIVE, PAUSED, LadderBot

if TYPE_CHECKING:
    from hexarena.server.live import LiveMatch
    from hexarena.server.services import Services

log = logging.getLogger(__name__)

#: Terminations that are the loser's fault: they count toward its pause.
FORFEITS = frozenset({Termination.TIME, Termination.ILLEGAL_MOVE, Termination.PROTOCOL, Termination.DISCONNECT})
#: Passes between two looks for unsettled games nobody follows.
SETTLE_EVERY = 30
#: Seconds check-bot may take on a paused bot before its report says it ran out of time.
CHECK_TIMEOUT = 300.0
#: The cluster home whose holder pairs.
ROLE = "ladder"

#: What checks a paused bot: its spec and game in, the report its owner is shown out.
Checker = Callable[[str, str], Awaitable[JsonObject]]


def failed_seat(winner: int | None, termination: str | None, culprit: int | None = None) -> int | None:
    """The seat that forfeited a game ended this way, or the one that could not start it (``culprit`` of an
    aborted game: it answered its capabilities but not the game); None: a game played out, or nobody's fault."""
    if termination == Termination.ABORTED:
        return culprit
    if winner is None or termination not in FORFEITS:
        return None
    return 1 - winner


class Ladder:
    """The scheduler of one server (see the module docstring); ``clock`` is injectable for tests."""

    def __init__(
        self, services: Services, settings: LadderSettings, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.services = services
        self.settings = settings
        self.clock = clock
        self.pacer = Pacer(settings.games_per_hour, settings.concurrency, clock())
        #: game id -> (first, second) of the ladder games this instance follows
        self.running: dict[str, tuple[str, str]] = {}
        self._followers: set[asyncio.Task[None]] = set()
        self._checks: dict[str, asyncio.Task[None]] = {}
        #: what pairing remembers of each bot between passes (starts and seats)
        self._memory: dict[str, Candidate] = {}
        self._passes = 0
        #: games this instance started (several instances: only the one that pairs starts any)
        self.started = 0
        if services.cluster is not None:
            services.cluster.want_home(ROLE)

    # ----- the loop -----

    def leads(self) -> bool:
        """Whether this instance pairs: always alone; with several, while it holds the ladder home."""
        cluster = self.services.cluster
        return cluster is None or bool(cluster.homes.get(ROLE))

    async def run(self) -> None:
        while True:
            try:
                if self.leads():
                    await self.step()
            except StoreError:
                stop_if_cancelled()  # a stop the driver answered with an error of its own is a stop all the same
                log.warning("the ladder could not reach the database; trying again", exc_info=True)
            except Exception:
                stop_if_cancelled()
                log.exception("a ladder pass failed; trying again")
            stop_if_cancelled()  # ... and one it swallowed
            await asyncio.sleep(self.settings.tick)

    async def step(self) -> list[str]:
        """One pass: settle what needs it, then start what the pace allows; the ids of the games started."""
        store = self.services.store
        assert store is not None
        if self._passes % SETTLE_EVERY == 0:
            await self.settle_orphans()
        self._passes += 1
        bots = {b.name: b for b in await store.list_ladder_bots() if b.status == ACTIVE and self._here(b)}
        for gone in self._memory.keys() - bots.keys():  # removed, paused or seated elsewhere: starts afresh
            del self._memory[gone]
        now = self.clock()
        slots = min(self.pacer.available(now), self.settings.concurrency - len(self.running))
        if slots <= 0 or len(bots) < 2:
            return []
        candidates = await self._candidates(bots)
        started = []
        for first, second in pick_pairs(candidates, slots, now):
            self.pacer.take(now)
            game_id = await self.start(bots[first.name], bots[second.name])
            if game_id is not None:
                started.append(game_id)
        return started

    def remembered(self) -> set[str]:
        """The bots pairing keeps anything of between passes: only those it may still pair."""
        return set(self._memory)

    def _here(self, bot: LadderBot) -> bool:
        """A battlebot bot waits in the lobby of the instance holding it: only that one can seat it."""
        cluster = self.services.cluster
        return cluster is None or not bot.spec.startswith("battlebot:") or bool(cluster.homes.get("battlebot"))

    async def _candidates(self, bots: dict[str, LadderBot]) -> list[Candidate]:
        store = self.services.store
        assert store is not None
        ratings: dict[str, float] = {}
        for game in {b.game for b in bots.values()}:
            keys = [name for name, bot in bots.items() if bot.game == game]
            ratings.update({r.key: r.rating for r in await store.list_ratings(game, limit=len(keys), keys=keys)})
        running: dict[str, int] = {}
        for pair in self.running.values():
            for name in pair:
                running[name] = running.get(name, 0) + 1
        out = []
        for bot in bots.values():
            c = self._memory.setdefault(bot.name, Candidate(bot.name, bot.game))
            c.game, c.rating = bot.game, ratings.get(bot.name, 1500.0)
            c.max_concurrent, c.games_per_hour = bot.max_concurrent, bot.games_per_hour
            c.running = running.get(bot.name, 0)
            out.append(c)
        return out

    # ----- one game -----

    async def start(self, first: LadderBot, second: LadderBot) -> str | None:
        """Seat both bots and start their game; None when one of them failed to answer (counted against it)."""
        services = self.services
        store = services.store
        assert store is not None
        players: list[BasePlayer] = []
        for bot in (first, second):
            try:
                player = await make_answering_player(bot.spec, bot.game, services.policy)
            except HexarenaError as exc:
                await close_players(players)
                if bot.spec.startswith("battlebot:") and isinstance(exc, ConfigError):
                    return None  # not connected now: not on the ladder until it waits in the lobby again
                await self._failed_before(bot, str(exc))
                return None
            player.name = bot.name
            player.public_spec = bot.name
            players.append(player)
        game = get_game(first.game)
        clock = services.settings.match_clock(clock_from("turn", self.settings.move_seconds), players)
        try:
            live = await services.manager.create(
                game,
                players,
                params=game.validate_params(self.settings.params.get(game.name, {})),
                clock=clock,
                meta={"rated": True, "ladder": True},
            )
        except BaseException:
            await close_players(players)
            raise
        self.running[live.match_id] = (first.name, second.name)
        self.started += 1
        try:
            await store.start_ladder_game(live.match_id, game.name, first.name, second.name)
        except StoreError:
            self.running.pop(live.match_id, None)
            raise
        task = asyncio.create_task(self._follow(live), name=f"ladder-{live.match_id}")
        self._followers.add(task)
        task.add_done_callback(self._followers.discard)
        log.info("ladder: %s plays %s (%s)", first.name, second.name, live.match_id)
        return live.match_id

    async def _follow(self, live: LiveMatch) -> None:
        try:
            await live.done.wait()
            result = live.result
            assert result is not None
            outcome = result.outcome
            await self.settle(
                live.match_id, outcome.winner, str(outcome.termination), outcome.reason, culprit=result.culprit
            )
        finally:
            self.running.pop(live.match_id, None)

    async def settle(
        self, game_id: str, winner: int | None, termination: str, reason: str, *, culprit: int | None = None
    ) -> None:
        """Count a ladder game's end (once) and pause its failing bot when its streak is long enough."""
        store = self.services.store
        assert store is not None
        pair = self.running.get(game_id) or await self._pair_of(game_id)
        if pair is None:
            return
        seat = failed_seat(winner, termination, culprit)
        failed = None if seat is None else pair[seat]
        counted = await store.finish_ladder_game(
            game_id, winner=winner, termination=termination, reason=reason, failed=failed, result=is_result(termination)
        )
        if counted and failed is not None:
            bot = await store.get_ladder_bot(failed)
            if bot is not None:
                await self._maybe_pause(bot, f"{termination}: {reason}")

    async def _pair_of(self, game_id: str) -> tuple[str, str] | None:
        store = self.services.store
        assert store is not None
        found = await store.get_ladder_game(game_id)
        return None if found is None or found.finished_at is not None else (found.first, found.second)

    async def _failed_before(self, bot: LadderBot, why: str) -> None:
        store = self.services.store
        assert store is not None
        log.warning("ladder: %s did not answer: %s", bot.name, why)
        streak = await store.note_ladder_failure(bot.name)
        fresh = await store.get_ladder_bot(bot.name)
        if fresh is not None and streak:
            await self._maybe_pause(fresh, f"did not answer: {why}")

    async def _maybe_pause(self, bot: LadderBot, last: str) -> None:
        store = self.services.store
        assert store is not None
        if bot.status != ACTIVE or bot.failures_in_row < self.settings.fail_limit:
            return
        reason = (
            f"paused after {bot.failures_in_row} failed games in a row (crash, timeout, illegal move or protocol "
            f"error); the last: {last[:500]}. Fix the bot (see the check-bot report), then resume it."
        )
        await store.set_ladder_status(bot.name, PAUSED, reason=reason)
        log.warning("ladder: %s paused (owner %s): %s", bot.name, bot.owner, reason)
        if bot.name not in self._checks:
            task = asyncio.create_task(self._check(bot), name=f"ladder-check-{bot.name}")
            self._checks[bot.name] = task
            task.add_done_callback(functools.partial(self._checked, bot.name))

    def _checked(self, name: str, _task: asyncio.Task[None]) -> None:
        self._checks.pop(name, None)

    async def _check(self, bot: LadderBot) -> None:
        """Run check-bot on a paused bot and keep its report for the owner."""
        store = self.services.store
        assert store is not None
        checker = self.settings.checker
        if checker is None:
            report: JsonObject = {"ok": None, "note": "this server runs no check-bot; run `hexarena check-bot`"}
        else:
            try:
                report = await asyncio.wait_for(_as_checker(checker)(bot.spec, bot.game), CHECK_TIMEOUT)
            except TimeoutError:
                report = {"ok": False, "note": f"check-bot did not finish within {CHECK_TIMEOUT:g} s"}
            except HexarenaError as exc:
                report = {"ok": None, "note": f"check-bot could not check this bot: {exc}"}
        with contextlib.suppress(StoreError):
            await store.set_ladder_report(bot.name, report)

    async def settle_orphans(self) -> int:
        """Settle the ladder games nobody here follows whose stored record is over; how many were settled."""
        store = self.services.store
        assert store is not None
        settled = 0
        for g in await store.list_ladder_games(unfinished=True, limit=1000):
            if g.game_id in self.running or self.services.manager.get(g.game_id) is not None:
                continue
            record = await store.get_game(g.game_id)
            if record is None:
                winner, termination, reason = None, str(Termination.ABORTED), "the game was never stored"
            elif record.status in ("pending", "running"):
                continue  # played elsewhere, or continued by the failover: settled once it is over
            else:
                winner, termination, reason = record.winner, record.termination or "aborted", record.reason
            self.running.setdefault(g.game_id, (g.first, g.second))
            try:
                await self.settle(g.game_id, winner, termination, reason)
            finally:
                self.running.pop(g.game_id, None)
            settled += 1
        return settled

    async def close(self) -> None:
        """Stop following (the matches themselves end with the match manager) and stop running checks."""
        await stop_tasks([*self._followers, *self._checks.values()], "the ladder's followers and checks")


def _as_checker(checker: object) -> Checker:
    if not callable(checker):
        raise TypeError(f"the ladder's checker must be callable, not {checker!r}")
    return checker


__all__ = ["CHECK_TIMEOUT", "FORFEITS", "ROLE", "Ladder", "failed_seat"]
