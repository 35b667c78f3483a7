"""What lichess users expect, in a real browser (issue 15): clock presets with per-game defaults in the lobby,
rematch and "new game" after a game, a move list paired by turn with the notation on the live page, sound on
moves (off until asked for, remembered), a dark theme that follows the system's and keeps axe's contrast, and
a watch speed that lets a game between instant bots be followed move by move.
"""

from __future__ import annotations

from typing import Any

import httpx
from accessibility import axe_violations
from test_browser_ui import create, record, wait_turn_or_end


def pressed_preset(page: Any) -> list[str]:
    return page.evaluate(  # type: ignore[no-any-return]
        "() => [...document.querySelectorAll('#clock-presets [aria-pressed=true]')].map(b => b.textContent)"
    )


def test_clock_presets_with_a_default_per_game(page: Any, server: str) -> None:
    page.goto(f"{server}/ui/#/lobby")
    page.wait_for_selector("#create")
    page.select_option("#game", "hive")
    assert pressed_preset(page) == ["10+5"]
    assert page.input_value("#clock-type") == "incremental"
    assert (page.input_value("#clock-seconds"), page.input_value("#clock-increment")) == ("600", "5")
    page.select_option("#game", "tictactoe")
    assert pressed_preset(page) == ["1 min"]
    page.click("[data-preset='3+2']")
    assert pressed_preset(page) == ["3+2"]
    page.fill("#clock-seconds", "200")  # a clock of one's own: no preset claims it
    assert pressed_preset(page) == []
    page.click("[data-preset='3+2']")
    page.select_option("#seat0-kind", "you")
    page.click("#create")
    page.wait_for_function("() => /^#\\/play\\//.test(location.hash)")
    game_id = page.evaluate("() => location.hash.split('/')[2]")
    clock = httpx.get(f"{server}/api/ui/matches/{game_id}").json()["clock"]
    assert clock == {"kind": "incremental", "seconds": 180.0, "increment": 2.0}, clock
    page.wait_for_function("() => document.querySelector('#player1 .clock')?.textContent === '3:00'")


def test_rematch_swaps_colours_against_the_same_bot_and_new_game_opens_the_lobby(
    page: Any, server: str, shot: Any
) -> None:
    game_id = create(page, server, "tictactoe", seat1="builtin:perfect", clock=("match", "120"))
    assert wait_turn_or_end(page)
    page.click(".resign-ask")
    page.click(".resign-yes")
    page.wait_for_selector("#rematch")
    shot(page, "after-game")
    assert page.get_attribute("#new-game", "href") == "#/lobby?game=tictactoe"
    page.click("#rematch")
    page.wait_for_function("(old) => /^#\\/play\\//.test(location.hash) && !location.hash.includes(old)", arg=game_id)
    new_id = page.evaluate("() => { window.__seenTurns = 0; return location.hash.split('/')[2]; }")
    info = httpx.get(f"{server}/api/ui/matches/{new_id}").json()
    assert info["players"][0].get("spec") == "builtin:perfect", info["players"]
    assert info["players"][1]["kind"] == "human" and info["clock"]["seconds"] == 120.0, info
    # the bot opens as X now; I answer as O
    assert wait_turn_or_end(page)
    assert page.text_content("#msg") == "Your move (O)."
    assert len(record_so_far(server, new_id)) == 1
    page.click(".resign-ask")
    page.click(".resign-yes")
    page.wait_for_selector("#new-game")
    page.click("#new-game")
    page.wait_for_selector("#create")
    assert page.input_value("#game") == "tictactoe"
    record(server, new_id)


def record_so_far(server: str, game_id: str) -> list[dict[str, Any]]:
    return httpx.get(f"{server}/api/ui/replay/{game_id}").json()["moves"]  # type: ignore[no-any-return]


def test_live_move_list_is_paired_by_turn_and_the_notation_exports(page: Any, server: str, shot: Any) -> None:
    game_id = create(page, server, "tictactoe")
    for cell in ("b2", "a1", "c3"):
        assert wait_turn_or_end(page)
        free = page.evaluate(
            "() => [...document.querySelectorAll('[data-cell]')].filter(g => !g.querySelector('path,circle')).map(g => g.dataset.cell)"
        )
        page.click(f"[data-cell='{cell if cell in free else free[0]}']")
    wait_turn_or_end(page)  # the bot has answered my third move (or the game is over): the record stands still
    moves = [m["move"] for m in record_so_far(server, game_id)]
    page.wait_for_function("(n) => document.querySelectorAll('#movelist .mv').length === n", arg=len(moves))
    rows = page.evaluate(
        "() => [...document.querySelectorAll('#movelist li')].map(li => [...li.querySelectorAll('.mv')].map(m => m.textContent))"
    )
    assert rows == [moves[i : i + 2] for i in range(0, len(moves), 2)], (rows, moves)
    page.click("#export")
    page.wait_for_function("() => document.querySelector('#live-notation').value !== ''")
    text = page.input_value("#live-notation")
    assert all(m in text for m in moves), text
    shot(page, "live-paired-moves")


