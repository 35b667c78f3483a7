"""Request bodies of the HTTP API (pydantic: validated, documented in the OpenAPI schema), and the bounded types
every request model of the server shares.

Why shared types: a client's input is the one place where a server cannot trust sizes or values, and a limit
written once per route is a limit forgotten on the next route. Every string a client sends is bounded and free of
lone surrogates (which no UTF-8 database, log or JSON answer can hold), every number is finite and capped, every
list has a maximum length, so a request costs the server a bounded amount of work and storage. The limits:

- names (players, seats, tournaments): :data:`MAX_NAME` characters; player specs and URLs:
  :data:`MAX_SPEC`;
- clocks: at most :data:`MAX_CLOCK_SECONDS` (a day) a turn or a match, increments at most an hour;
- worker counts (tournament concurrency, processes): at most :data:`MAX_WORKERS` (4 per CPU core);
- a request body: at most :data:`MAX_BODY_BYTES` (413 beyond; see ``hexarena.server.errors``).
"""

from __future__ import annotations

import os
import re
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from hexarena.core.person import SECRET_PATTERN

#: The largest request body the server reads (413 beyond): far above any real request, far below harm.
MAX_BODY_BYTES = 1024 * 1024
#: Display names: players, seats, tournaments.
MAX_NAME = 100
#: Player specs and bot URLs.
MAX_SPEC = 2048
#: The longest clock a client may ask for, a turn's or a whole match's: a day.
MAX_CLOCK_SECONDS = 86_400.0
#: The largest increment per move: an hour.
MAX_INCREMENT_SECONDS = 3_600.0
#: The deepest a listing may page (``offset``): deeper pages cost the database a scan of every row before them.
MAX_OFFSET = 1_000_000
#: Parallel games or worker processes one request may ask for: 4 per CPU core.
MAX_WORKERS = 4 * (os.cpu_count() or 1)

_SURROGATE = re.compile("[\ud800-\udfff]")


def text_problem(value: str, limit: int) -> str | None:
    """What is wrong with a client's string (None: nothing), for the routes that parse a body by hand."""
    if len(value) > limit:
        return f"has {len(value)} characters; at most {limit} are allowed"
    return surrogate_problem(value)


def surrogate_problem(value: str) -> str | None:
    """Where ``value`` holds a lone surrogate, or None.

    Lone surrogates are refused because ``"\\ud800"`` is valid JSON but no valid Unicode: UTF-8 cannot encode it,
    so it would fail later, in the database, a log or the answer, as a 500 instead of the client's error."""
    found = _SURROGATE.search(value)
    if found is None:
        return None
    return f"contains a lone surrogate (U+{ord(found.group()):04X}) at {found.start()}: send valid Unicode"


def _valid_unicode(value: str) -> str:
    problem = surrogate_problem(value)
    if problem is not None:
        raise ValueError(problem)
    return value


#: Metadata for any client string: valid Unicode (pydantic's length checks refuse most lone surrogates
#: already, as ``string_unicode``; this catches the rest, e.g. in strings without constraints).
VALID_UNICODE = AfterValidator(_valid_unicode)
#: Metadata for any client number: NaN and Infinity are refused.
FINITE = Field(allow_inf_nan=False)
#: Metadata for any client count: ``true`` or ``1.5`` is refused rather than taken for 1.
STRICT = Field(strict=True)

