"""The tournament API router, the ``hexarena tournament`` commands and the HTML report."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner
from fastapi import FastAPI

from fakes.apps import module_app
from hexarena.cli import main
from hexarena.server import tournaments
from hexarena.store import Store
from hexarena.tournament.report import render_report
from hexarena.tournament.runner import Runner, TournamentConfig


@pytest.fixture
async def client(migrated_sqlite_url: str) -> AsyncIterator[tuple[httpx.AsyncClient, FastAPI]]:
    store = await Store.open(migrated_sqlite_url)
    async with (
        module_app(tournaments.router, tournaments.lifespan, store) as app,
        httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test") as c,
    ):
        yield c, app
    await store.close()


async def test_api_runs_a_tournament_and_serves_its_standings(client: tuple[httpx.AsyncClient, FastAPI]) -> None:
    c, _ = client
    body = {
        "game": "numberwang",
        "players": ["tfake:greedy", "tfake:random", "tfake:crash"],
        "names": ["greedy", "random", "crash"],
        "games_per_pairing": 2,
        "concurrency": 3,
        "clock": {"kind": "turn", "seconds": 1},
    }
    r = await c.post("/api/tournaments", json=body)
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    for _ in range(1500):  # up to 30 s: a loaded machine (CI) once needed more than 4
        info = (await c.get(f"/api/tournaments/{tid}")).json()
        if info["status"] == "finished":
            break
        await asyncio.sleep(0.02)
    assert info["status"] == "finished" and info["games_finished"] == 6
    assert {row["name"] for row in info["standings"]} == {"greedy", "random", "crash"}
    crash = next(row for row in info["standings"] if row["name"] == "crash")
    assert crash["crashes"] >= 1
    listed = (await c.get("/api/tournaments")).json()
    assert [t["id"] for t in listed] == [tid]
    board = (await c.get("/leaderboard/numberwang")).json()
    assert board["game"] == "numberwang" and {row["player"] for row in board["ratings"]} == {
        "greedy",
        "random",
        "crash",
    }
    page = await c.get(f"/api/tournaments/{tid}/report")
    assert page.status_code == 200 and "<svg" in page.text and "greedy" in page.text
    assert (await c.post(f"/api/tournaments/{tid}/resume")).json()["status"] == "finished"


async def test_api_rejects_bad_configs_with_the_reason(client: tuple[httpx.AsyncClient, FastAPI]) -> None:
    c, _ = client
    r = await c.post("/api/tournaments", json={"game": "numberwang", "players": ["a", "b"], "games_per_pairing": 3})
    assert r.status_code == 400 and "even" in r.json()["detail"]
    r = await c.post("/api/tournaments", json={"game": "numberwang", "players": ["a", "b"], "colour": "red"})
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["body", "colour"]
    assert (await c.get("/api/tournaments/nope")).status_code == 404
    assert (await c.get("/leaderboard/chess")).status_code == 404


def test_cli_run_show_resume_and_leaderboard(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'cli.sqlite3'}"
    report = tmp_path / "report.html"
    runner = CliRunner()
    result = runner.invoke(
        main,
        [
            "tournament",
            "run",
            "numberwang",
            "g=tfake:greedy",
            "r=tfake:random",
            "--games",
            "4",
            "-c",
            "2",
            "--opening-plies",
            "1",
            "--id",
            "cli-t",
            "--database-url",
            db,
            "--report",
            str(report),
            "--clock-type",
            "turn",
            "--clock",
            "1",
        ],
    )
    assert result.exit_code == 0, result.output
    assert "final standings" in result.output and "crosstable" in result.output
    assert report.read_text().startswith("<!DOCTYPE html>")
    shown = runner.invoke(main, ["tournament", "show", "cli-t", "--database-url", db])
    assert shown.exit_code == 0 and "finished" in shown.output
    resumed = runner.invoke(main, ["tournament", "resume", "cli-t", "--database-url", db, "-q"])
    assert resumed.exit_code == 0 and "4 games" in resumed.output
    board = runner.invoke(main, ["tournament", "leaderboard", "numberwang", "--database-url", db])
    assert board.exit_code == 0 and " g " in board.output and " r " in board.output
    listed = runner.invoke(main, ["tournament", "list", "--database-url", db])
    assert listed.exit_code == 0 and "cli-t" in listed.output


def test_cli_reports_config_errors() -> None:
    result = CliRunner().invoke(main, ["tournament", "run", "numberwang", "tfake:random", "--no-store", "-q"])
    assert result.exit_code == 2 and "at least 2 players" in result.output
    result = CliRunner().invoke(
        main, ["tournament", "run", "numberwang", "a=tfake:random", "b=tfake:random", "--sprt", "x", "--no-store"]
    )
    assert result.exit_code == 2 and "ELO0,ELO1" in result.output


async def test_report_is_self_contained_and_escapes_names() -> None:
    config = TournamentConfig(
        game="numberwang",
        players=["tfake:greedy", "tfake:random"],
        names=["<b>bold</b>", "plain"],
        games_per_pairing=4,
        sprt={"elo0": 0, "elo1": 5},
    )
    r = await Runner.create(config, None)
    summary: dict[str, Any] = await r.run()
    page = render_report(summary)
    assert "<b>bold</b>" not in page and "&lt;b&gt;bold&lt;/b&gt;" in page
    assert page.count("<svg") == 2
    assert "SPRT" in page
    external = [u for u in re.findall(r"""(?:src|href)=["']([^"']+)""", page)]
    assert external == []  # nothing to fetch: no scripts, styles or images from elsewhere
    assert "http://" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")


async def test_real_server_resumes_api_tournaments_at_start_up(tmp_path: Path) -> None:
    """Mounted in the real app: an API tournament left running by an earlier server is picked up again."""
    from hexarena.server.app import Settings, create_app

    db = f"sqlite:///{tmp_path / 'srv.sqlite3'}"
    store = await Store.open(db)
    config = TournamentConfig(
        game="numberwang", players=["tfake:greedy", "tfake:random"], names=["g", "r"], games_per_pairing=4
    )
    runner = await Runner.create(config, store, "left-over")
    runner.state.update(status="running", origin="api")
    await store.update_tournament_state("left-over", runner.state, status="running")
    cli = await Runner.create(config, store, "cli-run")  # not from the API: stays put
    cli.state["status"] = "running"
    await store.update_tournament_state("cli-run", cli.state, status="running")
    await store.close()

    app = create_app(Settings(database_url=db))  # the tournaments module's lifespan resumes "left-over"
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as c:
            for _ in range(300):
                info = (await c.get("/api/tournaments/left-over")).json()
                if info["status"] == "finished":
                    break
                await asyncio.sleep(0.02)
            assert info["status"] == "finished" and info["games_finished"] == 4
            assert (await c.get("/api/tournaments/cli-run")).json()["status"] == "running"
            ratings = (await c.get("/leaderboard/numberwang")).json()["ratings"]
            assert {r["player"] for r in ratings} == {"g", "r"}


def test_tables_written_to_a_pipe_keep_the_player_names_whole(tmp_path: Path) -> None:
    """In CI logs and `| tee` the output is no terminal: rich then assumes 80 columns and the player column of the
    14-column standings was folded to a few characters a line. Names must come out whole, one row per player."""
    import os
    import subprocess
    import sys

    names = ["a-rather-long-name-for-the-first-player", "another-fairly-long-name-for-player-two"]
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[2] / "src"))
    env.pop("COLUMNS", None)
    out = subprocess.run(
        [
            sys.executable, "-m", "hexarena.cli", "tournament", "run", "numberwang",
            *(f"{n}=builtin:random" for n in names), "--games", "2", "--no-store", "-q",
        ],
        capture_output=True, text=True, timeout=120, env=env, cwd=tmp_path,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    standings = out.stdout.split("final standings", 1)[1].split("crosstable", 1)[0]
    rows = [line for line in standings.splitlines() if any(n in line for n in names)]
    assert len(rows) == 2, out.stdout  # each name whole, on its own row of the standings
    assert all("builtin" not in line for line in rows)


async def test_api_refuses_to_resume_a_command_line_tournament_that_starts_programs(
    client: tuple[httpx.AsyncClient, FastAPI], tmp_path: Path
) -> None:
    """The operator's own tournament may start programs; a client of the API may not make it do so."""
    import shlex

    c, app = client
    marker = tmp_path / "ran"
    spec = f"uais:sh -c {shlex.quote(f'touch {marker}')}"
    config = TournamentConfig(game="hex", params={"size": 3}, players=[spec, "builtin:random"], games_per_pairing=2)
    runner = await Runner.create(config, app.state.services.store, tournament_id="cli-made")  # created, never run
    assert not runner.remote
    r = await c.post("/api/tournaments/cli-made/resume")
    assert r.status_code == 403 and "hexarena tournament resume cli-made" in r.json()["detail"], r.text
    await asyncio.sleep(0.2)
    assert not marker.exists()
