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

from collections.abc import Iterable
from typing import Any

from hexarena.bots.sdk.capabilities import BwsV1AlphaCapability
from hexarena.bots.sdk.models import Cell, Coord, Match, Player
from hexarena.wire import htttx as wire

Cells = dict[tuple[int, int], Player]

#: ``config`` extras that also update the ``Match`` the bot sees (the bws wire has no field for them).
MATCH_EXTRAS = {"x-view_distance": "view_distance", "x-win_distance": "win_distance", "x-heartbeat": "heartbeat"}


def standard_start() -> Cells:
    """The spec's opening: one X at the origin."""
    return {(0, 0): Player.X}


def cells_from_wire(cells: Iterable[wire.Cell]) -> Cells:
    return {(c.q, c.r): Player(c.p) for c in cells}


class SessionState:
    """Board, match parameters and configuration of one session, updated packet by packet."""

    def __init__(self, bws: BwsV1AlphaCapability | None = None) -> None:
        self.bws = bws or BwsV1AlphaCapability()
        self.cells: Cells = standard_start()
        self.match = Match()
        self.setup_seen = False
        self.requests_seen = 0

    # ----- packets -----

    def apply_setup(self, board: wire.Board) -> None:
        self.cells = cells_from_wire(board.cells)
        self.setup_seen = True

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

    def begin_move_request(self, packet: wire.MoveRequestPacket) -> Cells:
        """Bring the board up to date for ``packet``; returns the previous board for ``rollback``."""
        before = dict(self.cells)
        self.requests_seen += 1
        if packet.board is not None:
            self.cells = cells_from_wire(packet.board.cells)
        else:
            for move in packet.previous:
                side = Player(move.side)
                for piece in move.pieces:
                    self.cells[(piece.q, piece.r)] = side
        return before

    def rollback(self, before: Cells) -> None:
        self.cells = before

    def commit_own_move(self, side: Player, pieces: Iterable[Coord]) -> None:
        """Record the answer just sent; with ``move_skips`` it is not assumed to be played."""
        if self.bws.move_skips:
            return
        for p in pieces:
            self.cells[(p.q, p.r)] = side

    # ----- views for the bot -----

    def cell_list(self) -> list[Cell]:
        """A fresh list for the bot (bots may mutate it; Hivemaker's did)."""
        return [Cell.model_construct(q=q, r=r, p=p) for (q, r), p in self.cells.items()]

    def match_for(self, time_limit: float | None, deadline: float | None) -> Match:
        return self.match.model_copy(update={"move_time_limit": time_limit, "deadline": deadline})
