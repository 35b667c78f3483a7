"""``hexarena new-bot LANGUAGE [DIR]``: a copy of a starter, without build products, that builds and runs."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner
from starter_procs import BWS_LANGUAGES, StarterServer, need_toolchain

import hexarena.newbot
from hexarena.cli import main
from hexarena.newbot import STARTERS, languages


def test_every_starter_is_offered() -> None:
    assert set(BWS_LANGUAGES) <= set(languages())


@pytest.mark.parametrize("language", BWS_LANGUAGES)
def test_new_bot_copies_the_starter_into_the_folder_given(language: str, tmp_path: Path) -> None:
    dest = tmp_path / "mine"
    result = CliRunner().invoke(main, ["new-bot", language, str(dest)])
    assert result.exit_code == 0, result.output
    assert str(dest) in result.output
    assert (dest / "README.md").read_text() == (STARTERS / language / "README.md").read_text()
    assert (dest / "serve").stat().st_mode & 0o111, "serve must stay executable"
    sources = {p.name for p in (STARTERS / language).iterdir() if p.name not in ("build", "node_modules")}
    assert {p.name for p in dest.iterdir()} == sources


def test_new_bot_leaves_build_products_behind(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    starters = tmp_path / "starters"
    shutil.copytree(STARTERS / "node", starters / "node", ignore=shutil.ignore_patterns("node_modules", "build"))
    (starters / "node" / "node_modules" / "ws").mkdir(parents=True)
    (starters / "node" / "build").mkdir()
    (starters / "node" / "build" / "bot").write_text("stale")
    monkeypatch.setattr(hexarena.newbot, "STARTERS", starters)
    dest = hexarena.newbot.new_bot("node", tmp_path / "copy")
    assert (dest / "serve.js").is_file()
    assert not (dest / "node_modules").exists() and not (dest / "build").exists()


def test_new_bot_defaults_to_a_folder_named_after_the_language(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["new-bot", "go"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "go-bot" / "main.go").is_file()


def test_new_bot_never_overwrites(tmp_path: Path) -> None:
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "main.go").write_text("my own work")
    result = CliRunner().invoke(main, ["new-bot", "go", str(tmp_path / "taken")])
    assert result.exit_code == 2
    assert "exists already" in result.output
    assert (tmp_path / "taken" / "main.go").read_text() == "my own work"


def test_new_bot_names_the_languages_on_offer_for_an_unknown_one(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["new-bot", "cobol", str(tmp_path / "x")])
    assert result.exit_code == 2
    assert "no starter for 'cobol'" in result.output and "go" in result.output and "node" in result.output
    assert not (tmp_path / "x").exists()


def test_a_new_go_bot_builds_and_serves(tmp_path: Path) -> None:
    need_toolchain("go")
    dest = hexarena.newbot.new_bot("go", tmp_path / "bot")
    server = StarterServer(dest, tmp_path / "serve.log")
    try:
        caps = server.wait_ready()
    finally:
        server.stop()
    assert "v1-alpha" in caps["basic_websocket"]["versions"]  # type: ignore[index]
    assert (dest / "build" / "bot").is_file()


def test_a_new_node_bot_plays_hex_over_uais(tmp_path: Path) -> None:
    need_toolchain("node")
    dest = hexarena.newbot.new_bot("node", tmp_path / "bot")
    with subprocess.Popen(
        [str(dest / "run"), "black"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
    ) as bot:
        stdin, stdout = bot.stdin, bot.stdout
        assert stdin is not None and stdout is not None

        def ask(line: str) -> str:
            stdin.write(line + "\n")
            stdin.flush()
            return stdout.readline().strip()

        try:
            stdin.write("init_board 3\n\n")  # blank lines are skipped
            first = ask("make_move")
            theirs = next(c for c in ("a1", "c3") if c != first)
            stdin.write(f"seto {theirs}\n")
            second = ask("make_move")
            assert len({first, second, theirs}) == 3
            assert ask("check_win") in ("0", "1")
            board = ask("show_board")
            assert board.count("B") == 2 and board.count("W") == 1 and board.count("|") == 3
            stdin.write("quit\n")
            stdin.flush()
            assert bot.wait(60) == 0
        finally:
            if bot.poll() is None:
                bot.kill()
