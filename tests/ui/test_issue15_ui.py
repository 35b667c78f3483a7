"""Issue 15 in a real browser: what a person saw go wrong on the play, lobby, bots and replay pages.

Each test drives the page as a person would (clicks in headless chromium against a real server on loopback) and
checks what the page says or shows; each failed on the code the issue was filed against.
"""

from __future__ import annotations

from typing import Any

from accessibility import axe_violations
from test_browser_ui import create, record, wait_turn_or_end


def create_as_second(page: Any, server: str, game: str, seat0: str, params: dict[str, str] | None = None) -> str:
    """The lobby form with a bot in seat 1 and me in seat 2; returns the match id."""
    page.goto(f"{server}/ui/#/lobby")
    page.select_option("#game", game)
    for name, value in (params or {}).items():
        page.fill(f"#param-{name}", value)
    page.select_option("#seat0-kind", seat0)
    page.select_option("#seat1-kind", "you")
    page.click("#create")
    page.wait_for_function("() => /^#\\/play\\/[0-9a-f]+$/.test(location.hash) && document.querySelector('#result')")
    return str(page.evaluate("() => { window.__seenTurns = 0; return location.hash.split('/')[2]; }"))


def test_hex_names_my_real_colour_and_the_winner_by_colour_after_i_swap(page: Any, server: str, shot: Any) -> None:
    """Seat 2 starts as white; after my swap I play black: the page says so, and the result names colours."""
    game_id = create_as_second(page, server, "hex", "builtin:random", params={"size": "5"})
    assert wait_turn_or_end(page)
    assert page.text_content("#msg") == "Your move (white)."
    page.click("button:has-text('Swap')")
    assert wait_turn_or_end(page)
    assert page.text_content("#msg") == "Your move (black).", page.text_content("#msg")
    # my card names the colour I play now (not the seat's first name) and says the seats swapped
    assert page.text_content("#player1 strong") == "black"
    assert "after the swap" in page.text_content("#player1 .colour")
    shot(page, "issue15-hex-after-swap")
    page.click(".resign-ask")
    page.click(".resign-yes")
    page.wait_for_function("() => !document.querySelector('#result').hidden")
    result = page.text_content("#result")
    stored = record(server, game_id)
    assert stored["winner"] == 0 and stored["termination"] == "resign"
    assert result == "White wins: black resigned", result
    # the replay names the winner by the colour it played too
    page.goto(f"{server}/ui/#/replay/{game_id}")
    page.wait_for_selector("#notation")
    assert page.text_content("#replay-result") == "White wins: black resigned"


def result_banner(page: Any) -> dict[str, Any]:
    """The result banner as the person sees it at the top of the page: text, box, background colour."""
    page.evaluate("() => window.scrollTo(0, 0)")
    return dict(
        page.evaluate(
            """() => { const r = document.querySelector('#result'); const b = r.getBoundingClientRect();
                const bg = getComputedStyle(r).backgroundColor.match(/\\d+/g).map(Number);
                return {text: r.textContent, top: b.top, bottom: b.bottom, height: innerHeight, bg}; }"""
        )
    )


def test_the_result_is_on_top_red_or_neutral_when_i_lose_in_plain_words(page: Any, server: str, shot: Any) -> None:
    """A Hive game at 1280x900 that I resign: the banner is visible without scrolling, not green, and plain."""
    page.set_viewport_size({"width": 1280, "height": 900})
    create(page, server, "hive")
    assert wait_turn_or_end(page)
    page.click(".resign-ask")
    page.click(".resign-yes")
    page.wait_for_function("() => !document.querySelector('#result').hidden")
    banner = result_banner(page)
    shot(page, "issue15-hive-resigned")
    assert banner["top"] >= 0 and banner["bottom"] <= banner["height"], banner
    red, green = banner["bg"][:2]
    assert not green > red, f"a lost game's banner is green: {banner}"
    assert banner["text"] == "Black wins: white resigned", banner["text"]


