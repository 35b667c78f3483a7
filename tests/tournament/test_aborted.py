"""Aborted is not a result: games that were never played score nothing, and a tournament checks what it can first.

Games whose termination is not a result (aborted, interrupted, error) must not count as draws anywhere
(standings, Elo, pentanomial pairs, crosstable, head-to-head, SPRT); they get their own ``aborted`` column. A
player that cannot be created aborts the game instead of losing it, a spec that can never work (an unknown
built-in) or a bot that cannot start from the openings is refused before any game, and the CLI says which games
were not played and exits non-zero. Bots are real: built-ins, an SDK bot server on a loopback port, and a
closed loopback port for an unreachable bot.
"""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner

from fakes.apps import module_app
from fakes.servers import serve_app
from hexarena.bots.sdk import make_app
from hexarena.bots.sdk.adapter import bot_class_for
from hexarena.cli import main
from hexarena.core.errors import ConfigError
from hexarena.server import tournaments
from hexarena.store import Store
from hexarena.tournament.executors import GameJob, play_job
from hexarena.tournament.report import render_report
from hexarena.tournament.runner import Runner, TournamentConfig
from hexarena.tournament.standings import crosstable, head_to_head, standings
from hexarena_sdk.capabilities import BwsV1AlphaCapability, Capabilities, default_capabilities


