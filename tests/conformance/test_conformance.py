"""One conformance suite for every registered game: a new game gets all of it by registering.

Checked for each game, from its default parameters (plus a finite turn limit where the game has an optional
one, so that random playouts end by the rules):

* random playouts from many seeds reach an outcome; while a game runs ``to_move`` is a seat and ``legal`` is
  non-empty; once it is over ``to_move`` is None, ``legal`` is empty and ``play`` refuses;
* ``play`` never mutates its input (every public view of the state is the same before and after);
* ``parse(format(m)) == m`` for legal moves, and every move ``legal`` lists is accepted by ``play`` (huge move
  lists, e.g. HTTTX's pairs, are sampled lazily with ``islice``);
* candidate illegal moves (random strings, perturbed notations) are rejected with ``IllegalMove`` or
  ``InvalidMove`` carrying a non-empty reason -- never any other exception -- and, where ``legal`` is small
  enough to list, a parsed move is accepted exactly when it is in ``legal`` (or, for a notation that spells
  one move several ways, when it reaches the same position as a listed move);
* replaying a game's notation from the initial state reproduces the same final position and outcome;
* ``to_json`` says whose turn it is the same way in every game (``to_move``: the seat, None once over;
  ``sides``: what each seat plays now), and ``legal_view`` (the web UI's clickable moves) names only legal
  moves, and ``kind: none`` once the game is over.
"""

from __future__ import annotations

import itertools
import json
import random
import string
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hexarena.core import HexarenaError, IllegalMove, InvalidMove, Outcome, Termination, available_games

GAMES: dict[str, Any] = available_games()
NAMES = sorted(GAMES)

MAX_PLIES = 600  # a playout longer than this is cut (counted as not ended)
LEGAL_SAMPLE = 300  # moves of ``legal`` examined per position (lazily)
ENUMERABLE = 2000  # positions with at most this many legal moves are checked for exact agreement
PLAYOUTS = 12
TURN_LIMIT_PARAMS = ("turn_limit", "ply_limit", "max_turns", "max_plies")


def params_for(game: Any) -> dict[str, Any]:
    """Default parameters, with an optional turn limit switched on so every playout can end by the rules."""
    out: dict[str, Any] = {}
    for p in game.params:
        if p.name in TURN_LIMIT_PARAMS and p.default is None:
            out[p.name] = 40
    return out


def snapshot(game: Any, state: Any) -> Any:
    """Everything observable about a state: its JSON view, counters, result and the first legal moves.

    Deliberately not ``pickle.dumps(state)``: engines may memoise derived data inside a state (Hive's board
    caches articulation points), which changes its bytes but not its value.
    """
    moves = list(itertools.islice(game.legal(state), ENUMERABLE + 1))
    if len(moves) > ENUMERABLE:
        moves = moves[:60]
    legal = sorted(game.format(m) for m in moves)  # as a set: the order of ``legal`` is not part of the contract
    return (
        json.dumps(game.to_json(state), sort_keys=True, default=str),
        game.ply(state),
        game.to_move(state),
        game.outcome(state),
        legal,
    )


def playout(game: Any, seed: int) -> tuple[list[Any], list[Any]]:
    """A random game: the states (initial first) and the moves between them, checking invariants per ply."""
    rng = random.Random(seed)
    state = game.new(**params_for(game))
    states: list[Any] = [state]
    moves: list[Any] = []
    while game.outcome(state) is None and len(moves) < MAX_PLIES:
        seat = game.to_move(state)
        assert seat in (0, 1), f"to_move is {seat!r} while the game is running"
        assert next(iter(game.legal(state)), None) is not None, "no legal move but no outcome"
        move = game.random_move(state, rng)
        before = snapshot(game, state)
        nxt = game.play(state, move)
        assert snapshot(game, state) == before, f"play({game.format(move)!r}) mutated its input state"
        assert game.ply(nxt) == game.ply(state) + 1
        states.append(nxt)
        moves.append(move)
        state = nxt
    return states, moves


_PLAYOUTS: dict[tuple[str, int], tuple[list[Any], list[Any]]] = {}


def cached_playout(name: str, seed: int) -> tuple[list[Any], list[Any]]:
    """Playouts are deterministic; share them between the checks below to keep the suite fast."""
    key = (name, seed)
    if key not in _PLAYOUTS:
        _PLAYOUTS[key] = playout(GAMES[name], seed)
    return _PLAYOUTS[key]


