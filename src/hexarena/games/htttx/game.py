"""HtttxGame: the immutable ``Game`` face of the HTTTX rules (what the referee and the adapters call).

Moves are ``((q1, r1), (q2, r2))``: the two stones of one turn, in order. Notation: ``[q1,r1][q2,r2]``.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from hexarena.core.battlebot import BattlebotShape
from hexarena.core.errors import ConfigError, IllegalMove, InvalidMove
from hexarena.core.game import Game, Param, ParamValue, Probe, RecordFacts, RuleGame, check_setup_counts, state_view
from hexarena.core.jsonvalue import JsonObject
from hexarena.core.types import Outcome, Seat, Termination
from hexarena.games.htttx.board import COORD_LIMIT, MAX_PLIES, SIDES, Board, Coord
from hexarena.games.htttx.state import HtttxState, Move, make_child, make_root
from hexarena.games.htttx.state import release as release_positions

_MOVE_RE = re.compile(r"\s*\[\s*(-?\d{1,9})\s*,\s*(-?\d{1,9})\s*\]\s*\[\s*(-?\d{1,9})\s*,\s*(-?\d{1,9})\s*\]\s*")


def _coord(value: object, what: str) -> Coord:
    """Accept (q, r) as a tuple or list of two ints (not bools); InvalidMove otherwise."""
    if isinstance(value, tuple | list) and len(value) == 2:
        q, r = value
        if type(q) is int and type(r) is int:
            return (q, r)
    raise InvalidMove(f"{what} must be a pair of integers (q, r), got {value!r}")


def setup_coord(cell: object, index: int) -> Coord:
    """A setup stone's cell: ``[q, r]``, two integers; ConfigError naming the stone otherwise."""
    try:
        return _coord(cell, "a cell")
    except InvalidMove:
        raise ConfigError(f"stone {index + 1}: a cell is [q, r] (two integers), got {cell!r}") from None


def coerce_move(move: object) -> Move:
    """Check the shape of a move value: two cells of two ints each."""
    if isinstance(move, tuple | list) and len(move) == 2:
        return (_coord(move[0], "the first piece"), _coord(move[1], "the second piece"))
    raise InvalidMove(f"a move is two pieces ((q1, r1), (q2, r2)), got {move!r}")


