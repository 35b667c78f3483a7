"""Every game's published rules: the pictures are the positions the game's own engine reaches and reports.

Each check compares what an example's SVG marks with what the engine says of the same replayed position (the
stones of ``to_json``, the winning line it found, the destinations ``legal_view`` gives a Hive piece), so a
picture that drifted from the rules fails here.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

import pytest

from hexarena.core.errors import ConfigError
from hexarena.core.game import Game
from hexarena.core.registry import available_games, get_game
from hexarena.games.rules import Example, Rules, Section, position, publish, published, rules_of, unpublished

SVG = "{http://www.w3.org/2000/svg}"
BUILTIN = ("hex", "hexdots", "hive", "htttx", "numberwang", "tictactoe")


def marks(svg: str) -> dict[str, set[str]]:
    """``data-mark`` -> the ``data-cell`` names carrying it, read from the SVG as XML."""
    out: dict[str, set[str]] = {}
    for element in ET.fromstring(svg).iter():
        if "data-mark" in element.attrib:
            out.setdefault(element.attrib["data-mark"], set()).add(element.attrib.get("data-cell", ""))
    return out


def example(name: str, caption_start: str) -> tuple[Game[Any, Any], Rules, Example]:
    game = get_game(name)
    rules = rules_of(name)
    assert rules is not None, f"{name} publishes no rules"
    for section in rules.sections:
        for e in section.examples:
            if e.caption.startswith(caption_start):
                return game, rules, e
    raise AssertionError(f"no example of {name} starts {caption_start!r}")


def svg_of(name: str, caption_start: str) -> tuple[str, Any, Game[Any, Any], Example]:
    game, rules, e = example(name, caption_start)
    pictures = [x for s in publish(game, rules)["sections"] for x in s["examples"] if x["caption"] == e.caption]
    return pictures[0]["svg"], position(game, e), game, e


@pytest.mark.parametrize("name", BUILTIN)
def test_every_builtin_game_publishes_rules_with_pictures(name: str) -> None:
    page = published(get_game(name))
    assert page["published"] and page["summary"] and page["sections"]
    pictures = [e for s in page["sections"] for e in s["examples"]]
    assert pictures, f"{name}: no example positions"
    for e in pictures:
        root = ET.fromstring(e["svg"])
        assert root.tag == f"{SVG}svg" and root.attrib["role"] == "img"
        assert root.attrib["aria-label"] == e["caption"] and root.find(f"{SVG}title") is not None


def test_htttx_picture_holds_the_engines_stones_and_its_winning_line() -> None:
    svg, state, game, _ = svg_of("htttx", "X's first stone of its fourth turn")
    view = game.to_json(state)
    found = marks(svg)
    assert found["x"] == {f"{c['q']},{c['r']}" for c in view["cells"] if c["p"] == "x"}
    assert found["o"] == {f"{c['q']},{c['r']}" for c in view["cells"] if c["p"] == "o"}
    assert view["win_line"] and found["win"] == {f"{q},{r}" for q, r in view["win_line"]}
    assert game.outcome(state).winner == 0


def test_htttx_view_distance_picture_marks_the_engines_legal_cells() -> None:
    svg, state, game, _ = svg_of("htttx", "With view_distance 2")
    assert marks(svg)["legal"] == {f"{q},{r}" for q, r in game.legal_view(state)["cells"]}
    assert len(marks(svg)["legal"]) == 18  # every cell within 2 steps of the one stone


def test_hive_picture_marks_the_engines_destinations_of_the_piece() -> None:
    for caption, piece in (
        ("The white ladybug", "wL"),
        ("The white mosquito", "wM"),
        ("White's pillbug may move the black ant", "bA1"),
    ):
        svg, state, game, e = svg_of("hive", caption)
        assert e.show == piece
        moves = [m for m in game.legal_view(state)["moves"] if m["piece"] == piece]
        assert moves, caption
        assert marks(svg)["legal"] == {f"{m['to'][0]},{m['to'][1]}" for m in moves}, caption
        assert marks(svg)["from"] == {f"{m['from'][0]},{m['from'][1]}" for m in moves}, caption
        on_board = {f"{c['q']},{c['r']}" for c in game.to_json(state)["board"]}
        drawn = {
            el.attrib["data-cell"]
            for el in ET.fromstring(svg).iter()
            if el.attrib.get("data-mark") not in (None, "legal")
        }
        assert on_board <= drawn, caption


def test_hex_win_picture_marks_the_engines_winning_chain() -> None:
    svg, state, game, _ = svg_of("hex", "Black has joined top and bottom")
    assert game.outcome(state).winner == 0  # the caption's claim, checked against the engine
    view = game.to_json(state)
    assert marks(svg)["win"] == set(view["winning"]) and view["winning"]
    stones = {game.format((r, c)) for r, row in enumerate(view["board"]) for c, s in enumerate(row) if s == "B"}
    assert marks(svg)["black"] == stones


def test_hexdots_pictures_hold_the_engines_lines_and_capture() -> None:
    svg, state, game, _ = svg_of("hexdots", "Second (blue) closed the hexagon")
    view = game.to_json(state)
    assert game.outcome(state).winner == 1
    centres = {f"{h['center']['row']},{h['center']['col']}" for h in view["hexagons"] if h["owner"]["name"] == "second"}
    assert centres and centres <= marks(svg)["second"]
    svg, state, game, _ = svg_of("hexdots", "Five of the six lines")
    assert marks(svg)["legal"] == {m["move"] for m in game.legal_view(state)["moves"]}


def test_tictactoe_and_numberwang_mark_the_engines_result() -> None:
    svg, state, game, _ = svg_of("tictactoe", "X has played a1")
    assert marks(svg)["win"] == {game.format((0, c)) for c in range(3)} and game.outcome(state).winner == 0
    svg, state, game, _ = svg_of("numberwang", "7, -2, then 5")
    assert marks(svg)["win"] == {"10"} and game.outcome(state).winner == 0


def test_an_example_the_engine_refuses_names_the_move() -> None:
    game = get_game("tictactoe")
    rules = rules_of("tictactoe")
    assert rules is not None
    bad = Rules("s", (Section("t", "x", (Example("twice on a1", ("a1", "a1")),)),), rules.draw)
    with pytest.raises(ConfigError, match=r"twice on a1.*move 2 'a1' is refused by the engine"):
        publish(game, bad)


def test_a_game_without_rules_says_so() -> None:
    game = get_game("tictactoe")
    page = unpublished(game)
    assert page["published"] is False and page["sections"] == []
    assert page["summary"].startswith("No rules published for")


def test_every_registered_game_with_rules_is_published() -> None:
    """``rules_of`` answers for every registered game: rules or None, never an error."""
    for name in available_games():
        assert rules_of(name) is not None or published(get_game(name))["published"] is False