def _spread(length: int, count: int) -> range:
    """Up to ``count`` evenly spaced indices over ``range(length)``, first and last included."""
    step = max(1, -(-(length - 1) // max(1, count - 1)))
    return range(0, length, step) if length > 1 else range(length)


def sample_positions(name: str, seeds: range, per_game: int = 12) -> Iterator[Any]:
    for state, _ in sample_positions_with_history(name, seeds, per_game):
        yield state


def sample_positions_with_history(name: str, seeds: range, per_game: int) -> Iterator[tuple[Any, list[Any]]]:
    """Positions with the moves that led to them (already-played moves make good illegal candidates); the
    final position of each playout is always included."""
    for seed in seeds:
        states, moves = cached_playout(name, seed)
        picked = sorted({*_spread(len(states), per_game), len(states) - 1})
        for i in picked:
            yield states[i], moves[:i]


def view(game: Any, state: Any) -> str:
    return json.dumps(game.to_json(state), sort_keys=True, default=str)


_RESULTS: dict[int, set[str]] = {}


def results_of(game: Any, state: Any, legal: list[Any]) -> set[str]:
    """The positions every listed move reaches (cached per state object)."""
    key = id(state)
    if key not in _RESULTS:
        _RESULTS[key] = {view(game, game.play(state, m)) for m in legal}
    return _RESULTS[key]


def assert_rejected(error: BaseException, what: str) -> None:
    assert isinstance(error, IllegalMove | InvalidMove), f"{what}: raised {type(error).__name__}: {error}"
    assert isinstance(error.reason, str) and error.reason.strip(), f"{what}: rejected without a reason"


@pytest.fixture(params=NAMES)
def name(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def test_registry_is_populated() -> None:
    for expected in ("hex", "tictactoe", "numberwang"):
        assert expected in GAMES


def test_metadata_and_params(name: str) -> None:
    game = GAMES[name]
    assert game.name == name and game.title and len(game.seat_names) == 2
    for p in game.params:
        assert p.coerce(p.default) == p.default or p.default is None
    state = game.new(**params_for(game))
    params = game.params_of(state)
    assert set(params) == {p.name for p in game.params}
    again = game.new(**params)
    assert game.to_json(again) == game.to_json(state)
    # Seat 0 is the first of seat_names and usually, not always, opens: HTTTX places X's origin stone itself,
    # so O (seat 1) makes the first move (core/types.py).
    assert game.to_move(state) in (0, 1) and game.ply(state) == 0 and game.outcome(state) is None


def test_what_the_web_ui_shows_is_declared_soundly(name: str) -> None:
    """The lobby's clock buttons hold the game's default, and a declared board module is a file the server can
    serve (a missing one would quietly leave the game on the generic board)."""
    from hexarena.server.board_modules import board_file

    game = GAMES[name]
    described = game.describe()
    labels = [p["label"] for p in described["clock_presets"]]
    assert described["default_preset"] in labels and len(set(labels)) == len(labels)
    assert all(p["label"] for p in described["params"])
    if game.board_module is not None:
        assert board_file(game.board_module).is_file()


@pytest.mark.slow
def test_random_playouts_end_with_consistent_outcomes(name: str) -> None:
    game = GAMES[name]
    ended = 0
    for seed in range(PLAYOUTS):
        states, moves = cached_playout(name, seed)
        final = states[-1]
        outcome = game.outcome(final)
        if outcome is None:
            assert len(moves) == MAX_PLIES
            continue
        ended += 1
        assert isinstance(outcome, Outcome) and isinstance(outcome.termination, Termination)
        assert outcome.winner in (0, 1, None) and isinstance(outcome.reason, str)
        assert outcome.score(0) + outcome.score(1) == 1
        assert game.to_move(final) is None
        assert list(itertools.islice(game.legal(final), 1)) == []
        for previous in states[-2:-1]:  # a move that was fine one ply earlier is refused now
            m = next(iter(game.legal(previous)))
            with pytest.raises(HexarenaError) as info:
                game.play(final, m)
            assert_rejected(info.value, "play after the end")
        # Replaying the notation from scratch gives the same game.
        state = game.new(**game.params_of(states[0]))
        for m in moves:
            state = game.play(state, game.parse(game.format(m)))
        assert game.to_json(state) == game.to_json(final)
        assert game.outcome(state) == outcome
    assert ended > 0, f"no random playout of {name} ended within {MAX_PLIES} plies"


def test_legal_moves_round_trip_and_are_accepted(name: str) -> None:
    game = GAMES[name]
    rng = random.Random(1)
    checked = 0
    for state in sample_positions(name, range(4)):
        if game.outcome(state) is not None:
            continue
        before = snapshot(game, state)
        for m in itertools.islice(game.legal(state), LEGAL_SAMPLE):
            text = game.format(m)
            assert isinstance(text, str) and text
            assert game.parse(text) == m, f"parse(format({m!r})) = {game.parse(text)!r}"
            nxt = game.play(state, m)
            assert game.ply(nxt) == game.ply(state) + 1
            checked += 1
        for _ in range(5):
            m = game.random_move(state, rng)
            assert game.parse(game.format(m)) == m
            game.play(state, m)
        assert snapshot(game, state) == before
    assert checked > 0


def test_every_view_says_whose_turn_it_is_the_same_way(name: str) -> None:
    """One JSON shape for whose turn it is, so a page or a client reads every game alike (issue 14)."""
    game = GAMES[name]
    for state in sample_positions(name, range(3)):
        js = game.to_json(state)
        assert js["to_move"] == game.to_move(state)
        assert js["sides"] == [game.side_name(state, 0), game.side_name(state, 1)]
        json.dumps(js)


def _listed_moves(view: dict[str, Any]) -> list[str]:
    """The notations a ``legal_view`` names, whatever its kind."""
    if view["kind"] == "htttx":
        return []  # first stones only: the pairs come from the ``htttx_first`` probe
    if view["kind"] == "number":
        return [str(n) for n in range(view["min"], view["max"] + 1)]
    return [m["move"] for m in view.get("moves", [])] + list(view.get("extra", []))


def test_legal_view_names_only_legal_moves(name: str) -> None:
    game = GAMES[name]
    for state in sample_positions(name, range(2), per_game=6):
        view = game.legal_view(state)
        if game.outcome(state) is not None:
            assert view == {"kind": "none", "moves": []}
            continue
        assert view["kind"] != "none"
        listed = _listed_moves(view)
        for text in listed[:LEGAL_SAMPLE]:
            game.play(state, game.parse(text))
        if view["kind"] in ("list", "cells", "lines", "hive"):
            assert len(listed) == len(list(itertools.islice(game.legal(state), ENUMERABLE + 1)))


_ALPHABET = string.ascii_letters + string.digits + " ,;:-+[](){}'\"/\\.@#|_" + "éß１"


def candidate_texts(game: Any, state: Any, history: list[Any], rng: random.Random) -> Iterator[str]:
    """Moves already played, random strings and perturbations of legal moves' notation: mostly illegal,
    sometimes legal."""
    for m in rng.sample(history, min(10, len(history))):
        yield game.format(m)
    legal_texts = [game.format(m) for m in itertools.islice(game.legal(state), 50)]
    for _ in range(25):
        yield "".join(rng.choice(_ALPHABET) for _ in range(rng.randint(0, 8)))
    for text in rng.sample(legal_texts, min(10, len(legal_texts))):
        chars = list(text)
        i = rng.randrange(len(chars))
        yield text[:i] + text[i + 1 :]  # drop a character
        yield text + rng.choice(_ALPHABET)  # append one
        chars[i] = rng.choice(string.ascii_letters + string.digits)
        yield "".join(chars)  # replace one
        yield text.replace("1", "99").replace("0", "-1")  # push numbers off the board
        yield text * 2
    yield ""
    yield "\x00"
    yield "9" * 40


def test_illegal_candidates_are_rejected_with_a_reason(name: str) -> None:
    game = GAMES[name]
    rng = random.Random(2)
    rejected = 0
    for state, history in sample_positions_with_history(name, range(4), per_game=10):
        if game.outcome(state) is None:
            legal = list(itertools.islice(game.legal(state), ENUMERABLE + 1))
            enumerable = len(legal) <= ENUMERABLE
        else:
            legal, enumerable = [], True
        source = state if legal else game.new(**params_for(game))
        for text in candidate_texts(game, source, history, rng):
            try:
                move = game.parse(text)
            except HexarenaError as e:
                assert_rejected(e, f"parse({text!r})")
                continue
            except Exception as e:  # pragma: no cover - the assertion explains the failure
                pytest.fail(f"parse({text!r}) raised {type(e).__name__}: {e}")
            try:
                game.play(state, move)
            except HexarenaError as e:
                assert_rejected(e, f"play({text!r})")
                assert not (enumerable and move in legal), f"legal move {text!r} was rejected: {e}"
                rejected += 1
            except Exception as e:  # pragma: no cover
                pytest.fail(f"play({text!r}) raised {type(e).__name__}: {e}")
            else:
                if enumerable and move not in legal:
                    # A notation may spell one move several ways (Hive's relative positions): then the
                    # result must be the position some listed move reaches.
                    reached = view(game, game.play(state, move))
                    assert reached in results_of(game, state, legal), (
                        f"play accepted {text!r}, which matches no move that legal lists"
                    )
    assert rejected > 0, "no candidate was ever rejected: the check did not test anything"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.text(max_size=12))
def test_parse_raises_only_invalid_move(name: str, text: str) -> None:
    game = GAMES[name]
    try:
        move = game.parse(text)
    except InvalidMove as e:
        assert e.reason.strip()
    else:
        assert game.parse(game.format(move)) == move


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**31), plies=st.integers(0, 30), text=st.text(max_size=10))
def test_play_of_any_parsed_text_is_accepted_or_rejected_cleanly(name: str, seed: int, plies: int, text: str) -> None:
    """Property: whatever the position and the text, parse+play either works or raises a reasoned rules error."""
    game = GAMES[name]
    rng = random.Random(seed)
    state = game.new(**params_for(game))
    for _ in range(plies):
        if game.outcome(state) is not None:
            break
        state = game.play(state, game.random_move(state, rng))
    before = snapshot(game, state)
    try:
        game.play(state, game.parse(text))
    except HexarenaError as e:
        assert_rejected(e, f"parse+play({text!r})")
    assert snapshot(game, state) == before
