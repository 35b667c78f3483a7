"""Watching HTTTX bots that report their analysis over bws: the evaluation bar and the considered moves show up
on the spectator page (real bot servers on loopback, the real game server, headless chromium)."""

from __future__ import annotations

import time
from typing import Any

import httpx

from hexarena.bots.sdk import BaseBot, Cell, Match, MoveResult, Player, PositionEvaluation, make_app


class AnalystBot(BaseBot):
    """Plays the first free cells next to the stones (sorted), slowly, and reports an evaluation that favours
    the side it plays plus three considered moves: a deterministic stand-in for a thinking bot."""

    def choose_move(self, cells: list[Cell], player: Player, match: Match) -> Any:
        taken = {(c.q, c.r) for c in cells}
        near = sorted(
            {(c.q + dq, c.r + dr) for c in cells for dq, dr in ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))}
            - taken
        )
        time.sleep(0.12)
        sign = 1 if player == Player.X else -1
        return MoveResult(
            pieces=(near[0], near[1]),
            evaluation=PositionEvaluation(heuristic=0.4 * sign),
            considerations=[((near[i], near[i + 1]), PositionEvaluation(heuristic=0.1 * i)) for i in range(3)],
        )


def test_watch_shows_evaluation_and_considered_moves(page: Any, server: str, serve_in_thread: Any, shot: Any) -> None:
    with serve_in_thread(make_app(AnalystBot)) as bot:
        r = httpx.post(
            f"{server}/api/matches",
            json={
                "game": "htttx",
                "params": {"win_distance": 4, "turn_limit": 12},
                "players": [f"bws:{bot.url}", f"bws:{bot.url}"],
            },
        )
        assert r.status_code == 200, r.text
        game_id = r.json()["game_id"]
        page.goto(f"{server}/ui/#/watch/{game_id}")
        page.wait_for_function("() => /heuristic/.test((document.querySelector('#evaltext') || {}).textContent)")
        page.wait_for_selector(".considered li")
        shot(page, "watch-htttx-analysis")
        page.wait_for_function("() => !document.querySelector('#result').hidden", timeout=60000)
        stored = httpx.get(f"{server}/games/{game_id}").json()
        last = stored["moves"][-1]
        assert last["evaluation"] == {"heuristic": 0.4 if last["seat"] == 0 else -0.4}
        width = page.evaluate("() => parseFloat(document.querySelector('.evalbar > div').style.width)")
        assert width == (70 if last["seat"] == 0 else 30)
        items = page.evaluate("() => [...document.querySelectorAll('.considered li')].map(li => li.textContent)")
        expected = [f"[{a[0]},{a[1]}][{b[0]},{b[1]}]" for a, b in (c["pieces"] for c in last["considerations"])]
        assert [i.split(" ")[0] for i in items] == expected
        shot(page, "watch-htttx-end")