def test_sound_on_moves_is_off_until_turned_on_and_remembered(page: Any, server: str) -> None:
    create(page, server, "tictactoe")
    assert wait_turn_or_end(page)
    assert page.get_attribute("#sound", "aria-pressed") == "false"
    page.click("[data-cell='b2']")
    assert wait_turn_or_end(page)
    assert page.evaluate("() => document.body.dataset.sounds") is None  # two moves, not a sound
    page.click("#sound")
    assert page.get_attribute("#sound", "aria-pressed") == "true"
    free = page.evaluate(
        "() => [...document.querySelectorAll('[data-cell]')].filter(g => !g.querySelector('path,circle'))"
        ".map(g => g.dataset.cell)"
    )
    page.click(f"[data-cell='{free[0]}']")
    page.wait_for_function("() => Number(document.body.dataset.sounds || 0) >= 1")
    page.reload()
    page.wait_for_selector("#sound")
    assert page.get_attribute("#sound", "aria-pressed") == "true"
    assert page.evaluate("() => localStorage.getItem('hexarena.sound')") == "on"


def background(page: Any) -> list[int]:
    return page.evaluate(  # type: ignore[no-any-return]
        "() => getComputedStyle(document.body).backgroundColor.match(/\\d+/g).slice(0, 3).map(Number)"
    )


def test_dark_theme_follows_the_system_and_keeps_contrast(page: Any, server: str, shot: Any) -> None:
    """With the system dark, every page is dark and axe finds no contrast, label or header violation; the
    board keeps its light surface."""
    page.emulate_media(color_scheme="dark")
    found: dict[str, list[str]] = {}
    page.goto(f"{server}/ui/#/lobby")
    page.wait_for_selector("#create")
    assert max(background(page)) < 60, background(page)
    found["lobby"] = axe_violations(page)
    shot(page, "dark-lobby")
    game_id = create(page, server, "hive")
    assert wait_turn_or_end(page)
    page.click("[data-hand='wG']")
    page.click("[data-target]")
    assert wait_turn_or_end(page)
    page.wait_for_selector("#movelist .mv.seat1")
    found["play"] = axe_violations(page)
    shot(page, "dark-play-hive")
    page.click(".resign-ask")
    found["play, confirming"] = axe_violations(page)
    page.click(".resign-yes")
    page.wait_for_selector("#rematch")
    page.click("#export")
    page.wait_for_function("() => document.querySelector('#live-notation').value !== ''")
    found["play, over"] = axe_violations(page)
    record(server, game_id)
    for name, url, ready in (
        ("replay", f"#/replay/{game_id}", "#notation"),
        ("games", "#/games", f"tr[data-game='{game_id}']"),
        ("bots", "#/bots", "#bots tbody tr"),
    ):
        page.goto(f"{server}/ui/{url}")
        page.wait_for_selector(ready)
        found[name] = axe_violations(page)
        shot(page, f"dark-{name}")
    assert not any(found.values()), "\n".join(f"{k}: {v}" for k, vs in found.items() for v in vs)


def test_a_game_between_instant_bots_can_be_watched_move_by_move(page: Any, server: str, shot: Any) -> None:
    """The game is over before the page opens; watching it plays the replay from the first move, one ply at a
    time at the chosen speed (remembered), every position shown in order."""
    r = httpx.post(f"{server}/api/matches", json={"game": "tictactoe", "players": ["builtin:random", "builtin:random"]})
    game_id = r.json()["game_id"]
    n = len(record(server, game_id)["moves"])
    page.add_init_script(
        """window.__shown = []; new MutationObserver(() => { const a = document.querySelector('#app');
            if (a && a.dataset.shown !== undefined && window.__shown.at(-1) !== a.dataset.shown)
                window.__shown.push(a.dataset.shown); })
            .observe(document, {subtree: true, attributes: true, attributeFilter: ['data-shown']});"""
    )
    page.goto(f"{server}/ui/#/lobby")
    page.evaluate("() => localStorage.setItem('hexarena.watchSpeed', '0.25')")
    page.goto(f"{server}/ui/#/watch/{game_id}")
    page.wait_for_selector("#play[aria-pressed=true]")
    assert page.input_value("#speed") == "0.25"
    page.wait_for_function("(n) => document.querySelector('#app').dataset.shown === String(n)", arg=n)
    shown = [int(s) for s in page.evaluate("() => window.__shown")]
    assert shown == list(range(n + 1)), shown
    page.wait_for_selector("#play[aria-pressed=false]")
    page.select_option("#speed", "1")
    assert page.evaluate("() => localStorage.getItem('hexarena.watchSpeed')") == "1"


