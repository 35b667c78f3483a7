"""``GET /api/games`` carries what the web pages need to know of each game, from the game's own declarations:
its clock presets and default, its parameters in words, the bot protocols that can seat it (each player scheme
declares the games it plays) and the URL of its board module; a plugin's board is served from its package.

A real ``hexarena serve`` with examples/nim installed for real and a second plugin (``nimboard``, nim with a board
of its own, and ``nimnoboard``, whose declared board file is missing) on its path.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fakedist import BOARD_JS, serve_board_plugins, shared_nim_site

from hexarena.core.game import STANDARD_PRESETS, ClockPreset, Param, clock_menu, preset_label


@pytest.fixture(scope="module")
def plugin_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serve_board_plugins(tmp_path_factory.mktemp("declarations"), shared_nim_site(tmp_path_factory)) as url:
        yield url


def games(url: str) -> dict[str, dict[str, Any]]:
    return {g["name"]: g for g in httpx.get(f"{url}/api/games").json()}


def test_each_game_carries_its_presets_and_default(plugin_server: str) -> None:
    meta = games(plugin_server)
    defaults = {name: g["default_preset"] for name, g in meta.items()}
    assert defaults == {
        "hex": "10+5",
        "hive": "10+5",
        "hexdots": "5+3",
        "htttx": "5+3",
        "tictactoe": "1 min",
        "numberwang": "1 min",
        "nim": "30 s",  # the plugin's own
        "nimboard": "30 s",
        "nimnoboard": "30 s",
    }
    assert [p["label"] for p in meta["nim"]["clock_presets"]] == ["30 s", "1+1", "10 s a move", "No clock"]
    assert meta["nim"]["clock_presets"][0] == {"label": "30 s", "type": "match", "seconds": 30}
    assert meta["hex"]["clock_presets"][3] == {"label": "10+5", "type": "incremental", "seconds": 600, "increment": 5}
    assert meta["hex"]["clock_presets"][-1] == {"label": "No clock", "type": "none"}


def test_the_bot_protocols_each_game_can_seat_come_from_the_schemes(plugin_server: str) -> None:
    remote = {name: [r["scheme"] for r in g["remote_players"]] for name, g in games(plugin_server).items()}
    assert remote["htttx"] == ["bws", "stateless"]
    assert remote["hive"] == ["hiveai"]  # a Trylobot module at HOST:PORT: the lobby offered none before
    assert remote["hex"] == remote["nim"] == remote["tictactoe"] == []
    (bws,) = [r for r in games(plugin_server)["htttx"]["remote_players"] if r["scheme"] == "bws"]
    assert bws["example"].startswith("http://") and "basic_websocket" in bws["help"]


def test_parameters_come_in_words(plugin_server: str) -> None:
    meta = games(plugin_server)
    (expansions,) = meta["hive"]["params"]
    assert expansions["label"] == "Expansion bugs"
    named = dict(zip(expansions["choices"], expansions["choice_labels"], strict=True))
    assert named["MLP"] == "Mosquito, Ladybug and Pillbug" and named["M"] == "Mosquito"
    assert named[""] == "None (the base game)"
    labels = {p["name"]: p["label"] for p in meta["htttx"]["params"]}
    assert labels == {
        "view_distance": "Placement reach",
        "win_distance": "Stones in a row to win",
        "turn_limit": "Turn limit",
    }
    assert meta["nim"]["params"][0]["label"] == "Heaps"


def test_boards_are_declared_and_a_plugins_board_is_served(plugin_server: str) -> None:
    meta = games(plugin_server)
    assert meta["hex"]["board"] == "/ui/js/boards/hex.js"  # a static file: its relative imports resolve
    own = httpx.get(f"{plugin_server}{meta['hex']['board']}")
    assert own.status_code == 200 and "export function make" in own.text
    assert meta["nim"]["board"] is None  # declares none: the generic board
    assert meta["nimnoboard"]["board"] is None  # declares a file that is not there: the generic board too
    assert meta["nimboard"]["board"] == "/api/games/nimboard/board.js"
    served = httpx.get(f"{plugin_server}/api/games/nimboard/board.js")
    assert served.status_code == 200, served.text
    assert served.headers["content-type"].startswith("text/javascript") and served.text == BOARD_JS
    for name, why in (("nim", "no board module"), ("nimnoboard", "no such file"), ("nosuchgame", "nosuchgame")):
        refused = httpx.get(f"{plugin_server}/api/games/{name}/board.js")
        assert refused.status_code == 404 and why in refused.text, (name, refused.text)


def test_a_default_clock_no_preset_names_joins_the_menu() -> None:
    presets, default = clock_menu(STANDARD_PRESETS, ("incremental", 420.0, 2.0))
    assert default == "7+2" and presets[0] == ClockPreset("7+2", "incremental", 420, 2) and len(presets) == 8
    presets, default = clock_menu(STANDARD_PRESETS, ("turn", 30.0, 0.0))
    assert default == "30 s a move" and list(presets) == list(STANDARD_PRESETS)
    assert [preset_label(c) for c in (("match", 90.0, 0.0), ("none", 0.0, 0.0), ("incremental", 90, 1))] == [
        "90 s",
        "No clock",
        "90 s+1",
    ]


@pytest.mark.parametrize(
    ("make", "why"),
    [
        (lambda: ClockPreset("x", "hourglass", 60), "kind must be one of"),
        (lambda: ClockPreset("x", "match", 0), "seconds must be in"),
        (lambda: ClockPreset("x", "match", 10**9), "seconds must be in"),
        (lambda: ClockPreset("x", "incremental", 60, -1), "increment must be in"),
        (lambda: Param("e", str, "a", "h", choices=("a", "b"), choice_labels={"c": "C"}), "does not offer"),
    ],
)
def test_bad_declarations_say_what_is_wrong(make: Any, why: str) -> None:
    with pytest.raises(ValueError, match=why):
        make()


def test_a_board_declaration_must_name_a_file_in_a_package(tmp_path: Path) -> None:
    from hexarena.core.errors import ConfigError
    from hexarena.server.board_modules import board_file

    assert board_file("hexarena:web/js/boards/hex.js").is_file()
    for bad, why in (
        ("board.js", "write it as"),
        ("hexarena:../x.js", "write it as"),
        ("hexarena:/etc/passwd.js", "write it as"),
        ("hexarena:web/index.html", "write it as"),
        ("no_such_package_here:board.js", "not found"),
        ("hexarena:web/js/boards/none.js", "no such file"),
    ):
        with pytest.raises(ConfigError, match=why):
            board_file(bad)
