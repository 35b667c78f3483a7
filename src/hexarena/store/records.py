"""Plain, frozen records that the store takes and returns.

Callers never see ORM rows: a record is a value that can be logged, compared, sent over a wire or kept after the
store is closed, without lazy loads or sessions behind it. Timestamps are always timezone-aware UTC.

Nothing here holds a secret: a bot's ``pass_hash`` has no field in :class:`BotRecord` on purpose, so no listing
or ``repr`` can leak it; :meth:`hexarena.store.Store.bot_pass_hash` is the one way to read it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, fields, is_dataclass
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from hexarena.core.glicko2 import DEFAULT_RATING, DEFAULT_RD, DEFAULT_SIGMA, TAU

JSON = Any
"""A JSON value (dict, list, str, int, float, bool or None) as stored in a JSON column."""


class GameStatus(StrEnum):
    """Where a game is in its life. Stable strings, stored as such."""

    PENDING = "pending"  # created, not started yet (e.g. waiting for players)
    RUNNING = "running"  # moves are being played
    FINISHED = "finished"  # ended with a result (win, draw, forfeit...)
    ABORTED = "aborted"  # never really started (unreachable bot, setup failure): no result
    INTERRUPTED = "interrupted"  # the server stopped mid-game (shutdown, crash, internal error): moves kept, no result


UNFINISHED = (GameStatus.PENDING, GameStatus.RUNNING)
"""Statuses of games that may still change; finished, aborted and interrupted games are final."""

ENDED = (GameStatus.FINISHED, GameStatus.ABORTED, GameStatus.INTERRUPTED)
"""Final statuses."""


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    """One seat of a game.

    ``kind`` names how the player was reached (``builtin``, ``bws``, ``stateless``, ``human``, ``battlebot``,
    ``uais``, ``htp``, ``uhp``, ``hiveai``...); ``spec`` says where (a URL, a command, a bot id). A spec must
    never carry a secret: the store strips URL passwords and token-like query parameters before saving it.
    """

    name: str
    kind: str
    spec: str = ""


@dataclass(frozen=True, slots=True)
class MoveRecord:
    """One move as played: ``ply`` counts from 0, ``move`` is the game's own notation.

    ``think_time`` is the seconds the referee measured for the reply; ``evaluation`` and ``considerations``
    are whatever analysis the bot sent along (JSON, or None).
    """

    ply: int
    seat: int
    move: str
    timestamp: datetime
    think_time: float
    evaluation: JSON = None
    considerations: JSON = None


@dataclass(frozen=True, slots=True)
class GameFacts:
    """What a listed game and a full game record share: everything but the moves.

    Not used on its own; :class:`GameSummary` and :class:`GameRecord` extend it so each field and
    ``winner_name`` is written once. They stay siblings rather than one extending the other, so a
    ``GameRecord`` is never mistaken for a ``GameSummary`` by ``isinstance`` or ``==``.
    """

    game_id: str
    game: str
    params: dict[str, Any]
    players: tuple[PlayerRecord, ...]
    status: GameStatus
    winner: int | None
    termination: str | None
    reason: str
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    contest_id: str | None
    tournament_id: str | None

    @property
    def winner_name(self) -> str | None:
        """The display name at the winning seat, or None for a draw or an unfinished game."""
        if self.winner is None or not 0 <= self.winner < len(self.players):
            return None
        return self.players[self.winner].name


@dataclass(frozen=True, slots=True)
class GameSummary(GameFacts):
    """A game without its moves, as listed; ``move_count`` says how many moves are stored."""

    move_count: int


@dataclass(frozen=True, slots=True)
class GameRecord(GameFacts):
    """A game with every stored move, in ply order."""

    moves: tuple[MoveRecord, ...]


@dataclass(frozen=True, slots=True)
class BotRecord:
    """A registered bot. Deliberately has no ``pass_hash`` field (see the module docstring)."""

    bot_id: str
    game: str
    owner: str
    kind: str
    spec: JSON
    date_registered: datetime


@dataclass(frozen=True, slots=True)
class ContestRecord:
    """A named contest: games played in it are tagged with its id and ranked together."""

    contest_id: str
    game: str
    name: str
    created_at: datetime


@dataclass(frozen=True, slots=True)
class RatingRecord:
    """A rating of one player (a bot id or a display name: ``key``) in one game.

    ``rd`` and ``sigma`` are Glicko-2's deviation and volatility (:mod:`hexarena.core.glicko2`); a newcomer has
    the system's defaults.
    """

    key: str
    game: str
    rating: float = DEFAULT_RATING
    rd: float = DEFAULT_RD
    sigma: float = DEFAULT_SIGMA
    games: int = 0
    updated_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class RatedGame:
    """Asks :meth:`Store.finish_game` to move both players' Glicko-2 ratings with the result, in the same
    transaction (``tau``: the system constant, :data:`hexarena.core.glicko2.TAU`).

    ``keys`` are the rating keys of seat 0 and seat 1 (a bot's name, a person's key); ``names`` the display name
    of each seat a person plays (None for a bot), kept for the leaderboard. Whether a game is rated at all is
    decided by the recorder (:func:`hexarena.store.recorder.rated`), never here.
    """

    game: str
    keys: tuple[str, str]
    tau: float = TAU
    names: tuple[str | None, str | None] = (None, None)


@dataclass(frozen=True, slots=True)
class GameFinish:
    """One game's end for :meth:`Store.finish_games` (the arguments of :meth:`Store.finish_game`, as a value)."""

    game_id: str
    winner: int | None
    termination: str
    reason: str
    moves: Sequence[MoveRecord] | None = None
    status: GameStatus | str = GameStatus.FINISHED
    finished_at: datetime | None = None
    rate: RatedGame | None = None
    kept_plies: int = 0


@dataclass(frozen=True, slots=True)
class TournamentRecord:
    """A tournament: its configuration as given, and a state its scheduler saves as it goes."""

    tournament_id: str
    name: str
    game: str
    config: dict[str, Any]
    state: JSON
    status: str
    created_at: datetime
    updated_at: datetime


def as_json(value: Any) -> Any:
    """A JSON-ready copy of a record (or a list of them) for HTTP and WebSocket replies.

    Datetimes become ISO 8601 strings with ``+00:00``, enums their string values, tuples lists; properties
    such as ``winner_name`` are included because every client wants them.
    """
    if is_dataclass(value) and not isinstance(value, type):
        out = {f.name: as_json(getattr(value, f.name)) for f in fields(value)}
        if isinstance(value, GameFacts):
            out["winner_name"] = value.winner_name
        return out
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, StrEnum):
        return value.value
    if isinstance(value, dict):
        return {str(k): as_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [as_json(v) for v in value]
    return value


@dataclass(frozen=True, slots=True)
class NewGame:
    """A game as it starts: what :meth:`hexarena.store.Store.create_game` takes (``create_games``: many)."""

    game_id: str
    game: str
    params: dict[str, Any]
    players: tuple[PlayerRecord, ...]
    contest_id: str | None = None
    tournament_id: str | None = None
    created_at: datetime = field(default_factory=lambda: datetime.now(UTC))


@dataclass(frozen=True, slots=True)
class DeadLetter:
    """A write the database refused, set aside (see :mod:`hexarena.store.dead_letters`).

    ``kind`` is the recorder's operation (``create``, ``move``, ``takeback``, ``finish``) or ``journal`` for a
    journal line that no longer reads as one; ``entry`` is its JSON as the journal holds it."""

    letter_id: int
    kind: str
    game_id: str
    error: str
    entry: str
    created_at: datetime