def test_leaderboard_plots_each_players_rating_history(
    page: Any, tmp_path: Any, serve_in_thread: Any, app_factory: Any, shot: Any
) -> None:
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from hexarena.store import Store
    from hexarena.store.records import RatingRecord

    url = f"sqlite+aiosqlite:///{tmp_path / 'history.db'}"

    async def seed() -> None:
        store = await Store.open(url)
        try:
            for alice, bob in ((1500.0, 1500.0), (1516.0, 1484.0), (1530.0, 1471.0)):
                # alice settles (deviation 60 at the end), bob stays provisional (the default 350)
                settled = RatingRecord("alice", "hex", alice, rd=60.0 if alice == 1530.0 else 350.0)
                await store.upsert_ratings([settled, RatingRecord("bob", "hex", bob)])
            await store.upsert_rating(RatingRecord("carol", "hex", 1490.0))
        finally:
            await store.close()

    with ThreadPoolExecutor(1) as pool:  # Playwright's sync API runs an event loop in this thread
        pool.submit(asyncio.run, seed()).result()
    with serve_in_thread(app_factory(url)) as srv:
        answer = httpx.get(f"{srv.url}/api/ui/leaderboard/hex/history")
        assert answer.status_code == 200, answer.text
        history = answer.json()["history"]
        assert [p["rating"] for p in history["bob"]] == [1500.0, 1484.0, 1471.0]
        assert [p["rd"] for p in history["alice"]] == [350.0, 350.0, 60.0]
        newest = httpx.get(f"{srv.url}/api/ui/leaderboard/hex/history?points=2&limit=1").json()["history"]
        assert {k: [p["rating"] for p in v] for k, v in newest.items()} == {"alice": [1516.0, 1530.0]}
        assert httpx.get(f"{srv.url}/api/ui/leaderboard/hex/history?points=100000").status_code == 422
        assert httpx.get(f"{srv.url}/api/ui/leaderboard/nosuchgame/history").status_code == 404
        page.goto(f"{srv.url}/ui/#/leaderboard/hex")
        page.wait_for_selector("#leaderboard svg.ratingplot")
        rows = page.evaluate(
            """() => [...document.querySelectorAll('#leaderboard tbody tr')].map(tr => [tr.cells[1].textContent,
                tr.querySelector('svg.ratingplot')?.getAttribute('aria-label') ?? tr.cells[3].textContent,
                tr.querySelectorAll('polyline').length, tr.querySelectorAll('polygon').length, tr.cells[2].textContent])"""
        )
        shot(page, "leaderboard-history")
        assert rows == [
            ["alice", "rating history: 1500 to 1530 over 3 updates (low 1500, high 1530)", 1, 1, "1530 ± 120"],
            ["carol", "one rating", 0, 0, "1490?"],
            ["bob", "rating history: 1500 to 1471 over 3 updates (low 1471, high 1500)", 1, 1, "1471?"],
        ], rows
        assert not axe_violations(page)


