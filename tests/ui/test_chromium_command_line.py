"""The browser tests' chromium runs with the command line ``tests/ui/browser_pages.py`` means it to have: chromium
keeps only the last ``--disable-features`` it is given, so a second one would silently drop Playwright's list (or
ours)."""

from __future__ import annotations

import shlex
from typing import Any

from browser_pages import DISABLED_FEATURES, playwright_disabled_features


def test_one_disable_features_switch_with_playwrights_features_and_ours(browser: Any) -> None:
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto("chrome://version")
        line = page.text_content("#command_line")
    finally:
        context.close()
    assert line, "chrome://version shows no command line"
    switches = [a for a in shlex.split(line) if a.startswith("--disable-features=")]
    assert len(switches) == 1, switches
    features = set(switches[0].split("=", 1)[1].split(","))
    theirs = playwright_disabled_features()
    assert theirs, "Playwright's list of disabled features was not found in its driver"
    assert set(theirs) <= features and set(DISABLED_FEATURES) <= features, sorted(features)
