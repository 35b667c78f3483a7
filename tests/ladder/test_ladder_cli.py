"""``hexarena ladder``: the operator registers, lists, pauses, resumes and removes ladder bots on the database."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from hexarena.cli import main


def run(db: str, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["ladder", *args, "--database-url", db])
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'ladder.sqlite3'}"


def test_register_list_pause_resume_remove(db: str) -> None:
    code, _, err = run(db, "register", "mybot", "http://127.0.0.1:8002", "--owner", "me@example.org")
    assert code == 0, err
    assert "htttx ladder" in err
    code, out, _ = run(db, "list")
    assert code == 0 and "mybot" in out and "active" in out
    code, _, err = run(db, "pause", "mybot", "--reason", "rebuilding")
    assert code == 0 and "paused" in err
    code, out, _ = run(db, "show", "mybot")
    shown = json.loads(out)
    assert shown["status"] == "paused" and shown["pause_reason"] == "rebuilding" and shown["report"] is None
    assert run(db, "resume", "mybot")[0] == 0
    assert json.loads(run(db, "show", "mybot")[1])["status"] == "active"
    assert run(db, "remove", "mybot")[0] == 0
    code, _, err = run(db, "list")
    assert code == 0 and "empty" in err


def test_errors_say_what_to_do(db: str) -> None:
    code, _, err = run(db, "register", "x", "uais:./mybot", "--owner", "me")
    assert code == 1 and "never a command" in err
    code, _, err = run(db, "register", "../x", "http://127.0.0.1:1", "--owner", "me")
    assert code == 1 and "A-Z a-z 0-9" in err
    assert run(db, "register", "x", "http://127.0.0.1:1", "--owner", "me")[0] == 0
    code, _, err = run(db, "register", "x", "http://127.0.0.1:2", "--owner", "me")
    assert code == 1 and "exists already" in err
    for command in ("pause", "resume", "remove", "show"):
        code, _, err = run(db, command, "nobody")
        assert code == 1 and "no ladder bot named 'nobody'" in err and "hexarena ladder list" in err


def test_serve_checks_ladder_params_before_starting() -> None:
    """``hexarena serve --ladder-param``: a malformed one or a parameter the game lacks ends it, saying so."""
    result = CliRunner().invoke(main, ["serve", "--ladder-param", "htttx-turn_limit"])
    assert result.exit_code == 2 and "GAME:NAME=VALUE" in result.stderr
    result = CliRunner().invoke(main, ["serve", "--ladder-param", "htttx:nosuch=3"])
    assert result.exit_code == 2 and "unknown parameter(s) ['nosuch'] for htttx" in result.stderr
    result = CliRunner().invoke(main, ["serve", "--ladder-param", "nogame:turn_limit=3"])
    assert result.exit_code == 2 and "nogame" in result.stderr


def test_ladder_params_are_each_games_checked_parameters() -> None:
    from hexarena.cli import _ladder_params

    params = _ladder_params(("htttx:turn_limit=60", "htttx:win_distance=5"))
    assert params["htttx"]["turn_limit"] == 60 and params["htttx"]["win_distance"] == 5  # coerced to numbers