def test_a_spectator_can_follow_fast_play_a_move_at_a_time_and_catch_up(page: Any, server: str) -> None:
    """A spectator at "a move every 1 s": moves made in a burst (a seat driven over its socket by the test)
    appear one at a time, the page says how far behind live it is, and Catch up shows them all at once."""
    import json

    from websockets.sync.client import connect

    # 7 x 7: the five moves each side makes here cannot connect two sides (on 5 x 5 they could, and the game ended)
    r = httpx.post(
        f"{server}/api/matches", json={"game": "hex", "params": {"size": 7}, "players": ["browser", "builtin:random"]}
    )
    game_id, token = r.json()["game_id"], r.json()["tokens"]["black"]
    page.add_init_script(
        """window.__counts = []; new MutationObserver(() => { const n = document.querySelectorAll('#movelist .mv').length;
            if (window.__counts.at(-1) !== n) window.__counts.push(n); })
            .observe(document, {subtree: true, childList: true});"""
    )
    page.goto(f"{server}/ui/#/lobby")
    page.evaluate("() => localStorage.setItem('hexarena.liveSpeed', '1')")
    page.goto(f"{server}/ui/#/watch/{game_id}")
    page.wait_for_selector("#pace")
    assert page.input_value("#pace") == "1"
    ws_url = server.replace("http://", "ws://") + f"/api/play?token={token}"
    with connect(ws_url) as seat:

        def my_turn() -> dict[str, Any]:
            while True:
                m = json.loads(seat.recv(timeout=15))
                if m["type"] == "your_turn":
                    return m  # type: ignore[no-any-return]

        for _ in range(3):  # three of my moves and the bot's three answers, as fast as the server goes
            legal = my_turn()["legal"]["moves"]
            seat.send(json.dumps({"type": "move", "move": legal[0]["move"]}))
        pending = my_turn()
        page.wait_for_function("() => /behind live/.test(document.querySelector('#behind').textContent)")
        page.wait_for_function("() => document.querySelectorAll('#movelist .mv').length === 6")
        counts = [c for c in page.evaluate("() => window.__counts") if c]
        assert counts == [1, 2, 3, 4, 5, 6], counts
        assert page.text_content("#behind") == "" and page.locator("#catch-up").is_hidden()
        # my turn is waiting (taken above): two more moves each, then Catch up shows the rest at once
        seat.send(json.dumps({"type": "move", "move": pending["legal"]["moves"][0]["move"]}))
        legal = my_turn()["legal"]["moves"]
        seat.send(json.dumps({"type": "move", "move": legal[0]["move"]}))
        my_turn()
        page.wait_for_function("() => /behind live/.test(document.querySelector('#behind').textContent)")
        page.click("#catch-up")
        assert page.evaluate("() => document.querySelectorAll('#movelist .mv').length") == 10
        assert page.text_content("#behind") == ""


def test_a_takeback_against_a_bot_undoes_my_move_and_its_reply(page: Any, server: str, shot: Any) -> None:
    """Issue 15: the Takeback button (reached with Tab like any button) undoes my last move and the bot's reply
    at once; the board, the move list and the record go back, and it is my move again."""
    game_id = create(page, server, "tictactoe", seat1="builtin:random", clock=("match", "120"))
    assert wait_turn_or_end(page)
    page.click("[data-cell='b2']")
    assert wait_turn_or_end(page)
    page.wait_for_function("() => document.querySelectorAll('#movelist .mv').length === 2")
    assert len(record_so_far(server, game_id)) == 2
    page.focus("#takeback")
    page.keyboard.press("Enter")
    page.wait_for_function(
        "() => /Move taken back: your move again \\(X\\)/.test(document.querySelector('#msg').textContent)"
    )
    page.wait_for_function("() => document.querySelectorAll('#movelist .mv').length === 0")
    assert record_so_far(server, game_id) == []
    assert "taken back" in page.text_content("#announce")
    shot(page, "takeback")
    assert not axe_violations(page)
    page.click("[data-cell='b2']")  # the cell is free again
    assert wait_turn_or_end(page)
    assert record_so_far(server, game_id)[0]["move"] == "b2"


def watch_takeback(page: Any) -> None:
    """Record, each time the status line changes, its text and whether Takeback was disabled then: the page
    sets both in the same handler, so each entry is the button's state at that moment of the game."""
    page.evaluate(
        """() => { window.__tb = []; const msg = document.querySelector('#msg');
            new MutationObserver(() => { const b = document.querySelector('#takeback');
                window.__tb.push([msg.textContent, b ? b.disabled : null]); })
            .observe(msg, {childList: true, characterData: true, subtree: true}); }"""
    )


def takeback_states(page: Any) -> list[tuple[str, bool | None]]:
    return [tuple(e) for e in page.evaluate("() => window.__tb")]


