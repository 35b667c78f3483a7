"""``check-bot --param NAME=VALUE``: the checked games' parameters (a base-game Hive engine refuses expansions),
with clear errors for a malformed option or a parameter the game does not have."""

from __future__ import annotations

import sys

from click.testing import CliRunner

from hexarena.cli import main

ENGINE = f"uhp:{sys.executable} -m hexarena.cli uhp --bot random"


def test_a_malformed_param_says_the_form() -> None:
    result = CliRunner().invoke(main, ["check-bot", ENGINE, "--param", "expansions"])
    assert result.exit_code == 2 and "--param takes NAME=VALUE" in result.stderr


def test_a_param_the_game_lacks_is_named() -> None:
    result = CliRunner().invoke(main, ["check-bot", ENGINE, "--param", "nosuch=1"])
    assert result.exit_code == 2 and "unknown parameter(s) ['nosuch'] for hive" in result.stderr