class HtttxGame(RuleGame[HtttxState, Move]):
    """Infinite hexagonal tic-tac-toe: X's stone starts at the origin, then O, X, ... place two stones a turn."""

    name: ClassVar[str] = "htttx"
    title: ClassVar[str] = "Hexagonal tic-tac-toe (HTTTX)"
    seat_names: ClassVar[tuple[str, str]] = ("x", "o")
    board_module: ClassVar[str | None] = "hexarena:web/js/boards/htttx.js"  # the web UI's board
    params: ClassVar[tuple[Param, ...]] = (
        Param(
            "view_distance",
            int,
            8,
            "a new stone must be within this many steps of a stone already played",
            1,
            64,
            label="Placement reach",
        ),
        Param("win_distance", int, 6, "stones in a row needed to win", 2, 32, label="Stones in a row to win"),
        Param(
            "turn_limit",
            int,
            None,
            "the game is a draw after this many 2-stone turns (empty: no limit)",
            1,
            None,
            None,
            True,
            label="Turn limit",
        ),
    )
    #: The referee's cap (a draw when reached) for matches without their own: the board is infinite, so without a
    #: ``turn_limit`` nothing else ends a game nobody wins, and every bot-API request carries the whole board.
    #: 5,000 turns is far beyond any game between bots that try to win (they end within a few hundred turns;
    #: only near-random play goes on: random-vs-random games last ~8,000 turns at the defaults), and it bounds
    #: a game's board to 10,001 stones, which sizes the bot API's packet limit
    #: (``hexarena.wire.htttx.MAX_SERVER_PACKET_BYTES``, which is why the figure lives beside the board).
    max_plies: ClassVar[int] = MAX_PLIES

    # ----- construction -----

    def release(self, state: HtttxState) -> None:
        """Its positions share one board through a cursor that refers back to them: break that cycle."""
        release_positions(state)

    def new(self, **params: object) -> HtttxState:
        """The start: X's stone on (0, 0), O to move."""
        p = self.validate_params(params)
        board = Board(p["view_distance"], p["win_distance"])
        board.place(0, 0, 0)
        return make_root(board, 1, p["view_distance"], p["win_distance"], p["turn_limit"])

    def from_cells(
        self, cells: Iterable[tuple[int, int, int]], to_move: int, *, turns: int = 0, **params: object
    ) -> HtttxState:
        """A free-setup position: the given (q, r, seat) stones (any distances apart) and ``to_move`` to play.

        ``turns`` is how many turns the position already counts against ``turn_limit`` (e.g. a stateless board
        received mid-game); ``history`` only lists turns played after it. Raises ConfigError on a malformed or
        duplicate stone, an empty setup, or a setup that is already won.
        """
        p = self.validate_params(params)
        if to_move not in (0, 1) or isinstance(to_move, bool):
            raise ConfigError(f"to_move must be 0 (x) or 1 (o), got {to_move!r}")
        if type(turns) is not int or turns < 0:
            raise ConfigError(f"turns must be a non-negative integer, got {turns!r}")
        board = Board(p["view_distance"], p["win_distance"])
        for stone in cells:
            if not (isinstance(stone, tuple | list) and len(stone) == 3 and all(type(v) is int for v in stone)):
                raise ConfigError(f"a setup stone is (q, r, seat) with integers, got {stone!r}")
            q, r, seat = stone
            if seat not in (0, 1):
                raise ConfigError(f"stone {stone!r}: seat must be 0 (x) or 1 (o)")
            if not (-COORD_LIMIT < q < COORD_LIMIT and -COORD_LIMIT < r < COORD_LIMIT):
                raise ConfigError(f"stone {stone!r} is too far from the origin")
            if (q, r) in board.cells:
                raise ConfigError(f"cell ({q}, {r}) appears twice in the setup")
            if board.setup(q, r, seat):
                raise ConfigError(
                    f"the setup already has {p['win_distance']} in a row for {SIDES[seat]} through ({q}, {r})"
                )
        if not board.stones:
            raise ConfigError("a setup needs at least one stone")
        return make_root(board, to_move, p["view_distance"], p["win_distance"], p["turn_limit"], turns)

    def setup_position(
        self, params: Mapping[str, object], stones: Sequence[tuple[object, Seat]], to_move: Seat, *, draft: bool = False
    ) -> HtttxState:
        """Stones on cells (``[[[q, r], seat], ...]``) with ``to_move`` to play, as the bot API's ``free_setup``
        sets one up (``from_cells``: any distances apart, none twice, nobody already ``win_distance`` in a row;
        ``core.game.setup_refusal``). As in every game, x has one stone more than o with o to move (x's origin
        stone, then two a turn), one fewer with x to move; ``draft`` skips that count (the editor's steps)."""
        cells = [(*setup_coord(cell, k), seat) for k, (cell, seat) in enumerate(stones)]
        if not draft:
            xs = sum(1 for *_, seat in cells if seat == 0)
            check_setup_counts(self, (xs, len(cells) - xs), to_move, {0: -1, 1: 1})
        p = self.validate_params(params)
        names = ("view_distance", "win_distance", "turn_limit")
        return self.from_cells(cells, to_move, **{name: p[name] for name in names})

    def setup_of(self, state: HtttxState) -> tuple[list[tuple[object, Seat]], Seat]:
        """The position as ``setup_position`` takes it: every stone and the side to move (by the counts once the
        game is over, so an edited copy of a finished position keeps the side the rules would give)."""
        stones: list[tuple[object, Seat]] = [([q, r], seat) for q, r, seat in state.stones]
        xs = sum(1 for _, seat in stones if seat == 0)
        return stones, 1 if xs > len(stones) - xs else 0

    def setup_bound(self, params: Mapping[str, object], stones: Sequence[tuple[object, Seat]]) -> tuple[int, str]:
        """``position_bound`` for a setup: the candidate cells its stones bring, from the request alone (cells that
        do not read are left to ``setup_position`` to report)."""
        view = int(self.validate_params(params)["view_distance"])
        cells = []
        for k, (cell, _) in enumerate(stones):
            try:
                cells.append(setup_coord(cell, k))
            except ConfigError:
                continue
        return candidate_bound(cells, view)

    # ----- the rules -----

    def to_move(self, state: HtttxState) -> int | None:
        return state.to_move_seat

    def play(self, state: HtttxState, move: Move) -> HtttxState:
        """The state after ``move``; IllegalMove names the offending cell. ``state`` is never changed."""
        (q1, r1), (q2, r2) = a, b = coerce_move(move)
        seat = state.to_move_seat
        if seat is None:
            raise IllegalMove(f"the game is over; move [{q1},{r1}][{q2},{r2}] cannot be played")
        if a == b:
            raise IllegalMove(f"the two pieces are the same cell ({q1}, {r1})")
        cur = state._cur
        with cur.lock:
            board = state._seek()
            added = 1
            if not board.place(q1, r1, seat):
                try:
                    board.place(q2, r2, seat)
                except IllegalMove:
                    board.undo()
                    raise
                added = 2
            child = make_child(state, (a, b), board, added)
            cur.at = child
        return child

    def outcome(self, state: HtttxState) -> Outcome | None:
        if state.winner is not None:
            return Outcome(state.winner, Termination.NORMAL, f"{state.win_distance} in a row")
        if state.to_move_seat is None:
            return Outcome(None, Termination.TURN_LIMIT, f"turn limit of {state.turn_limit} turns reached")
        return None

    def legal(self, state: HtttxState) -> Iterator[Move]:
        """Every legal move, lazily. When both orders of a pair are legal and lead to the same position (neither
        stone wins on its own), only the order with the smaller first cell is listed. After a first stone that
        wins, every cell legal after it is listed as a second stone (the rules ignore it)."""
        seat = state.to_move_seat
        if seat is None:
            return
        board = state.board()
        first = sorted(board.legal_cells())
        before = set(first)
        wins_alone = {c for c in first if max(board.line_length(c[0], c[1], seat)) >= state.win_distance}
        for a in first:
            won = board.place(a[0], a[1], seat)
            if won:
                seconds = sorted(before - {a})
            else:
                seconds = sorted(board.legal_cells())
            board.undo()
            a_alone = a in wins_alone
            for b in seconds:
                if not won and b in before and not a_alone and b not in wins_alone and b < a:
                    continue  # (b, a) is listed instead and reaches the same position
                yield (a, b)

    def random_move(self, state: HtttxState, rng: random.Random) -> Move:
        """A random legal move without copying: a uniform legal first stone, then a uniform second stone among the
        cells legal once the first stands (``Board.random_pair``)."""
        seat = state.to_move_seat
        if seat is None:
            raise IllegalMove("the game is over: no legal move")
        with state._cur.lock:
            return state._seek().random_pair(rng)

    # ----- notation and views -----

    def parse(self, text: str) -> Move:
        """Read ``[q1,r1][q2,r2]`` (whitespace anywhere between tokens)."""
        if not isinstance(text, str):
            raise InvalidMove(f"a move must be text like '[1,-2][0,3]', got {text!r}")
        m = _MOVE_RE.fullmatch(text)
        if m is None:
            raise InvalidMove(f"cannot read move {text[:80]!r}: expected two cells like '[1,-2][0,3]'")
        q1, r1, q2, r2 = (int(g) for g in m.groups())
        return ((q1, r1), (q2, r2))

    def format(self, move: Move) -> str:
        """``[q1,r1][q2,r2]``. ``move`` is a ``Move`` whose shape ``play`` or ``parse`` has checked: the referee
        writes every move ``play`` accepted, so checking it again here cost each move a second ``coerce_move``."""
        (q1, r1), (q2, r2) = move
        return f"[{q1},{r1}][{q2},{r2}]"

    def params_of(self, state: HtttxState) -> dict[str, ParamValue]:
        return {
            "view_distance": state.view_distance,
            "win_distance": state.win_distance,
            "turn_limit": state.turn_limit,
        }

    def ply(self, state: HtttxState) -> int:
        return state.turns

    def to_json(self, state: HtttxState) -> JsonObject:
        return state_view(
            self,
            state,
            cells=cells_view(state),
            winner=None if state.winner is None else SIDES[state.winner],
            win_line=None if state.win_line is None else [[q, r] for q, r in state.win_line],
            turns=state.turns,
            view_distance=state.view_distance,
            win_distance=state.win_distance,
            turn_limit=state.turn_limit,
        )

    # ----- presentation and export -----

    def render(self, state: HtttxState) -> str:
        """A summary and the board around where the game was decided (the winning line, else the last stones):
        the board is unbounded and a long game has thousands of stones, too many to print whole. Rows of axial
        ``r``, each shifted half a cell from the one above; ``X``/``O`` stones, lower case on the winning line."""
        cells = {(c["q"], c["r"]): c["p"] for c in cells_view(state)}
        line = set(state.win_line or ())
        focus = list(line) or [(c["q"], c["r"]) for c in cells_view(state)[-2:]]
        cq = round(sum(q for q, _ in focus) / len(focus))
        cr = round(sum(r for _, r in focus) / len(focus))
        rows = []
        for r in range(cr - RENDER_RADIUS, cr + RENDER_RADIUS + 1):
            marks = []
            for q in range(cq - RENDER_RADIUS, cq + RENDER_RADIUS + 1):
                side = cells.get((q, r))
                mark = "." if side is None else side.upper()
                marks.append(mark.lower() if (q, r) in line else mark)
            rows.append(" " * (r - cr + RENDER_RADIUS) + " ".join(marks))
        xs = sum(1 for side in cells.values() if side == "x")
        summary = (
            f"{state.turns} turns, {len(cells)} stones (x {xs}, o {len(cells) - xs}); "
            f"board around ({cq}, {cr}), {RENDER_RADIUS} cells each way"
        )
        return "\n".join([summary, *rows])

    def legal_view(self, state: HtttxState) -> JsonObject:
        """``kind: htttx``: ``cells = [[q, r], ...]`` legal for the first stone; the page asks the
        ``htttx_first`` probe for the second stone's cells (a pair list would be quadratic)."""
        if state.to_move_seat is None:
            return {"kind": "none", "moves": []}
        return {"kind": "htttx", "cells": [[q, r] for q, r in sorted(state.board().legal_cells())]}

    def probes(self) -> Mapping[str, Probe]:
        return {"htttx_first": self.first_stone}

    def first_stone(self, state: HtttxState, q: object, r: object) -> JsonObject:
        """Check the first stone of a turn on its own (the web page asks before the second click).

        Returns ``{"cell": [q, r], "wins": bool, "cells": [...]}`` with the cells legal for the second stone;
        raises IllegalMove / InvalidMove with the rules' own reason (``cell (3, 4) is occupied``).
        """
        if type(q) is not int or type(r) is not int:
            raise InvalidMove(f"a cell is two integers (q, r), got {[q, r]!r}")
        seat = state.to_move_seat
        if seat is None:
            raise IllegalMove("the game is over")
        board = state.board()  # a private copy: placing on it never touches the state
        wins = board.place(q, r, seat)
        if wins:
            board.undo()
            cells = [c for c in board.legal_cells() if c != (q, r)]
        else:
            cells = board.legal_cells()
        return {"cell": [q, r], "wins": bool(wins), "cells": [[a, b] for a, b in sorted(cells)]}

    def spectator_extras(self, state: HtttxState, view: JsonObject | None) -> JsonObject:
        """Hivemaker's spectator packets carry ``board: {cells}``; the cells of ``view`` are reused when given."""
        if view is not None and isinstance(view.get("cells"), list):
            return {"board": {"cells": view["cells"]}}
        return {"board": {"cells": cells_view(state)}}

    def battlebot_shape(self) -> BattlebotShape[HtttxState, Move]:
        from hexarena.games.htttx.battlebot import shape

        return shape(self)

    def record_notation(self, params: Mapping[str, ParamValue], moves: Sequence[str], facts: RecordFacts) -> str:
        """Hexagonal Tic Tac Toe Notation v1, with the players, the end and the time as headers."""
        from hexarena.games.htttx.notation import GameRecord, headers_for, write_record

        return write_record(GameRecord(headers=headers_for(facts), turns=[self.parse(m) for m in moves], threats=[]))

    def position_bound(self, params: Mapping[str, Any], moves: Sequence[str]) -> tuple[int, str]:
        """An upper bound on the candidate cells the board of the position after ``moves`` tracks, and how it was
        reached (``candidate_bound``), from the text alone: the analysis board refuses a position too large to
        build before building it (moves that do not read are left to the replay to report)."""
        cells = [(0, 0)]
        for text in moves:
            try:
                (q1, r1), (q2, r2) = self.parse(text)
            except InvalidMove:
                continue
            cells += [(q1, r1), (q2, r2)]
        return candidate_bound(cells, int(params["view_distance"]))

    def read_record_notation(self, text: str) -> tuple[dict[str, Any], list[str]]:
        """A Hexagonal Tic Tac Toe Notation v1 record's turns (its headers state no parameter)."""
        from hexarena.games.htttx.notation import read_record

        return {}, [self.format(t) for t in read_record(text).turns]


