"""Where a tournament's games run: in this process, in worker processes, or on a Ray cluster.

A game travels as a :class:`GameJob` (plain JSON-able data: the game, its params, the opening, the player specs
in seat order, the clock) and comes back as a plain dict (:func:`play_job`'s result), so any executor can ship
it to another process or machine. Wherever it runs, the same referee plays it and owns every timeout; the
runner only schedules jobs and collects results, which therefore feed the same store and statistics.

* :class:`LocalExecutor`: asyncio tasks in this process; games between built-in bots (CPU-bound Python) can go
  to worker processes (``processes > 0``) so they don't fight over one GIL.
* :class:`RayExecutor`: each game is a Ray task running the referee inside the worker (``--ray-address``).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import multiprocessing
import random
import time
from dataclasses import asdict, dataclass, field
from typing import Any, NotRequired, Protocol, TypedDict

from hexarena.core.contract import ClockConfig
from hexarena.core.game import ParamValue
from hexarena.core.jsonvalue import JsonObject
from hexarena.core.registry import get_game
from hexarena.core.types import Outcome, Seat, Termination
from hexarena.players.base import BasePlayer, close_players
from hexarena.players.policy import SpecPolicy, make_remote_player
from hexarena.players.spec import make_player
from hexarena.referee.clock import ClockJson
from hexarena.referee.match import MatchConfig, Referee
from hexarena.referee.result import PlayedMoveJson
from hexarena.tournament.openings import play_opening

log = logging.getLogger(__name__)


class JobResult(TypedDict):
    """What playing a :class:`GameJob` gives back (plain data: it crosses processes and Ray).

    An executor that failed (not a player) has no ``match_id``, ``plies`` or times to give: the runner makes its
    ``error`` result without them."""

    winner: Seat | None
    termination: str
    reason: str
    culprit: Seat | None
    moves: list[PlayedMoveJson]
    players: list[JsonObject]
    match_id: NotRequired[str]
    plies: NotRequired[int]
    started: NotRequired[float]
    finished: NotRequired[float]


@dataclass(slots=True)
class GameJob:
    """One game to play: everything as plain data, so it pickles and serializes anywhere."""

    match_id: str
    game: str
    specs: list[str]  # player specs in seat order
    names: list[str]  # display names in seat order
    params: dict[str, ParamValue] = field(default_factory=dict)
    opening: list[str] = field(default_factory=list)
    clock: ClockJson = field(default_factory=lambda: ClockJson())
    max_plies: int | None = None
    seed: int = 0
    start_timeout: float = 30.0
    time_margin: float = 0.0
    #: The specs came from a remote client: build them under the remote spec policy (defence in depth behind the
    #: API's own check), with the operator's ``engines`` for ``engine:NAME`` and the bot-host check if on.
    remote: bool = False
    engines: dict[str, str] = field(default_factory=dict)
    bot_hosts: list[str] | None = None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameJob:
        return cls(**data)


def _result(
    job: GameJob,
    outcome: Outcome,
    culprit: Seat | None,
    started: float,
    moves: list[PlayedMoveJson] | None = None,
    players: list[JsonObject] | None = None,
) -> JobResult:
    moves = moves if moves is not None else []
    if players is None:
        players = [{"name": n, "kind": "unknown", "spec": s} for n, s in zip(job.names, job.specs, strict=True)]
    return {
        "match_id": job.match_id,
        "winner": outcome.winner,
        "termination": str(outcome.termination),
        "reason": outcome.reason,
        "culprit": culprit,
        "plies": len(moves),
        "moves": moves,
        "players": players,
        "started": started,
        "finished": time.time(),
    }


async def play_job(job: GameJob) -> JobResult:
    """Play one game and return its result as a plain dict; never raises for anything a player does.

    A player that cannot even be built (bad spec, unreachable bot) makes the game ``aborted``: no winner, no
    culprit, and a reason naming who could not be created and why. The game never started, so it says nothing
    about either player (a bot that is down must not hand its opponents free wins). Players that keep a ``rng``
    get one seeded from the job, so built-in bots that play by chance replay the same game for the same seed.
    """
    started = time.time()
    game = get_game(job.game)
    state = play_opening(game, job.params, job.opening)
    players: list[BasePlayer] = []  # in seat order when no error leaves a seat without its player
    errors: list[tuple[int, BaseException]] = []
    for seat, spec in enumerate(job.specs):
        try:
            if job.remote:
                player = await make_remote_player(spec, game.name, SpecPolicy(job.engines, job.bot_hosts))
            else:
                player = await make_player(spec, game.name)
        except Exception as exc:
            errors.append((seat, exc))
            continue
        player.name = job.names[seat]
        if player.rng is not None:
            player.rng = random.Random(f"{job.seed}:{job.match_id}:{seat}")
        players.append(player)
    if errors:
        await close_players(players)
        text = "; ".join(f"{job.names[s]} could not be created: {e}" for s, e in errors)
        return _result(job, Outcome(None, Termination.ABORTED, text), None, started)
    clock = ClockConfig(**job.clock) if job.clock else ClockConfig()
    config = MatchConfig(
        game=game,
        params=job.params,
        initial_state=state,
        clock=clock,
        max_plies=job.max_plies,
        match_id=job.match_id,
        start_timeout=job.start_timeout,
        time_margin=job.time_margin,
        meta={"opening": list(job.opening)},
    )
    result = await Referee(config, players).run()
    moves = [m.to_json() for m in result.moves]
    return _result(job, result.outcome, result.culprit, started, moves=moves, players=result.players)


def play_job_sync(job_data: dict[str, Any]) -> JobResult:
    """Entry point for worker processes and Ray tasks: one game on a fresh event loop."""
    return asyncio.run(play_job(GameJob.from_json(job_data)))


class Executor(Protocol):
    """Runs games; the runner calls ``start`` once, ``run`` concurrently (up to its concurrency), then ``close``."""

    name: str

    async def start(self) -> None: ...

    async def run(self, job: GameJob) -> JobResult: ...

    async def close(self) -> None: ...


def _builtin_only(job: GameJob) -> bool:
    return all(spec.startswith("builtin:") for spec in job.specs)


class LocalExecutor:
    """Games as asyncio tasks here; with ``processes > 0``, games between built-in bots go to a process pool."""

    name = "local"

    def __init__(self, processes: int = 0) -> None:
        self.processes = processes
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None

    async def start(self) -> None:
        if self.processes > 0 and self._pool is None:
            context = multiprocessing.get_context("forkserver")
            self._pool = concurrent.futures.ProcessPoolExecutor(max_workers=self.processes, mp_context=context)

    async def run(self, job: GameJob) -> JobResult:
        if self._pool is not None and _builtin_only(job):
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self._pool, play_job_sync, job.to_json())
        return await play_job(job)

    async def close(self) -> None:
        if self._pool is not None:
            pool, self._pool = self._pool, None
            await asyncio.to_thread(pool.shutdown, True, cancel_futures=True)


class RayExecutor:
    """Each game a Ray task (``play_job_sync`` in a worker); results come back as plain dicts.

    ``address`` is a cluster to join (``ray://host:10001`` or ``auto``); None starts a local instance with
    ``init_kwargs`` (tests use ``num_cpus=2, include_dashboard=False, log_to_driver=False``). Worker processes
    must be able to import hexarena: the driver's ``PYTHONPATH`` is passed on in the runtime environment.
    """

    name = "ray"

    def __init__(self, address: str | None = None, **init_kwargs: Any) -> None:
        self.address = address
        self.init_kwargs = init_kwargs
        self._owns = False
        self._remote: Any = None

    async def start(self) -> None:
        import os

        try:
            import ray
        except ImportError as exc:  # pragma: no cover - depends on the environment
            from hexarena.core.errors import ConfigError

            raise ConfigError("the Ray executor needs ray: pip install ray==2.60.0") from exc
        if not ray.is_initialized():
            kwargs = dict(self.init_kwargs)
            path = os.environ.get("PYTHONPATH")
            if path and "runtime_env" not in kwargs:
                kwargs["runtime_env"] = {"env_vars": {"PYTHONPATH": path}}
            await asyncio.to_thread(ray.init, address=self.address, **kwargs)
            self._owns = True
        self._remote = ray.remote(num_cpus=1, max_retries=0)(play_job_sync)

    async def run(self, job: GameJob) -> JobResult:
        assert self._remote is not None, "start() the executor first"
        ref = self._remote.remote(job.to_json())
        result: JobResult = await ref  # ``play_job_sync``'s, back from a worker
        return result

    async def close(self) -> None:
        if self._owns:
            import ray

            await asyncio.to_thread(ray.shutdown)
            self._owns = False


def make_executor(ray_address: str | None = None, processes: int = 0, **ray_init: Any) -> Executor:
    """The executor the CLI and API ask for: Ray when an address is given, else local."""
    if ray_address:
        if ray_address == "local":  # a private instance on this machine, quiet
            ray_init.setdefault("include_dashboard", False)
            ray_init.setdefault("log_to_driver", False)
            return RayExecutor(None, **ray_init)
        return RayExecutor(ray_address, **ray_init)
    return LocalExecutor(processes=processes)


__all__ = ["Executor", "GameJob", "LocalExecutor", "RayExecutor", "make_executor", "play_job", "play_job_sync"]
