"""JSON shapes of the original Hexagon dots protocol (docs/protocols/hexdots.md) produced by ``hexdots.wire``."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from hexarena.core.errors import ConfigError, InvalidMove
from hexarena.games.hexdots import GAME, DotsState
from hexarena.games.hexdots.wire import (
    delta_json,
    game_json,
    move_body,
    parse_move_body,
    parse_new_game,
    state_from_game_json,
    status_of,
)

NAMES = ("Bot1", "Bot2")


def coord_key(c: dict[str, int]) -> tuple[int, int]:
    assert set(c) == {"row", "col"} and all(type(v) is int for v in c.values())
    return (c["row"], c["col"])


def random_state(seed: int, plies: int, rows: int = 5, cols: int = 5) -> DotsState:
    rng = random.Random(seed)
    s = GAME.new(rows=rows, cols=cols)
    for _ in range(plies):
        if s.over:
            break
        s = GAME.play(s, GAME.random_move(s, rng))
    return s


def check_player(p: Any, names: tuple[str, ...]) -> None:
    assert set(p) == {"name", "score"}
    assert p["name"] in names
    assert type(p["score"]) is int or p["score"] == "disqualified"


def test_new_game_json() -> None:
    s = GAME.new(rows=5, cols=3)
    assert game_json(s, ["Bot1"]) == {
        "rows": 5,
        "cols": 3,
        "lines": [],
        "hexagons": [],
        "players": [{"name": "Bot1", "score": 0}],
        "state": "initiating",
    }
    assert game_json(s, NAMES)["state"] == "in play"


def test_game_json_shape_sorted_endpoints_and_owners() -> None:
    s = random_state(7, 200)
    assert s.over
    doc = json.loads(json.dumps(game_json(s, NAMES)))  # survives a JSON round trip unchanged
    assert set(doc) == {"rows", "cols", "lines", "hexagons", "players", "state"}
    assert doc["state"] == "completed"
    assert [p["name"] for p in doc["players"]] == list(NAMES)
    assert [p["score"] for p in doc["players"]] == list(s.scores)
    assert len(doc["lines"]) == s.ply
    for ln in doc["lines"]:
        assert set(ln) == {"endpoints", "owner"}
        a, b = (coord_key(c) for c in ln["endpoints"])
        assert a < b  # row-major sorted
        check_player(ln["owner"], NAMES)
    # Lines come in play order, each owned by the seat that drew it.
    replay = s.moves_since(0)
    for ln, st in zip(doc["lines"], replay, strict=True):
        assert ln["owner"]["name"] == NAMES[st.last_seat]
        assert tuple(coord_key(c) for c in ln["endpoints"]) == s.geo.line_coords[st.last_line]
    assert len(doc["hexagons"]) == sum(s.scores)
    for hx in doc["hexagons"]:
        assert set(hx) == {"center", "owner"}
        check_player(hx["owner"], NAMES)
    by_owner = [sum(1 for hx in doc["hexagons"] if hx["owner"]["name"] == n) for n in NAMES]
    assert by_owner == list(s.scores)


def test_delta_contains_only_what_changed_since_the_request_began() -> None:
    s0 = random_state(3, 10)
    assert not s0.over
    rng = random.Random(5)
    s = s0
    for _ in range(4):
        s = GAME.play(s, GAME.random_move(s, rng))
    d = delta_json(s0.ply, s, NAMES)
    assert set(d) == {"lines", "hexagons", "players", "state"}
    assert len(d["lines"]) == 4
    full = game_json(s, NAMES)
    assert d["lines"] == full["lines"][s0.ply :]
    assert delta_json(s.ply, s, NAMES)["lines"] == []
    # The hexagons of the delta are exactly the new captures.
    assert len(d["hexagons"]) == sum(s.scores) - sum(s0.scores)


def test_delta_of_a_double_capture_names_both_hexagons() -> None:
    from test_hexdots_rules import SETUP

    s = GAME.new(rows=5, cols=5)
    for t in SETUP:
        s = GAME.play(s, GAME.parse(t))
    before = s.ply
    s = GAME.play(s, parse_move_body([{"row": 2, "col": 1}, {"row": 1, "col": 2}]))
    d = delta_json(before, s, NAMES)
    assert d["lines"] == [
        {
            "endpoints": [{"row": 1, "col": 2}, {"row": 2, "col": 1}],
            "owner": {"name": "Bot1", "score": 2},
        }
    ]
    assert sorted(coord_key(h["center"]) for h in d["hexagons"]) == [(1, 1), (2, 2)]
    assert all(h["owner"] == {"name": "Bot1", "score": 2} for h in d["hexagons"])
    assert d["players"] == [{"name": "Bot1", "score": 2}, {"name": "Bot2", "score": 0}]
    assert d["state"] == "in play"


def test_disqualified_player() -> None:
    s = random_state(1, 5)
    doc = game_json(s, NAMES, disqualified={1})
    assert doc["players"][1]["score"] == "disqualified"
    assert doc["players"][0]["score"] == s.scores[0]
    assert doc["state"] == "completed"
    assert status_of(s, 2, ()) == "in play"
    assert game_json(s, NAMES, status="in play")["state"] == "in play"
    assert game_json(s, NAMES, None, None)["state"] == "in play"
    assert delta_json(0, s, NAMES, disqualified=[0])["players"][0]["score"] == "disqualified"


def test_parse_move_body() -> None:
    assert parse_move_body([{"row": 1, "col": 0}, {"row": 0, "col": 0}]) == ((0, 0), (1, 0))
    assert parse_move_body(b'[{"row":0,"col":0},{"row":0,"col":1}]') == ((0, 0), (0, 1))
    assert parse_move_body(move_body(((2, 3), (3, 3)))) == ((2, 3), (3, 3))
    bad: list[Any] = [
        {"row": 0, "col": 0},
        [{"row": 0, "col": 0}],
        [{"row": 0, "col": 0}, {"row": 0, "col": 1}, {"row": 0, "col": 2}],
        [{"row": 0}, {"row": 0, "col": 1}],
        [{"row": "0", "col": 0}, {"row": 0, "col": 1}],
        [{"row": 0.0, "col": 0}, {"row": 0, "col": 1}],
        [{"row": True, "col": 0}, {"row": 0, "col": 1}],
        [[0, 0], [0, 1]],
        None,
        b"not json",
        "[1,",
    ]
    for body in bad:
        with pytest.raises(InvalidMove, match=r"^invalid line data"):
            parse_move_body(body)


def test_parse_new_game() -> None:
    assert parse_new_game({"rows": 5, "cols": 3}) == {"rows": 5, "cols": 3}
    assert parse_new_game('{"rows": 7, "cols": 9}') == {"rows": 7, "cols": 9}
    for bad in [{"rows": 4, "cols": 5}, {"rows": 5}, {"rows": "5", "cols": 5}, [], {"rows": 5, "cols": 99}]:
        with pytest.raises(ConfigError, match=r"^invalid game data"):
            parse_new_game(bad)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_state_from_game_json_round_trip(seed: int) -> None:
    s = random_state(seed, 1000, rows=7, cols=6)
    for st in [s, *s.moves_since(0)[::7]]:
        doc = json.loads(json.dumps(game_json(st, NAMES)))
        back = state_from_game_json(doc)
        assert back == st
        assert GAME.to_move(back) == GAME.to_move(st)
