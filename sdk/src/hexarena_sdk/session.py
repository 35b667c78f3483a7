"""The bot side's view of one bws game session: pure state, no sockets.

It answers one question per packet: what is the board now? Rules it follows (bws v1-alpha plus Hivemaker):

* ``setup`` replaces the board, at any time (``resettable_state``; any arrangement, ``free_setup``).
* A ``move_request`` with a ``board`` (Hivemaker's extension) takes that board as the truth.
* Otherwise its ``previous`` moves are applied in order, each piece overwriting its cell. This accepts both
  dialects: the spec's ``[own previous move, opponent's move]`` and Hivemaker's ``[opponent's move]``, because
  without ``move_skips`` the bot's own answer is applied as soon as it is sent (re-applying it from
  ``previous`` changes nothing). With ``move_skips`` the own answer is never assumed: the next request's
  ``previous`` (or ``board``) says what was really played. Sides and move order are never assumed either, so
  ``dual_sided`` and ``free_move_order`` need nothing special.
* ``interrupt`` restores the board from before the interrupted request ("ignore the last move request
  packet, including its previous field").
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from itertools import islice
from typing import Any, TypeVar

import msgspec
from pydantic import BaseModel

from hexarena_sdk.capabilities import BwsV1AlphaCapability
from hexarena_sdk.errors import IllegalMove
from hexarena_sdk.htttx.board import Board
from hexarena_sdk.models import Cell, Coord, Match, Player, cell_mutations
from hexarena_sdk.wire import htttx as wire

Cells = dict[tuple[int, int], Player]
#: A board to read, not change: a ``Cells`` or a ``BoardCells`` (what ``BoardCache`` returns)
CellsView = Mapping[tuple[int, int], Player]
#: A stone as the session follows it: (q, r, side)
Stone = tuple[int, int, Player]

#: ``config`` extras that also update the ``Match`` the bot sees (the bws wire has no field for them).
MATCH_EXTRAS = {"x-view_distance": "view_distance", "x-win_distance": "win_distance", "x-heartbeat": "heartbeat"}


def standard_start() -> Cells:
    """The spec's opening: one X at the origin."""
    return {(0, 0): Player.X}


#: Wire side -> Player without the Enum call (``Player("x")`` costs ~0.3 us, a dict lookup ~30 ns; this runs
#: once per stone per request).
PLAYER_OF_SIDE = {"x": Player.X, "o": Player.O}
_SEAT = {Player.X: 0, Player.O: 1}


def cells_from_wire(cells: Iterable[wire.Cell]) -> Cells:
    side = PLAYER_OF_SIDE
    return {(c.q, c.r): side[c.p] for c in cells}


class BoardCells(CellsView):
    """The cells of a decoded board, with how it was built; read as a mapping like any ``Cells``.

    Why not a dict of its own: successive boards of a game share one dict that ``BoardCache`` grows in place, and
    a board is its first ``len`` cells (a dict keeps insertion order, and an extension only ever appends new
    cells), so a request's board costs O(new cells) to make and nothing to drop, where a dict a board cost a copy
    of every stone to build and a walk of every stone to free (with the session's own copy, three O(stones) steps a
    request; ``bench/sdk_move_cost.py`` measures the cost at 100 and 1,000 stones). Reading its cells
    builds a plain dict of them, once (the session only does that when a board disagrees with what it holds).

    ``base`` is the previous board this one extends (the very object ``BoardCache`` returned for it) and
    ``added`` the cells appended to it, ``(q, r, side)`` in order, every one of them new; both None when the board
    was decoded in full. The session uses them to confirm in O(new cells) that the board is exactly what it
    already holds, instead of comparing every stone (see ``SessionState.begin_move_request``).
    """

    __slots__ = ("_length", "_plain", "_shared", "added", "base")

    def __init__(self, shared: Cells, base: BoardCells | None = None, added: list[Stone] | None = None) -> None:
        self._shared = shared  # this board's cells are its first ``_length``; later ones belong to later boards
        self._length = len(shared)
        self._plain: Cells | None = None
        self.base = base
        self.added = added

    def cells(self) -> Cells:
        """This board's cells as a plain dict (built once, then kept: read only)."""
        if self._plain is None:
            shared = self._shared
            self._plain = dict(shared) if len(shared) == self._length else dict(islice(shared.items(), self._length))
        return self._plain

    def __len__(self) -> int:
        return self._length

    def __iter__(self) -> Iterator[tuple[int, int]]:
        return iter(self.cells())

    def __getitem__(self, key: tuple[int, int]) -> Player:
        return self.cells()[key]

    def __contains__(self, key: object) -> bool:
        return key in self.cells()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, BoardCells):
            other = other.cells()
        return self.cells() == other

    __hash__ = None  # type: ignore[assignment]  # (a mapping, like a dict)

    def __repr__(self) -> str:
        return f"BoardCells({self.cells()!r})"