def closed_port_url() -> str:
    """A loopback URL nothing listens on: the port was bound, then released without listening."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}/"


def game(index: int, pair: int, seats: list[int], winner: int | None, termination: str) -> dict[str, Any]:
    return {
        "id": f"t.{index}",
        "index": index,
        "pair": pair,
        "seats": seats,
        "result": {"winner": winner, "termination": termination, "reason": "", "culprit": None},
    }


# ----- standings, crosstable, head-to-head: pure functions ------------------------------------------------------

#: a beat b in both games of pair 0; pair 1 never started; pair 2: one game errored, the other b won.
GAMES = [
    game(0, 0, [0, 1], 0, "normal"),
    game(1, 0, [1, 0], 1, "normal"),
    game(2, 1, [0, 1], None, "aborted"),
    game(3, 1, [1, 0], None, "aborted"),
    game(4, 2, [0, 1], None, "error"),
    game(5, 2, [1, 0], 0, "normal"),
    game(6, 3, [0, 1], None, "interrupted"),
]


def test_games_that_were_not_played_score_nothing_in_the_standings() -> None:
    rows = {r.name: r for r in standings(["a", "b"], GAMES)}
    a, b = rows["a"], rows["b"]
    assert (a.games, a.wins, a.draws, a.losses, a.points) == (3, 2, 0, 1, 2.0)
    assert (b.games, b.wins, b.draws, b.losses, b.points) == (3, 1, 0, 2, 1.0)
    assert a.aborted == b.aborted == 4
    assert a.to_json()["aborted"] == 4
    # pair 0 is the only complete pair: WW for a, LL for b; pair 2 has one game only, so no pentanomial entry
    assert a.pairs == [0, 0, 0, 0, 1] and b.pairs == [1, 0, 0, 0, 0]
    assert a.elo is not None and a.elo.elo is not None and a.elo.elo > 0


def test_a_tournament_of_aborted_games_has_no_score_and_no_elo() -> None:
    only_aborted = [g for g in GAMES if g["result"]["termination"] != "normal"]
    for row in standings(["a", "b"], only_aborted):
        assert (row.games, row.wins, row.draws, row.losses, row.points) == (0, 0, 0, 0, 0.0)
        assert row.aborted == 4 and row.elo is None and row.pairs == [0, 0, 0, 0, 0]
        assert row.to_json()["score"] == 0.0


def test_crosstable_and_head_to_head_leave_unplayed_games_out() -> None:
    points, played = crosstable(2, GAMES)
    assert played == [[0, 3], [3, 0]] and points == [[0.0, 2.0], [1.0, 0.0]]
    tri, penta = head_to_head(GAMES, 0, 1)
    assert tri == [1, 0, 2]  # [L, D, W]: no draws although four games ended without a winner
    assert penta == [0, 0, 0, 0, 1]


# ----- players that cannot be created ------------------------------------------------------------------------


async def test_a_player_that_cannot_be_created_aborts_the_game_instead_of_losing_it() -> None:
    job = GameJob(match_id="m1", game="numberwang", specs=["builtin:random", "nosuch:thing"], names=["a", "b"])
    result = await play_job(job)
    assert result["winner"] is None and result["termination"] == "aborted" and result["culprit"] is None
    assert "b could not be created" in result["reason"] and "nosuch:thing" in result["reason"]
    assert result["moves"] == []


async def test_an_unreachable_bot_aborts_its_games_and_they_score_nothing() -> None:
    config = TournamentConfig(
        game="htttx",
        players=["builtin:random", closed_port_url()],
        names=["rnd", "gone"],
        games_per_pairing=4,
        sprt={"elo0": 0, "elo1": 5},
    )
    runner = await Runner.create(config, None)
    summary = await runner.run()
    assert summary["status"] == "finished"
    assert summary["games_scheduled"] == 4 and summary["games_aborted"] == 4
    assert all(g["result"]["termination"] == "aborted" and g["result"]["winner"] is None for g in runner.games)
    for row in summary["standings"]:
        assert (row["games"], row["wins"], row["draws"], row["losses"], row["points"]) == (0, 0, 0, 0, 0.0)
        assert row["aborted"] == 4 and row["elo"] is None and row["crashes"] == 0
    assert summary["crosstable"]["games"] == [[0, 0], [0, 0]]
    assert summary["sprt"]["llr"] == 0.0 and summary["sprt"]["decision"] is None
    listed = summary["aborted_games"]
    assert [a["id"] for a in listed] == [g["id"] for g in runner.games]
    assert all("gone could not be created" in a["reason"] and a["players"] for a in listed)


# ----- checks before the first game -----------------------------------------------------------------------------


@pytest.fixture
async def store(migrated_sqlite_url: str) -> AsyncIterator[Store]:
    s = await Store.open(migrated_sqlite_url)
    yield s
    await s.close()


@pytest.mark.parametrize(
    ("game_name", "players", "expected"),
    [
        ("tictactoe", ["builtin:random", "builtin:nosuch"], "no built-in bot 'nosuch' for tictactoe; choose one of: "),
        ("tictactoe", ["builtin:random", "nosuch:thing"], "unknown player spec 'nosuch:thing'"),
        ("tictactoe", ["builtin:random", "http://127.0.0.1:9/"], "bot-API bots play HTTTX only, not tictactoe"),
        ("tictactoe", ["builtin:random", "bws:http://127.0.0.1:9/"], "bws bots play HTTTX only, not tictactoe"),
        ("htttx", ["builtin:random", "bws:ftp://example.org/"], "must start with http://, https://, ws:// or wss://"),
        ("htttx", ["builtin:random", "http://"], "has no host"),
    ],
)
async def test_specs_that_can_never_play_are_refused_before_any_game(
    store: Store, game_name: str, players: list[str], expected: str
) -> None:
    config = TournamentConfig(game=game_name, players=players, names=["fine", "broken"])
    with pytest.raises(ConfigError, match=r"cannot start the tournament: broken \(") as info:
        await Runner.create(config, store)
    assert expected in str(info.value) and "fine" not in str(info.value)
    assert await store.list_tournaments() == []  # nothing was created, let alone played


class NoSetupBot(bot_class_for("random")):  # type: ignore[misc]
    """The SDK's random HTTTX bot declaring basic_websocket without free_setup (and stateless, as SDK bots do)."""

    @classmethod
    def capabilities(cls) -> Capabilities:
        return default_capabilities(BwsV1AlphaCapability(move_time_limit=True))


