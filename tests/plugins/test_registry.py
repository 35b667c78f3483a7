"""The game registry is filled from the ``hexarena.games`` entry points, built-ins included, and survives plugins
that are broken: they are left out with a message naming the distribution and the entry point."""

from __future__ import annotations

import json
from importlib.metadata import entry_points
from pathlib import Path

import httpx
import pytest
from fakedist import fake_dist, run_with

from hexarena.core import ConfigError, RuleGame
from hexarena.core.registry import GAMES_GROUP, available_games, get_game, plugin_errors, register_game
from hexarena.games.builtin import BUILTIN


def test_builtin_games_are_the_entry_points_of_the_hexarena_distribution() -> None:
    """One list of built-ins: the typed ``BUILTIN`` tuple mypy checks and the entry points the registry loads."""
    declared = {ep.name: ep for ep in entry_points(group=GAMES_GROUP) if ep.dist and ep.dist.name == "hexarena"}
    assert sorted(declared) == sorted(g.name for g in BUILTIN)
    for game in BUILTIN:
        assert declared[game.name].load() is game
        assert get_game(game.name) is game
    assert plugin_errors() == {}


def test_aliases_come_from_the_game() -> None:
    assert get_game("noughtsandcrosses") is get_game("tictactoe")


def test_unknown_game_lists_the_known_ones() -> None:
    with pytest.raises(ConfigError, match="unknown game 'nope'; known games: hex, hexdots, hive, htttx"):
        get_game("nope")


