"""CI's conformance run of every starter bot: each builds with its toolchain (``<language>/serve`` builds first),
and ``hexarena check-bot`` passes it, as an author runs it on their copy; the Node starter's UAIS Hex bot and UHP
Hive engine too. A language skips only when its toolchain is missing (the reason says what to install:
``starters/install-toolchains`` installs them all)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starter_procs import BWS_LANGUAGES, STARTERS, StarterServer, need_toolchain

SRC = str(Path(__file__).resolve().parents[2] / "src")
#: the starters build into their folders of the checkout, which tests/starters/test_starters.py builds into too
pytestmark = pytest.mark.xdist_group("starters")


def check_bot(*args: str) -> tuple[int, dict[str, Any], str]:
    """``hexarena check-bot ... --json`` in its own process: exit status, report, stderr."""
    done = subprocess.run(
        [sys.executable, "-m", "hexarena.cli", "check-bot", *args, "--json"],
        env=dict(os.environ, PYTHONPATH=SRC),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.stdout.strip(), done.stderr
    return done.returncode, json.loads(done.stdout), done.stderr


def failures(report: dict[str, Any]) -> list[dict[str, Any]]:
    return [c for c in report["checks"] if c["status"] == "fail"]


@pytest.fixture(scope="module", params=BWS_LANGUAGES)
def starter(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[StarterServer]:
    language: str = request.param
    need_toolchain(language)
    server = StarterServer(STARTERS / language, tmp_path_factory.mktemp(language) / "serve.log")
    try:
        server.wait_ready()  # built (a cold C++ build takes a while) and answering
        yield server
    finally:
        server.stop()


def test_check_bot_passes_each_starter_over_bws(starter: StarterServer) -> None:
    code, report, err = check_bot(starter.url, "--games", "1", "--clock", "10")
    assert code == 0 and report["ok"], failures(report) or err
    assert report["protocol"] == "bws" and report["game"] == "htttx"
    statuses = {c["check"]: c["status"] for c in report["checks"]}
    for name in ("capabilities", "starts", "legal-moves", "well-formed", "clock", "stays-up"):
        assert statuses[name] == "pass", (name, report["checks"])


@pytest.mark.parametrize(
    ("entry", "spec", "more"),
    [("run", "uais", ()), ("run-hive", "uhp", ("--param", "expansions="))],  # the Hive starter: the base game only
)
def test_check_bot_passes_the_node_starters_engines(entry: str, spec: str, more: tuple[str, ...]) -> None:
    need_toolchain("node")
    code, report, err = check_bot(f"{spec}:{STARTERS / 'node' / entry}", "--games", "1", "--clock", "10", *more)
    assert code == 0 and report["ok"], failures(report) or err
    assert report["protocol"] == spec