def test_takeback_is_enabled_only_when_a_move_of_mine_can_be_taken_back(page: Any, server: str) -> None:
    """The Takeback button is disabled (the attribute: keyboard and screen reader see it) on my first turn,
    while the bot answers, once my only move was taken back and after the game; enabled on my turn with a move
    of mine on the board, which is exactly when the server grants one."""
    create(page, server, "tictactoe", seat1="builtin:random", clock=("match", "120"))
    assert wait_turn_or_end(page)
    watch_takeback(page)
    assert page.is_disabled("#takeback"), "nothing of mine to take back on my first turn"
    page.click("[data-cell='b2']")
    assert wait_turn_or_end(page)
    assert page.is_enabled("#takeback")
    played = [disabled for text, disabled in takeback_states(page) if text.startswith("You played")]
    assert played == [True], takeback_states(page)  # the bot's turn: nothing to take back meanwhile
    page.click("#takeback")
    page.wait_for_function("() => /Move taken back/.test(document.querySelector('#msg').textContent)")
    assert page.is_disabled("#takeback"), "my only move was taken back: nothing left to take back"
    page.click("[data-cell='a1']")
    assert wait_turn_or_end(page)
    assert page.is_enabled("#takeback")
    page.click(".resign-ask")
    page.click(".resign-yes")
    page.wait_for_selector("#result:not([hidden])")
    assert page.is_disabled("#takeback")


def test_takeback_is_disabled_when_the_bot_moved_first_and_i_have_not_replied(page: Any, server: str) -> None:
    """The bot opens: its move is on the board but none of mine, so there is nothing to take back (the server
    refuses: "you have no move to take back yet") until I have replied and it has answered."""
    bot_moves_first(page, server, "tictactoe", "random", {}, seconds="60")
    assert wait_turn_or_end(page)
    assert page.is_disabled("#takeback")
    free = page.evaluate(
        "() => [...document.querySelectorAll('[data-cell]')].filter(g => !g.querySelector('path,circle'))"
        ".map(g => g.dataset.cell)"
    )
    page.click(f"[data-cell='{free[0]}']")
    assert wait_turn_or_end(page)  # three moves: tic-tac-toe cannot be over yet
    assert page.is_enabled("#takeback")
    page.click("#takeback")
    page.wait_for_function("() => /Move taken back/.test(document.querySelector('#msg').textContent)")
    page.wait_for_function("() => document.querySelectorAll('#movelist .mv').length === 1")  # the bot's opening
    assert page.is_disabled("#takeback")


def bot_moves_first(page: Any, server: str, game: str, bot: str, params: dict[str, str], seconds: str = "1") -> str:
    """A game created in the lobby with the built-in ``bot`` in the first seat (it moves at once) and me second,
    on a turn clock of ``seconds`` (short by default); returns the match id."""
    page.goto(f"{server}/ui/#/lobby")
    page.select_option("#game", game)
    for name, value in params.items():
        page.fill(f"#param-{name}", value)
    page.select_option("#clock-type", "turn")
    page.fill("#clock-seconds", seconds)
    page.select_option("#seat0-kind", f"builtin:{bot}")
    page.select_option("#seat1-kind", "you")
    page.click("#create")
    page.wait_for_function("() => /^#\\/play\\/[0-9a-f]+$/.test(location.hash) && document.querySelector('#result')")
    return str(page.evaluate("() => { window.__seenTurns = 0; return location.hash.split('/')[2]; }"))


def test_the_evaluation_bar_shows_the_hex_and_hive_builtins_evaluations(page: Any, server: str, shot: Any) -> None:
    """Issue 15: the evaluation bar is fed by the built-in bots' own evaluations: Hex's mcts (its win probability
    as the bar's heuristic) and Hive's alphabeta (its score), with the moves each considered."""
    for game, bot, params in (("hex", "mcts", {"size": "7"}), ("hive", "alphabeta", {})):
        # a clock a loaded machine cannot run out between the bot's move and the page showing my turn
        game_id = bot_moves_first(page, server, game, bot, params, seconds="5")
        assert wait_turn_or_end(page)
        first = record_so_far(server, game_id)[0]
        heuristic = first["evaluation"]["heuristic"]
        assert isinstance(heuristic, float) and -1 <= heuristic <= 1, first["evaluation"]
        page.wait_for_function("() => /^heuristic /.test(document.querySelector('#evaltext').textContent)")
        assert page.text_content("#evaltext").startswith(f"heuristic {heuristic:.3f}")
        width = page.evaluate("() => parseFloat(document.querySelector('.evalbar > div').style.width)")
        assert abs(width - max(0, min(100, 50 + 50 * heuristic))) < 0.01
        # the moves it weighed, when it searched (Hex's mcts plays its fair opening stone without a search)
        assert page.locator(".considered li").count() == min(12, len(first["considerations"] or []))
        assert game == "hex" or first["considerations"]
        shot(page, f"evalbar-{game}-{bot}")
        assert not axe_violations(page)
