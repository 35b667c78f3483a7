"""Universal Hive Protocol notation: GameType, MoveString and GameString, read and written exactly.

A MoveString names a destination relative to a piece already on the board (``wS1-`` right of wS1, ``\\bQ``
upper left of bQ, ``wB1 bQ`` on top of bQ), so the same move has several spellings. Reading resolves a
MoveString against a ``Board`` into the engine's ``(piece, cell)`` pair; writing picks one canonical
reference (the first occupied neighbour in ``DIRS`` order, or the stack climbed onto) so that ``legal``
always yields the same text for the same move.
"""

from __future__ import annotations

import re

from hexarena.core.errors import IllegalMove, InvalidMove
from hexarena.games.hive.board import (
    DIRS,
    NAME,
    NE,
    NW,
    ORIGIN,
    PASS,
    PID_OF_NAME,
    SE,
    SW,
    Board,
    E,
    Move,
    W,
)

GAME_TYPES = ("Base", "Base+M", "Base+L", "Base+P", "Base+ML", "Base+MP", "Base+LP", "Base+MLP")
EXPANSIONS = ("", "M", "L", "P", "ML", "MP", "LP", "MLP")

_PIECE = r"[wb](?:Q|M|L|P|[SB][12]|[GA][123])"
_MOVE_RE = re.compile(rf"^(?P<piece>{_PIECE})(?:\s+(?P<pre>[-/\\])?(?P<ref>{_PIECE})(?P<post>[-/\\])?)?$")
# direction symbol placement -> offset from the reference piece
_PRE = {"-": W, "/": SW, "\\": NW}
_POST = {"-": E, "/": NE, "\\": SE}
_FORMAT = {W: ("-", ""), SW: ("/", ""), NW: ("\\", ""), E: ("", "-"), NE: ("", "/"), SE: ("", "\\")}


def parse_game_type(text: str) -> str:
    """``Base+MLP`` -> ``"MLP"``; raises InvalidMove quoting the text otherwise."""
    t = text.strip()
    if t == "Base":
        return ""
    if t.startswith("Base+"):
        ext = t[5:]
        if ext and all(c in "MLP" for c in ext) and len(set(ext)) == len(ext):
            return "".join(c for c in "MLP" if c in ext)
    raise InvalidMove(f"unknown game type {text!r}; expected one of {', '.join(GAME_TYPES)}")


def game_type(expansions: str) -> str:
    """``"MLP"`` -> ``Base+MLP``."""
    ext = "".join(c for c in "MLP" if c in expansions)
    return f"Base+{ext}" if ext else "Base"


def check_move_syntax(text: str) -> str:
    """Validate a MoveString's shape and return it with whitespace normalised; raises InvalidMove."""
    t = " ".join(text.split())
    if t.lower() == "pass":
        return "pass"
    m = _MOVE_RE.match(t)
    if m is None:
        raise InvalidMove(f"not a UHP MoveString: {text!r}")
    if m.group("pre") and m.group("post"):
        raise InvalidMove(f"MoveString {text!r} has a direction on both sides of the reference piece")
    return t


def resolve(board: Board, text: str) -> Move:
    """The ``(piece, cell)`` a syntactically valid MoveString names on ``board``; raises IllegalMove."""
    t = check_move_syntax(text)
    if t == "pass":
        return PASS
    m = _MOVE_RE.match(t)
    assert m is not None
    pid = PID_OF_NAME[m.group("piece")]
    ref = m.group("ref")
    if ref is None:
        if board.stacks:
            raise IllegalMove(f"MoveString {text!r} needs a reference piece once the hive has started")
        return pid, ORIGIN
    rpid = PID_OF_NAME[ref]
    rcell = board.pos[rpid]
    if rcell is None:
        raise IllegalMove(f"reference piece {ref!r} in {text!r} is not on the board")
    pre, post = m.group("pre"), m.group("post")
    if pre:
        return pid, rcell + _PRE[pre]
    if post:
        return pid, rcell + _POST[post]
    return pid, rcell