class BoardCache:
    """Decodes the ``board`` of successive move requests, parsing only the cells added since the last one.

    A move request carries the full board (Hivemaker's extension), so decoding it is O(stones) per move, the
    bot server's largest cost after the bot itself. Our game server (and any that appends) sends each board as
    the previous one's bytes plus the new cells. When the previous board was in canonical form (exactly what
    msgspec encodes for it: ``{"cells":[...]}``, checked once by re-encoding) and the new one is
    ``<previous without "]}">,<more>]}``, only ``[<more>]`` is decoded; if that is a valid list of cells, none of
    them already on the board, the new board is exactly the old cells followed by those, so nothing is assumed,
    and it is made by appending them to the dict the old board shares (see ``BoardCells``). Anything else is
    decoded in full, into a dict of its own. Returns a new ``BoardCells`` each call (requests may wait in a
    queue while the next one is decoded: a board never changes once returned).
    """

    def __init__(self) -> None:
        self._raw = b""
        self._cells: BoardCells = BoardCells({})

    def cells_of(self, raw: bytes) -> BoardCells | None:
        """The board's cells, or None if it is not a valid board (the caller reports the error)."""
        prev = self._raw
        if prev and raw == prev:
            return self._cells
        n = len(prev)
        cells: BoardCells | None = None
        if prev and len(raw) > n and raw[n - 2 : n - 1] == b"," and raw.startswith(prev[:-2]) and raw.endswith(b"]}"):
            try:
                added = wire.decode_cells(b"[" + raw[n - 1 : -2] + b"]")
            except msgspec.DecodeError:
                pass  # something else was appended: decode the whole board below
            else:
                side = PLAYER_OF_SIDE
                stones = [(c.q, c.r, side[c.p]) for c in added]
                last = self._cells
                last.base = None  # keep one link, not the chain of every board of the game
                shared = last._shared
                if len(shared) == len(last) and all((q, r) not in shared for q, r, _ in stones):
                    for q, r, p in stones:  # appended: the boards before this one see none of them
                        shared[(q, r)] = p
                    if len(shared) == len(last) + len(stones):
                        cells = BoardCells(shared, last, stones)
                    else:  # a cell given twice in the new part: not a plain extension (earlier boards are intact)
                        cells = BoardCells(shared)
                else:  # a cell given again (not a plain extension): a dict of its own
                    own = dict(last.cells())
                    for q, r, p in stones:
                        own[(q, r)] = p
                    cells = BoardCells(own)
        if cells is None:
            try:
                board = wire.decode_board(raw)
            except msgspec.DecodeError:
                self._raw, self._cells = b"", BoardCells({})
                return None
            cells = BoardCells(cells_from_wire(board.cells))
            if wire.encode(board) != raw:  # not canonical: never extend it by bytes
                self._raw, self._cells = b"", BoardCells({})
                return cells
        self._raw, self._cells = raw, cells
        return cells


@dataclass(slots=True)
class Undo:
    """What ``SessionState.rollback`` needs to restore the board from before a request: the dict the session
    held then, and the cells the request changed in it, with what each held (None: empty)."""

    cells: Cells
    changes: list[tuple[tuple[int, int], Player | None]]


