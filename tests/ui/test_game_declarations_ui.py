"""The lobby and the boards follow each game's own declarations (``GET /api/games``), in headless Chromium on a
real ``hexarena serve`` with examples/nim installed for real and the ``nimboard`` plugin (nim with a board of
its own) beside it.

- the clock presets and the default are the game's: nim's "30 s" among nim's own buttons (on main every game
  got the same buttons and a game the page had no name for got 5+3);
- the "Bot address" options are those whose protocol plays the game: bws and stateless for HTTTX, a Trylobot
  module (hiveai) for Hive, none for Hex or nim;
- parameters in words: a label, a line saying what the value changes, Hive's expansions by the bugs' names
  (on main: "view distance", "MLP");
- a plugin's board module draws its game, and a person plays on it.

Every state is checked by axe (``shot``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from test_browser_ui import create, record, wait_turn_or_end

from plugins.fakedist import serve_board_plugins, shared_nim_site


@pytest.fixture(scope="module")
def plugin_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serve_board_plugins(tmp_path_factory.mktemp("declarations-ui"), shared_nim_site(tmp_path_factory)) as url:
        yield url


def presets(page: Any) -> tuple[list[str], list[str]]:
    """(every preset button, the pressed ones)."""
    buttons, pressed = page.evaluate(
        "() => { const bs = [...document.querySelectorAll('#clock-presets button')];"
        " return [bs.map(b => b.textContent), bs.filter(b => b.getAttribute('aria-pressed') === 'true').map(b => b.textContent)]; }"
    )
    return buttons, pressed


def seat_kinds(page: Any) -> list[str]:
    return page.eval_on_selector_all("#seat1-kind option", "os => os.map(o => o.value)")  # type: ignore[no-any-return]


def lobby(page: Any, url: str, game: str) -> None:
    page.goto(f"{url}/ui/#/lobby")
    page.wait_for_selector("#create")
    page.select_option("#game", game)


def test_the_lobby_offers_each_games_own_presets_and_bot_protocols(page: Any, plugin_server: str, shot: Any) -> None:
    lobby(page, plugin_server, "nim")
    assert presets(page) == (["30 s", "1+1", "10 s a move", "No clock"], ["30 s"])
    assert (page.input_value("#clock-type"), page.input_value("#clock-seconds")) == ("match", "30")
    assert not {"bws", "stateless", "hiveai"} & set(seat_kinds(page))
    assert page.locator("#remote-help").is_hidden()
    shot(page, "declared-lobby-nim")

    page.select_option("#game", "hex")
    assert presets(page)[1] == ["10+5"] and "30 s" not in presets(page)[0]
    assert not {"bws", "stateless", "hiveai"} & set(seat_kinds(page))

    page.select_option("#game", "htttx")
    assert presets(page)[1] == ["5+3"]
    assert {"bws", "stateless"} <= set(seat_kinds(page)) and "hiveai" not in seat_kinds(page)
    page.select_option("#seat1-kind", "stateless")
    assert page.get_attribute("#seat1-extra", "placeholder") == "http://127.0.0.1:8765/capabilities.json"
    assert page.get_by_label("Bot address", exact=True).get_attribute("id") == "seat1-extra"  # named for what it takes
    assert "bws, stateless" in page.text_content("#remote-help")
    shot(page, "declared-lobby-htttx-bot-address")

    page.select_option("#game", "hive")
    assert "hiveai" in seat_kinds(page) and not {"bws", "stateless"} & set(seat_kinds(page))
    page.select_option("#seat1-kind", "hiveai")
    assert page.get_attribute("#seat1-extra", "placeholder") == "127.0.0.1:8100"


def test_parameters_read_in_words_with_their_effect(page: Any, plugin_server: str, shot: Any) -> None:
    lobby(page, plugin_server, "hive")
    field = page.get_by_label("Expansion bugs")  # the label names the field for a screen reader too
    assert field.get_attribute("id") == "param-expansions"
    assert field.evaluate("s => s.selectedOptions[0].textContent") == "Mosquito, Ladybug and Pillbug"
    names = field.evaluate("s => [...s.options].map(o => o.textContent)")
    assert names[0] == "None (the base game)" and "Ladybug and Pillbug" in names and "MLP" not in names
    described = field.evaluate("s => document.getElementById(s.getAttribute('aria-describedby')).textContent")
    assert "extra bugs" in described and page.is_visible("#param-expansions-help")
    shot(page, "declared-lobby-hive-params")

    page.select_option("#game", "htttx")
    assert page.get_by_label("Placement reach").get_attribute("id") == "param-view_distance"
    assert page.get_by_label("Stones in a row to win").get_attribute("id") == "param-win_distance"
    assert "within this many steps" in page.text_content("#param-view_distance-help")
    assert "view distance" not in page.text_content("form")  # the raw name is gone
    shot(page, "declared-lobby-htttx-params")

    # a choice made by its name reaches the game as the game's own value
    page.select_option("#game", "hive")
    page.get_by_label("Expansion bugs").select_option(label="Mosquito")
    page.select_option("#seat0-kind", "you")
    page.click("#create")
    page.wait_for_function("() => /^#\\/play\\//.test(location.hash)")
    game_id = page.evaluate("() => location.hash.split('/')[2]")
    assert httpx.get(f"{plugin_server}/api/ui/matches/{game_id}").json()["params"] == {"expansions": "M"}
    page.goto(f"{plugin_server}/ui/#/lobby")  # the Hive page itself is tested elsewhere (its axe state too)
    page.wait_for_selector("#create")


def test_a_plugin_game_plays_on_the_board_it_ships(page: Any, plugin_server: str, shot: Any) -> None:
    game_id = create(page, plugin_server, "nimboard", params={"heaps": "2,3"})
    assert wait_turn_or_end(page)
    page.wait_for_selector("[data-plugin-board='nimboard']")  # the plugin's own module, not the generic table
    assert page.locator("[data-field='heaps']").count() == 0
    assert sorted(page.eval_on_selector_all("[data-take]", "bs => bs.map(b => b.dataset.take)")) == [
        "1:1",
        "1:2",
        "2:1",
        "2:2",
        "2:3",
    ]
    shot(page, "declared-plugin-board")
    mine: list[str] = []
    while True:  # it is my turn: a click on the plugin's stones, then wait for the next turn or the end
        take = page.eval_on_selector_all("[data-take]:not([disabled])", "bs => bs.map(b => b.dataset.take)")[0]
        page.click(f"[data-take='{take}']:not([disabled])")
        mine.append(take)
        if not wait_turn_or_end(page):
            break
    shot(page, "declared-plugin-board-end")
    stored = record(plugin_server, game_id)
    assert stored["status"] == "finished" and stored["game"] == "nimboard"
    assert [m["move"] for m in stored["moves"][::2]] == mine
