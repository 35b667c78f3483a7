"""Serving any HTTTX ``EngineBot`` (the reference bots, or yours) as an SDK ``BaseBot``.

``bot_class_for("heuristic")`` is what ``hexarena bot serve --bot heuristic`` serves. The adapter rebuilds an
``HtttxState`` from the request's cells (``HTTTX.from_cells``) and asks the engine bot for a move, giving it the
time the SDK allows (``time_left()``) as its ``time_limit``.

An engine that reports what it saw (``last_evaluation`` / ``last_considerations``, as ``search`` does) has them
sent with its move; one that can analyse a position (``analyse_board``) also declares bws ``evaluation``, so
``eval_request`` and the server's ``POST /api/analyse`` work with ``hexarena bot serve --bot search``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, TypedDict, cast

from hexarena.bots.base import EngineBot, ReportsSearch, think
from hexarena.core.errors import ConfigError
from hexarena_sdk.bot import BaseBot, MoveResult, PositionEvaluation
from hexarena_sdk.capabilities import BwsV1AlphaCapability, Capabilities, Meta, default_capabilities
from hexarena_sdk.game import SEAT_OF, board_of
from hexarena_sdk.models import Cell, Coord, Match, Player


class _BoardState:
    """A minimal stand-in for ``HtttxState`` (``board()``, ``to_move_seat``) for positions the game's
    constructor refuses (free setups that normal play cannot reach)."""

    def __init__(self, cells: list[Cell], seat: int, match: Match) -> None:
        self._cells = cells
        self.to_move_seat = seat
        self._match = match
        self.cells = {(c.q, c.r): SEAT_OF[Player(c.p)] for c in cells}

    def board(self) -> Any:
        return board_of(self._cells, self._match.view_distance, self._match.win_distance)


def state_for(cells: list[Cell], player: Player, match: Match) -> tuple[Any, Any]:
    """``(game, state)`` for the engine: a real ``HtttxState`` when the engine accepts the position."""
    from hexarena.games.htttx import HTTTX

    seat = SEAT_OF[player]
    state: Any
    try:
        state = HTTTX.from_cells(
            ((c.q, c.r, SEAT_OF[Player(c.p)]) for c in cells),
            seat,
            view_distance=match.view_distance,
            win_distance=match.win_distance,
        )
    except (ValueError, TypeError):
        state = _BoardState(cells, seat, match)
    return HTTTX, state


class _Evaluation(TypedDict, total=False):
    """What bws takes of an HTTTX engine's evaluation (it holds more: ``score``, ``depth``, ``pv`` ...)."""

    heuristic: float
    win_in: int


class _Considered(TypedDict, total=False):
    """A turn an HTTTX engine weighed (``ReportsSearch.last_considerations``): its two cells, and its evaluation."""

    pieces: Sequence[Sequence[int]]
    evaluation: _Evaluation | None


