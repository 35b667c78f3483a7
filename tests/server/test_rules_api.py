"""``GET /api/games/{name}/rules``: a game's rules with its pictures, as the web UI's rules page reads them."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterator

import httpx
import pytest

from hexarena.core.game import RuleGame
from hexarena.core.registry import _GAMES, register_game
from hexarena.server.app import Settings, create_app


def client() -> httpx.AsyncClient:
    app = create_app(Settings(database_url=None, protocols=False))
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test")


async def test_a_games_rules_come_with_svg_pictures_of_its_positions() -> None:
    async with client() as api:
        answer = await api.get("/api/games/hive/rules")
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["game"] == "hive" and body["published"] is True
    titles = [s["title"] for s in body["sections"]]
    assert {"Mosquito", "Ladybug", "Pillbug"} <= set(titles)
    pictures = [e for s in body["sections"] for e in s["examples"]]
    assert pictures and all(ET.fromstring(e["svg"]).attrib["role"] == "img" for e in pictures)


async def test_an_unknown_game_is_a_404_that_names_the_known_ones() -> None:
    async with client() as api:
        answer = await api.get("/api/games/chess/rules")
    assert answer.status_code == 404
    detail = answer.json()["detail"]
    assert "unknown game 'chess'" in detail and "hex" in detail
    async with client() as api:
        long = await api.get("/api/games/" + "x" * 5000 + "/rules")
    assert long.status_code == 404 and len(long.text) < 200 and "at most 64 characters" in long.text


class Silent(RuleGame[int, int]):
    """A registered game that publishes no rules (the plugin example's case)."""

    name = "silent-rules-test"
    title = "Silent"
    seat_names = ("a", "b")


@pytest.fixture
def silent() -> Iterator[None]:
    register_game(Silent())
    yield
    _GAMES.pop(Silent.name, None)


async def test_a_game_without_rules_says_no_rules_published(silent: None) -> None:
    async with client() as api:
        answer = await api.get(f"/api/games/{Silent.name}/rules")
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["published"] is False and body["sections"] == []
    assert body["summary"].startswith("No rules published for Silent")
