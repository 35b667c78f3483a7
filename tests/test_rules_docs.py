"""The docs site's game pages are built from the rules each game publishes (tools/mkdocs_hooks.py)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

from hexarena.core.registry import available_games
from hexarena.games.rules import published, rules_of

ROOT = Path(__file__).resolve().parents[1]


def hooks() -> ModuleType:
    spec = importlib.util.spec_from_file_location("mkdocs_hooks", ROOT / "tools" / "mkdocs_hooks.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", sorted(n for n in available_games() if rules_of(n) is not None))
def test_a_games_page_holds_its_rules_and_every_picture(name: str) -> None:
    page = published(available_games()[name])
    markdown = hooks().rules_markdown(page, lambda n: f"pictures/{name}-{n}.svg")
    examples = [e for s in page["sections"] for e in s["examples"]]
    for n, e in enumerate(examples, 1):
        assert f"![{e['caption']}](pictures/{name}-{n}.svg)" in markdown
    for section in page["sections"]:
        assert f"## {section['title']}" in markdown
    hand_written = ROOT / "docs" / "games" / f"{name}.md"
    if hand_written.exists():  # the page says where its rules go, or the build fails
        assert hooks().RULES_MARKER in hand_written.read_text(encoding="utf-8")
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert f"games/{name}.md" in nav, f"mkdocs.yml's nav lacks games/{name}.md"
