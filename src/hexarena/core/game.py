"""The Game protocol every rules engine implements.

A ``Game`` object is stateless; states are immutable values the referee may keep, share and replay. Moves are
game-specific values with a text notation (``parse`` / ``format``) used for storage, replays and several wires.
Engines also offer a fast mutable core for bots; this protocol is the safe, immutable face used by the referee.

Everything that differs from game to game is asked of the game, never decided elsewhere by its name (a test scans
for ``game.name == "..."`` outside ``hexarena/games/``): its JSON view (``to_json``, which starts with the same
``to_move`` seat and ``sides`` in every game, see ``state_view``), its text picture (``render``), the web UI's
clickable moves (``legal_view``, ``probes``), extra spectator fields (``spectator_extras``), its record of a whole game (``record_notation``) and
its battlebot wire shape (``battlebot_shape``). ``RuleGame`` has a generic default for each, so a new game
needs none of them to work everywhere. Each engine module checks its class against ``Game[State, Move]`` under
``TYPE_CHECKING``, so mypy compares every signature with this protocol.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, ClassVar, Generic, Protocol, TypeAlias, TypeVar, runtime_checkable

from hexarena.core.battlebot import BattlebotShape
from hexarena.core.errors import ConfigError, HexarenaError
from hexarena.core.jsonvalue import JsonObject, JsonValue
from hexarena.core.types import Outcome, Seat, Termination

S = TypeVar("S")
M = TypeVar("M")

#: A game with more legal moves than this gets a text box instead of a list in the web UI (``legal_view``).
MAX_LISTED = 2000

#: A partial move the web UI checks on its own (``Game.probes``): ``probe(state, *args)`` answers a JSON object
#: or raises IllegalMove / InvalidMove with the rules' reason.
Probe = Callable[..., JsonObject]


@dataclass(frozen=True, slots=True)
class RecordFacts:
    """What a game's record notation may say about a game besides its moves (``Game.record_notation``)."""

    players: Sequence[str]  # names, seat 0 first
    termination: str | None = None  # a ``Termination`` value once over
    winner: Seat | None = None
    finished: datetime | None = None
    started: datetime | None = None  # the ``Date`` header (``record_headers``); else the finish's date


#: A parameter's value: what a CLI flag, a form field or a JSON body can give (None where ``nullable``).
ParamValue = bool | int | float | str | None


@dataclass(frozen=True, slots=True)
class Param:
    """One game parameter, described so the CLI, the API and the lobby UI can offer and validate it."""

    name: str
    kind: type  # int, bool, str or float
    default: ParamValue
    help: str
    minimum: int | float | None = None
    maximum: int | float | None = None
    choices: Sequence[ParamValue] | None = None
    nullable: bool = False
    #: What a person reads in the lobby ("View distance"); empty: the name with spaces. ``help`` says in one line
    #: what the value changes in play, so the lobby shows both instead of the raw name.
    label: str = ""
    #: Words for some or all ``choices``, shown in their place (Hive's "MLP" is "Mosquito, Ladybug and Pillbug").
    choice_labels: Mapping[Any, str] | None = None

    def __post_init__(self) -> None:
        extra = set(self.choice_labels or ()) - set(self.choices or ())
        if extra:
            raise ValueError(f"parameter {self.name!r} names choices it does not offer: {sorted(map(str, extra))}")

    def coerce(self, value: object) -> ParamValue:
        """Validate ``value`` (possibly a string from a CLI or a form) and return it in the right type."""
        if value is None or (isinstance(value, str) and value.strip().lower() in ("", "none", "null")):
            if self.nullable:
                return None
            if value is None:
                raise ConfigError(f"parameter {self.name!r} may not be null")
        if self.kind is bool:
            if isinstance(value, bool):
                out: bool | int | float | str = value
            elif isinstance(value, str) and value.lower() in ("1", "true", "yes", "on"):
                out = True
            elif isinstance(value, str) and value.lower() in ("0", "false", "no", "off"):
                out = False
            else:
                raise ConfigError(f"parameter {self.name!r} must be true or false, got {value!r}")
        elif self.kind is int:
            if isinstance(value, bool) or not isinstance(value, int | str):
                raise ConfigError(f"parameter {self.name!r} must be an integer, got {value!r}")
            try:
                out = int(value)
            except ValueError:
                raise ConfigError(f"parameter {self.name!r} must be an integer, got {value!r}") from None
        elif self.kind is float:
            if isinstance(value, bool) or not isinstance(value, int | float | str):
                raise ConfigError(f"parameter {self.name!r} must be a number, got {value!r}")
            try:
                out = float(value)
            except ValueError:
                raise ConfigError(f"parameter {self.name!r} must be a number, got {value!r}") from None
            if not math.isfinite(out):  # NaN passes every range check, and JSON cannot carry it
                raise ConfigError(f"parameter {self.name!r} must be a finite number, got {value!r}")
        else:
            if not isinstance(value, str):
                raise ConfigError(f"parameter {self.name!r} must be a string, got {value!r}")
            out = value
        if self.choices is not None and out not in self.choices:
            raise ConfigError(f"parameter {self.name!r} must be one of {list(self.choices)}, got {out!r}")
        if not isinstance(out, int | float):  # a text or a choice: no range
            return out
        if self.minimum is not None and out < self.minimum:
            raise ConfigError(f"parameter {self.name!r} must be >= {self.minimum}, got {out!r}")
        if self.maximum is not None and out > self.maximum:
            raise ConfigError(f"parameter {self.name!r} must be <= {self.maximum}, got {out!r}")
        return out

    def describe(self) -> JsonObject:
        """JSON description for the API and the lobby UI."""
        return {
            "name": self.name,
            "type": self.kind.__name__,
            "default": self.default,
            "help": self.help,
            "minimum": self.minimum,
            "maximum": self.maximum,
            "choices": list(self.choices) if self.choices is not None else None,
            "nullable": self.nullable,
            "label": self.label or self.name.replace("_", " ").capitalize(),
            "choice_labels": (
                None
                if self.choices is None
                else [str((self.choice_labels or {}).get(c, "(none)" if c == "" else c)) for c in self.choices]
            ),
        }