class SessionState:
    """Board, match parameters and configuration of one session, updated packet by packet."""

    def __init__(self, bws: BwsV1AlphaCapability | None = None) -> None:
        self.bws = bws or BwsV1AlphaCapability()
        self.cells: Cells = standard_start()
        self.match = Match()
        self.setup_seen = False
        self.requests_seen = 0
        #: An engine board mirroring ``cells`` (for checking the bot's answers), kept up to date stone by stone
        #: while requests agree with what we already know; None = rebuild from ``cells`` when next needed.
        self._board: Board | None = None
        self._board_shape: tuple[int, int] = (0, 0)
        #: ``Cell`` models of ``cells`` in the same order, reused across requests (see ``cell_list``), with the
        #: field values each had when handed out; ``None`` = rebuild when next needed.
        self._objs: list[Cell] | None = None
        #: ``Cell`` mutations counted when the models were last handed out (see ``cells_untouched``)
        self._mutations = 0
        #: The last board a request carried that ``cells`` was set to (a ``BoardCells`` of the session's
        #: ``BoardCache``), and the stones appended to ``cells`` since, in order: a next board that extends it by
        #: exactly these stones is ``cells`` itself, confirmed without comparing every stone. None: unknown.
        self._truth: CellsView | None = None
        self._since: list[Stone] = []

    # ----- packets -----

    def apply_setup(self, board: wire.Board) -> None:
        self.cells = cells_from_wire(board.cells)
        self.setup_seen = True
        self._board = None
        self._objs = None
        self._truth = None

    def apply_config(self, raw: dict[str, Any]) -> tuple[int | None, dict[str, Any]]:
        """The ``(depth, extras)`` to hand to ``on_config``; ``x-*`` keys are extras, other unknown keys are
        ignored as the spec requires. Integer ``x-view_distance`` / ``x-win_distance`` also update the match."""
        depth = raw.get("depth")
        if isinstance(depth, bool) or not isinstance(depth, int):
            depth = None
        extras = {k: v for k, v in raw.items() if isinstance(k, str) and k.startswith("x-")}
        for key, attr in MATCH_EXTRAS.items():
            value = extras.get(key)
            if isinstance(value, int) and not isinstance(value, bool) and value > 0:
                setattr(self.match, attr, value)
        return depth, extras

    def begin_move_request(self, packet: wire.MoveRequestPacket, board: CellsView | None = None) -> Undo:
        """Bring the board up to date for ``packet``; returns what ``rollback`` needs to undo that.

        ``board`` is ``packet``'s board already decoded (by a ``BoardCache``), if the caller did that. A board
        that extends the last one by exactly the stones this session added since (its own answer, the moves of
        ``previous``) is what the session already holds: that is checked on the new stones only, and the moves of
        ``previous`` are applied in place (the undo remembers what they replaced), so a request costs O(new
        stones) however full the board. A board that disagrees replaces the session's cells with a copy of it.
        """
        cells = self.cells
        self.requests_seen += 1
        undo = Undo(cells, [])
        changes = undo.changes
        added: list[Stone] = []
        for move in packet.previous:
            side = PLAYER_OF_SIDE[move.side]
            for piece in move.pieces:
                key = (piece.q, piece.r)
                old = cells.get(key)
                if old is not side:
                    if old is not None:  # a stone changed sides: not something the board or the models can follow
                        self._board = self._objs = self._truth = None
                    changes.append((key, old))
                    cells[key] = side
                    added.append((piece.q, piece.r, side))
        if self._truth is not None:  # (without a board to match them against, nothing to remember)
            self._since += added
        if board is not None or packet.board is not None:
            truth = board if board is not None else cells_from_wire(packet.board.cells)  # type: ignore[union-attr]
            base = getattr(truth, "base", None)
            if base is None or base is not self._truth or truth.added != self._since:  # type: ignore[attr-defined]
                plain = truth.cells() if isinstance(truth, BoardCells) else truth
                if plain != cells or list(plain) != list(cells):  # disagrees with previous + what we knew: it wins
                    self._board = self._objs = None
                self.cells = dict(plain)  # ours: commit_own_move changes it; the cache's boards never change
            self._truth, self._since = truth, []
        self._follow(added)
        return undo

    def rollback(self, undo: Undo) -> None:
        """Restore the board from before the request ``undo`` came from (nothing was committed since)."""
        cells = undo.cells
        for key, old in reversed(undo.changes):
            if old is None:
                del cells[key]
            else:
                cells[key] = old
        self.cells = cells
        self._board = self._objs = self._truth = None

    def _follow(self, stones: Iterable[tuple[int, int, Player]]) -> None:
        """Add new stones to the engine board and the cell models (a failure drops the board: it is rebuilt
        when needed)."""
        objs = self._objs
        if objs is not None:
            for q, r, side in stones:
                objs.append(_cell(q, r, side))
        board = self._board
        if board is None:
            return
        try:
            for q, r, side in stones:
                if board.winner is not None:
                    return  # a won board stays as it is: every answer passes on it (see ``check``)
                board.setup(q, r, _SEAT[side])
        except IllegalMove:
            self._board = None

    def engine_board(self, match: Match) -> Board:
        """The engine board of ``cells`` for ``match``'s distances; callers may place stones but must undo them.

        Built once and then followed stone by stone, so checking an answer costs O(1) instead of rebuilding the
        board from every stone each move. A won position is never kept (the engine refuses stones after a win).
        """
        shape = (match.view_distance, match.win_distance)
        board = self._board
        if (
            board is None
            or self._board_shape != shape
            or (board.winner is None and len(board) != len(self.cells))  # (a won board stops at the win)
        ):
            from hexarena_sdk.game import board_of_cells

            board = board_of_cells(self.cells, *shape)
            self._board, self._board_shape = board, shape
        return board

    def commit_own_move(self, side: Player, pieces: Iterable[Coord]) -> None:
        """Record the answer just sent; with ``move_skips`` it is not assumed to be played."""
        if self.bws.move_skips:
            return
        added = []
        for p in pieces:
            if (p.q, p.r) in self.cells:
                self._board = self._objs = self._truth = None
            self.cells[(p.q, p.r)] = side
            added.append((p.q, p.r, side))
        if self._truth is not None:
            self._since += added
        self._follow(added)

    # ----- views for the bot -----

    def cell_list(self) -> list[Cell]:
        """A fresh list for the bot (bots may mutate it; Hivemaker's did) of ``Cell`` models kept across requests.

        Building a pydantic model per stone per request was the bot server's largest cost; the models are
        reused instead, and ``cells_untouched`` (called once the bot returned) rebuilds them all if the bot
        changed any cell, so a bot never sees a stale or altered cell.
        """
        if self._objs is None or len(self._objs) != len(self.cells):
            self._objs = cell_list(self.cells)
        self._mutations = cell_mutations()
        return list(self._objs)

    def cells_untouched(self) -> None:
        """After a call into the bot: drop the reused models if any ``Cell`` was changed meanwhile.

        O(1): ``Cell`` counts its own attribute assignments and deletions (``cell_mutations``), so a bot that
        changed none leaves the count as it was; comparing every model with a snapshot cost O(stones) a move.
        A change to any cell (even one the bot made itself) counts: the models are then rebuilt, never wrong.
        """
        if self._objs is not None and cell_mutations() != self._mutations:
            self._objs = None

    def forget_cell_models(self) -> None:
        """The bot may still hold the models (a call that ran late keeps running): never reuse them."""
        self._objs = None

    def match_for(self, time_limit: float | None, deadline: float | None) -> Match:
        """The session's ``Match`` with this request's limit and deadline: a fresh copy (the bot may change it).

        Made by ``_built``, without pydantic's ``model_copy`` (its deep machinery was ~2 % of an instant bot
        server's CPU): the fields are the session's own, valid already, and copied shallowly (all scalars)."""
        values = dict(self.match.__dict__)
        values["move_time_limit"] = time_limit
        values["deadline"] = deadline
        return _built(Match, values, set(self.match.__pydantic_fields_set__) | _PER_REQUEST)


