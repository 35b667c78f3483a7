"""The web pages name no game: what differs from game to game reaches them from the game's declarations.

The lobby once chose a default clock with a table of game names and offered bot URLs only when the game's name
was "htttx", and the board registry was a closed list: a plugin game got none of it. Now ``GET /api/games``
carries each game's clock presets, parameters in words, the bot protocols that can seat it and its board
module's URL, so no file of web/js outside ``boards/`` (each board is one game's own drawing code) may name a
game: in code, a game's name or alias as a word (any case, so "Hive" in a message counts too). Comments may:
they explain why, and may give an example.
"""

from __future__ import annotations

import re
from pathlib import Path

from test_no_game_name_branches import _game_names

JS = Path(__file__).resolve().parents[1] / "src" / "hexarena" / "web" / "js"

_BLOCK = re.compile(r"/\*.*?\*/", re.S)
_LINE = re.compile(r"(^|[^:\\])//.*$", re.M)  # a ``//`` after ``:`` is a URL's (``http://``), not a comment


def code_of(source: str) -> str:
    """``source`` without its comments."""
    return _LINE.sub(r"\1", _BLOCK.sub("", source))


def names_in(source: str, names: set[str]) -> list[str]:
    """``line: name`` of each game name the code (not its comments) says."""
    words = re.compile(r"\b(" + "|".join(map(re.escape, sorted(names))) + r")\b", re.I)
    found = []
    for n, line in enumerate(code_of(source).splitlines(), 1):
        found += [f"{n}: {m.group(1)}" for m in words.finditer(line)]
    return found


def test_the_scan_finds_names_in_code_and_skips_comments() -> None:
    names = {"htttx", "hex", "hive"}
    source = "\n".join(
        [
            'const D = { hex: "10+5" };',
            'if (game.name === "htttx") x();',
            "say(`Hive: ${x}`);",
            "// the Hex swap: a comment",
            'get("http://127.0.0.1/hex");  // a URL naming one is code',
            "/* Hive\n   HTTTX */ ok();",
            "const hexarena = 1;",  # a word that contains a name is not the name
        ]
    )
    assert names_in(source, names) == ["1: hex", "2: htttx", "3: Hive", "5: hex"]


def test_no_page_outside_the_boards_names_a_game() -> None:
    names = _game_names()
    assert {"htttx", "hex", "hexdots", "hive", "tictactoe", "numberwang"} <= names
    found = []
    for path in sorted(JS.rglob("*.js")):
        rel = path.relative_to(JS)
        if rel.parts[0] == "boards" and rel.name != "index.js":  # a board is its game's; the registry is not
            continue
        found += [f"{rel}:{hit}" for hit in names_in(path.read_text(encoding="utf-8"), names)]
    assert found == []
