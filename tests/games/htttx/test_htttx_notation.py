"""Hexagonal Tic Tac Toe Notation v1: reading, writing, round trips and replays."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hexarena.core.errors import ConfigError, IllegalMove, InvalidMove
from hexarena.games.htttx import HTTTX, GameRecord, read_record, record_from_state, replay_record, write_record

SAMPLE = (
    "name[Club final, game 2]platform[hexarena]playercross[alpha]playercircle[beta]timecontrol[60+5]"
    "endreason[win]winner[circle]utcdatetime[2026-11-21 18:30:00]version[1];\n"
    "1. [1,0][2,0]; 2. [0,1][0,-1]!; 3. [3,0][4,0]!!; 4. [-1,1][1,-1]; 5. [5,0][6,0];"
)


def test_read_sample() -> None:
    rec = read_record(SAMPLE)
    assert rec.headers["name"] == "Club final, game 2"
    assert rec.headers["utcdatetime"] == "2026-11-21 18:30:00"
    assert rec.turns[0] == ((1, 0), (2, 0)) and rec.turns[-1] == ((5, 0), (6, 0))
    assert rec.threats == [0, 1, 2, 0, 0]
    end = replay_record(rec)
    assert end.winner == 1 and end.turns == 5
    assert record_from_state(end, {"name": "Club final, game 2"}).headers["winner"] == "circle"


def test_whitespace_and_optional_numbers() -> None:
    rec = read_record("version [1] name[  a ; b  ] ;\n 1 . [ 1 6 , 0 ] [ 1,\n-1 ] ! ! ; [2,2][3,3];!")
    assert rec.headers == {"version": "1", "name": "  a ; b  "}
    assert rec.turns == [((16, 0), (1, -1)), ((2, 2), (3, 3))]
    assert rec.threats == [2, 1]
    assert read_record("").turns == [] and read_record("[1,0][2,0];").turns == [((1, 0), (2, 0))]


@pytest.mark.parametrize(
    "bad",
    [
        "version[2];",
        "name[x]name[y];",
        "name[x]",
        "name[x;",
        "name x;",
        "1.[1,0];",
        "2.[1,0][2,0];",
        "1.[1,0][2,0];garbage",
        "1.[1,0][2,0]",
        "1.[1,0][2,0,3];",
        "1.[1234567890123,0][1,0];",
    ],
)
def test_bad_records(bad: str) -> None:
    with pytest.raises(InvalidMove):
        read_record(bad)


def test_write_rejects_unwritable_headers() -> None:
    with pytest.raises(InvalidMove):
        write_record(GameRecord({"name": "a]b"}, [], []))
    with pytest.raises(InvalidMove):
        write_record(GameRecord({"bad key": "x"}, [], []))


def test_write_format() -> None:
    rec = GameRecord({"winner": "cross", "name": "g"}, [((1, 0), (2, 0)), ((0, 1), (0, 2))], [0, 1])
    assert write_record(rec) == "name[g]winner[cross]version[1];\n1. [1,0][2,0]; 2. [0,1][0,2]!;\n"


header_values = st.text(st.characters(blacklist_characters="]", blacklist_categories=["Cs"]), max_size=12)
coords = st.tuples(st.integers(-999, 999), st.integers(-999, 999))


@settings(deadline=None)
@given(
    headers=st.dictionaries(st.from_regex(r"[a-z][a-z0-9]{0,8}", fullmatch=True), header_values, max_size=5),
    turns=st.lists(st.tuples(coords, coords), max_size=12),
    data=st.data(),
)
def test_write_read_roundtrip(headers: dict[str, str], turns: list, data: st.DataObject) -> None:
    threats = data.draw(st.lists(st.integers(0, 3), min_size=len(turns), max_size=len(turns)))
    rec = GameRecord(dict(headers), turns, threats)
    back = read_record(write_record(rec))
    expected = dict(headers)
    expected.setdefault("version", "1")
    if expected["version"] != "1":
        return  # such a record is refused on reading, by design
    assert back == GameRecord(expected, turns, threats)


def test_game_to_record_and_back() -> None:
    rng = random.Random(5)
    for _ in range(3):
        s = HTTTX.new(view_distance=3, win_distance=4)
        while HTTTX.outcome(s) is None:
            s = HTTTX.play(s, HTTTX.random_move(s, rng))
        rec = record_from_state(s, {"playercross": "r1", "playercircle": "r2"})
        text = write_record(rec)
        again = replay_record(read_record(text), view_distance=3, win_distance=4)
        assert again == s and again.history == s.history
        assert read_record(text).headers["endreason"] == "win"


def test_replay_names_the_bad_turn() -> None:
    with pytest.raises(IllegalMove, match=r"turn 2 \[1,0\]\[3,0\]: cell \(1, 0\) is occupied"):
        replay_record(read_record("1.[1,0][2,0];2.[1,0][3,0];"))


def test_free_setup_cannot_be_recorded() -> None:
    with pytest.raises(ConfigError):
        record_from_state(HTTTX.from_cells([(0, 0, 0), (1, 0, 1)], 0))
