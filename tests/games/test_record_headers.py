"""Game headers in exported records (issue 33): every game's record, as a replay's Copy/Download and
``GET /games/{id}`` give it, starts with a PGN-shaped header block (``[Game "htttx"]``, the players, one
``[Param "NAME=VALUE"]`` per parameter, the result, how it ended and the date), a blank line, then the game's own
record. Read back, the block sets the game up with its parameters; a record without it still reads; a bad block
is refused saying which line and why.

Each game is played with parameters that are not its defaults, by its own ``random_move``, so the test covers
every registered game (a new one too) without knowing its moves."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from typing import Any

import pytest

from hexarena.core.errors import ConfigError
from hexarena.core.game import (
    MAX_HEADERS,
    RecordFacts,
    agree_params,
    headed_record,
    read_headers,
    read_moves_text,
    record_headers,
)
from hexarena.core.registry import available_games, get_game

#: Parameters that are not the defaults, so a reader that falls back on defaults is caught.
NOT_DEFAULTS: dict[str, dict[str, Any]] = {
    "hex": {"size": 5, "swap": False},
    "hexdots": {"rows": 3, "cols": 4},
    "hive": {"expansions": "M"},
    "htttx": {"view_distance": 5, "win_distance": 5, "turn_limit": 40},
    "numberwang": {"ply_limit": 30},
    "tictactoe": {},
}
WHEN = datetime(2026, 11, 28, 21, 5, tzinfo=UTC)


def played(name: str, plies: int = 4) -> tuple[Any, dict[str, Any], list[str]]:
    game = get_game(name)
    params = game.validate_params(NOT_DEFAULTS.get(name, {}))
    state, moves, rng = game.new(**params), [], random.Random(7)
    while len(moves) < plies and game.to_move(state) is not None:
        move = game.random_move(state, rng)
        moves.append(game.format(move))
        state = game.play(state, move)
    return game, params, moves


def header_lines(text: str) -> list[str]:
    block, _, _ = text.partition("\n\n")
    return block.splitlines()


@pytest.mark.parametrize("name", sorted(available_games()))
def test_every_games_export_has_the_headers_then_its_own_record(name: str) -> None:
    game, params, moves = played(name)
    facts = RecordFacts(["ann", 'bob "the bot"'], "resign", 1, WHEN, WHEN)
    text = headed_record(game, params, moves, facts)
    lines = header_lines(text)
    assert lines[:3] == [f'[Game "{name}"]', '[First "ann"]', '[Second "bob \\"the bot\\""]'], lines
    assert [x for x in lines if x.startswith("[Param ")] == [
        f'[Param "{p.name}={str(params[p.name]).lower() if isinstance(params[p.name], bool) else params[p.name]}"]'
        for p in game.params
    ]
    assert lines[-3:] == ['[Result "0-1"]', '[Termination "resign"]', '[Date "2026-11-28"]'], lines
    assert text.split("\n\n", 1)[1] == game.record_notation(params, moves, facts)  # the game's own record follows

    stated, body = read_headers(game, text)
    assert stated == params  # the block alone sets the game up, defaults or not
    assert body.strip() == game.record_notation(params, moves, facts).strip()
    reader = getattr(game, "read_record_notation", None)
    body_params, body_moves = reader(body) if reader else ({}, read_moves_text(body))
    assert body_moves == moves
    assert agree_params(game, stated, body_params) == {**body_params, **params}


@pytest.mark.parametrize("name", ["hex", "tictactoe"])
def test_a_header_value_with_escaped_quotes_and_backslashes_reads_back_both_ways(name: str) -> None:
    """A player called ``say "hi" \\`` is written escaped (``\\"`` and ``\\\\``, the last one just before the
    closing quote); the header block reader and the plain move reader (which skips header lines wherever they
    are) both take that line as a header, not as moves or as a bad header."""
    game, params, moves = played(name)
    player = 'say "hi" \\'
    facts = RecordFacts([player, "b"], "resign", 1, WHEN, WHEN)
    text = headed_record(game, params, moves, facts)
    assert header_lines(text)[1] == '[First "say \\"hi\\" \\\\"]'
    stated, body = read_headers(game, text)
    assert stated == params
    assert body.strip() == game.record_notation(params, moves, facts)
    assert read_moves_text(text) == moves


def test_result_termination_and_date_of_games_on_and_over() -> None:
    game = get_game("tictactoe")
    live = header_lines(record_headers(game, {}, RecordFacts(["a", "b"])))
    assert live[-3:] == ['[Result "*"]', '[Termination "unterminated"]', '[Date "????-??-??"]']
    draw = header_lines(record_headers(game, {}, RecordFacts(["a", "b"], "normal", None, WHEN)))
    assert draw[-3:] == ['[Result "1/2-1/2"]', '[Termination "normal"]', '[Date "2026-11-28"]']
    won = header_lines(record_headers(game, {}, RecordFacts(["a", "b"], "time", 0, WHEN)))
    assert won[-3] == '[Result "1-0"]'
    aborted = header_lines(record_headers(game, {}, RecordFacts(["a", "b"], "aborted", None, WHEN)))
    assert aborted[-3:-1] == ['[Result "*"]', '[Termination "aborted"]']  # no result, not a draw


def test_a_record_without_headers_is_all_body() -> None:
    game = get_game("hex")
    assert read_headers(game, "1. c3 swap\n2. b2") == ({}, "1. c3 swap\n2. b2")
    htttx = get_game("htttx")
    assert read_headers(htttx, "[1,0][0,1] [-1,0][0,-1]") == ({}, "[1,0][0,1] [-1,0][0,-1]")


def test_headers_other_games_use_are_read_and_blank_lines_allowed() -> None:
    game = get_game("hex")
    text = '[Event "club night"]\n\n[Param "size=7"]\n[Site "here"]\n\n1. c3'
    assert read_headers(game, text) == ({"size": 7}, "1. c3")


@pytest.mark.parametrize(
    ("name", "text", "words"),
    [
        ("hex", '[Game "hive"]\n\nc3', ["game of 'hive', not hex"]),
        ("hex", '[Param "size"]\n\nc3', ["header line 1", '[Param "NAME=VALUE"]']),
        ("hex", '[Param "colour=red"]\n\nc3', ["no parameter 'colour'", "known: ['size', 'swap']"]),
        ("hex", '[Param "size=99"]\n\nc3', ["header line 1", "'size' must be <= 26"]),
        ("hex", '[Param "size=abc"]\n\nc3', ["'size' must be an integer"]),
        ("hex", '[Param "size=5"]\n[Param "size=7"]\n\nc3', ["header line 2", "'size' is stated twice"]),
        ("hex", '[Game "hex]\n\nc3', ["header line 1 does not read", 'expected [Name "value"]']),
        ("hex", "[Game hex]\n\nc3", ["header line 1 does not read"]),
        ("tictactoe", "\n".join(['[Event "x"]'] * (MAX_HEADERS + 1)), [f"more than {MAX_HEADERS} header lines"]),
        ("tictactoe", f'[Event "{"x" * 2000}"]', ["longer than 1000 characters"]),
    ],
)
def test_a_bad_header_block_is_refused_saying_what_is_wrong(name: str, text: str, words: list[str]) -> None:
    with pytest.raises(ConfigError) as caught:
        read_headers(get_game(name), text)
    for word in words:
        assert word in caught.value.reason, caught.value.reason


def test_headers_and_the_record_must_agree_on_a_parameter_both_state() -> None:
    hive = get_game("hive")
    stated, body = read_headers(hive, '[Param "expansions=L"]\n\nBase+M;InProgress;Black[1];wM')
    params, moves = hive.read_record_notation(body)
    with pytest.raises(ConfigError, match="headers say expansions=L but the record says M"):
        agree_params(hive, stated, params)
    assert agree_params(hive, {"expansions": "M"}, params) == {"expansions": "M"} and moves == ["wM"]
