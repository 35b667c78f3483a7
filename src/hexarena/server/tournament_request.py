"""The body of ``POST /api/tournaments``: a ``TournamentConfig`` plus where to run it, every field bounded.

Why a model of its own: a tournament is the most work one request can ask of the server (games for hours, state
kept for good), so its size is checked before anything starts: at most :data:`MAX_PLAYERS` players and
:data:`MAX_GAMES` games in all (pairings x games per pairing x rounds), clocks of at most a day, concurrency and
processes of at most 4 per CPU core, an id safe in URLs and file names. The types are the server's shared ones
(``hexarena.server.schemas``); the runner's own checks (``TournamentConfig.validate``) follow. Part of the
server's HTTP face of tournaments (``hexarena.server.tournaments``), above the ``tournament`` layer it uses.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from hexarena.server.schemas import (
    FINITE,
    MAX_WORKERS,
    STRICT,
    VALID_UNICODE,
    ClockKind,
    ClockSeconds,
    GameName,
    GameParams,
    IncrementSeconds,
    Name,
    Spec,
    Workers,
)
from hexarena.tournament.pairings import MAX_TIEBREAK_PAIRS

#: Most players in one tournament.
MAX_PLAYERS = 64
#: Most games one tournament may schedule (pairings x games per pairing, every round): its state is rewritten
#: as it runs and kept for good, so a client cannot ask for a tournament that never ends.
MAX_GAMES = 10_000
#: Most plies of one opening, and openings in a fixed set.
MAX_OPENING_PLIES = 200
MAX_OPENINGS = MAX_GAMES
#: Tournament ids: game ids append ``.N`` to them, and they name files and URLs, so no '/' and no leading '.'.
ID_PATTERN = r"^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,47}$"

Move = Annotated[str, Field(min_length=1, max_length=64), VALID_UNICODE]
Opening = Annotated[list[Move], Field(max_length=MAX_OPENING_PLIES)]
Elo = Annotated[float, FINITE, Field(ge=-2000, le=2000)]
Probability = Annotated[float, FINITE, Field(gt=0, lt=1)]


class TournamentClock(BaseModel):
    """The clock of every game: ``kind`` none, turn, match or incremental, ``seconds`` at most a day."""

    model_config = ConfigDict(extra="forbid")
    kind: ClockKind = "none"
    seconds: ClockSeconds | None = None
    increment: IncrementSeconds | None = None


class SprtRequest(BaseModel):
    """SPRT settings (``hexarena.tournament.stats.SprtConfig``): H0 elo <= elo0 against H1 elo >= elo1."""

    model_config = ConfigDict(extra="forbid")
    elo0: Elo = 0.0
    elo1: Elo = 5.0
    alpha: Probability = 0.05
    beta: Probability = 0.05
    model: Literal["logistic", "normalized"] = "normalized"


class TournamentRequest(BaseModel):
    """``POST /api/tournaments`` (see the module docstring); :meth:`config_json` is the ``TournamentConfig``."""

    model_config = ConfigDict(extra="forbid")
    game: GameName
    players: list[Spec] = Field(min_length=2, max_length=MAX_PLAYERS)
    names: list[Name] = Field(default_factory=list, max_length=MAX_PLAYERS)
    format: Literal["roundrobin", "gauntlet", "swiss", "knockout"] = "roundrobin"
    games_per_pairing: Annotated[int, STRICT, Field(ge=2, le=MAX_GAMES, description="even: pairs, colours swapped")] = 2
    rounds: Annotated[int, STRICT, Field(ge=1, le=MAX_GAMES, description="round robin cycles, or Swiss rounds")] = 1
    seeds: Annotated[int, STRICT, Field(ge=1, le=MAX_PLAYERS, description="gauntlet: players meeting the rest")] = 1
    params: GameParams = Field(default_factory=dict)
    clock: TournamentClock = Field(default_factory=TournamentClock)
    opening_plies: Annotated[int, STRICT, Field(ge=0, le=MAX_OPENING_PLIES)] = 0
    openings: list[Opening] | None = Field(default=None, max_length=MAX_OPENINGS)
    opening_balance: Annotated[int, STRICT, Field(ge=0, le=1000)] = 0
    concurrency: Workers = 1
    seed: Annotated[int, STRICT, Field(ge=0, le=2**63 - 1)] = 0
    max_plies: Annotated[int, STRICT, Field(ge=1, le=100_000)] | None = None
    time_margin: Annotated[float, FINITE, Field(ge=0, le=60)] = 0.0
    sprt: SprtRequest | None = None
    name: Name = ""
    rated: bool = True
    id: (
        Annotated[
            str, Field(max_length=48, pattern=ID_PATTERN, description="1 to 48 of A-Z a-z 0-9 _ . -, not first '.'")
        ]
        | None
    ) = None
    processes: Annotated[int, STRICT, Field(ge=0, le=MAX_WORKERS, description="worker processes (0: none)")] = 0
    ray_address: Annotated[str, Field(max_length=256), VALID_UNICODE] | None = None

    @model_validator(mode="after")
    def _bounded_size(self) -> TournamentRequest:
        games = self.games()
        if games > MAX_GAMES:
            raise ValueError(
                f"this tournament would schedule up to {games} games; at most {MAX_GAMES} are allowed "
                "(fewer players, rounds or games per pairing)"
            )
        return self

    def games(self) -> int:
        """The most games the format may schedule (knockout: with every tie-break)."""
        n, per = len(self.players), self.games_per_pairing
        if self.format == "roundrobin":
            return self.rounds * n * (n - 1) // 2 * per
        if self.format == "gauntlet":
            return self.seeds * max(n - self.seeds, 0) * per
        if self.format == "swiss":
            return self.rounds * (n // 2) * per
        return (n - 1) * (per + 2 * MAX_TIEBREAK_PAIRS)

    def config_json(self) -> dict[str, Any]:
        """The ``TournamentConfig`` fields the client set (the runner fills and checks the rest)."""
        return self.model_dump(exclude_unset=True, exclude={"id", "processes", "ray_address"})


__all__ = ["MAX_GAMES", "MAX_PLAYERS", "TournamentClock", "TournamentRequest"]