def test_a_won_or_lost_game_by_the_rules_says_how_without_jargon(page: Any, server: str) -> None:
    """Hex 3x3 to the end by clicks: "Black wins: black connected top and bottom", no "(normal)"; green only
    when I won."""
    create(page, server, "hex", params={"size": "3"})
    while wait_turn_or_end(page):
        free = page.evaluate(
            "() => [...document.querySelectorAll('[data-cell]')].filter(g => !g.querySelector('[data-stone]'))"
            ".map(g => g.dataset.cell)"
        )
        page.click(f"[data-cell='{free[0]}']")
    banner = result_banner(page)
    assert "(normal)" not in banner["text"] and "(" not in banner["text"], banner["text"]
    # the seat's own end message may come a moment after the spectators' result banner
    page.wait_for_function("() => /^You (won|lost)/.test(document.querySelector('#msg').textContent)")
    won = page.text_content("#msg") == "You won!"
    # the bot may have swapped (1 move in 10 for the random bot): then I played white
    mine = page.text_content("#player0 strong")  # the colour I play now
    winner = mine if won else {"black": "white", "white": "black"}[mine]
    side = winner.capitalize()
    edges = "top and bottom" if winner == "black" else "left and right"
    assert banner["text"] == f"{side} wins: {side.lower()} connected {edges}", banner["text"]
    red, green = banner["bg"][:2]
    assert (green > red) == won, banner


def test_a_short_turn_clock_turns_red_only_at_the_end_and_a_flag_shows_zero(page: Any, server: str, shot: Any) -> None:
    """A 2 s turn clock: not red while most of it is left, red near the end; after the flag it reads 0.0."""
    create(page, server, "tictactoe", clock=("turn", "2"))
    assert wait_turn_or_end(page)
    early = page.wait_for_function(
        """() => { const c = document.querySelector('#player0 .clock'); const v = parseFloat(c.textContent);
            return v > 1.0 && v < 1.9 ? {v, low: c.classList.contains('low')} : null; }"""
    ).json_value()
    assert not early["low"], f"a 2 s turn clock is red with {early['v']} s of 2 left"
    page.wait_for_function("() => document.querySelector('#player0 .clock').classList.contains('low')")
    page.wait_for_function("() => !document.querySelector('#result').hidden")
    shot(page, "issue15-flagged")
    assert page.text_content("#player0 .clock") == "0.0"
    assert page.text_content("#player1 .clock") == "2.0"
    assert result_banner(page)["text"].startswith("O wins on time: ")


def test_hex_has_one_resign_button_the_inline_one(page: Any, server: str) -> None:
    """On my Hex turn there is one Resign, the page's inline-confirmed one; no blocking confirm() dialog."""
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    create(page, server, "hex", params={"size": "4"})
    assert wait_turn_or_end(page)
    resigns = page.get_by_role("button", name="Resign")
    assert resigns.count() == 1, f"{resigns.count()} Resign buttons on the page"
    resigns.click()
    assert page.locator(".resign-confirm").is_visible() and not dialogs


def test_hive_replay_exports_the_uhp_game_string(page: Any, server: str, shot: Any) -> None:
    """A Hive game's notation box holds the UHP GameString (GameType;State;Turn;moves) that Mzinga reads back,
    not the MoveStrings joined by spaces."""
    from hexarena.core.game import read_headers
    from hexarena.games.hive.game import HiveGame

    game_id = create(page, server, "hive")
    assert wait_turn_or_end(page)
    page.click("[data-hand='wG']")
    page.click("[data-target]")
    assert wait_turn_or_end(page)
    page.click(".resign-ask")
    page.click(".resign-yes")
    page.wait_for_function("() => !document.querySelector('#result').hidden")
    moves = [m["move"] for m in record(server, game_id)["moves"]]
    page.goto(f"{server}/ui/#/replay/{game_id}")
    page.wait_for_selector("#notation")
    _, text = read_headers(HiveGame(), page.input_value("#notation"))  # the GameString under the headers
    shot(page, "issue15-hive-replay")
    game_type, state, turn, *written = text.split(";")
    assert game_type.startswith("Base") and state == "InProgress" and turn == "White[2]", text
    assert written == moves, text
    hive = HiveGame()
    assert hive.from_game_string(text).moves == tuple(moves)


