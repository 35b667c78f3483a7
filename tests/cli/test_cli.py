"""The command line as a user meets it: --help everywhere, play between player specs, clear errors."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from hexarena.cli import main


def commands(group, prefix=()):  # type: ignore[no-untyped-def]
    yield prefix
    for name, cmd in getattr(group, "commands", {}).items():
        yield from commands(cmd, (*prefix, name))


@pytest.mark.parametrize("path", list(commands(main)), ids=lambda p: " ".join(p) or "hexarena")
def test_every_command_has_help(path: tuple[str, ...]) -> None:
    result = CliRunner().invoke(main, [*path, "--help"])
    assert result.exit_code == 0, result.output
    assert "Usage:" in result.output
    assert len(result.output.splitlines()) > 3


def test_play_one_game_prints_board_and_result() -> None:
    result = CliRunner().invoke(main, ["play", "tictactoe", "--x", "builtin:perfect", "--o", "builtin:random"])
    assert result.exit_code == 0, result.output
    assert "wins" in result.output or "draw" in result.output
    assert "moves" in result.output


def test_play_many_games_prints_a_table() -> None:
    result = CliRunner().invoke(
        main, ["play", "hex", "--black", "builtin:random", "--white", "builtin:random", "--size", "3", "--games", "6"]
    )
    assert result.exit_code == 0, result.output
    assert "6 games of hex" in result.output
    assert "builtin:random" in result.output and "score" in result.output


def test_a_bot_against_itself_gets_two_rows_whose_scores_add_up() -> None:
    """The same spec in both seats: one row per player (named by its seat in game 1), not one row holding both
    players' wins and losses with a score of their sum (it printed 6 wins, 6 losses, 100.0 %)."""
    result = CliRunner().invoke(
        main, ["play", "tictactoe", "--x", "builtin:random", "--o", "builtin:random", "--games", "6", "--quiet"]
    )
    assert result.exit_code == 0, result.output
    rows = [line for line in result.output.splitlines() if "builtin:random (" in line]
    assert len(rows) == 2 and "(X in game 1)" in rows[0] and "(O in game 1)" in rows[1], result.output
    scores = [float(row.split("│")[-2].strip().rstrip("%")) for row in rows]
    assert abs(sum(scores) - 100.0) < 0.2, scores


def test_play_uais_bot_from_the_command_line() -> None:
    bot = f"uais:{sys.executable} examples/uais_random_bot.py"
    result = CliRunner().invoke(
        main, ["play", "hex", "--black", bot, "--white", "builtin:random", "--size", "4", "--quiet"]
    )
    assert result.exit_code == 0, result.output
    assert "connected" in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "chess", "--white", "x"], "unknown game 'chess'"),
        (["play", "hex", "--black", "builtin:random"], "give a player for --white"),
        (["play", "hex", "--black", "builtin:nobot", "--white", "builtin:random"], "no built-in bot 'nobot'"),
        (["play", "hex", "--black", "builtin:random", "--white", "builtin:random", "--size", "99"], "must be <= 26"),
        (
            ["play", "hex", "--black", "builtin:random", "--white", "builtin:random", "--colour", "red"],
            "unknown option",
        ),
        (["play", "hex", "--black", "ftp://x", "--white", "builtin:random"], "unknown player spec"),
        (["play", "htttx", "--x", "builtin:random", "--o", "builtin:random", "--clock-type", "turn"], "needs 'clock'"),
    ],
)
def test_bad_input_gets_a_clear_error(args: list[str], message: str) -> None:
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2
    assert message in result.output


def test_play_tictactoe_and_numberwang_print_a_board_not_a_dict() -> None:
    ttt = CliRunner().invoke(main, ["play", "tictactoe", "--x", "builtin:perfect", "--o", "builtin:perfect"])
    assert ttt.exit_code == 0, ttt.output
    assert "{" not in ttt.output and "'board'" not in ttt.output, ttt.output
    grid = [line for line in ttt.output.splitlines() if line.count("|") == 2]
    assert len(grid) == 3, ttt.output  # three rows of three cells
    assert sum(line.count("X") for line in grid) == 5 and sum(line.count("O") for line in grid) == 4  # a draw
    assert [line.split()[0] for line in grid] == ["a", "b", "c"]  # rows named as the notation names them
    nw = CliRunner().invoke(main, ["play", "numberwang", "--first", "builtin:random", "--second", "builtin:random"])
    assert nw.exit_code == 0, nw.output
    assert "{" not in nw.output and "'n'" not in nw.output, nw.output
    assert "n = " in nw.output


