"""A rating for people without accounts (issue 33), in a real browser: each browser keeps an identity of its own,
a person who plays a rated game against a bot to the end appears on the leaderboard, marked as a person, under
their display name and with a rating, which their card on the match page shows next time; a second browser that
picks the same name is another person."""

from __future__ import annotations

import random
import time
from typing import Any

import httpx
from accessibility import axe_violations
from browser_pages import browser_page
from test_browser_ui import record, wait_turn_or_end

from hexarena.core.person import is_person_key


def ratings_after(server: str, rated_games: int) -> list[dict[str, Any]]:
    """The tictactoe leaderboard once ``rated_games`` games have been rated (each moves builtin:random's count):
    a game's page may show its end before the store has its ratings."""
    for _ in range(200):
        board: list[dict[str, Any]] = httpx.get(f"{server}/leaderboard/tictactoe").json()["ratings"]
        if any(r["player"] == "builtin:random" and r["games"] >= rated_games for r in board):
            return board
        time.sleep(0.05)
    raise AssertionError(f"{rated_games} rated games not on the leaderboard in 10 s: {board}")


def play_rated_tictactoe(page: Any, server: str, name: str, seed: int) -> str:
    """From the lobby: me (``name``) against builtin:random, Rated ticked, clicked to the end; the game's id."""
    page.goto(f"{server}/ui/#/lobby")
    page.wait_for_selector("#create")
    page.select_option("#game", "tictactoe")
    page.select_option("#seat0-kind", "you")
    page.fill("#seat0-extra", name)
    page.select_option("#seat1-kind", "builtin:random")
    page.check("#rated")
    page.click("#create")
    page.wait_for_function("() => /^#\\/play\\/[0-9a-f]+$/.test(location.hash) && document.querySelector('#result')")
    game_id = str(page.evaluate("() => { window.__seenTurns = 0; return location.hash.split('/')[2]; }"))
    rng = random.Random(seed)
    while wait_turn_or_end(page):
        free = page.evaluate(
            "() => [...document.querySelectorAll('[data-cell]')].filter(g => !g.querySelector('path,circle')).map(g => g.dataset.cell)"
        )
        page.click(f"[data-cell='{rng.choice(free)}']")
    return game_id


def test_a_person_plays_a_bot_to_the_end_and_is_on_the_leaderboard_and_a_namesake_is_another_person(
    page: Any, browser: Any, server: str, shot: Any
) -> None:
    game_id = play_rated_tictactoe(page, server, "Ann", seed=3)
    stored = record(server, game_id)
    assert stored["status"] == "finished"
    board = ratings_after(server, 1)
    people = [r for r in board if r["person"]]
    assert [r["name"] for r in people] == ["Ann"] and people[0]["games"] == 1
    ann = people[0]["player"]
    assert is_person_key(ann)
    assert stored["players"][0]["spec"] == ann  # the seat is hers by key, whatever its name
    secret = page.evaluate("() => localStorage.getItem('hexarena.person')")
    assert secret and secret not in httpx.get(f"{server}/api/ui/matches/{game_id}").text  # only its hash leaves

    page.goto(f"{server}/ui/#/leaderboard/tictactoe")
    page.wait_for_selector("#leaderboard")
    rows = page.evaluate(
        "() => [...document.querySelectorAll('#leaderboard tbody tr')].map(tr => [tr.cells[1].textContent, tr.cells[2].textContent])"
    )
    row = next(r for r in rows if r[0].startswith("Ann"))
    assert row[0] == "Ann person" and row[1].endswith("?"), rows  # marked a person, a provisional rating
    bots = httpx.get(f"{server}/api/ui/bots", params={"game": "tictactoe"}).json()
    assert not any(is_person_key(b["name"]) for b in bots), bots  # people are not listed among the bots
    history = httpx.get(f"{server}/api/ui/leaderboard/tictactoe/history").json()["history"]
    assert [p["games"] for p in history[ann]] == [1]  # her plot's points, under her key like a bot's
    shot(page, "leaderboard-with-a-person")

    # a second browser whose person also calls herself Ann: another identity, another row
    with browser_page(browser, 1200, 900, "the other Ann's browser") as other:
        play_rated_tictactoe(other, server, "Ann", seed=4)
        assert other.evaluate("() => localStorage.getItem('hexarena.person')") != secret
    board = ratings_after(server, 2)
    anns = {r["player"]: r for r in board if r["person"]}
    assert len(anns) == 2 and ann in anns and all(r["name"] == "Ann" and r["games"] == 1 for r in anns.values())
    assert next(r for r in board if r["player"] == "builtin:random")["games"] == 2

    # Ann's second rated game: her row plots her rating history, as a bot's does
    play_rated_tictactoe(page, server, "Ann", seed=5)
    ratings_after(server, 3)
    page.goto(f"{server}/ui/#/leaderboard/tictactoe")
    page.wait_for_selector("#leaderboard svg.ratingplot")
    plots = page.evaluate(
        """() => [...document.querySelectorAll('#leaderboard tbody tr')].filter(tr => tr.cells[1].textContent === 'Ann person')
            .map(tr => tr.querySelector('svg.ratingplot')?.getAttribute('aria-label') ?? tr.cells[3].textContent)"""
    )
    one, two = sorted(plots, key=len)  # the other Ann's one game, and Ann's two
    assert one == "one rating" and two.startswith("rating history: ") and "over 2 updates" in two, plots
    shot(page, "leaderboard-person-history")
    anns = {r["player"]: r for r in httpx.get(f"{server}/leaderboard/tictactoe").json()["ratings"] if r["person"]}

    # Ann's next game: her card shows her rating, her opponent's card the bot's
    page.goto(f"{server}/ui/#/lobby")
    page.wait_for_selector("#create")
    page.select_option("#game", "tictactoe")
    page.select_option("#seat0-kind", "you")
    page.select_option("#seat1-kind", "builtin:random")
    page.click("#create")
    page.wait_for_function("() => document.querySelector('#player0 .prating')?.textContent")
    mine = page.text_content("#player0 .prating")
    assert mine == f"{round(anns[ann]['rating'])}?", (mine, anns[ann])
    assert page.text_content("#player1 .prating").endswith("?")
    shot(page, "card-with-a-rating")
    assert not axe_violations(page)


