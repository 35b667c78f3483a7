"""The immutable Hive face for the referee: ``HiveGame``, ``HiveState`` and ``HiveMove``.

Moves are UHP MoveStrings. Because the protocol's ``parse(text)`` has no position, a ``HiveMove`` holds the
(normalised) MoveString text and is resolved against the state inside ``play``. ``legal`` yields canonical
spellings; ``play`` accepts any valid spelling (``wQ wS1-`` and ``wQ \\bA1`` may name the same cell), and
``normalize(state, move)`` returns the canonical spelling, so two moves naming one destination through
different reference pieces compare equal after normalising.

``HiveState`` keeps a private snapshot of the mutable ``Board`` core; ``play`` copies it (a dict of at most
28 tuples), and ``legal``/``play`` generate moves on a private copy (see ``_legal``), so states can be kept
and shared freely (across threads too) and inputs are never mutated, not even transiently.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

from hexarena.core.battlebot import BattlebotShape
from hexarena.core.errors import IllegalMove, InvalidMove
from hexarena.core.game import Game, Param, ParamValue, Probe, RecordFacts, RuleGame, state_view
from hexarena.core.jsonvalue import JsonObject, JsonValue
from hexarena.core.types import Outcome, Seat, Termination
from hexarena.games.hive.board import (
    KIND_COUNT,
    KIND_LETTERS,
    NAME,
    PASS,
    PID_OF_NAME,
    Board,
    Move,
    cell_at,
    kinds_of,
    qr,
)
from hexarena.games.hive.notation import (
    EXPANSIONS,
    check_move_syntax,
    format_move,
    game_string,
    game_type,
    parse_game_string,
    resolve,
    state_string,
    turn_string,
)


class _Legal:
    """One position's legal moves in a fixed order (sorted ``(piece, cell)``), as a set, and spelled out."""

    __slots__ = ("moves", "spelled", "table")

    def __init__(self, moves: tuple[Move, ...]) -> None:
        self.moves = moves
        self.table = frozenset(moves)
        self.spelled: tuple[HiveMove, ...] | None = None


# Legal moves memoised by position key: the referee (and the conformance suite) often calls ``legal`` and then
# ``play`` on the same state, and ``play`` must check legality; a position's moves never change.
_LEGAL_CACHE: dict[tuple[int, str], _Legal] = {}


def _legal(b: Board) -> _Legal:
    """The legal moves of a state's board, generated on a private copy.

    Why a copy: move generation lifts pieces off ``stacks`` while it works and fills per-board caches, so run
    on a state's own snapshot it would (briefly) mutate a value other states and threads share, and it
    reorders the stacks dict, which made the raw generation order depend on which calls came before. The
    copy is ~28 dict entries, small next to generation itself; sorting makes the order a function of the
    position alone.
    """
    k = (b.key(), b.expansions)
    out = _LEGAL_CACHE.get(k)
    if out is None:
        if len(_LEGAL_CACHE) > 4096:
            _LEGAL_CACHE.clear()
        out = _LEGAL_CACHE[k] = _Legal(tuple(sorted(b.copy().moves())))
    return out


@dataclass(frozen=True, slots=True)
class HiveMove:
    """A UHP MoveString (``wS1``, ``bS1 wS1-``, ``wB1 bQ``, ``pass``), whitespace-normalised."""

    text: str

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True, eq=False)
class HiveState:
    """A position: game type, canonical move history and a private board snapshot (never mutated)."""

    expansions: str
    moves: tuple[str, ...]
    board: Board = field(repr=False)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HiveState):
            return NotImplemented
        return self.expansions == other.expansions and self.moves == other.moves

    def __hash__(self) -> int:
        return hash((self.expansions, self.moves))


_BUGS = (("M", "Mosquito"), ("L", "Ladybug"), ("P", "Pillbug"))
#: Each expansion set in words, for the lobby: "MLP" is "Mosquito, Ladybug and Pillbug".
EXPANSION_NAMES = {
    e: " and ".join(", ".join(n for c, n in _BUGS if c in e).rsplit(", ", 1)) if e else "None (the base game)"
    for e in EXPANSIONS
}


