"""Player schemes come from the ``hexarena.players`` entry points: each once, whether or not a server runs."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from fakedist import fake_dist, run_with

from hexarena.core import ConfigError
from hexarena.players.base import BasePlayer
from hexarena.players.spec import PLAYERS_GROUP, make_player, register_scheme, registered_schemes

SHIPPED = {
    "battlebot": "hexarena.server.battlebot.lobby",
    "browser": "hexarena.server.ui",
    "builtin": "hexarena.players.spec",
    "bws": "hexarena.players.spec",
    "hiveai": "hexarena.players.hiveai",
    "hiveai-stdio": "hexarena.players.hiveai",
    "htp": "hexarena.players.htp",
    "human": "hexarena.players.spec",
    "open": "hexarena.server.ui",
    "stateless": "hexarena.players.spec",
    "uais": "hexarena.players.uais",
    "uhp": "hexarena.players.uhp",
}

PROBE = """
import json
import re
from hexarena.players.spec import registered_schemes, scheme_errors
print(json.dumps({"schemes": {n: s.factory.__module__ for n, s in registered_schemes().items()},
                  "errors": scheme_errors()}))
"""


def test_every_shipped_scheme_exists_without_a_server(tmp_path: Path) -> None:
    """``battlebot`` used to appear only once the server installed its routes, and ``browser`` was registered
    twice (the plain one by ``players.browser``, the web UI's by ``server.ui.install``; the last one won)."""
    out = run_with(tmp_path, "-c", PROBE)
    assert out.returncode == 0, out.stderr
    found = json.loads(out.stdout)
    assert found == {"schemes": SHIPPED, "errors": {}}


async def test_battlebot_outside_a_server_says_what_it_needs() -> None:
    with pytest.raises(ConfigError, match=r"running hexarena server \(`hexarena serve`\)"):
        await make_player("battlebot:somebot", "tictactoe")


def test_a_taken_scheme_name_is_refused() -> None:
    async def factory(game: str, rest: str) -> BasePlayer:
        raise AssertionError

    registered_schemes()
    for name in ("builtin", "browser"):
        with pytest.raises(ValueError, match=f"player scheme '{name}' is already registered"):
            register_scheme(name, factory, "x", starts_program=False, remote=True)


BROKEN = """
NOT_A_SCHEME = 42
"""

MAKE = """
import asyncio, sys
from hexarena.players.spec import make_player, registered_schemes
print(sorted(registered_schemes()))
for spec in sys.argv[1:]:
    try:
        asyncio.run(make_player(spec, "tictactoe"))
    except Exception as exc:
        print(type(exc).__name__, exc)
    else:
        print("made", spec)
"""


def test_a_broken_scheme_plugin_is_named_and_the_others_work(tmp_path: Path) -> None:
    root = fake_dist(
        tmp_path,
        "broken-players",
        {PLAYERS_GROUP: {"crashy": "no_such_module_here:SCHEME", "fortytwo": "broken_players:NOT_A_SCHEME"}},
        {"broken_players.py": BROKEN},
    )
    out = run_with(root, "-c", MAKE, "crashy:x", "fortytwo:y", "builtin:random", "nosuch:z")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert "crashy" not in lines[0] and "'builtin'" in lines[0]
    assert lines[1].startswith("ConfigError plugin entry point 'crashy = no_such_module_here:SCHEME' in group ")
    assert "distribution broken-players 0.1" in lines[1] and "ModuleNotFoundError" in lines[1]
    assert "42 is not a hexarena.players.spec.Scheme" in lines[2]
    assert lines[3] == "made builtin:random"
    assert lines[4].startswith("ConfigError unknown player spec 'nosuch:z'; use one of battlebot:..., ")


@pytest.mark.parametrize("spec", ["browser", "open:guest", "human", "battlebot:somebot"])
def test_the_command_line_refuses_seats_only_a_server_serves(tmp_path: Path, spec: str) -> None:
    """``hexarena play`` used to take a browser seat and wait ten minutes for a page that had no server to reach."""
    out = run_with(tmp_path, "-m", "hexarena.cli", "play", "htttx", "--x", spec, "--o", "builtin:random", timeout=60)
    assert out.returncode != 0
    assert f"{spec!r} is a seat that a running server serves: start `hexarena serve`" in out.stderr


def test_the_schemes_that_need_a_server_say_so() -> None:
    assert sorted(n for n, s in registered_schemes().items() if s.needs_server) == [
        "battlebot",
        "browser",
        "human",
        "open",
    ]


SCHEME_PLUGIN = """
from hexarena.players.inprocess import InProcessPlayer
from hexarena.players.spec import Scheme


async def _make(game, rest):
    player = InProcessPlayer.builtin(game, "random")
    player.name = f"coin:{rest}"
    return player


SCHEME = Scheme("coin", _make, "coin:NAME  a random mover from a plugin", starts_program=False, remote=True)
"""


def test_a_scheme_plugin_plays_from_the_command_line(tmp_path: Path) -> None:
    root = fake_dist(
        tmp_path, "coin-player", {PLAYERS_GROUP: {"coin": "coin_player:SCHEME"}}, {"coin_player.py": SCHEME_PLUGIN}
    )
    out = run_with(
        root, "-m", "hexarena.cli", "play", "tictactoe", "--x", "coin:heads", "--o", "builtin:perfect", "--games", "2"
    )
    assert out.returncode == 0, out.stderr
    assert re.search(r"coin:heads\s*│", out.stdout) and "builtin:perfect" in out.stdout, out.stdout
