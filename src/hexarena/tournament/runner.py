"""The tournament runner: plans rounds, runs games through an executor, saves state after every game.

The whole tournament is a configuration (:class:`TournamentConfig`, stored as given) plus a state: the list of
scheduled games with their results, the byes and the knockout brackets. Every schedule decision is a pure
function of that state and the seed, so a tournament interrupted at any point (Ctrl-C, a crash, a reboot)
continues with ``Runner.resume``: finished games are kept, unfinished ones are played again, and later rounds are
paired exactly as they would have been.

Each finished game is also written to the store's games table (tagged with the tournament id) and updates the
persistent per-game Elo of both players (``hexarena.tournament.ratings``).

A game that ends without a result (aborted: a player could not be created or started; interrupted; error) is
over but not played: it scores nothing and feeds no statistic (``hexarena.tournament.standings``); the summary
counts and lists such games so the CLI can say which ones and why. :meth:`Runner.create` first checks what it
can (``hexarena.tournament.preflight``), so a spec that can never play is an error before any game.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any, NotRequired, TypedDict, Unpack, cast

from hexarena.core.errors import ConfigError
from hexarena.core.game import ParamValue
from hexarena.core.jsonvalue import JsonObject
from hexarena.core.registry import get_game
from hexarena.core.types import is_result
from hexarena.players.policy import SpecPolicy
from hexarena.referee.clock import ClockJson, clock_from
from hexarena.store.errors import StoreError
from hexarena.store.recorder import Recorder, default_data_dir
from hexarena.tournament import pairings
from hexarena.tournament.executors import Executor, GameJob, JobResult, LocalExecutor
from hexarena.tournament.openings import OpeningBook
from hexarena.tournament.preflight import check_players
from hexarena.tournament.standings import (
    AbortedGame,
    GameResult,
    Row,
    TournamentGame,
    game_score,
    not_played,
    standings,
)
from hexarena.tournament.stats import SprtConfig, SprtJson, SprtState, SprtStateJson, pair_index, sprt_status

if TYPE_CHECKING:
    from hexarena.store import Store

log = logging.getLogger(__name__)

#: Seconds between two saves of the tournament state. Every game is stored in the games table the moment it
#: ends, so a crash between saves loses nothing: :meth:`Runner.resume` takes those results back from there.
#: Saving the whole state after each of thousands of games would write O(games^2) bytes.
SAVE_INTERVAL = 1.0
#: Times a game is retried when the executor itself fails (a worker process or Ray node died).
EXECUTOR_RETRIES = 2
#: Terminations the referee charges to the loser (so its culprit is the seat that did not win).
CULPRIT_TERMINATIONS = ("time", "illegal_move", "protocol", "disconnect")


@dataclass(slots=True)
class TournamentConfig:
    """Everything that defines a tournament; stored as JSON so a resume needs nothing else."""

    game: str
    players: list[str]  # player specs (builtin:NAME, bot URLs...)
    names: list[str] = field(default_factory=list)  # display names; default: the specs
    format: str = "roundrobin"
    games_per_pairing: int = 2  # even: pairs of games with colours swapped
    rounds: int = 1  # round robin cycles, or Swiss rounds
    seeds: int = 1  # gauntlet: how many leading players meet the rest
    params: dict[str, ParamValue] = field(default_factory=dict)
    clock: ClockJson = field(default_factory=lambda: ClockJson())
    opening_plies: int = 0  # random openings of this many plies (0: the initial position)
    openings: list[list[str]] | None = None  # a fixed opening set (from a file), overrides opening_plies
    opening_balance: int = 0  # random playouts judging each random opening (0: no balance check)
    concurrency: int = 1
    seed: int = 0
    max_plies: int | None = None
    time_margin: float = 0.0  # overrun forgiven before a time forfeit (fastchess's timemargin)
    sprt: SprtJson | None = None  # two-player matches only
    name: str = ""
    rated: bool = True  # update the persistent leaderboard ratings
    #: The players came from a remote client (the API): every game builds them under the remote spec policy, so
    #: even a stored config that slipped past the API's check cannot start a program (only ``engine:NAME``).
    remote: bool = False

    def __post_init__(self) -> None:
        if not self.names:
            self.names = list(self.players)

    def validate(self) -> TournamentConfig:
        """Check and normalize; ConfigError says what is wrong. Returns self."""
        for what, value, kind in (
            ("game", self.game, str),
            ("players", self.players, list),
            ("names", self.names, list),
            ("params", self.params, dict),
            ("clock", self.clock, dict),
        ):
            if not isinstance(value, kind):
                raise ConfigError(f"{what!r} must be a {kind.__name__}, got {value!r}")
        if not all(isinstance(p, str) and p for p in [*self.players, *self.names]):
            raise ConfigError(f"players and names must be non-empty strings, got {self.players!r} / {self.names!r}")
        game = get_game(self.game)
        self.game = game.name
        self.params = game.validate_params(self.params)
        if len(self.players) < 2:
            raise ConfigError(f"a tournament needs at least 2 players, got {len(self.players)}")
        if len(self.names) != len(self.players):
            raise ConfigError(f"{len(self.names)} names for {len(self.players)} players")
        if len(set(self.names)) != len(self.names):
            dupes = sorted({n for n in self.names if self.names.count(n) > 1})
            raise ConfigError(f"player names must be unique; repeated: {', '.join(dupes)} (name them NAME=SPEC)")
        if self.format not in pairings.FORMATS:
            raise ConfigError(f"format must be one of {', '.join(pairings.FORMATS)}, got {self.format!r}")
        if self.games_per_pairing < 2 or self.games_per_pairing % 2:
            raise ConfigError(f"games per pairing must be a positive even number (pairs), got {self.games_per_pairing}")
        if self.rounds < 1:
            raise ConfigError(f"rounds must be at least 1, got {self.rounds}")
        if self.format == "gauntlet" and not 1 <= self.seeds < len(self.players):
            raise ConfigError(f"gauntlet seeds must be in 1..{len(self.players) - 1}, got {self.seeds}")
        if self.concurrency < 1:
            raise ConfigError(f"concurrency must be at least 1, got {self.concurrency}")
        if self.opening_plies < 0:
            raise ConfigError(f"opening plies must be >= 0, got {self.opening_plies}")
        if not 0 <= self.opening_balance <= 1000:
            raise ConfigError(f"opening balance playouts must be in 0..1000, got {self.opening_balance}")
        clock = clock_from(self.clock.get("kind"), self.clock.get("seconds"), self.clock.get("increment"))
        self.clock = {"kind": clock.kind, "seconds": clock.seconds, "increment": clock.increment}
        if self.sprt is not None:
            if len(self.players) != 2:
                raise ConfigError(f"SPRT needs exactly 2 players, got {len(self.players)}")
            try:
                self.sprt = SprtConfig(**self.sprt).to_json()
            except (TypeError, ValueError) as exc:
                raise ConfigError(f"bad SPRT settings {self.sprt!r}: {exc}") from None
        return self

    def to_json(self) -> JsonObject:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TournamentConfig:
        """Build from JSON (API bodies, stored configs); unknown keys are refused by name, not ignored."""
        known = set(cls.__dataclass_fields__)
        unknown = sorted(set(data) - known)
        if unknown:
            raise ConfigError(f"unknown tournament setting(s) {unknown}; known: {', '.join(sorted(known))}")
        missing = [k for k in ("game", "players") if k not in data]
        if missing:
            raise ConfigError(f"a tournament needs {' and '.join(repr(m) for m in missing)}")
        return cls(**data)


class TournamentState(TypedDict):
    """What a runner saves after every game (the store's JSON ``state`` column) and resumes from."""

    games: list[TournamentGame]
    byes: list[list[int]]  # [round, player]
    brackets: list[list[list[int | None]]]  # knockout: each round's [a, b] matches (b None: a bye)
    next_pair: int
    status: str  # pending, running, finished or stopped
    stop_reason: str | None
    sprt: SprtStateJson | None
    champion: NotRequired[int]  # knockout: the winner, once decided
    origin: NotRequired[str]  # ``api``: created by a remote client (older records; see ``TournamentConfig.remote``)


def new_state() -> TournamentState:
    return {
        "games": [],
        "byes": [],
        "brackets": [],
        "next_pair": 0,
        "status": "pending",
        "stop_reason": None,
        "sprt": None,
    }


ResultHook = Callable[["Runner", TournamentGame], Awaitable[None] | None]


class RunnerOptions(TypedDict, total=False):
    """What :meth:`Runner.create` and :meth:`Runner.resume` pass on to the runner besides its config and store."""

    executor: Executor | None
    on_result: ResultHook | None
    policy: SpecPolicy | None
    recorder: Recorder | None


class Runner:
    """Runs one tournament to its end (or its SPRT decision), saving its state to the store after every game.

    Use :meth:`create` for a new tournament or :meth:`resume` for a stored one, then ``await runner.run()``.
    ``store`` may be None (state kept in memory only, e.g. for quick CLI runs without a database).
    """

    def __init__(
        self,
        tournament_id: str,
        config: TournamentConfig,
        state: TournamentState | None = None,
        store: Store | None = None,
        executor: Executor | None = None,
        on_result: ResultHook | None = None,
        policy: SpecPolicy | None = None,
        recorder: Recorder | None = None,
    ) -> None:
        self.id = tournament_id
        #: Where finished games are written: the server's recorder, or (None) one of our own around ``store``.
        self.recorder = recorder
        self._own_recorder = False
        #: The server's engines and bot-host check, for the games of a remote tournament.
        self.policy = policy or SpecPolicy()
        self.config = config
        self.state = state if state else new_state()
        self.store = store
        self.executor: Executor = executor or LocalExecutor()
        self.on_result = on_result
        self.game = get_game(config.game)
        self.book = OpeningBook(
            self.game, config.params, config.seed, config.opening_plies, config.openings, config.opening_balance
        )
        self._lock = asyncio.Lock()
        self._last_save = 0.0
        self._tally()

    def _tally(self) -> None:
        """Counters kept up to date per result, so nothing is recomputed over all games after each one.

        ``finished`` counts the games that are over (progress); ``aborted`` those of them without a result.
        """
        self.finished = 0
        self.aborted = 0
        self._tri = [0, 0, 0]
        self._penta = [0, 0, 0, 0, 0]
        self._half_pairs: dict[int, float] = {}
        for g in self.games:
            if (result := g.get("result")) is not None:
                self._count(g, result)

    def _count(self, g: TournamentGame, result: GameResult) -> None:
        self.finished += 1
        if not is_result(result["termination"]):
            self.aborted += 1
            return
        if self.config.sprt is None or set(g["seats"]) != {0, 1}:
            return
        s = game_score(g, 0)
        assert s is not None
        self._tri[int(s * 2)] += 1
        first = self._half_pairs.pop(g["pair"], None)
        if first is None:
            self._half_pairs[g["pair"]] = s
        else:
            self._penta[pair_index(first, s)] += 1

    # ----- construction -----

    @classmethod
    async def create(
        cls,
        config: TournamentConfig,
        store: Store | None = None,
        tournament_id: str | None = None,
        **kwargs: Unpack[RunnerOptions],
    ) -> Runner:
        """A new tournament, once its config is valid and every player passed the checks before the first game
        (:func:`hexarena.tournament.preflight.check_players`); ConfigError says what to fix, and nothing is stored.
        """
        config.validate()
        if tournament_id is not None and not 0 < len(tournament_id) <= 48:
            raise ConfigError(f"a tournament id has 1 to 48 characters (game ids append to it), got {tournament_id!r}")
        policy = kwargs.get("policy")
        await check_players(config, engines=None if policy is None else policy.engines)
        if store is None:
            import uuid

            return cls(tournament_id or uuid.uuid4().hex, config, None, None, **kwargs)
        record = await store.create_tournament(
            name=config.name or f"{config.format} {config.game}",
            game=config.game,
            config=config.to_json(),
            tournament_id=tournament_id,
            state=new_state(),
        )
        return cls(record.tournament_id, config, new_state(), store, **kwargs)

    @classmethod
    async def resume(cls, store: Store, tournament_id: str, **kwargs: Unpack[RunnerOptions]) -> Runner:
        record = await store.get_tournament(tournament_id)
        if record is None:
            raise ConfigError(f"no tournament {tournament_id!r} in {store.url}")
        config = TournamentConfig.from_json(record.config)
        state = cast("TournamentState", record.state) if isinstance(record.state, dict) else None  # as saved
        if state is not None:
            await _recover(store, record.tournament_id, state)
        return cls(record.tournament_id, config, state, store, **kwargs)

    # ----- views -----

    @property
    def games(self) -> list[TournamentGame]:
        return self.state["games"]

    @property
    def done(self) -> bool:
        return self.state["status"] in ("finished", "stopped")

    def standings(self) -> list[Row]:
        bye_points = self.config.games_per_pairing / 2 if self.config.format == "swiss" else 0.0
        return standings(self.config.names, self.games, self.state["byes"], bye_points)

    def sprt(self) -> SprtState | None:
        if self.config.sprt is None:
            return None
        cfg = SprtConfig(**self.config.sprt)
        return sprt_status(self._penta if sum(self._penta) else self._tri, cfg)

    def aborted_games(self) -> list[AbortedGame]:
        """The games that are over without a result, with their players and why (for the CLI, API and report)."""
        names = self.config.names
        return [
            {
                "id": g["id"],
                "round": g["round"],
                "players": [names[i] for i in g["seats"]],
                "termination": result["termination"],
                "reason": result["reason"],
            }
            for g in not_played(self.games)
            if (result := g["result"]) is not None
        ]

    def summary(self) -> dict[str, Any]:
        """A JSON view for the API and the report.

        ``games_finished`` counts the games that are over, ``games_aborted`` those of them that ended without a
        result (listed in ``aborted_games``); only the others are in the standings, crosstable and SPRT.
        """
        from hexarena.tournament.standings import crosstable

        points, played = crosstable(len(self.config.players), self.games)
        sprt = self.sprt()
        finished = self.finished
        return {
            "id": self.id,
            "config": self.config.to_json(),
            "status": self.state["status"],
            "stop_reason": self.state["stop_reason"],
            "games_scheduled": len(self.games),
            "games_finished": finished,
            "games_aborted": self.aborted,
            "aborted_games": self.aborted_games(),
            "standings": [r.to_json() for r in self.standings()],
            "crosstable": {"points": points, "games": played},
            "sprt": None if sprt is None else sprt.to_json(),
        }

    # ----- planning -----

    def plan(self) -> bool:
        """Schedule the next round's games; False when the tournament has no more rounds."""
        n = len(self.config.players)
        fmt = self.config.format
        last_round = max((g["round"] for g in self.games), default=0)
        encounters: list[pairings.Encounter] = []
        per = self.config.games_per_pairing // 2
        if fmt in ("roundrobin", "gauntlet"):
            if self.games:
                return False
            if fmt == "roundrobin":
                for r, pairs in enumerate(pairings.round_robin(n, self.config.rounds), 1):
                    for a, b in pairs:
                        if b is not None:
                            encounters.append(pairings.Encounter(r, a, b, per))
            else:
                encounters = [pairings.Encounter(1, a, b, per) for a, b in pairings.gauntlet(n, self.config.seeds)]
        elif fmt == "swiss":
            if last_round >= self.config.rounds:
                return False
            rows = self.standings()
            ranking = [row.index for row in rows]
            points = {row.index: row.points for row in rows}
            played = [(g["seats"][0], g["seats"][1]) for g in self.games]
            byes = [p for _, p in self.state["byes"]]
            for a, b in pairings.swiss_pairs(ranking, played, byes, points):
                if b is None:
                    self.state["byes"].append([last_round + 1, a])
                else:
                    encounters.append(pairings.Encounter(last_round + 1, a, b, per))
        else:
            encounters = self._plan_knockout(per)
            if not encounters:
                return False
        for e in encounters:
            assert e.b is not None
            for _ in range(e.pairs):
                pair = self.state["next_pair"]
                self.state["next_pair"] += 1
                opening = self.book.opening(pair)
                for seats in ([e.a, e.b], [e.b, e.a]):
                    index = len(self.games)
                    self.games.append(
                        {
                            "id": f"{self.id}.{index}",
                            "index": index,
                            "round": e.round,
                            "pair": pair,
                            "seats": seats,
                            "opening": opening,
                            "tiebreak": e.tiebreak,
                            "result": None,
                        }
                    )
        return bool(encounters) or fmt == "swiss"

    def _plan_knockout(self, per: int) -> list[pairings.Encounter]:
        brackets: list[list[list[int | None]]] = self.state["brackets"]
        if not brackets:
            first = pairings.knockout_bracket(len(self.config.players))
            brackets.append([[a, b] for a, b in first])
            return [pairings.Encounter(1, a, b, per) for a, b in first if b is not None]
        r = len(brackets)
        matches = [(int(m[0]), None if m[1] is None else int(m[1])) for m in brackets[-1]]  # type: ignore[arg-type]
        diff: dict[tuple[int, int], float] = {}
        tiebreaks: dict[tuple[int, int], int] = {}
        for g in self.games:
            result = g.get("result")
            if g["round"] != r or result is None or not is_result(result["termination"]):
                continue
            for a, b in matches:
                if b is not None and set(g["seats"]) == {a, b}:
                    winner = result["winner"]
                    if winner is not None:
                        diff[(a, b)] = diff.get((a, b), 0.0) + (1.0 if g["seats"][winner] == a else -1.0)
                    tiebreaks[(a, b)] = max(tiebreaks.get((a, b), 0), g["tiebreak"])
        winners, tied = pairings.knockout_next(matches, diff, tiebreaks)
        if tied:
            return [pairings.Encounter(r, a, b, 1, tiebreaks.get((a, b), 0) + 1) for a, b in tied]
        if len(winners) == 1:
            self.state["champion"] = winners[0]
            return []
        nxt = pairings.next_round_matches(winners)
        brackets.append([[a, b] for a, b in nxt])
        encounters = [pairings.Encounter(r + 1, a, b, per) for a, b in nxt if b is not None]
        if not encounters:  # only byes left: move on immediately
            return self._plan_knockout(per)
        return encounters

    # ----- running -----

    @property
    def remote(self) -> bool:
        """Players named by a remote client: the config says so (or, for older records, the state's origin)."""
        return self.config.remote or self.state.get("origin") == "api"

    def job(self, g: TournamentGame) -> GameJob:
        c = self.config
        return GameJob(
            match_id=g["id"],
            game=c.game,
            specs=[c.players[i] for i in g["seats"]],
            names=[c.names[i] for i in g["seats"]],
            params=dict(c.params),
            opening=list(g["opening"]),
            clock=c.clock.copy(),
            max_plies=c.max_plies,
            time_margin=c.time_margin,
            seed=c.seed,
            remote=self.remote,
            engines=dict(self.policy.engines) if self.remote else {},
            bot_hosts=None if self.policy.bot_hosts is None else list(self.policy.bot_hosts),
        )

    async def run(self) -> dict[str, Any]:
        """Play until every round is done or the SPRT decides; returns :meth:`summary`."""
        if self.done:
            return self.summary()
        self.state["status"] = "running"
        await self._save(force=True)
        await self.executor.start()
        try:
            while not self.done:
                pending = [g for g in self.games if g.get("result") is None]
                if not pending:
                    if not self.plan():
                        self.state["status"] = "finished"
                        await self._save(force=True)
                        break
                    await self._save(force=True)
                    continue
                await self._run_games(pending)
        finally:
            await self.executor.close()
            await asyncio.shield(self._save(force=True))
            if self._own_recorder and self.recorder is not None:
                recorder, self.recorder, self._own_recorder = self.recorder, None, False
                await asyncio.shield(recorder.close())
        return self.summary()

    async def _run_games(self, pending: list[TournamentGame]) -> None:
        sem = asyncio.Semaphore(self.config.concurrency)

        async def one(g: TournamentGame) -> None:
            async with sem:
                if self.done:
                    return
                result: JobResult
                for attempt in range(EXECUTOR_RETRIES + 1):
                    try:
                        result = await self.executor.run(self.job(g))
                        break
                    except asyncio.CancelledError:
                        raise
                    except Exception as exc:  # the executor failed (a worker died), not a player: try again
                        log.warning("game %s: executor failed (attempt %d): %s", g["id"], attempt + 1, exc)
                        result = {
                            "winner": None,
                            "termination": "error",
                            "reason": f"executor error: {exc}",
                            "culprit": None,
                            "moves": [],
                            "players": [],
                        }
                await self._record(g, result)

        tasks = [asyncio.ensure_future(one(g)) for g in pending]
        try:
            for fut in asyncio.as_completed(tasks):
                await fut
                if self.done:
                    break
        finally:
            for t in tasks:
                if not t.done():
                    t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    async def _record(self, g: TournamentGame, result: JobResult) -> None:
        async with self._lock:
            ended: GameResult = {
                "winner": result["winner"],
                "termination": result["termination"],
                "reason": result["reason"][:300],
                "culprit": result.get("culprit"),
                "plies": len(result.get("moves", [])),
                "duration": round(float(result.get("finished", 0.0)) - float(result.get("started", 0.0)), 3),
            }
            g["result"] = ended
            self._count(g, ended)
            if self.store is not None:
                await self._store_game(self.store, g, result)
            sprt = self.sprt()
            stopped = False
            if sprt is not None:
                self.state["sprt"] = sprt.to_json()
                if sprt.decision is not None:
                    self.state["status"] = "stopped"
                    self.state["stop_reason"] = f"SPRT accepted {sprt.decision} (LLR {sprt.llr:.2f})"
                    stopped = True
            await self._save(force=stopped)
        if self.on_result is not None:
            out = self.on_result(self, g)
            if out is not None:
                await out

    async def _store_game(self, store: Store, g: TournamentGame, result: JobResult) -> None:
        from hexarena.tournament.ratings import record_game

        if self.recorder is None:
            self.recorder = Recorder(store, default_data_dir(store.url))
            self._own_recorder = True
        try:
            await record_game(self.recorder, self.config, g, result)
        except Exception:  # the tournament goes on; the state still holds the result
            log.exception("could not store game %s", g["id"])

    async def _save(self, force: bool = False) -> None:
        """Save the state: always when ``force``, else at most every :data:`SAVE_INTERVAL` seconds."""
        if self.store is None:
            return
        now = time.monotonic()
        if not force and now - self._last_save < SAVE_INTERVAL:
            return
        try:
            await self.store.update_tournament_state(self.id, self.state, status=self.state["status"])
        except StoreError as exc:
            # The database is away: the games themselves wait in the recorder's journal and a resume rebuilds the
            # state from the games table (``_recover``), so the tournament goes on; the next game saves again.
            log.warning("tournament %s: its state could not be saved (%s); retrying after the next game", self.id, exc)
            return
        self._last_save = now


async def _recover(store: Store, tournament_id: str, state: TournamentState) -> int:
    """Fill in results of games that were stored in the games table after the state's last save."""
    missing = {g["id"]: g for g in state.get("games", []) if g.get("result") is None}
    if not missing:
        return 0
    recovered = 0
    offset = 0
    while True:
        rows = await store.list_games(
            tournament_id=tournament_id, status=["finished", "aborted", "interrupted"], limit=1000, offset=offset
        )
        for row in rows:
            g = missing.get(row.game_id)
            if g is None or row.termination is None:
                continue
            culprit = None
            if row.termination in CULPRIT_TERMINATIONS and row.winner is not None:
                culprit = 1 - row.winner
            duration = 0.0
            if row.started_at is not None and row.finished_at is not None:
                duration = (row.finished_at - row.started_at).total_seconds()
            g["result"] = {
                "winner": row.winner,
                "termination": row.termination,
                "reason": row.reason[:300],
                "culprit": culprit,
                "plies": row.move_count,
                "duration": round(duration, 3),
            }
            recovered += 1
        if len(rows) < 1000:
            break
        offset += 1000
    return recovered


__all__ = ["ResultHook", "Runner", "TournamentConfig", "TournamentState", "new_state"]