class HiveGame(RuleGame[HiveState, HiveMove]):
    """Hive with any of the Mosquito, Ladybug and Pillbug expansions (UHP conventions)."""

    setup_refused: ClassVar[str] = (
        "a Hive position needs its move history, not only where the pieces stand: the Pillbug may not throw the "
        "piece that just moved, and a stack's order under a Beetle is how it was climbed; open the position from a "
        "game, a record or its moves"
    )

    name: ClassVar[str] = "hive"
    title: ClassVar[str] = "Hive"
    seat_names: ClassVar[tuple[str, str]] = ("white", "black")
    default_clock: ClassVar[tuple[str, float, float]] = ("incremental", 600.0, 5.0)  # the lobby's preset for the game
    #: Hive has no repetition rule, so two bots can shuffle forever: matches are drawn after this many plies
    #: unless they set their own cap (``MatchConfig.max_plies``).
    max_plies: ClassVar[int | None] = 1000
    board_module: ClassVar[str | None] = "hexarena:web/js/boards/hive.js"  # the web UI's board
    params: ClassVar[tuple[Param, ...]] = (
        Param(
            "expansions",
            str,
            "MLP",
            "extra bugs each side gets besides the base game's: any of M (Mosquito), L (Ladybug), P (Pillbug)",
            choices=EXPANSIONS,
            label="Expansion bugs",
            choice_labels=EXPANSION_NAMES,
        ),
    )

    # ------------------------------------------------------------------ protocol
    def new(self, **params: object) -> HiveState:
        p = self.validate_params(params)
        return HiveState(p["expansions"], (), Board(p["expansions"]))

    def to_move(self, state: HiveState) -> Seat | None:
        if state.board.result() >= 0:
            return None
        return state.board.ply & 1

    def legal(self, state: HiveState) -> list[HiveMove]:
        """Canonical MoveStrings in a fixed order (by piece, then cell); the state is never touched."""
        b = state.board
        lg = _legal(b)
        if lg.spelled is None:
            lg.spelled = tuple(HiveMove(format_move(b, m)) for m in lg.moves)
        return list(lg.spelled)

    def play(self, state: HiveState, move: HiveMove) -> HiveState:
        b = state.board
        if b.result() >= 0:
            raise IllegalMove(f"move {move.text!r} after the game ended ({state_string(b)})")
        m = resolve(b, move.text)
        if m not in _legal(b).table:
            raise IllegalMove(self._why_illegal(b, m, move.text))
        text = format_move(b, m)
        nb = b.copy()
        nb.play(m)
        return HiveState(state.expansions, (*state.moves, text), nb)

    def outcome(self, state: HiveState) -> Outcome | None:
        r = state.board.result()
        if r < 0:
            return None
        if r == 2:
            return Outcome(None, Termination.NORMAL, "both queens surrounded")
        loser = "black" if r == 0 else "white"
        return Outcome(r, Termination.NORMAL, f"{loser} queen surrounded")

    def parse(self, text: str) -> HiveMove:
        return HiveMove(check_move_syntax(text))

    def format(self, move: HiveMove) -> str:
        return move.text

    def random_move(self, state: HiveState, rng: random.Random) -> HiveMove:
        b = state.board
        moves = _legal(b).moves
        if not moves:
            raise ValueError("no legal move: the game is over")
        return HiveMove(format_move(b, rng.choice(moves)))

    def params_of(self, state: HiveState) -> dict[str, ParamValue]:
        return {"expansions": state.expansions}

    def ply(self, state: HiveState) -> int:
        return state.board.ply

    def to_json(self, state: HiveState) -> JsonObject:
        """UI view: ``board`` is a list of ``{q, r, stack}`` (axial, pointy-topped, E = +q, SE = +r; stacks
        bottom first as UHP piece names), ``hands`` maps seat -> bug letter -> count, plus the UHP GameString."""
        b = state.board
        cells = []
        for cell, st in sorted(b.stacks.items()):
            q, r = qr(cell)
            cells.append({"q": q, "r": r, "stack": [NAME[p] for p in st]})
        hands = {
            seat: {KIND_LETTERS[k]: b.in_hand(c, k) for k in kinds_of(b.expansions) if b.in_hand(c, k)}
            for c, seat in enumerate(self.seat_names)
        }
        return state_view(
            self,
            state,
            game_type=game_type(b.expansions),
            state=state_string(b),
            turn=turn_string(b),
            board=cells,
            hands=hands,
            last_moved=NAME[b.stunned] if b.stunned >= 0 else None,
            game_string=self.game_string(state),
            surrounded=[list(cell) for cell in self.surrounded_queens(state)],
        )

    @staticmethod
    def surrounded_queens(state: HiveState) -> list[tuple[int, int]]:
        """Where the surrounded queens stand (axial q, r; white's first): what ended the game, for the board to
        mark. Empty while the game goes on."""
        b = state.board
        out = []
        for color in (0, 1):
            cell = b.pos[color << 4]
            if cell is not None and b.queen_neighbours(color) == 6:
                out.append(qr(cell))
        return out

    # ------------------------------------------------------------------ presentation and export
    def legal_view(self, state: HiveState) -> JsonObject:
        """``kind: hive``: ``moves = [{"move": "wS1 wQ-", "piece": "wS1", "from": [q, r] | None, "to": [q, r]}]``;
        a pass is ``{"move": "pass", "piece": None, "from": None, "to": None}``."""
        if self.to_move(state) is None:
            return {"kind": "none", "moves": []}
        board = state.board
        out: list[JsonObject] = []
        for hm in self.legal(state):
            pid, dest = self.resolve(state, hm)
            if pid < 0:
                out.append({"move": hm.text, "piece": None, "from": None, "to": None})
                continue
            src = board.pos[pid]
            out.append(
                {
                    "move": hm.text,
                    "piece": NAME[pid],
                    "from": None if src is None else list(qr(src)),
                    "to": list(qr(dest)),
                }
            )
        return {"kind": "hive", "moves": out}

    def battlebot_shape(self) -> BattlebotShape[HiveState, HiveMove]:
        from hexarena.games.hive.battlebot import shape

        return shape(self)

    def probes(self) -> Mapping[str, Probe]:
        return {"hive_why": self.why}

    def why(self, state: HiveState, piece: JsonValue, q: JsonValue, r: JsonValue) -> JsonObject:
        """A click outside the highlighted cells: the move it would be, or the rules' reason why not.

        Returns ``{"move": text}`` when moving ``piece`` to (q, r) is legal after all; raises IllegalMove with the
        engine's own explanation otherwise (``no piece may move before its side's queen is placed``...).
        """
        if not isinstance(piece, str) or piece not in PID_OF_NAME:
            raise InvalidMove(f"no Hive piece {piece!r}")
        if type(q) is not int or type(r) is not int:
            raise InvalidMove(f"a cell is two integers (q, r), got {[q, r]!r}")
        move = (PID_OF_NAME[piece], cell_at(q, r))
        try:
            text = format_move(state.board, move)
        except IllegalMove:
            raise IllegalMove(f"{piece} to ({q}, {r}): that cell does not touch the hive") from None
        self.play(state, HiveMove(text))  # IllegalMove with the reason
        return {"move": text}

    def record_notation(self, params: Mapping[str, ParamValue], moves: Sequence[str], facts: RecordFacts) -> str:
        """The UHP GameString of the replayed moves, which Mzinga and other Hive tools read."""
        state = self.new(**params)
        for m in moves:
            state = self.play(state, self.parse(m))
        return self.game_string(state)

    def read_record_notation(self, text: str) -> tuple[dict[str, ParamValue], list[str]]:
        """A UHP GameString's expansions and moves (a bare GameType is a new game), as Mzinga and others write it."""
        board, written = parse_game_string(text)
        return {"expansions": board.expansions}, written

    # ------------------------------------------------------------------ Hive extras
    def normalize(self, state: HiveState, move: HiveMove) -> HiveMove:
        """The canonical spelling (as ``legal`` yields it) of a MoveString on ``state``; IllegalMove if bad."""
        b = state.board
        return HiveMove(format_move(b, resolve(b, move.text)))

    def resolve(self, state: HiveState, move: HiveMove) -> Move:
        """The engine's ``(piece, cell)`` for a MoveString (no legality check)."""
        return resolve(state.board, move.text)

    def from_game_string(self, text: str) -> HiveState:
        """The state a UHP GameString (or bare GameType) describes; moves are checked for legality."""
        board, written = parse_game_string(text)
        return HiveState(board.expansions, tuple(written), board)

    def game_string(self, state: HiveState) -> str:
        """The UHP GameString of ``state`` (canonical MoveStrings)."""
        return game_string(state.board, list(state.moves))

    def valid_moves(self, state: HiveState) -> str:
        """UHP ``validmoves``: ``;``-separated MoveStrings (``pass`` when nothing else is legal)."""
        return ";".join(m.text for m in self.legal(state))

    def core(self, state: HiveState) -> Board:
        """A private mutable copy of the board for search (play/undo, hashing, perft)."""
        return state.board.copy()

    def move_of(self, board: Board, move: Move) -> HiveMove:
        """Write an engine move, legal on ``board``, as a canonical HiveMove."""
        return HiveMove(format_move(board, move))

    def _why_illegal(self, b: Board, m: Move, text: str) -> str:
        pid = m[0]
        if m == PASS:
            return f"{text!r}: passing is only legal when no other move is"
        name = NAME[pid]
        color = pid >> 4
        if color != b.ply & 1:
            who = "white" if b.ply & 1 == 0 else "black"
            return f"{text!r}: {name} is not {who}'s piece"
        if b.pos[pid] is None:
            kind = KIND_LETTERS.index(name[1])
            if kind not in b.kinds:
                return f"{text!r}: {name} is not in this game ({game_type(b.expansions)})"
            nxt = b.next_piece(color, kind)
            if KIND_COUNT[kind] > 1 and nxt != pid:
                return f"{text!r}: {name} is not the next {name[1]} to place"
            if b.ply >> 1 == 0 and kind == 0:
                return f"{text!r}: the queen may not be placed on the first turn"
            if b.ply >> 1 >= 3 and b.pos[color << 4] is None and kind != 0:
                return f"{text!r}: the queen must be placed by the fourth turn"
            return f"{text!r}: {name} may not be placed on that cell"
        if b.pos[color << 4] is None:
            return f"{text!r}: no piece may move before its side's queen is placed"
        if pid == b.stunned:
            return f"{text!r}: {name} was moved last turn and may not move now"
        return f"{text!r}: {name} cannot move to that cell"


GAME = HiveGame()

if TYPE_CHECKING:  # mypy checks the engine against the Game protocol here
    _CHECKED: Game[HiveState, HiveMove] = GAME