@pytest.mark.parametrize(
    ("game", "needles"),
    [
        ("hex", ["--black SPEC", "--white SPEC", "--size", "--swap", "builtin:mcts"]),
        ("tictactoe", ["--x SPEC", "--o SPEC", "builtin:perfect"]),
        ("noughtsandcrosses", ["--x SPEC", "--o SPEC"]),
        ("numberwang", ["--first SPEC", "--second SPEC", "--ply-limit", "100"]),
        ("htttx", ["--x SPEC", "--o SPEC", "--view-distance", "--win-distance"]),
    ],
)
def test_play_help_lists_the_seats_and_parameters_of_the_game(game: str, needles: list[str]) -> None:
    result = CliRunner().invoke(main, ["play", game, "--help"])
    assert result.exit_code == 0, result.output
    for needle in needles:
        assert needle in result.output, (needle, result.output)


def test_play_help_without_a_game_lists_the_games() -> None:
    result = CliRunner().invoke(main, ["play", "--help"])
    assert result.exit_code == 0, result.output
    assert all(g in result.output for g in ("htttx", "hex", "hexdots", "hive", "tictactoe", "numberwang"))


def _play(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[2] / "src"))
    return subprocess.run(
        [sys.executable, "-m", "hexarena.cli", "play", *args], capture_output=True, text=True, timeout=timeout, env=env
    )


SILENT = f"uais:{sys.executable} {Path(__file__).resolve().parents[1] / 'stdio' / 'bots' / 'bad_bot.py'} silent"


def test_play_without_a_clock_caps_every_move_and_says_so() -> None:
    """A silent bot used to hang `hexarena play` forever when no clock was given."""
    out = _play("hex", "--black", SILENT, "--white", "builtin:random", "--size", "3", "--move-cap", "1")
    assert out.returncode == 0, out.stderr
    assert "white (builtin:random) wins" in out.stdout and "time" in out.stdout, out.stdout
    assert "1.000 s" in out.stdout
    assert "no clock" in out.stderr and "1 s" in out.stderr, out.stderr
    none = _play("tictactoe", "--x", "builtin:random", "--o", "builtin:random", "--clock-type", "none")
    assert none.returncode == 0, none.stderr
    assert "no clock" in none.stderr and "--move-cap" in none.stderr, none.stderr
    clocked = _play(
        "tictactoe", "--x", "builtin:random", "--o", "builtin:random", "--clock-type", "turn", "--clock", "5"
    )
    assert "no clock" not in clocked.stderr  # a clock of the user's own: no cap, nothing to say


def test_play_without_a_clock_uses_the_games_default_clock_and_says_so() -> None:
    """No clock given used to cap a move at 120 s, so a built-in search thought up to 60 s a move."""
    out = _play("hex", "--black", "builtin:random", "--white", "builtin:random", "--size", "3")
    assert out.returncode == 0, out.stderr
    assert "hex's default clock, incremental 600 s a side + 5 s a move" in out.stderr, out.stderr
    assert "--move-cap" not in out.stderr
    quick = _play("tictactoe", "--x", "builtin:random", "--o", "builtin:random")
    assert "tictactoe's default clock, match 60 s a side" in quick.stderr, quick.stderr


def test_play_of_one_htttx_game_prints_a_board_and_a_summary_not_the_state() -> None:
    out = _play("htttx", "--x", "builtin:heuristic", "--o", "builtin:random", "--clock-type", "none", timeout=300)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert "{" not in out.stdout and "'q'" not in out.stdout  # no dict of every stone
    assert " turns, " in lines[0] and " stones (x " in lines[0], lines[0]
    board = lines[1:16]
    assert all(set(row.strip()) <= set("XOxo. ") for row in board), board
    assert sum(row.count("x") + row.count("o") for row in board) >= 6  # the winning line, lower case
    assert len(out.stdout) < 2000