#: The kinds of match clock (``ClockConfig.kind``): none, a limit per move, per side for the game, or Fischer.
CLOCK_KINDS = ("none", "turn", "match", "incremental")

#: A week: no preset needs more, and the bound keeps a typo from offering a clock nobody can play out.
MAX_PRESET_SECONDS = 7 * 24 * 3600.0


@dataclass(frozen=True, slots=True)
class ClockPreset:
    """A named time control the lobby offers as one button ("5+3": five minutes plus three seconds a move)."""

    label: str
    kind: str  # one of CLOCK_KINDS
    seconds: float = 0.0
    increment: float = 0.0

    def __post_init__(self) -> None:
        if self.kind not in CLOCK_KINDS:
            raise ValueError(f"clock preset {self.label!r}: kind must be one of {CLOCK_KINDS}, got {self.kind!r}")
        if self.kind != "none" and not 0 < self.seconds <= MAX_PRESET_SECONDS:
            raise ValueError(f"clock preset {self.label!r}: seconds must be in (0, {MAX_PRESET_SECONDS}]")
        if not 0 <= self.increment <= MAX_PRESET_SECONDS:
            raise ValueError(f"clock preset {self.label!r}: increment must be in [0, {MAX_PRESET_SECONDS}]")

    @property
    def clock(self) -> tuple[str, float, float]:
        """As ``default_clock`` writes a clock: ``(kind, seconds, increment)``, zeros where the kind has none."""
        seconds = 0.0 if self.kind == "none" else float(self.seconds)
        return (self.kind, seconds, float(self.increment) if self.kind == "incremental" else 0.0)

    def describe(self) -> JsonObject:
        out: JsonObject = {"label": self.label, "type": self.kind}
        if self.kind != "none":
            out["seconds"] = self.seconds
        if self.kind == "incremental":
            out["increment"] = self.increment
        return out


#: The time controls most games offer, as lichess shows them: minutes+increment, a limit per move, or none.
STANDARD_PRESETS: tuple[ClockPreset, ...] = (
    ClockPreset("1 min", "match", 60),
    ClockPreset("3+2", "incremental", 180, 2),
    ClockPreset("5+3", "incremental", 300, 3),
    ClockPreset("10+5", "incremental", 600, 5),
    ClockPreset("15+10", "incremental", 900, 10),
    ClockPreset("30 s a move", "turn", 30),
    ClockPreset("No clock", "none"),
)


