"""``hexarena check-bot`` on stdin/stdout engines: hexarena's own pass; broken engines fail with the check named."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENV = dict(os.environ, PYTHONPATH=str(ROOT / "src"), COLUMNS="200")
BAD = f"{sys.executable} {ROOT / 'tests' / 'stdio' / 'bots' / 'bad_bot.py'}"
HEXARENA = f"{sys.executable} -m hexarena.cli"
HTP = f"{sys.executable} {ROOT / 'tests' / 'stdio' / 'bots' / 'fake_htp_engine.py'}"

#: A UAIS bot that plays legal moves but exits with code 4 on ``quit``.
UNCLEAN = """
import random, sys
size, taken = 11, set()
for line in sys.stdin:
    parts = line.split()
    if not parts:
        continue
    if parts[0] == "init_board":
        size = int(parts[1])
    elif parts[0] in ("seto", "sety"):
        taken.add(parts[1])
    elif parts[0] == "make_move":
        free = [f"{chr(97 + r)}{c + 1}" for r in range(size) for c in range(size)]
        move = random.choice([m for m in free if m not in taken])
        taken.add(move)
        print(move, flush=True)
    elif parts[0] == "quit":
        sys.exit(4)
"""


def _check(spec: str, *args: str) -> tuple[int, dict[str, dict[str, Any]]]:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "hexarena.cli",
            "check-bot",
            spec,
            "--games",
            "1",
            "--opponent",
            "random",
            "--json",
            *args,
        ],
        env=ENV,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.stdout, done.stderr
    return done.returncode, {c["check"]: c for c in json.loads(done.stdout)["checks"]}


@pytest.mark.parametrize(
    "spec",
    [f"uais:{HEXARENA} bot stdio --bot random --time 0.05", f"uhp:{HEXARENA} uhp --bot random", f"htp:{HTP}"],
    ids=["uais", "uhp", "htp"],
)
def test_hexarena_engines_pass(spec: str) -> None:
    code, checks = _check(spec, "--clock", "10")
    assert code == 0, checks
    for name in ("starts", "legal-moves", "well-formed", "clock", "stays-up", "clean-exit"):
        assert checks[name]["status"] == "pass", checks[name]
    # a stdin/stdout engine has no connection to drop: the reconnection row says so instead of passing
    assert checks["reconnection"]["status"] == "skip" and "not applicable" in checks["reconnection"]["detail"]


@pytest.mark.parametrize(
    ("mode", "check", "words"),
    [
        ("crash@2", "stays-up", "about to crash"),
        ("garbage", "well-formed", "hello world"),
        ("occupied@2", "legal-moves", "is occupied"),
        ("silent", "clock", "no answer in time"),
    ],
)
def test_broken_engine_fails_by_name(mode: str, check: str, words: str) -> None:
    code, checks = _check(f"uais:{BAD} {mode}", "--clock", "1")
    assert code == 1
    assert checks[check]["status"] == "fail", checks
    row = checks[check]
    assert words in f"{row['detail']} {row.get('sent', '')} {row.get('fix', '')}"


def test_engine_exiting_with_an_error_code_fails_clean_exit(tmp_path: Path) -> None:
    bot = tmp_path / "unclean.py"
    bot.write_text(UNCLEAN)
    code, checks = _check(f"uais:{sys.executable} {bot}", "--clock", "10")
    assert code == 1
    assert checks["clean-exit"]["status"] == "fail"
    assert checks["clean-exit"]["sent"] == "exit code 4"
    assert checks["legal-moves"]["status"] == "pass"


@pytest.mark.parametrize(
    ("mode", "check", "words"),
    [
        ("refuse", "well-formed", "refused 'genmove"),
        ("badcell", "legal-moves", "off the 11x11 board"),
        ("noblank", "clock", "empty line"),
    ],
)
def test_broken_htp_engine_fails_by_name(mode: str, check: str, words: str) -> None:
    code, checks = _check(f"htp:{HTP} {mode}", "--clock", "1")
    assert code == 1
    row = checks[check]
    assert row["status"] == "fail", checks
    assert words in f"{row['detail']} {row.get('sent', '')} {row.get('fix', '')}"


#: A Trylobot module that fails every request the way json-socket reports a module's exception.
FAILING_MODULE = """
import json, sys
for line in sys.stdin:
    if line.strip():
        print(json.dumps({"success": False, "error": "boom in choose_turn"}), flush=True)
"""


def test_hiveai_module_passes() -> None:
    code, checks = _check(f"hiveai-stdio:{HEXARENA} hiveai serve --stdio", "--clock", "10")
    assert code == 0, checks
    for name in ("starts", "legal-moves", "well-formed", "clock", "stays-up", "clean-exit"):
        assert checks[name]["status"] == "pass", checks[name]


def test_failing_hiveai_module_is_named(tmp_path: Path) -> None:
    module = tmp_path / "failing.py"
    module.write_text(FAILING_MODULE)
    code, checks = _check(f"hiveai-stdio:{sys.executable} {module}", "--clock", "10")
    assert code == 1
    failed = [c for c in checks.values() if c["status"] == "fail"]
    assert failed, checks
    assert any("boom in choose_turn" in f"{c['detail']} {c.get('sent', '')}" for c in failed), failed