def _closed_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_a_mistyped_bot_url_is_refused_in_the_lobby_before_any_match(page: Any, server: str, shot: Any) -> None:
    """A bot URL nobody answers at: the lobby says which URL and what failed, and no match is created."""
    import httpx

    url = f"http://127.0.0.1:{_closed_port()}"
    page.goto(f"{server}/ui/#/lobby")
    page.select_option("#game", "htttx")
    page.select_option("#seat0-kind", "you")
    page.select_option("#seat1-kind", "bws")
    page.fill("#seat1-extra", url)
    page.click("#create")
    page.wait_for_function(
        "() => !location.hash.startsWith('#/lobby') || /\\S/.test(document.querySelector('form .msg').textContent)"
    )
    assert "#/lobby" in page.url, f"a match was created: {page.url}"
    text = page.text_content("form .msg")
    shot(page, "issue15-lobby-bad-bot-url")
    assert url in text and "did not answer" in text, text
    assert "#/lobby" in page.url
    assert httpx.get(f"{server}/api/matches/live").json() == []


def test_the_api_refuses_bot_urls_that_do_not_answer_as_bots(server: str) -> None:
    """POST /api/matches: a closed port, a page that is no bot (404), a bare URL that is down: 400 naming the URL."""
    import httpx

    down = f"http://127.0.0.1:{_closed_port()}"
    for spec, why in (
        (f"bws:{down}", "could not fetch"),
        (f"stateless:{down}/", "could not fetch"),
        (f"bws:{server}/nobot", "HTTP 404"),
        (down, "could not fetch"),
    ):
        r = httpx.post(f"{server}/api/matches", json={"game": "htttx", "players": ["builtin:random", spec]})
        assert r.status_code == 400, (spec, r.status_code, r.text)
        detail = r.json()["detail"]
        assert spec.split(":", 1)[-1].rstrip("/") in detail and why in detail, detail
    assert httpx.get(f"{server}/api/matches/live").json() == []