def format_move(board: Board, move: Move) -> str:
    """The canonical MoveString of ``move`` in the position ``board`` (before the move)."""
    pid, dest = move
    if pid < 0:
        return "pass"
    name = NAME[pid]
    stacks = board.stacks
    if not stacks:
        return name
    st = stacks.get(dest)
    if st is not None:
        return f"{name} {NAME[st[-1]]}"
    for d in DIRS:
        n = stacks.get(dest + d)
        if n is None:
            continue
        refs = [p for p in n if p != pid]
        if not refs:
            continue
        pre, post = _FORMAT[-d]
        return f"{name} {pre}{NAME[refs[-1]]}{post}"
    raise IllegalMove(f"{name} to a cell with no neighbour cannot be written as a MoveString")


def turn_string(board: Board) -> str:
    """``White[3]``: the side to move and the full-turn number."""
    return f"{'Black' if board.ply & 1 else 'White'}[{board.ply // 2 + 1}]"


def state_string(board: Board) -> str:
    """``NotStarted``, ``InProgress``, ``Draw``, ``WhiteWins`` or ``BlackWins``."""
    r = board.result()
    if r == 0:
        return "WhiteWins"
    if r == 1:
        return "BlackWins"
    if r == 2:
        return "Draw"
    return "NotStarted" if board.ply == 0 else "InProgress"


_TURN_RE = re.compile(r"^(White|Black)\[(\d+)\]$")
_STATES = ("NotStarted", "InProgress", "Draw", "WhiteWins", "BlackWins")


def parse_game_string(text: str, check_state: bool = True) -> tuple[Board, list[str]]:
    """Replay a GameString ``GameType;State;Turn;move;...``; returns the board and canonical MoveStrings.

    A bare GameType (``Base+MLP``) is accepted as a new game, as UHP's ``newgame`` does. Every move is
    checked for legality; the Turn (and unless ``check_state`` is false, the State) must agree with the
    replay, because a GameString that contradicts itself is more likely a bug than intent.
    """
    parts = [p.strip() for p in text.strip().split(";")]
    while len(parts) > 1 and not parts[-1]:
        parts.pop()  # tolerate a trailing ';' (OpenSpiel writes one on an empty game)
    board = Board(parse_game_type(parts[0]))
    if len(parts) == 1:
        return board, []
    if len(parts) < 3:
        raise InvalidMove(f"GameString {text!r} needs GameType;State;Turn[;moves]")
    state, turn = parts[1], parts[2]
    if state not in _STATES:
        raise InvalidMove(f"unknown game state {state!r} in GameString")
    if _TURN_RE.match(turn) is None:
        raise InvalidMove(f"bad turn {turn!r} in GameString (expected e.g. 'White[3]')")
    written: list[str] = []
    for i, mv in enumerate(parts[3:]):
        if board.result() >= 0:
            raise IllegalMove(f"move {i + 1} {mv!r} comes after the game ended")
        move = resolve(board, mv)
        legal = board.moves()
        if move not in legal:
            raise IllegalMove(f"move {i + 1} {mv!r} is not legal in this position")
        written.append(format_move(board, move))
        board.play(move)
    if turn_string(board) != turn:
        raise IllegalMove(f"GameString turn {turn!r} disagrees with its moves ({turn_string(board)})")
    if check_state and state_string(board) != state:
        raise IllegalMove(f"GameString state {state!r} disagrees with its moves ({state_string(board)})")
    return board, written


def game_string(board: Board, moves: list[str]) -> str:
    """Write ``GameType;State;Turn;moves...`` for a board and its canonical MoveStrings."""
    head = f"{game_type(board.expansions)};{state_string(board)};{turn_string(board)}"
    return ";".join([head, *moves])


def valid_moves_string(board: Board) -> str:
    """UHP ``validmoves`` answer: canonical MoveStrings joined by ``;``."""
    return ";".join(format_move(board, m) for m in board.moves())
