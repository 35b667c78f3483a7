"""A game that defines only the rules still works everywhere: ``RuleGame``'s generic per-game defaults.

The generic layers ask the game for everything game-specific (``legal_view``, ``probes``, ``spectator_extras``,
``record_notation``, ``battlebot_shape``), so a game that overrides none of them must get sensible answers:
a plain list of moves for the web UI, no probes, no extra spectator fields, its moves as the record, and a
clear refusal on the battlebot wire.
"""

from __future__ import annotations

from typing import Any, ClassVar

import pytest

from hexarena.core.errors import ConfigError, IllegalMove
from hexarena.core.game import MAX_LISTED, Param, RecordFacts, RuleGame, state_view
from hexarena.core.registry import get_game
from hexarena.core.types import Outcome, Seat, Termination
from hexarena.referee.result import PlayedMove
from hexarena.server import messages
from hexarena.wire.battlebot import Shape, _shape_of, shape_for


class Nim(RuleGame[tuple[int, int], int]):
    """One heap; take 1..``most`` stones; whoever takes the last stone wins."""

    name: ClassVar[str] = "nim-test"
    title: ClassVar[str] = "Nim"
    seat_names: ClassVar[tuple[str, str]] = ("first", "second")
    params: ClassVar[tuple[Param, ...]] = (Param("heap", int, 7, "stones", 1, 100_000),)
    most = 3

    def new(self, **params: Any) -> tuple[int, int]:
        return (self.validate_params(params)["heap"], 0)

    def to_move(self, state: tuple[int, int]) -> Seat | None:
        return None if state[0] == 0 else state[1] % 2

    def legal(self, state: tuple[int, int]) -> list[int]:
        return list(range(1, min(self.most, state[0]) + 1))

    def play(self, state: tuple[int, int], move: int) -> tuple[int, int]:
        if move not in self.legal(state):
            raise IllegalMove(f"cannot take {move}")
        return (state[0] - move, state[1] + 1)

    def outcome(self, state: tuple[int, int]) -> Outcome | None:
        return None if state[0] else Outcome((state[1] - 1) % 2, Termination.NORMAL, "took the last stone")

    def parse(self, text: str) -> int:
        return int(text)

    def format(self, move: int) -> str:
        return str(move)

    def params_of(self, state: tuple[int, int]) -> dict[str, Any]:
        return {}

    def to_json(self, state: tuple[int, int]) -> dict[str, Any]:
        return state_view(self, state, heap=state[0])

    def ply(self, state: tuple[int, int]) -> int:
        return state[1]


def test_a_rules_only_game_gets_the_generic_defaults() -> None:
    nim = Nim()
    start = nim.new()
    assert nim.to_json(start) == {"to_move": 0, "sides": ["first", "second"], "heap": 7}
    assert nim.legal_view(start) == {"kind": "list", "moves": [{"move": "1"}, {"move": "2"}, {"move": "3"}]}
    assert nim.legal_view((0, 7)) == {"kind": "none", "moves": []}
    assert nim.probes() == {}
    assert nim.spectator_extras(start, None) == {}
    assert nim.record_notation({}, ["3", "3", "1"], RecordFacts(["a", "b"])) == "3 3 1"
    assert nim.battlebot_shape() is None and _shape_of(nim) is None  # not offered on the battlebot wire

    # the spectator packets carry the generic fields only (no game branch adds anything)
    after = nim.play(start, 3)
    msg = messages.update("m", nim, PlayedMove(0, 0, "3", 0.0, 0.0), after)
    assert msg["state"] == {"to_move": 1, "sides": ["first", "second"], "heap": 4} and "board" not in msg


def test_a_huge_move_list_becomes_a_text_box() -> None:
    class BigNim(Nim):
        most = MAX_LISTED + 1

    game = BigNim()
    assert game.legal_view(game.new(heap=MAX_LISTED + 5)) == {"kind": "text", "moves": []}


def test_a_shape_wraps_a_game_that_offers_one() -> None:
    shape = _shape_of(get_game("tictactoe"))
    assert isinstance(shape, Shape) and shape.wire_id == "noughtsandcrosses"
    with pytest.raises(ConfigError, match="not recognised"):  # an unregistered name, whatever else it is
        shape_for("nim-test")
