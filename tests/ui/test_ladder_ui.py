"""The ladder page (#/ladder) in a real chromium: live standings as the ladder plays real SDK bot servers, recent
games, and a paused bot's page with the reason and the check-bot report its owner reads; axe clean in each state."""

from __future__ import annotations

from typing import Any

import httpx

from fakes.servers import FakeBot, move_response
from hexarena.bots.sdk import bot_class_for, make_app
from hexarena.checkbot.ladder import report_for
from hexarena.server.app import Settings, create_app
from hexarena.server.ladder_pairing import LadderSettings


def ladder_app(database_url: str) -> Any:
    pace = LadderSettings(
        games_per_hour=36_000, concurrency=2, fail_limit=2, tick=0.05, params={"htttx": {"turn_limit": 12}}
    )
    pace.checker = report_for
    settings = Settings(database_url=database_url, ladder=pace)
    settings.create_rate_limit = None
    return create_app(settings)


def test_the_ladder_page_shows_standings_games_and_a_paused_bots_report(
    page: Any, tmp_path: Any, serve_in_thread: Any, shot: Any
) -> None:
    broken = FakeBot([move_response([[0, 0], [1, 0]])] * 200)  # plays the occupied origin
    with (
        serve_in_thread(make_app(bot_class_for("heuristic"))) as heur,
        serve_in_thread(make_app(bot_class_for("random"))) as rand,
        serve_in_thread(broken.app) as bad,
        serve_in_thread(ladder_app(f"sqlite+aiosqlite:///{tmp_path / 'ladder.db'}")) as srv,
    ):
        page.goto(f"{srv.url}/ui/#/ladder")
        page.wait_for_selector("#ladder-pace")
        shot(page, "ladder-empty")
        for name, url in (("heur", heur.url), ("rand", rand.url), ("broken", bad.url)):
            body = {"name": name, "game": "htttx", "spec": url, "owner": f"{name}@example.org"}
            assert httpx.post(f"{srv.url}/api/ladder/bots", json=body).status_code == 201
        # the page refreshes itself: the standings fill in and the broken bot ends paused
        page.wait_for_function("() => document.querySelectorAll('#ladder tbody tr').length === 3", timeout=60_000)
        page.wait_for_selector("#ladder tr[data-bot='broken'] .error", timeout=120_000)
        page.wait_for_selector("#ladder-games tbody tr", timeout=60_000)
        shot(page, "ladder-standings")
        rows = page.evaluate(
            "() => [...document.querySelectorAll('#ladder tbody tr')]"
            ".map(tr => [tr.dataset.bot, tr.cells[6].textContent, tr.cells[7].textContent])"
        )
        assert sorted(rows) == [["broken", "2", "paused"], ["heur", "0", "active"], ["rand", "0", "active"]]

        page.click("#ladder tr[data-bot='broken'] a")
        page.wait_for_selector("#ladder-paused")
        assert "illegal_move" in page.text_content("#ladder-paused")
        page.wait_for_selector("#ladder-report tr[data-check]", timeout=120_000)  # check-bot ran on it
        failing = page.evaluate(
            "() => [...document.querySelectorAll('#ladder-report tbody tr')]"
            ".filter(tr => tr.cells[1].textContent === 'fail').map(tr => tr.cells[2].textContent)"
        )
        assert any("occupied" in text for text in failing), failing
        assert page.text_content("#ladder-bot").count("broken@example.org") == 1
        shot(page, "ladder-paused-bot")
        page.set_viewport_size({"width": 390, "height": 844})
        shot(page, "ladder-paused-bot-phone")