def test_casual_games_and_bad_identities(server: str) -> None:
    """Unticked, a game with a person is casual: nobody's rating moves. A rated game needs each person's
    identity; an identity that is not one is refused with what it should be."""
    secret = "Q" * 43
    casual = httpx.post(
        f"{server}/api/matches",
        json={"game": "tictactoe", "players": ["browser:Bo", "builtin:random"], "person": secret},
    )
    assert casual.status_code == 200, casual.text
    info = httpx.get(f"{server}/api/ui/matches/{casual.json()['game_id']}").json()
    assert is_person_key(info["players"][0]["spec"]) and info["players"][0]["rating"] is None
    no_identity = httpx.post(
        f"{server}/api/matches", json={"game": "tictactoe", "players": ["browser:Bo", "builtin:random"], "rated": True}
    )
    assert no_identity.status_code == 400 and "person" in no_identity.json()["detail"], no_identity.text
    for bad in ("Q" * 42, "Q" * 44, "Q" * 42 + "+", "Q" * 42 + "\n"):
        r = httpx.post(
            f"{server}/api/matches",
            json={"game": "tictactoe", "players": ["browser", "builtin:random"], "person": bad, "rated": True},
        )
        assert r.status_code == 422 and "person" in r.text, (bad, r.text)
    both_mine = httpx.post(
        f"{server}/api/matches",
        json={"game": "tictactoe", "players": ["browser:Bo", "browser:Bo"], "person": secret, "rated": True},
    )
    assert both_mine.status_code == 400 and "themselves" in both_mine.json()["detail"], both_mine.text
    long_name = httpx.post(
        f"{server}/api/matches", json={"game": "tictactoe", "players": ["browser:" + "B" * 33, "builtin:random"]}
    )
    assert long_name.status_code == 400 and "at most 32 characters" in long_name.text, long_name.text
    rated_open = httpx.post(
        f"{server}/api/matches",
        json={"game": "tictactoe", "players": ["browser:Bo", "open"], "person": secret, "rated": True},
    ).json()
    join = f"{server}/api/ui/matches/{rated_open['game_id']}/join"
    refused = httpx.post(join, json={"seat": "O", "name": "Cy"})
    assert refused.status_code == 400 and "person" in refused.json()["detail"], refused.text
    myself = httpx.post(join, json={"seat": "O", "name": "Bo", "person": secret})
    assert myself.status_code == 400 and "themselves" in myself.json()["detail"], myself.text
    joined = httpx.post(join, json={"seat": "O", "name": "Cy", "person": "R" * 43})
    assert joined.status_code == 200, joined.text  # the refusal did not give the seat away
    players = httpx.get(f"{server}/api/ui/matches/{rated_open['game_id']}").json()["players"]
    assert [p["name"] for p in players] == ["Bo", "Cy"] and players[0]["spec"] != players[1]["spec"]
    # bots: rated unless the creator says casual (its end is written before the next game's: the recorder's order)
    bots = {"game": "tictactoe", "players": ["builtin:random", "builtin:perfect"]}
    casual_bots = httpx.post(f"{server}/api/matches", json={**bots, "rated": False}).json()["game_id"]
    assert record(server, casual_bots)["status"] == "finished"
    assert record(server, httpx.post(f"{server}/api/matches", json=bots).json()["game_id"])["status"] == "finished"
    board = ratings_after(server, 1)
    assert {(r["player"], r["games"], r["person"]) for r in board} == {
        ("builtin:random", 1, False),
        ("builtin:perfect", 1, False),
    }