def param_assignments(items: Iterable[str], option: str = "--param") -> dict[str, str]:
    """Command-line ``NAME=VALUE`` options as names and raw values (a value may be empty, as in ``expansions=``),
    for :meth:`Game.validate_params` to check; ConfigError names the malformed one and the form it takes."""
    given: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise ConfigError(f"{option} takes NAME=VALUE (e.g. turn_limit=60, or expansions= for none), got {item!r}")
        given[name.strip()] = value.strip()
    return given


def preset_label(clock: tuple[str, float, float]) -> str:
    """A name for a clock no preset names ("7+2", "45 s a move", "4 min")."""
    kind, seconds, increment = clock

    def num(x: float) -> str:
        return f"{x:g}"

    if kind == "none":
        return "No clock"
    if kind == "turn":
        return f"{num(seconds)} s a move"
    if kind == "match":
        return f"{num(seconds / 60)} min" if seconds % 60 == 0 else f"{num(seconds)} s"
    return f"{num(seconds / 60)}+{num(increment)}" if seconds % 60 == 0 else f"{num(seconds)} s+{num(increment)}"


def clock_menu(
    presets: Sequence[ClockPreset], default_clock: tuple[str, float, float]
) -> tuple[list[ClockPreset], str]:
    """A game's presets and the label of its default (the preset equal to its ``default_clock``; a default no
    preset names is added to the menu under a name of its own, so the default is always one of the buttons)."""
    presets = list(presets)
    wanted = ClockPreset("default", *default_clock).clock
    for p in presets:
        if p.clock == wanted:
            return presets, p.label
    extra = ClockPreset(preset_label(wanted), *wanted)
    return [extra, *presets], extra.label


#: A move number as records write them ("1.", "12...").
_MOVE_NUMBER = re.compile(r"\d+\.+")
#: One header line of a record as ``record_headers`` writes it (``[Event "casual"]``): a name and a quoted value
#: (``\"`` and ``\\`` escaped). ``read_headers`` and ``read_moves_text`` both read header lines by it.
_HEADER = re.compile(r'\[\s*([A-Za-z][A-Za-z0-9_]{0,39})\s+"((?:[^"\\]|\\.)*)"\s*\]')


def read_moves_text(text: str) -> list[str]:
    """Moves written one after another (the default ``record_notation``): separated by spaces (a comma after a
    move is dropped), move numbers ("1.") and header lines (``[Event "..."]``) skipped; each move is checked when
    it is played."""
    moves: list[str] = []
    for line in text.splitlines():
        if _HEADER.fullmatch(line.strip()):
            continue
        for word in line.split():
            token = _MOVE_NUMBER.sub("", word.rstrip(","), count=1) if _MOVE_NUMBER.match(word) else word.rstrip(",")
            if token:
                moves.append(token)
    return moves


#: Most header lines a record may start with, and the longest header value: a pasted record is read in bounded
#: work, and a plugin's many parameters still fit.
MAX_HEADERS = 100
MAX_HEADER_VALUE = 1000
#: A line that starts like a header (``[`` then a letter: no game's move does) and so must read as one.
_HEADER_START = re.compile(r"\s*\[\s*[A-Za-z]")