Name = Annotated[str, Field(max_length=MAX_NAME, description="a display name"), VALID_UNICODE]
Spec = Annotated[
    str,
    Field(min_length=1, max_length=MAX_SPEC, description="a player spec: builtin:NAME, a bot URL, engine:NAME..."),
    VALID_UNICODE,
]
Url = Annotated[str, Field(max_length=MAX_SPEC, description="a bot's URL"), VALID_UNICODE]
GameName = Annotated[str, Field(min_length=1, max_length=64, description="a game: htttx, hex, hive..."), VALID_UNICODE]
SeatName = Annotated[
    str, Field(min_length=1, max_length=32, pattern=r"^[A-Za-z0-9_-]+$", description="a seat's name or number")
]
ClockSeconds = Annotated[
    float, FINITE, Field(gt=0, le=MAX_CLOCK_SECONDS, description="seconds a turn (turn clock) or a match")
]
IncrementSeconds = Annotated[
    float, FINITE, Field(ge=0, le=MAX_INCREMENT_SECONDS, description="seconds added after each move")
]
Workers = Annotated[int, STRICT, Field(ge=1, le=MAX_WORKERS, description="games at once (at most 4 per core)")]
#: Game parameters: the game's ``validate_params`` checks names, types and ranges (board sizes included).
GameParams = Annotated[dict[str, Any], Field(max_length=32)]
ClockKind = Literal["none", "turn", "match", "incremental"]
#: A person's identity: the secret their browser made and keeps (``hexarena.core.person``); only its hash is kept.
PersonSecret = Annotated[
    str,
    Field(
        min_length=43,
        max_length=43,  # bounded before the pattern runs, as every string a client sends is
        pattern=SECRET_PATTERN,
        description="this person's identity: 43 characters of A-Z a-z 0-9 - _ that their browser made once "
        "(32 random bytes, base64url) and keeps; the server keeps only a hash of it",
    ),
]


class SeatSpec(BaseModel):
    """A seat in Hivemaker's ``POST /game/new``: ``{"type":"bot","bot_url":...}`` or ``{"type":"human"}``.

    hexarena also accepts ``{"type":"builtin","name":"heuristic"}``, ``{"type":"stateless","bot_url":...}``
    and ``{"type":"spec","spec":"builtin:random"}`` (any player spec the server knows).
    """

    model_config = ConfigDict(extra="ignore")
    type: Literal["bot", "human", "builtin", "stateless", "bws", "spec"]
    bot_url: Url | None = None
    name: Name | None = None
    spec: Spec | None = None


class HtttxMatchConfig(BaseModel):
    model_config = ConfigDict(extra="ignore")
    heartbeat: int = Field(default=5000, ge=0, le=600_000, description="ms between heartbeats (0: none)")
    view_distance: int = Field(default=8, ge=1, le=64)
    win_distance: int = Field(default=6, ge=2, le=32)
    turn_limit: int | None = Field(default=None, ge=1, le=1_000_000)
    clock_type: ClockKind = "none"
    clock: ClockSeconds | None = None
    increment: IncrementSeconds | None = None
    depth: int | None = Field(default=None, ge=0, le=1000, description="sent to bots declaring config")


class NewGameRequest(BaseModel):
    """Hivemaker's ``POST /game/new`` body."""

    model_config = ConfigDict(extra="ignore")
    player_x: SeatSpec
    player_o: SeatSpec
    match_config: HtttxMatchConfig = Field(default_factory=HtttxMatchConfig)


class ClockSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    type: ClockKind = "none"
    seconds: ClockSeconds | None = None
    increment: IncrementSeconds | None = None


class NewMatchRequest(BaseModel):
    """``POST /api/matches``: any game, any two players."""

    model_config = ConfigDict(extra="forbid")
    game: GameName
    params: GameParams = Field(default_factory=dict)
    players: list[Spec] = Field(min_length=2, max_length=2, description="two player specs, seat 0 first")
    clock: ClockSpec = Field(default_factory=ClockSpec)
    heartbeat: int = Field(default=5000, ge=0, le=600_000)
    person: PersonSecret | None = Field(
        default=None, description="the creator's identity, for the seats they play here ('browser' seats)"
    )
    rated: bool | None = Field(
        default=None,
        description="true: rated, people included (each needs an identity), no takebacks; false: casual, nobody's "
        "rating moves; unset: games between bots are rated, games with a person are casual",
    )