HTTTX = HtttxGame()


def candidate_bound(cells: Sequence[tuple[int, int]], view: int) -> tuple[int, str]:
    """An upper bound on the candidate cells (empty cells within ``view`` of a stone) a board with stones on
    ``cells`` tracks, and how it was reached. What it bounds: the board keeps every such cell (about 100 bytes
    each in the C board), and a stone far from all others brings a whole hexagon of 3v(v+1)+1 cells, 12,481 at view
    64. Two bounds, the smaller taken: every stone covers at most one hexagon, and every covered cell lies in the
    box around the stones widened by ``view`` on each side (axial coordinates); so a dense block of many stones
    passes where the same stones scattered do not."""
    if not cells:
        return 0, "no stones"
    view = max(view, 0)
    hexagon = 3 * view * (view + 1) + 1
    by_stones = len(cells) * hexagon
    qs = [q for q, _ in cells]
    rs = [r for _, r in cells]
    width, height = max(qs) - min(qs) + 2 * view + 1, max(rs) - min(rs) + 2 * view + 1
    if width * height < by_stones:
        return width * height, f"a {width:,} x {height:,} box around the stones, widened by view_distance {view}"
    return by_stones, f"{len(cells):,} stones x {hexagon:,} cells within view_distance {view}"


if TYPE_CHECKING:  # mypy checks the engine against the Game protocol here
    _CHECKED: Game[HtttxState, Move] = HTTTX


#: Cells shown each way from the centre of ``HtttxGame.render``'s picture.
RENDER_RADIUS = 7


def cells_view(state: HtttxState) -> list[dict[str, Any]]:
    """``[{"q", "r", "p"}, ...]`` of every stone in placement order: a new list, of dicts callers must not change.

    Spectators get this with every move (``to_json`` and Hivemaker's ``board``), so building it from all the
    stones made a spectated move O(stones) of Python work (~0.7 ms at 1,000 stones). The newest state viewed
    keeps its list; its child's is that list's copy (one C-level pass) plus the dicts of the stones its move
    added, and the parent lets go of its own, so a game holds one list, not one per position.
    """
    view = state._view
    if view is None:
        parent = state.parent
        before = parent._view if parent is not None else None
        move = state.last_move
        if before is not None and move is not None and parent is not None and parent.to_move_seat is not None:
            side = SIDES[parent.to_move_seat]
            view = before.copy()
            view.extend({"q": q, "r": r, "p": side} for q, r in move[: state.stones_added])
            object.__setattr__(parent, "_view", None)
        else:
            view = [{"q": q, "r": r, "p": SIDES[seat]} for (q, r), seat in state.cells.items()]
        object.__setattr__(state, "_view", view)
    return view.copy()
