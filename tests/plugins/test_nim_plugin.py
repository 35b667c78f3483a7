"""examples/nim, installed for real with pip as its own distribution, reaches every place a built-in game does:
``hexarena play``, a tournament, the conformance suite, the API (and the web UI: tests/ui/test_generic_board.py).

Each check runs in a fresh process with the plugin's install folder on ``PYTHONPATH``: the registries read the
entry points as an operator's installation would, and hexarena's own test process never sees the plugin.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from fakedist import run_with, shared_nim_site

from cli.serving import start_serve, stop

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def nim_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return shared_nim_site(tmp_path_factory)


def test_the_plugin_is_its_own_distribution_with_entry_points(nim_site: Path) -> None:
    (info,) = nim_site.glob("hexarena_nim-*.dist-info")
    entry_points = (info / "entry_points.txt").read_text()
    assert "[hexarena.games]\nnim = hexarena_nim:GAME" in entry_points
    assert "[hexarena.bots]\nnim = hexarena_nim.bots" in entry_points
    assert not (nim_site / "hexarena").exists()  # --no-deps: hexarena itself comes from the test's own source


def test_play_runs_a_plugin_game_with_its_bots(nim_site: Path) -> None:
    """Before entry points: ``Error: unknown game 'nim'``."""
    out = run_with(
        nim_site, "-m", "hexarena.cli", "play", "nim", "--first", "builtin:perfect", "--second", "builtin:random",
        "--heaps", "1,2,4", "--games", "2", "--no-alternate", "--quiet",
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    # 1^2^4 != 0: moving first, the perfect player wins every game (it never leaves a winning position). Not with
    # seats alternated: moving second, it wins only if the random bot misses the one winning reply (6 times in 7).
    assert re.search(r"builtin:perfect\s*│\s*2\s*│\s*0\s*│\s*0", out.stdout), out.stdout
    help_text = run_with(nim_site, "-m", "hexarena.cli", "play", "nim", "--help")
    assert "--heaps" in help_text.stdout and "builtin:perfect" in help_text.stdout


def test_a_round_robin_tournament_of_the_plugin_bots(nim_site: Path) -> None:
    out = run_with(
        nim_site, "-m", "hexarena.cli", "tournament", "run", "nim", "builtin:perfect", "builtin:random",
        "builtin:best", "--games", "2", "--param", "heaps=2,3,4", "--no-store", "--quiet",
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    rows = {
        m.group(1): int(m.group(2)) for m in re.finditer(r"│ \d+ │ (builtin:\w+)\s*│\s*\d+\s*│\s*(\d+)", out.stdout)
    }
    assert rows == {"builtin:perfect": 4, "builtin:best": 4, "builtin:random": 4}, out.stdout  # games each


def test_the_conformance_suite_runs_the_plugin_game(nim_site: Path) -> None:
    """The suite parametrizes over the registered games: installing the plugin is enough to be checked (schemathesis's
    plugin left out: the conformance suite does not fuzz, and loading it is much of what a pytest start costs)."""
    out = run_with(
        nim_site, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly", "-p", "no:schemathesis",
        "-k", "nim",
        str(ROOT / "tests" / "conformance" / "test_conformance.py"),
        timeout=600,
    )  # fmt: skip
    assert out.returncode == 0, out.stdout[-3000:]
    passed = re.search(r"(\d+) passed", out.stdout)
    assert passed and int(passed.group(1)) >= 6, out.stdout[-2000:]


@pytest.fixture
def server(nim_site: Path, tmp_path: Path) -> Iterator[str]:
    proc, url = start_serve(tmp_path, pythonpath=(nim_site,))
    try:
        yield url
    finally:
        stop(proc)


def test_the_api_lists_and_plays_the_plugin_game(server: str) -> None:
    games = {g["name"]: g for g in httpx.get(f"{server}/api/games").json()}
    assert games["nim"]["title"] == "Nim" and games["nim"]["builtin_bots"] == ["best", "perfect", "random"]
    assert games["nim"]["params"][0]["name"] == "heaps"
    body = {"game": "nim", "players": ["builtin:perfect", "builtin:random"], "params": {"heaps": "3,5"}}
    created = httpx.post(f"{server}/api/matches", json=body)
    assert created.status_code == 200, created.text
    game_id = created.json()["game_id"]
    for _ in range(200):
        record = httpx.get(f"{server}/games/{game_id}").json()
        if record["status"] != "running":
            break
        time.sleep(0.05)
    assert record["status"] == "finished", json.dumps(record)[:500]
    assert record["winner"] == 0  # 3^5 != 0: the perfect first player wins
    assert all(re.fullmatch(r"[12]:\d+", m["move"]) for m in record["moves"])
    bad = httpx.post(f"{server}/api/matches", json={**body, "params": {"heaps": "0"}})
    assert bad.status_code == 400 and "1 to 10 heaps" in bad.text
    rules = httpx.get(f"{server}/api/games/nim/rules").json()  # its hexarena.rules entry point, drawn by its engine
    assert rules["published"] and rules["sections"][0]["examples"][0]["svg"].count('data-cell="') == 9  # 3 + 1 + 5


@pytest.mark.parametrize(
    "path",
    [
        "examples/nim/pyproject.toml",
        "examples/nim/hexarena_nim/__init__.py",
        "examples/nim/hexarena_nim/bots.py",
        "examples/nim/hexarena_nim/rules.py",
    ],
)
def test_the_plugin_guide_shows_the_example_as_it_is(path: str) -> None:
    """The guide "Add a game" includes the example's files themselves (a snippet the docs build reads from the
    repository, checked by ``mkdocs build --strict``), so the page and the tested package cannot drift apart."""
    guide = (ROOT / "docs" / "guide" / "plugins.md").read_text(encoding="utf-8")
    assert f'--8<-- "{path}"' in guide, f"docs/guide/plugins.md does not include {path}"
    assert (ROOT / path).is_file()