def _rated_server(tmp_path: Any, serve_in_thread: Any, app_factory: Any) -> Any:
    """A server whose store already rates two built-ins and a person of noughts and crosses."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from hexarena.store import Store
    from hexarena.store.records import RatingRecord

    url = f"sqlite+aiosqlite:///{tmp_path / 'rated.db'}"

    async def seed() -> None:
        store = await Store.open(url)
        try:
            await store.upsert_ratings(
                [
                    RatingRecord("builtin:random", "tictactoe", 1388.4, rd=99.6, games=12),
                    RatingRecord("alice", "tictactoe", 1500.0, rd=174.3, games=3),
                    RatingRecord("builtin:perfect", "tictactoe", 1612.0, rd=80.2, games=12),
                ]
            )
        finally:
            await store.close()

    with ThreadPoolExecutor(1) as pool:  # Playwright's sync API runs an event loop in this thread
        pool.submit(asyncio.run, seed()).result()
    return serve_in_thread(app_factory(url))


def test_each_builtin_is_listed_once_with_its_rating_sorted_and_a_leaderboard_page(
    page: Any, tmp_path: Any, serve_in_thread: Any, app_factory: Any, shot: Any
) -> None:
    with _rated_server(tmp_path, serve_in_thread, app_factory) as srv:
        page.goto(f"{srv.url}/ui/#/bots?game=tictactoe")
        page.wait_for_selector("#bots tbody tr")
        rows = page.evaluate(
            "() => [...document.querySelectorAll('#bots tbody tr')].map(tr => [...tr.cells].map(td => td.textContent))"
        )
        shot(page, "issue15-bots")
        names = [r[1] for r in rows]
        assert names == ["perfect", "alice", "random", "best"], rows
        assert rows[0][3].startswith("1612") and rows[2][3].startswith("1388"), rows

        page.click("a[data-nav='leaderboard']")
        page.select_option("#f-game", "tictactoe")
        page.wait_for_function("() => location.hash === '#/leaderboard/tictactoe'")
        page.wait_for_selector("#leaderboard tbody tr")
        table = page.evaluate(
            "() => [...document.querySelectorAll('#leaderboard tbody tr')]"
            ".map(tr => [...tr.cells].map(td => td.textContent))"
        )
        shot(page, "issue15-leaderboard")
        assert [r[:3] for r in table] == [
            ["1", "builtin:perfect", "1612 ± 160"],  # Glicko-2: twice the deviation either way
            ["2", "alice", "1500?"],  # a deviation above 110: provisional
            ["3", "builtin:random", "1388 ± 199"],
        ], table
        page.set_viewport_size({"width": 390, "height": 844})
        shot(page, "issue15-leaderboard-phone")


def test_pages_pass_axe_in_every_state_on_the_way(page: Any, server: str) -> None:
    """The lobby, a game being played (my turn: the green message, both seat colours), the lobby with a live game,
    its replay (the notation box), the games list and the bots list: no axe violation of any rule (WCAG A/AA and
    best practices: ``accessibility.AXE_TAGS``)."""
    found: dict[str, list[str]] = {}
    page.goto(f"{server}/ui/#/lobby")
    page.wait_for_selector("#create")
    found["lobby"] = axe_violations(page)
    game_id = create(page, server, "tictactoe")
    assert wait_turn_or_end(page)
    page.click("[data-cell='b2']")
    assert wait_turn_or_end(page)
    page.wait_for_selector(".moves .mv.seat1")
    found["play"] = axe_violations(page)
    lobby = page.context.new_page()  # the lobby while the game is live: its table of live games
    lobby.goto(f"{server}/ui/#/lobby")
    lobby.wait_for_selector(f"#live tr[data-game='{game_id}']")
    found["lobby with a live game"] = axe_violations(lobby)
    lobby.close()
    page.click(".resign-ask")
    page.click(".resign-yes")
    page.wait_for_function("() => !document.querySelector('#result').hidden")
    record(server, game_id)
    page.goto(f"{server}/ui/#/replay/{game_id}")
    page.wait_for_selector("#notation")
    found["replay"] = axe_violations(page)
    page.goto(f"{server}/ui/#/games")
    page.wait_for_selector(f"tr[data-game='{game_id}']")
    found["games"] = axe_violations(page)
    page.goto(f"{server}/ui/#/bots")
    page.wait_for_selector("#bots tbody tr")
    found["bots"] = axe_violations(page)
    assert not any(found.values()), "\n".join(f"{k}: {v}" for k, vs in found.items() for v in vs)


def test_hive_a_second_click_on_the_selected_piece_deselects_it(page: Any, server: str) -> None:
    """Picking the selected piece again (in the hand or on the board) clears the selection instead of moving."""
    create(page, server, "hive")
    assert wait_turn_or_end(page)
    page.click("[data-hand='wG']")
    assert page.locator("[data-target]").count() > 0
    page.click("[data-hand='wG']")
    assert page.locator("[data-target]").count() == 0 and page.locator("[data-hand='wG'].selected").count() == 0
    page.click("[data-hand='wG']")
    page.click("[data-target]")
    assert wait_turn_or_end(page)
    moves_before = page.evaluate("() => document.querySelectorAll('.moves .mv').length")
    page.click("[data-hand='wQ']")  # pieces move once the queen is in
    page.click("[data-target]")
    assert wait_turn_or_end(page)
    movable = page.evaluate(
        "() => [...document.querySelectorAll('g[data-piece^=w]')]"
        ".filter(g => g.querySelector('polygon').getAttribute('stroke-width') === '3').map(g => g.dataset.cell)"
    )
    assert movable, "none of my pieces can move"
    piece = page.locator(f"g[data-cell='{movable[0]}']")
    piece.click()
    assert page.locator("[data-target]").count() > 0
    piece.click()
    assert page.locator("[data-target]").count() == 0
    assert not page.text_content("#msg").startswith("Illegal"), page.text_content("#msg")
    assert page.evaluate("() => document.querySelectorAll('.moves .mv').length") == moves_before + 2


def test_hexdots_shows_the_running_score_and_a_selection_unlike_the_last_move(page: Any, server: str) -> None:
    """Each player card counts the hexagons its seat captured; a picked dot is not drawn in the last-move colour."""
    create(page, server, "hexdots", params={"rows": "3", "cols": "3"})
    assert wait_turn_or_end(page)
    assert page.text_content("#player0 .colour") == "0 hexagons"
    page.click("[data-dot='0,0']")
    page.click("[data-dot='0,1']")
    assert wait_turn_or_end(page)
    last = page.evaluate(
        "() => [...document.querySelectorAll('line')].filter(l => l.getAttribute('stroke-width') === '13')"
        ".map(l => l.getAttribute('stroke'))"
    )
    assert len(last) == 1, last
    page.click("[data-dot='1,1']")
    picked = page.evaluate(
        "() => document.querySelector(\"[data-dot='1,1'] circle:nth-child(2)\").getAttribute('fill')"
    )
    assert picked != last[0], f"the picked dot and the last move share {picked}"


def test_the_lobby_explains_player_choices_in_plain_words(page: Any, server: str) -> None:
    page.goto(f"{server}/ui/#/lobby")
    page.wait_for_selector("#create")
    help_text = page.text_content("#player-help")
    assert "builtin:NAME" not in help_text and "WS /api/play" not in help_text, help_text
    assert "bot" in help_text.lower()


def test_htttx_lists_the_automatic_origin_stone_and_marks_only_stones_played(page: Any, server: str) -> None:
    """The play page's move list starts with X's stone at the origin (placed by the rules, not by a click); and a
    winning turn whose second stone the rules ignored marks only the stone on the board."""
    create(page, server, "htttx")
    assert wait_turn_or_end(page)
    first = page.text_content(".moves")
    assert first.lstrip().startswith("X [0,0]"), first
    marks = page.evaluate(
        """async () => {
            const { make } = await import('/ui/js/boards/htttx.js');
            const { COLOURS } = await import('/ui/js/boards/svg.js');
            const board = make({});
            document.body.append(board.el);
            const cells = [[0, 0, 'x'], [1, 0, 'o'], [2, 0, 'o']].map(([q, r, p]) => ({ q, r, p }));
            board.render({ cells, to_move: null }, { move: '[2,0][5,5]' });
            const out = [...board.el.querySelectorAll('circle')].filter(c => c.getAttribute('fill') === COLOURS.last)
                .map(c => [c.getAttribute('cx'), c.getAttribute('cy')]);
            board.el.remove();
            board.destroy?.();
            return out.length;
        }"""
    )
    assert marks == 1, f"{marks} last-move marks for one stone on the board"


def test_the_count_up_clock_stays_on_one_line(page: Any, server: str, shot: Any) -> None:
    """A game without a clock counts the seconds of the turn on the player card: beside Hive's long name and
    colour in the 300 px side column it stays one line ("1 s", not "1" above "s")."""
    page.set_viewport_size({"width": 1280, "height": 900})
    create(page, server, "hive", seat1="builtin:random", clock=("none", ""))
    assert wait_turn_or_end(page)
    page.wait_for_function("() => /^\\d+ s$/.test(document.querySelector('#player0 .clock').textContent)")
    lines = page.evaluate(
        """() => { const c = document.querySelector('#player0 .clock');
            return c.getBoundingClientRect().height / (1.25 * parseFloat(getComputedStyle(c).fontSize)); }"""
    )
    shot(page, "issue15-hive-count-up")
    assert lines < 1.5, f"the count-up clock takes {lines:.1f} lines"