_new = object.__new__
_set = object.__setattr__
_PER_REQUEST = frozenset({"move_time_limit", "deadline"})
_M = TypeVar("_M", bound=BaseModel)


def _built(cls: type[_M], values: dict[str, Any], fields_set: set[str]) -> _M:
    """A ``cls`` model holding ``values`` as they are: what pydantic's ``model_construct`` makes, without its
    per-field work. Only for values valid by construction (our own board, our own session state)."""
    m = _new(cls)
    _set(m, "__dict__", values)
    _set(m, "__pydantic_fields_set__", fields_set)
    _set(m, "__pydantic_extra__", None)
    _set(m, "__pydantic_private__", None)
    return m


def _cell(q: int, r: int, p: Player) -> Cell:
    return _built(Cell, {"q": q, "r": r, "p": p}, {"q", "r", "p"})


def cell_list(cells: Cells) -> list[Cell]:
    """A fresh list of fresh ``Cell`` models (the bot may mutate both: Hivemaker's bots appended to theirs).

    Built without pydantic's validation or ``model_construct`` (they cost 1-3 us a cell, and this runs for every
    stone of every request): the values come from our own board, so they are valid by construction.
    """
    out: list[Cell] = []
    append = out.append
    for (q, r), p in cells.items():
        c = _new(Cell)
        _set(c, "__dict__", {"q": q, "r": r, "p": p})
        _set(c, "__pydantic_fields_set__", {"q", "r", "p"})
        _set(c, "__pydantic_extra__", None)
        _set(c, "__pydantic_private__", None)
        append(c)
    return out