def _header_text(value: ParamValue) -> str:
    """A parameter's value as ``Param.coerce`` reads it back (``true``, ``none``, ``0.5``)."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _quoted(value: str) -> str:
    """A header value with its backslashes and quotes escaped, as PGN does (a player may be called ``a"b``)."""
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _result_of(facts: RecordFacts) -> str:
    """PGN's result: ``1-0``, ``0-1``, ``1/2-1/2`` for a draw, ``*`` while on or when the end is no result."""
    if facts.winner is not None:
        return "1-0" if facts.winner == 0 else "0-1"
    if facts.termination is not None and facts.termination in set(Termination):
        return "1/2-1/2" if Termination(facts.termination).is_result else "*"
    return "*"


def record_headers(game: Game[S, M], params: Mapping[str, ParamValue], facts: RecordFacts) -> str:
    """The header block of an exported record, PGN-shaped so people and tools read it the same way in every game:
    ``Game``, ``First`` and ``Second`` (the players, seat 0 first), one ``Param "NAME=VALUE"`` per game
    parameter (defaults too, so the record sets up the same game whatever the defaults become), ``Result``,
    ``Termination`` and ``Date``. ``headed_record`` puts it above the game's own record; ``read_headers``
    reads it back."""
    day = facts.started or facts.finished
    rows = [("Game", game.name), ("First", facts.players[0]), ("Second", facts.players[1])]
    rows += [("Param", f"{p.name}={_header_text(params.get(p.name, p.default))}") for p in game.params]
    rows += [
        ("Result", _result_of(facts)),
        ("Termination", facts.termination or "unterminated"),
        ("Date", day.strftime("%Y-%m-%d") if day is not None else "????-??-??"),
    ]
    return "\n".join(f'[{key} "{_quoted(value)}"]' for key, value in rows)


def headed_record(game: Game[S, M], params: Mapping[str, ParamValue], moves: Sequence[str], facts: RecordFacts) -> str:
    """A whole game as exported (a replay's Copy and Download, ``GET /games/{id}``): ``record_headers``, a blank
    line, then the game's own record (``record_notation``: HTTTX Notation v1, Hive's UHP GameString, else the
    moves), which other tools of the game read once the header block is cut off."""
    return f"{record_headers(game, params, facts)}\n\n{game.record_notation(params, moves, facts)}"


def read_headers(game: Game[S, M], text: str) -> tuple[dict[str, ParamValue], str]:
    """The parameters a record's header block states, checked, and the text after the block (the game's own
    record). A record without headers is all body. Blank lines may come between headers; the block ends at the
    first other line. ConfigError says which line is wrong and why: a header that does not read, a ``Game``
    header naming another game, a parameter the game lacks, stated twice or with a bad value, too many headers.
    Headers other than ``Game`` and ``Param`` (``Event``, ``Result``...) are read and not used."""
    lines = text.splitlines()
    known = {p.name: p for p in game.params}
    stated: dict[str, ParamValue] = {}
    count = 0
    i = 0
    for i, line in enumerate(lines):  # ``i``: where the body starts
        if not line.strip():
            continue
        if not _HEADER_START.match(line):
            break
        found = _HEADER.fullmatch(line.strip())
        if found is None:
            raise ConfigError(f'header line {i + 1} does not read: expected [Name "value"], got {line.strip()[:60]!r}')
        count += 1
        if count > MAX_HEADERS:
            raise ConfigError(f"the record has more than {MAX_HEADERS} header lines")
        key, value = found.group(1), re.sub(r"\\(.)", r"\1", found.group(2))
        if len(value) > MAX_HEADER_VALUE:
            raise ConfigError(f"header {key!r} is longer than {MAX_HEADER_VALUE} characters")
        if key == "Game" and value != game.name:
            raise ConfigError(f"the record is a game of {value[:60]!r}, not {game.name}: open it on that game's board")
        if key == "Param":
            name, eq, given = value.partition("=")
            name = name.strip()
            if not eq:
                raise ConfigError(f'header line {i + 1}: a Param header is [Param "NAME=VALUE"], got {value[:60]!r}')
            if name not in known:
                raise ConfigError(
                    f"header line {i + 1}: {game.name} has no parameter {name[:60]!r}; known: {sorted(known) or 'none'}"
                )
            if name in stated:
                raise ConfigError(f"header line {i + 1}: parameter {name!r} is stated twice")
            try:
                stated[name] = known[name].coerce(given.strip())
            except ConfigError as exc:
                raise ConfigError(f"header line {i + 1}: {exc.reason}") from None
    else:
        i = len(lines)
    return stated, "\n".join(lines[i:])


def agree_params(game: Game[S, M], headers: Mapping[str, ParamValue], body: Mapping[str, Any]) -> dict[str, Any]:
    """The parameters a record states in its headers and in its own body (Hive's GameString names its
    expansions) as one; ConfigError when the two say different things."""
    known = {p.name: p for p in game.params}
    for name, value in body.items():
        param = known.get(name)
        if name in headers and param is not None and param.coerce(value) != headers[name]:
            raise ConfigError(
                f"the headers say {name}={_header_text(headers[name])} but the record says {_header_text(value)}"
            )
    return {**body, **headers}


@runtime_checkable
class Game(Protocol[S, M]):
    """What the referee, the protocol adapters and the conformance suite need from a game."""

    name: ClassVar[str]  # registry key: "htttx", "hex", "hexdots", "hive", "tictactoe", "numberwang"
    title: ClassVar[str]  # human-readable name
    seat_names: ClassVar[tuple[str, str]]  # names of seat 0 and seat 1 in the initial position
    params: ClassVar[tuple[Param, ...]]
    #: The clock a match gets when none is asked for, ``(kind, seconds, increment)``: the lobby's default preset.
    default_clock: ClassVar[tuple[str, float, float]]
    #: The time controls the lobby offers for the game, as buttons (``clock_menu`` adds ``default_clock``).
    clock_presets: ClassVar[tuple[ClockPreset, ...]]
    #: The web UI's board for the game, as ``"package:path/to/board.js"`` (an ES module in the package's files,
    #: exporting ``make(params)``: see web/js/boards/index.js); None: the generic board (the position as a
    #: table, the legal moves as buttons or a text box).
    board_module: ClassVar[str | None]

    def new(self, **params: object) -> S:
        """The initial state; unknown or invalid params raise ConfigError."""
        ...

    def to_move(self, state: S) -> Seat | None:
        """The seat whose move it is, or None when the game is over."""
        ...

    def legal(self, state: S) -> Iterable[M]:
        """Every legal move (may be lazy for games with very many moves)."""
        ...

    def play(self, state: S, move: M) -> S:
        """The state after ``move``; raises IllegalMove(reason). Never mutates ``state``."""
        ...

    def outcome(self, state: S) -> Outcome | None:
        """The result when the game is over by its rules, else None."""
        ...

    def parse(self, text: str) -> M:
        """Read a move in the game's notation; raises InvalidMove."""
        ...

    def format(self, move: M) -> str:
        """Write a move in the game's notation; ``parse(format(m)) == m``."""
        ...

    def random_move(self, state: S, rng: random.Random) -> M:
        """A uniformly random legal move (fast path for playouts)."""
        ...

    def params_of(self, state: S) -> dict[str, ParamValue]:
        """The validated parameters the state was created with (stored with every game)."""
        ...

    def to_json(self, state: S) -> JsonObject:
        """A JSON view of the position for the UI and spectators."""
        ...

    def ply(self, state: S) -> int:
        """Moves played since the start (the referee's move counter)."""
        ...

    def side_name(self, state: S, seat: Seat) -> str:
        """What ``seat`` plays as in ``state``, for people ("white" for seat 0 after a Hex swap)."""
        ...

    def validate_params(self, given: Mapping[str, object]) -> dict[str, Any]:
        """``given`` with defaults filled and values coerced; ConfigError names an unknown or invalid one."""
        ...

    def describe(self) -> JsonObject:
        """JSON metadata (name, title, seats, parameters) for the API and the UI."""
        ...

    # ----- per-game presentation and export: ``RuleGame`` has a generic default for each -----

    def render(self, state: S) -> str:
        """A text picture of the position for a terminal (``hexarena play``)."""
        ...

    def legal_view(self, state: S) -> JsonObject:
        """The legal moves in a form the web UI's board can click on; every entry carries its notation."""
        ...

    def probes(self) -> Mapping[str, Probe]:
        """Partial moves the web UI may check before the move is whole (HTTTX's first stone), by name."""
        ...

    def spectator_extras(self, state: S, view: JsonObject | None) -> JsonObject:
        """Fields a spectator packet adds for this game's own clients (``view``: ``to_json(state)`` if known)."""
        ...

    def record_notation(self, params: Mapping[str, ParamValue], moves: Sequence[str], facts: RecordFacts) -> str:
        """The game's record of a whole game, as other tools of the game read it."""
        ...

    def battlebot_shape(self) -> BattlebotShape[S, M] | None:
        """The game's state keys and turn shapes on the battlebot wire; None if it is not offered there."""
        ...


#: A game whose state and move types are not known where it is held: a registry's entry, a game named by a request.
#: Python cannot say "a ``Game[S, M]`` for some S and M", so its states and moves are ``Any`` here; code that works
#: on one game's states takes a ``Game[S, M]`` (generic) instead, and one that only keeps a state to hand it back to
#: its game holds it as ``object``.
AnyGame: TypeAlias = "Game[Any, Any]"


#: Why a game cannot be set up when it does not say (``setup_refusal``).
NO_SETUP = "its positions are reached only by playing moves from the start"

#: Words for how many more stones seat 0 has than seat 1 (``check_setup_counts``).
_LEAD_WORDS = {-1: "one stone fewer than", 0: "as many stones as", 1: "one stone more than"}


def setup_refusal(game: Game[S, M]) -> str | None:
    """None when ``game`` can set up a position from stones, else why not (its ``setup_refused``).

    A game that can declares the optional method ``setup_position(params, stones, to_move, *, draft=False)``:
    ``stones`` are ``(cell, seat)`` pairs (the cell as the game reads one: tic-tac-toe and Hex a cell's notation,
    HTTTX ``[q, r]``), ``to_move`` the seat to play; it returns the state, or raises ConfigError naming what is
    wrong (a cell twice or off the board, stone counts no game reaches, a finished position). ``draft=True``
    skips the sanity rules (counts, side to move, finished) and gives a state that is only drawn (``to_json``),
    never played: the analysis board's editor shows each step of a setup. Optional (looked up, like
    ``position_bound``), so a game plugin without it still satisfies ``Game``; games whose positions need their
    move history set ``setup_refused`` to say why. Its inverse, ``setup_of(state) -> (stones, to_move)``, lets
    the editor start from the position shown (optional too)."""
    if callable(getattr(game, "setup_position", None)):
        return None
    return str(getattr(game, "setup_refused", NO_SETUP))


def setup_cell(game: Game[S, M], cell: object, index: int) -> tuple[int, int]:
    """A setup stone's cell on a grid game (tic-tac-toe, Hex): its notation (``b2``), read by the game as a
    one-stone move; ConfigError naming the stone otherwise."""
    if not isinstance(cell, str):
        raise ConfigError(f"stone {index + 1}: a cell is its name in {game.title} notation (like 'a1'), got {cell!r}")
    try:
        move = game.parse(cell)
    except HexarenaError as exc:
        raise ConfigError(f"stone {index + 1}: {exc.reason}") from None
    if not (isinstance(move, tuple) and len(move) == 2 and all(type(x) is int for x in move)):
        raise ConfigError(f"stone {index + 1}: {cell!r} is not a cell")
    return move[0], move[1]


def check_setup_counts(game: Game[S, M], counts: Sequence[int], to_move: Seat, lead: Mapping[Seat, int]) -> None:
    """ConfigError unless seat 0 has ``lead[to_move]`` stones more than seat 1, as every game reaching a position
    with ``to_move`` to play has (tic-tac-toe: X as many as O with X to move, one more with O to move)."""
    if counts[0] - counts[1] == lead[to_move]:
        return
    a, b = game.seat_names
    rule = "; ".join(f"{game.seat_names[s]} is to move when {a} has {_LEAD_WORDS[d]} {b}" for s, d in lead.items())
    raise ConfigError(
        f"{counts[0]} {a} and {counts[1]} {b} stones is not a position with {game.seat_names[to_move]} to move "
        f"({rule}): add or remove a stone, or change the side to move"
    )


def state_view(game: Game[S, M], state: S, /, **fields: Any) -> JsonObject:
    """The fields every game's ``to_json`` starts with, so every client reads whose turn it is the same way:
    ``to_move`` (the seat to move, None once over) and ``sides`` (what each seat plays now, seat 0 first)."""
    return {"to_move": game.to_move(state), "sides": [game.side_name(state, 0), game.side_name(state, 1)], **fields}


def cells_view(game: Game[S, M], state: S) -> JsonObject:
    """``legal_view`` for games on a grid of (row, col) cells: ``moves`` the cells, ``extra`` any other move
    (Hex's ``swap``)."""
    cells: list[JsonValue] = []
    extra: list[JsonValue] = []
    for m in game.legal(state):
        if isinstance(m, tuple):
            cells.append({"move": game.format(m), "row": m[0], "col": m[1]})
        else:
            extra.append(game.format(m))
    return {"kind": "cells", "moves": cells, "extra": extra}


class RuleGame(Generic[S, M]):
    """Convenience base: parameter validation and a default random_move. Games may override anything."""

    name: ClassVar[str]
    title: ClassVar[str]
    seat_names: ClassVar[tuple[str, str]]
    params: ClassVar[tuple[Param, ...]] = ()
    #: Other names the registry accepts for the game (e.g. the wire ids of other systems).
    aliases: ClassVar[tuple[str, ...]] = ()
    #: Plies after which the referee calls a draw unless a match sets its own cap: only for games whose rules
    #: allow endless play (Hive has no repetition rule); None means the rules always end the game.
    max_plies: ClassVar[int | None] = None
    #: The clock a match gets when none is asked for (``hexarena play``), as ``(kind, seconds, increment)``: the
    #: web lobby's preset for the game. A few minutes with an increment suits most games; a bot given no clock
    #: would otherwise think as long as its cap allows on every move.
    default_clock: ClassVar[tuple[str, float, float]] = ("incremental", 300.0, 3.0)
    clock_presets: ClassVar[tuple[ClockPreset, ...]] = STANDARD_PRESETS
    board_module: ClassVar[str | None] = None
    #: Why a position of the game cannot be set up from stones (``setup_refusal``), for games without
    #: ``setup_position``.
    setup_refused: ClassVar[str] = NO_SETUP

    def release(self, state: S) -> None:
        """The caller is done with ``state`` and every position of its game (a match that ended): let go of what
        they share with each other, so that reference counting frees them at once. Why: a served process runs the
        cyclic collector's full passes rarely (``core.gc_tuning``), and garbage only it can free piles up between
        two. The positions are not used afterwards. Optional (the server looks it up); most games share nothing."""
        return None

    def validate_params(self, given: Mapping[str, object]) -> dict[str, Any]:
        """Fill defaults, coerce types and reject unknown names with a message listing the known ones."""
        known = {p.name: p for p in self.params}
        unknown = sorted(set(given) - set(known))
        if unknown:
            raise ConfigError(f"unknown parameter(s) {unknown} for {self.name}; known: {sorted(known) or 'none'}")
        out: dict[str, ParamValue] = {}
        for p in self.params:
            out[p.name] = p.coerce(given[p.name]) if p.name in given else p.default
        return out

    def legal(self, state: S) -> Iterable[M]:
        raise NotImplementedError

    def random_move(self, state: S, rng: random.Random) -> M:
        moves = list(self.legal(state))
        if not moves:
            raise ValueError("no legal move in this position")
        return rng.choice(moves)

    def side_name(self, state: S, seat: Seat) -> str:
        """The seat's name: in most games a seat plays the same side all game. Games whose seats change sides
        (Hex's swap) override this, so pages and messages name the side a person really plays."""
        return self.seat_names[seat]

    def legal_view(self, state: S) -> JsonObject:
        """Any game: the list of legal moves' notations (``kind: list``), or ``kind: text`` (a text box) past
        ``MAX_LISTED`` moves; ``kind: none`` once over. Games with a board override it with clickable shapes."""
        if self.to_move(state) is None:
            return {"kind": "none", "moves": []}
        moves: list[JsonValue] = []
        for i, m in enumerate(self.legal(state)):
            if i >= MAX_LISTED:
                return {"kind": "text", "moves": []}
            moves.append({"move": self.format(m)})
        return {"kind": "list", "moves": moves}

    def render(self, state: S) -> str:
        """The JSON view as text: games with a board draw it instead."""
        return str(self.to_json(state))

    def probes(self) -> Mapping[str, Probe]:
        return {}

    def spectator_extras(self, state: S, view: JsonObject | None) -> JsonObject:
        return {}

    def record_notation(self, params: Mapping[str, ParamValue], moves: Sequence[str], facts: RecordFacts) -> str:
        """The moves in the game's own notation, separated by spaces."""
        return " ".join(moves)

    def read_record_notation(self, text: str) -> tuple[dict[str, ParamValue], list[str]]:
        """A record as ``record_notation`` writes it, read back (the analysis board's paste box): the parameters it
        states and its moves in the game's notation, unchecked (the caller plays them). Games whose record holds
        more than the moves override it; optional for a ``Game`` (the server falls back to ``read_moves_text``)."""
        return {}, read_moves_text(text)

    def battlebot_shape(self) -> BattlebotShape[S, M] | None:
        return None

    # The rest of the protocol, which every game defines; declared here so the defaults above are typed.
    def to_move(self, state: S) -> Seat | None:
        raise NotImplementedError

    def format(self, move: M) -> str:
        raise NotImplementedError

    def to_json(self, state: S) -> JsonObject:
        raise NotImplementedError

    def describe(self) -> JsonObject:
        """JSON metadata for the API and the UI: the lobby builds its form from it, so a game's parameters (in
        words) and clock presets reach the page with no game named in the page's code."""
        presets, default = clock_menu(self.clock_presets, self.default_clock)
        return {
            "name": self.name,
            "title": self.title,
            "seats": list(self.seat_names),
            "params": [p.describe() for p in self.params],
            "clock_presets": [p.describe() for p in presets],
            "default_preset": default,
        }
