"""Hexagonal Tic Tac Toe Notation v1: reading and writing whole game records.

A record is a metadata block of ``key[value]`` pairs ended by ``;``, then one ``N. [q,r][q,r];`` per turn. The
first recorded turn is O's: X's origin stone is implicit and never written. Each ``!`` after a turn marks one
threat. Whitespace between tokens (even inside a number: ``[1 6,0]``) is insignificant, as the format says;
metadata values are kept verbatim. Turn numbers are optional when reading and always written.

Turns have exactly two cells, as the v1 grammar says; a record whose last turn won with its first stone still
lists the (ignored) second stone, just as it was played.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from hexarena.core.errors import ConfigError, HexarenaError, InvalidMove
from hexarena.core.game import RecordFacts
from hexarena.games.htttx.state import Move

if TYPE_CHECKING:
    from hexarena.games.htttx.state import HtttxState

#: Header keys in the order the format lists them; other keys follow in the order given.
HEADER_ORDER = (
    "name",
    "platform",
    "playercross",
    "playercircle",
    "timecontrol",
    "endreason",
    "winner",
    "utcdatetime",
    "version",
)
WINNERS = ("cross", "circle")

_KEY_RE = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
_NUM = r"(-?\d{1,9})"
_TURN_RE = re.compile(rf"(?:(\d{{1,9}})\.)?\[{_NUM},{_NUM}\]\[{_NUM},{_NUM}\](!*);(!*)")


@dataclass
class GameRecord:
    """One game: headers (``name``, ``winner``...), the turns after X's origin stone, and threat marks per turn."""

    headers: dict[str, str] = field(default_factory=dict)
    turns: list[Move] = field(default_factory=list)
    threats: list[int] = field(default_factory=list)


def read_record(text: str) -> GameRecord:
    """Parse a v1 record; InvalidMove with the position and an excerpt on anything malformed."""
    if not isinstance(text, str):
        raise InvalidMove(f"a game record must be text, got {type(text).__name__}")
    headers, pos = _read_headers(text)
    version = headers.get("version")
    if version is not None and version.strip() != "1":
        raise InvalidMove(f"unsupported notation version {version!r}; only version 1 is known")
    body = "".join(text[pos:].split())
    turns: list[Move] = []
    threats: list[int] = []
    i = 0
    while i < len(body):
        m = _TURN_RE.match(body, i)
        if m is None:
            raise InvalidMove(
                f"cannot read turn {len(turns) + 1} at {body[i : i + 30]!r}: expected e.g. '1. [1,-2][0,3];'"
            )
        number, q1, r1, q2, r2, marks, marks_after = m.groups()
        if number is not None and int(number) != len(turns) + 1:
            raise InvalidMove(f"turn {len(turns) + 1} is numbered {number!r}")
        turns.append(((int(q1), int(r1)), (int(q2), int(r2))))
        threats.append(len(marks) + len(marks_after))
        i = m.end()
    return GameRecord(headers, turns, threats)


def _read_headers(text: str) -> tuple[dict[str, str], int]:
    """The ``key[value]...;`` block if the record starts with one; returns the headers and where turns begin."""
    headers: dict[str, str] = {}
    n = len(text)
    pos = _skip_ws(text, 0)
    if pos < n and text[pos] == ";":
        return headers, pos + 1
    if pos >= n or not text[pos].isalpha():
        return headers, pos
    while True:
        pos = _skip_ws(text, pos)
        if pos >= n:
            raise InvalidMove("the metadata block is not ended by ';'")
        if text[pos] == ";":
            return headers, pos + 1
        m = _KEY_RE.match(text, pos)
        if m is None:
            raise InvalidMove(f"expected a metadata key at {text[pos : pos + 30]!r}")
        key = m.group()
        pos = _skip_ws(text, m.end())
        if pos >= n or text[pos] != "[":
            raise InvalidMove(f"metadata key {key!r} is not followed by '[value]'")
        end = text.find("]", pos + 1)
        if end < 0:
            raise InvalidMove(f"the value of metadata key {key!r} is not closed by ']'")
        if key in headers:
            raise InvalidMove(f"metadata key {key!r} appears twice")
        headers[key] = text[pos + 1 : end]
        pos = end + 1