async def test_openings_need_bots_that_declare_free_setup(store: Store) -> None:
    async with serve_app(make_app(NoSetupBot)) as url:
        for spec in (url, f"bws:{url}"):
            config = TournamentConfig(
                game="htttx", players=["builtin:random", spec], names=["rnd", "nosetup"], opening_plies=2
            )
            with pytest.raises(ConfigError, match="free_setup") as info:
                await Runner.create(config, store)
            assert "nosetup" in str(info.value) and "opening" in str(info.value)
        assert await store.list_tournaments() == []
        # the same bot over stateless gets the whole board with every request: openings are fine
        config = TournamentConfig(
            game="htttx",
            players=["builtin:random", f"stateless:{url}"],
            names=["rnd", "stateless"],
            opening_plies=2,
            max_plies=12,
        )
        runner = await Runner.create(config, None)
        summary = await runner.run()
        assert summary["games_aborted"] == 0 and summary["games_finished"] == 2
        # and without openings the bws bot is welcome
        config = TournamentConfig(
            game="htttx", players=["builtin:random", f"bws:{url}"], names=["rnd", "bws"], max_plies=12
        )
        summary = await (await Runner.create(config, None)).run()
        assert summary["games_aborted"] == 0 and summary["games_finished"] == 2


async def test_an_unreachable_bot_with_openings_is_refused_before_any_game(store: Store) -> None:
    config = TournamentConfig(
        game="htttx", players=["builtin:random", closed_port_url()], names=["rnd", "gone"], opening_plies=2
    )
    with pytest.raises(ConfigError, match="gone") as info:
        await Runner.create(config, store)
    assert "free_setup" in str(info.value)


async def test_api_refuses_an_unknown_builtin_before_any_game(store: Store) -> None:
    async with (
        module_app(tournaments.router, tournaments.lifespan, store) as app,
        httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test") as c,
    ):
        body = {"game": "tictactoe", "players": ["builtin:random", "builtin:nosuch"]}
        r = await c.post("/api/tournaments", json=body)
    assert 400 <= r.status_code < 500, r.text
    assert "no built-in bot 'nosuch' for tictactoe; choose one of: best, perfect, random" in r.json()["detail"]
    assert await store.list_tournaments() == []


# ----- the CLI ---------------------------------------------------------------------------------------------------


def test_cli_refuses_an_unknown_builtin_before_any_game() -> None:
    result = CliRunner().invoke(
        main, ["tournament", "run", "tictactoe", "builtin:random", "builtin:nosuch", "--no-store"]
    )
    assert result.exit_code == 2, result.output
    assert "no built-in bot 'nosuch' for tictactoe; choose one of: best, perfect, random" in result.output
    assert "standings" not in result.output


def test_cli_says_which_games_were_not_played_and_exits_non_zero(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'cli.sqlite3'}"
    runner = CliRunner()
    args = ["tournament", "run", "htttx", "rnd=builtin:random", f"gone={closed_port_url()}", "--games", "2"]
    result = runner.invoke(main, [*args, "--id", "down", "--database-url", db, "-q"])
    assert result.exit_code == 1, result.output
    assert "aborted" in result.output
    assert "2 of 2 games were not played" in result.output
    assert "down.0" in result.output and "down.1" in result.output
    assert "gone could not be created" in result.output
    shown = runner.invoke(main, ["tournament", "show", "down", "--database-url", db])
    assert shown.exit_code == 0, shown.output
    assert "2 of 2 games were not played" in shown.output and "gone could not be created" in shown.output


def test_cli_exits_zero_when_every_game_was_played() -> None:
    result = CliRunner().invoke(
        main, ["tournament", "run", "tictactoe", "builtin:random", "builtin:perfect", "--no-store", "-q"]
    )
    assert result.exit_code == 0, result.output
    assert "not played" not in result.output


async def test_report_has_an_aborted_column() -> None:
    config = TournamentConfig(game="htttx", players=["builtin:random", closed_port_url()], names=["rnd", "gone"])
    runner = await Runner.create(config, None)
    page = render_report(await runner.run())
    assert "<th>aborted</th>" in page
    assert "gone could not be created" in page