class EngineBotAdapter(BaseBot):
    """A ``BaseBot`` that delegates to an HTTTX ``EngineBot`` (set ``engine_factory`` in a subclass)."""

    engine_factory: ClassVar[Callable[[], EngineBot]]
    engine_name: ClassVar[str] = "engine"

    def __init__(self, seed: int | None = None) -> None:
        self.engine = type(self).engine_factory()
        #: The engine as one that reports its search, asked once (a runtime protocol check is slow for every move).
        self._reports = self.engine if isinstance(self.engine, ReportsSearch) else None
        self.rng = random.Random(seed)

    @classmethod
    def capabilities(cls) -> Capabilities:
        caps = default_capabilities(
            BwsV1AlphaCapability(
                move_time_limit=True,
                move_skips=True,
                free_setup=True,
                dual_sided=True,
                free_move_order=True,
                resettable_state=True,
                interruptible=True,
                evaluation=cls.can_evaluate(),
                evaluation_time_limit=cls.can_evaluate(),
                config={"dynamic": True},
            )
        )
        caps.meta = Meta(
            name=f"hexarena-{cls.engine_name}",
            description=f"hexarena's {cls.engine_name} bot",
            tags=["hexarena", cls.engine_name],
        )
        return caps

    @classmethod
    def can_evaluate(cls) -> bool:
        """True when the engine can analyse a position (answers bws ``eval_request``)."""
        return callable(getattr(cls.engine_factory, "analyse_board", None))

    def choose_move(self, cells: list[Cell], player: Player, match: Match) -> Any:
        game, state = state_for(cells, player, match)
        budget = self.move_budget(cells, player, match)
        job = self._job
        # an interrupt or a closed session stops the engine's search too (``bots.stopping``)
        try:
            move = think(self.engine, game, state, budget, self.rng, None if job is None else job.stop)
        finally:
            game.release(state)  # a position made for this one move: its board goes now, not at a collection
        (aq, ar), (bq, br) = move
        pieces = (Coord(q=aq, r=ar), Coord(q=bq, r=br))
        reports = self._reports
        if reports is None:
            return pieces
        evaluation = cast("_Evaluation | None", reports.last_evaluation)
        considered = cast("list[_Considered] | None", reports.last_considerations)  # an HTTTX bot's turns
        if not evaluation and not considered:
            return pieces
        return MoveResult(
            pieces,
            _position_evaluation(evaluation),
            [
                (
                    (Coord(q=c["pieces"][0][0], r=c["pieces"][0][1]), Coord(q=c["pieces"][1][0], r=c["pieces"][1][1])),
                    _position_evaluation(c.get("evaluation")),
                )
                for c in considered or []
            ],
        )

    def move_budget(self, cells: list[Cell], player: Player, match: Match) -> float | None:
        """The engine's time for this move: under a match clock the server offers all that is left, so spread
        it over the game like the in-process player does (``bots.timing``); else what the SDK allows."""
        left = self.time_left()
        if match.clock_type not in ("match", "incremental") or left is None:
            return left
        from hexarena.bots.timing import allowance
        from hexarena.core.contract import ClockConfig

        clock = ClockConfig(match.clock_type, match.clock, match.increment or 0.0)
        made = sum(1 for c in cells if c.p == player) // 2
        return allowance(clock, left, left, made)  # no margin: the SDK's soft deadline already keeps one

    def evaluate(self, cells: list[Cell], player: Player, match: Match) -> PositionEvaluation:
        """The engine's evaluation of the position for ``player`` to move (X's point of view, as bws wants)."""
        analyse = getattr(self.engine, "analyse_board", None)
        if analyse is None:
            return PositionEvaluation()
        game, state = state_for(cells, player, match)
        left = self.time_left()
        seconds = self.engine.budget(left) if hasattr(self.engine, "budget") else (left or 1.0)
        try:
            _, evaluation = analyse(state.board(), state.to_move_seat, seconds)
        finally:
            game.release(state)
        return _position_evaluation(evaluation) or PositionEvaluation()


def bot_class_for(name: str) -> type[BaseBot]:
    """The ``BaseBot`` class serving the reference HTTTX bot ``name`` (ConfigError lists the known ones; ``best``
    is the strongest)."""
    from hexarena.bots.registry import builtin_bots

    bots = builtin_bots("htttx")

    try:
        factory = bots[name]
    except KeyError:
        raise ConfigError(f"unknown HTTTX bot {name!r}; known: {', '.join(sorted(bots))}") from None
    return type(
        f"{name.title()}BotAdapter", (EngineBotAdapter,), {"engine_factory": staticmethod(factory), "engine_name": name}
    )


def _position_evaluation(evaluation: _Evaluation | None) -> PositionEvaluation | None:
    """The bws fields (``heuristic``, ``win_in``) of an engine's evaluation dict."""
    if not evaluation:
        return None
    return PositionEvaluation(evaluation.get("heuristic"), evaluation.get("win_in"))