def _skip_ws(text: str, pos: int) -> int:
    while pos < len(text) and text[pos].isspace():
        pos += 1
    return pos


def write_record(record: GameRecord) -> str:
    """The v1 text of ``record``: headers (``version[1]`` added if missing) on one line, then the turns."""
    headers = dict(record.headers)
    headers.setdefault("version", "1")
    parts = []
    for key in sorted(headers, key=lambda k: HEADER_ORDER.index(k) if k in HEADER_ORDER else len(HEADER_ORDER)):
        value = headers[key]
        if not _KEY_RE.fullmatch(key):
            raise InvalidMove(f"metadata key {key!r} must be letters (and digits) only")
        if "]" in value:
            raise InvalidMove(f"metadata value {value!r} of {key!r} may not contain ']'")
        parts.append(f"{key}[{value}]")
    threats = list(record.threats) + [0] * (len(record.turns) - len(record.threats))
    turns = []
    for n, ((q1, r1), (q2, r2)) in enumerate(record.turns, 1):
        turns.append(f"{n}. [{q1},{r1}][{q2},{r2}]{'!' * threats[n - 1]};")
    return "".join(parts) + ";\n" + " ".join(turns) + ("\n" if turns else "")


def headers_for(facts: RecordFacts) -> dict[str, str]:
    """The v1 headers of a game hexarena played: players, end reason, winner, time.

    Notation v1 knows win | time | resign | draw: a forfeit (disconnect, protocol violation, illegal move) is
    written as ``resign`` (the loser gave the game away; "win" would claim a line on the board).
    """
    winner = facts.winner
    reason = {
        "normal": "win" if winner is not None else "draw",
        "time": "time",
        "resign": "resign",
        "disconnect": "resign",
        "protocol": "resign",
        "illegal_move": "resign",
        "turn_limit": "draw",
    }.get(facts.termination or "", "win" if winner is not None else "draw")
    if winner is None and reason != "draw":
        reason = "draw"
    headers = {
        "name": "hexarena game",
        "platform": "hexarena",
        "playercross": facts.players[0],
        "playercircle": facts.players[1],
        "endreason": reason,
        "version": "1",
    }
    if winner is not None:
        headers["winner"] = "cross" if winner == 0 else "circle"
    if facts.finished is not None:
        headers["utcdatetime"] = facts.finished.strftime("%Y-%m-%d %H:%M:%S")
    return headers


def record_from_state(state: HtttxState, headers: dict[str, str] | None = None) -> GameRecord:
    """The record of a game that started from the standard position; ``endreason`` and ``winner`` are filled
    from the state when it ended on the board and the caller did not give them (time and resign are the
    referee's to write)."""
    if state.setup != ((0, 0, 0),):
        raise ConfigError("notation v1 can only record games that start with X's stone at (0, 0)")
    out = dict(headers or {})
    if state.winner is not None:
        out.setdefault("endreason", "win")
        out.setdefault("winner", WINNERS[state.winner])
    elif state.to_move_seat is None:
        out.setdefault("endreason", "draw")
    out.setdefault("version", "1")
    history = state.history
    return GameRecord(out, list(history), [0] * len(history))


def replay_record(record: GameRecord, **params: object) -> HtttxState:
    """Play the record's turns from the standard start through HtttxGame; errors name the turn."""
    from hexarena.games.htttx.game import HTTTX

    state = HTTTX.new(**params)
    for n, move in enumerate(record.turns, 1):
        try:
            state = HTTTX.play(state, move)
        except HexarenaError as exc:
            raise type(exc)(f"turn {n} {HTTTX.format(move)}: {exc.reason}") from None
    return state