def test_importing_the_games_package_imports_no_game() -> None:
    """Registration no longer happens by importing ``hexarena.games``: the package is empty on purpose."""
    out = run_with(
        Path("/nonexistent"),
        "-c",
        "import sys, hexarena.games; print(sorted(m for m in sys.modules if m.startswith('hexarena.games.')))",
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


class _Clash(RuleGame[int, int]):
    name = "hex"
    title = "Not Hex"
    seat_names = ("a", "b")


def test_a_second_game_under_a_taken_name_is_refused() -> None:
    """The last registration silently winning would make a game depend on import order."""
    available_games()
    with pytest.raises(ConfigError, match="game 'hex' is already registered"):
        register_game(_Clash())  # type: ignore[arg-type]  # deliberately not a whole Game
    assert register_game(get_game("hex")) is get_game("hex")  # the same object again is harmless


BROKEN_MODULE = """
from hexarena.games.numberwang.game import NumberwangGame

class Imposter(NumberwangGame):
    name = "hex"

class Misnamed(NumberwangGame):
    name = "misnamed_inside"

IMPOSTER = Imposter()
MISNAMED = Misnamed()
NOT_A_GAME = object()
"""

PROBE = """
import json
from hexarena.core.registry import available_games, plugin_errors
print(json.dumps({"games": sorted(available_games()), "errors": plugin_errors()}))
"""


def test_broken_plugins_are_left_out_with_a_message_naming_them(tmp_path: Path) -> None:
    root = fake_dist(
        tmp_path,
        "broken-games",
        {
            GAMES_GROUP: {
                "crashes": "broken_games_missing_module:GAME",
                "notagame": "broken_games:NOT_A_GAME",
                "hex": "broken_games:IMPOSTER",
                "misnamed": "broken_games:MISNAMED",
            }
        },
        {"broken_games.py": BROKEN_MODULE},
    )
    out = run_with(root, "-c", PROBE)
    assert out.returncode == 0, out.stderr
    found = json.loads(out.stdout)
    assert found["games"] == ["hex", "hexdots", "hive", "htttx", "numberwang", "tictactoe"]
    errors = found["errors"]
    assert sorted(errors) == ["crashes", "hex", "misnamed", "notagame"]
    for name, message in errors.items():
        assert "distribution broken-games 0.1" in message and f"'{name} = " in message
    assert "ModuleNotFoundError" in errors["crashes"]
    assert "is not a hexarena Game (missing: " in errors["notagame"]
    missing = errors["notagame"].split("(missing: ", 1)[1]
    assert "describe" in missing and "format" in missing and "to_move" in missing
    assert "must be the game's name 'misnamed_inside'" in errors["misnamed"]
    # the imposter under "hex" is refused and the real Hex stays: hexarena's own entry points load first
    assert "game 'hex' is already registered (hexarena.games.hex." in errors["hex"]
    assert errors["crashes"] in out.stderr  # logged as a warning too


def test_the_cli_names_the_broken_plugin_instead_of_calling_the_game_unknown(tmp_path: Path) -> None:
    root = fake_dist(tmp_path, "broken-games", {GAMES_GROUP: {"crashes": "broken_games_missing_module:GAME"}}, {})
    out = run_with(root, "-m", "hexarena.cli", "play", "crashes", "--a", "builtin:random")
    assert out.returncode != 0
    assert "entry point 'crashes = broken_games_missing_module:GAME' in group hexarena.games" in out.stderr
    assert "distribution broken-games 0.1" in out.stderr
    # and the other games still play
    ok = run_with(
        root, "-m", "hexarena.cli", "play", "tictactoe", "--x", "builtin:random", "--o", "builtin:random", "--quiet"
    )
    assert ok.returncode == 0, ok.stderr


def test_an_installation_without_entry_points_says_to_reinstall(tmp_path: Path) -> None:
    """A checkout installed before the entry points existed has none: say so instead of listing no games."""
    probe = (
        "import importlib.metadata as md, hexarena.core.registry as r\n"
        "r.entry_points = lambda group: []\n"  # what stale package metadata gives
        "try:\n    r.get_game('hex')\nexcept Exception as e:\n    print(e)\n"
    )
    out = run_with(tmp_path, "-c", probe)
    assert "no game is registered at all" in out.stdout and "make setup" in out.stdout, out.stdout + out.stderr


def test_a_server_with_a_broken_plugin_starts_says_so_and_serves_the_other_games(tmp_path: Path) -> None:
    from cli.serving import start_serve, stop

    site = fake_dist(
        tmp_path / "site",
        "broken-games",
        {GAMES_GROUP: {"crashes": "broken_games:GAME"}},
        {"broken_games.py": "raise RuntimeError('this plugin is broken on purpose')\n"},
    )
    proc, url = start_serve(tmp_path, pythonpath=(site,))
    try:
        log = (tmp_path / "serve.log").read_text()
        assert "WARNING hexarena.core.registry: plugin entry point 'crashes = broken_games:GAME'" in log, log
        assert "distribution broken-games 0.1 was left out: importing it raised RuntimeError" in log
        games = [g["name"] for g in httpx.get(f"{url}/api/games").json()]
        assert games == ["hex", "hexdots", "hive", "htttx", "numberwang", "tictactoe"]
        refused = httpx.post(f"{url}/api/matches", json={"game": "crashes", "players": ["builtin:a", "builtin:b"]})
        assert refused.status_code == 400 and "this plugin is broken on purpose" in refused.text
    finally:
        stop(proc)


EXTRA_BOTS = """
from hexarena.bots.tictactoe import RandomTicTacToeBot


class Lazy(RandomTicTacToeBot):
    name = "lazy"


BOTS = {"lazy": Lazy, "random": Lazy}  # "random" is hexarena's: refused
BEST = "lazy"  # hexarena's BEST (perfect) comes first
"""

BOTS_PROBE = """
from hexarena.bots.registry import builtin_bots
t = builtin_bots("tictactoe")
print(sorted(t), t["random"].__module__, t["best"].__name__, sorted(builtin_bots("hex")))
"""


def test_a_plugin_adds_bots_to_a_game_without_replacing_any(tmp_path: Path) -> None:
    root = fake_dist(
        tmp_path,
        "extra-bots",
        {"hexarena.bots": {"tictactoe": "extra_bots", "hex": "extra_bots_missing"}},
        {"extra_bots.py": EXTRA_BOTS},
    )
    out = run_with(root, "-c", BOTS_PROBE)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split("\n")[0] == (
        "['best', 'lazy', 'perfect', 'random'] hexarena.bots.tictactoe PerfectTicTacToeBot ['best', 'mcts', 'random', 'uct']"
    )
    assert "'tictactoe = extra_bots' in group hexarena.bots of distribution extra-bots 0.1" in out.stderr
    assert "bot 'random' of tictactoe is already taken" in out.stderr
    assert "'hex = extra_bots_missing'" in out.stderr and "ModuleNotFoundError" in out.stderr
