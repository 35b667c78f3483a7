"""What the bws probes read as a bot's move: as lenient as ``int()`` with coordinates, None for anything else."""

from __future__ import annotations

import json

import pytest

from hexarena.checkbot.htttx import _move_of, diagnose
from hexarena.games.htttx import HTTTX


def _reply(pieces: object) -> str:
    return json.dumps({"type": "move_response", "move": {"pieces": pieces}})


@pytest.mark.parametrize(
    ("text", "move"),
    [
        (_reply([{"q": 1, "r": 0}, {"q": -1, "r": 2}]), ((1, 0), (-1, 2))),
        (_reply([{"q": 1.9, "r": "2"}, {"q": " -3 ", "r": True}]), ((1, 2), (-3, 1))),
        (_reply([{"q": 1, "r": 0, "p": "o"}, {"q": 0, "r": 1}]), ((1, 0), (0, 1))),
    ],
    ids=["ints", "what-int-takes", "extra-keys"],
)
def test_moves_read(text: str, move: tuple[tuple[int, int], tuple[int, int]]) -> None:
    assert _move_of(json.loads(text)) == move


@pytest.mark.parametrize(
    "text",
    [
        "null",
        "[1, 2]",
        '"move"',
        '{"unparsed": "x"}',
        '{"move": "pieces"}',
        '{"move": {"pieces": null}}',
        '{"move": {"pieces": "ab"}}',
        '{"move": {"pieces": {"a": 1, "b": 2}}}',
        _reply([{"q": 1, "r": 0}]),
        _reply([{"q": 1, "r": 0}, {"q": 1, "r": 0}, {"q": 1, "r": 0}]),
        _reply([{"q": 1, "r": 0}, {"q": 1}]),
        _reply([{"q": 1, "r": 0}, [1, 0]]),
        _reply([{"q": 1, "r": 0}, {"q": None, "r": 0}]),
        _reply([{"q": 1, "r": 0}, {"q": "1.5", "r": 0}]),
        _reply([{"q": 1, "r": 0}, {"q": [1], "r": 0}]),
        _reply([{"q": 1, "r": 0}, {"q": float("nan"), "r": 0}]),
        _reply([{"q": 1, "r": 0}, {"q": float("inf"), "r": 0}]),
        '{"move": {"pieces": [{"q": 1, "r": 0}, {"q": 1e400, "r": 0}]}}',
    ],
    ids=[
        "null",
        "array",
        "string",
        "unparsed",
        "move-string",
        "pieces-null",
        "pieces-string",
        "pieces-object",
        "one-piece",
        "three-pieces",
        "no-r",
        "piece-array",
        "q-null",
        "q-decimal-string",
        "q-array",
        "q-nan",
        "q-infinity",
        "q-overflowing-number",
    ],
)
def test_not_moves(text: str) -> None:
    assert _move_of(json.loads(text)) is None


@pytest.mark.parametrize(
    "move",
    [None, 3, ((1, 0),), ((1, 0), (None, 0)), ((1, 0), (float("inf"), 0))],
    ids=["none", "int", "one", "none-q", "infinite-q"],
)
def test_diagnose_names_a_malformed_move(move: object) -> None:
    sent, _, fix = diagnose(HTTTX.new(), move)
    assert sent == repr(move)
    assert "exactly two pieces" in fix
