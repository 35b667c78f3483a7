"""The last move of a replay fetched in chunks (a game longer than ``INLINE_PLIES``): an HTTTX turn whose first stone
won is listed alone and marked, as in a short replay (issue 33: the second stone, which the rules ignore, was
listed as recorded once the game passed 300 plies)."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from typing import Any

from hexarena.core.registry import get_game
from hexarena.server.ui.replay import INLINE_PLIES


def long_winning_game() -> list[str]:
    """An HTTTX game (two in a row win) of more than INLINE_PLIES moves: each side fills a lattice of cells none of
    which touch each other, nearest the origin first, so nobody wins; then X's first stone beside the origin wins
    and its second stone, which the rules ignore, goes on a far cell."""
    game = get_game("htttx")
    state = game.new(win_distance=2)
    near = sorted(
        ((q, r) for q in range(-40, 41) for r in range(-40, 41)), key=lambda c: (max(map(abs, (*c, sum(c)))), c)
    )
    lattice = {
        0: [c for c in near if c[0] % 2 == 0 and c[1] % 2 == 0 and c != (0, 0)],  # X's (the origin is X's already)
        1: [c for c in near if c[0] % 2 and c[1] % 2],  # O's
    }
    moves: list[str] = []
    side = 1  # O moves first
    while len(moves) <= INLINE_PLIES:
        (aq, ar), (bq, br) = lattice[side].pop(0), lattice[side].pop(0)
        moves.append(f"[{aq},{ar}][{bq},{br}]")
        state = game.play(state, game.parse(moves[-1]))
        side = 1 - side
    if side == 1:  # X must win: one more quiet turn for O
        (aq, ar), (bq, br) = lattice[1].pop(0), lattice[1].pop(0)
        moves.append(f"[{aq},{ar}][{bq},{br}]")
        state = game.play(state, game.parse(moves[-1]))
    moves.append("[1,0][0,30]")  # [1,0] touches X's origin stone: X wins; [0,30] is ignored
    state = game.play(state, game.parse(moves[-1]))
    assert game.to_json(state)["winner"] == "x"
    return moves


def test_the_last_move_of_a_long_htttx_replay_is_listed_alone_and_marked(
    page: Any, tmp_path: Any, serve_in_thread: Any, app_factory: Any, shot: Any
) -> None:
    from hexarena.store import Store
    from hexarena.store.records import MoveRecord, PlayerRecord

    url = f"sqlite+aiosqlite:///{tmp_path / 'long.db'}"
    moves = long_winning_game()

    async def seed() -> None:
        store = await Store.open(url)
        try:
            players = [PlayerRecord("builtin:random", "builtin"), PlayerRecord("builtin:best", "builtin")]
            await store.create_game(game_id="long", game="htttx", params={"win_distance": 2}, players=players)
            now = datetime.now(UTC)
            records = [MoveRecord(i, 1 - i % 2, m, now, 0.01) for i, m in enumerate(moves)]
            await store.finish_game("long", winner=0, termination="win", reason="six", moves=records)
        finally:
            await store.close()

    with ThreadPoolExecutor(1) as pool:  # Playwright's sync API runs an event loop in this thread
        pool.submit(asyncio.run, seed()).result()
    n = len(moves)
    with serve_in_thread(app_factory(url)) as srv:
        page.goto(f"{srv.url}/ui/#/replay/long")
        page.wait_for_function(f"() => document.querySelector('#app').dataset.shown === '{n}'")
        last = page.locator(f"#movelist [data-ply='{n}']")
        assert last.text_content() == "[1,0]"  # the first stone alone, as a short replay lists it
        assert "current" in (last.get_attribute("class") or "").split()
        assert page.locator("#movelist .mv.current").count() == 1
        assert page.text_content("#plylabel") == f"{n} / {n}"
        assert page.text_content("#movelist [data-ply='1']") == moves[0]  # the others as recorded
        shot(page, "long-htttx-replay-last-move")
        # stepping back and forward again keeps it so
        page.click("#back")
        page.wait_for_function(f"() => document.querySelector('#app').dataset.shown === '{n - 1}'")
        page.click("#last")
        page.wait_for_function(f"() => document.querySelector('#app').dataset.shown === '{n}'")
        assert page.locator(f"#movelist [data-ply='{n}']").text_content() == "[1,0]"
