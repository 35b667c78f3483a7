"""The axe check every browser test gets (``accessibility``) fails a test whose page shows a violation: both in a
screenshotted state and in the last state of a page, and names the state and the rule."""

from __future__ import annotations

from typing import Any

import pytest
from browser_pages import browser_page, save_shot

BAD = "() => { const i = document.createElement('img'); i.src = 'data:,'; i.id = 'no-alt'; document.body.append(i); }"
GOOD = "() => document.getElementById('no-alt').remove()"


@pytest.mark.parametrize(
    ("shot", "expected"),
    [(False, r"the page, last state: image-alt"), (True, r"state 'axe-meta-bad': image-alt")],
    ids=["in-the-last-state", "in-a-screenshot-even-when-gone-later"],
)
def test_a_violation_fails_the_test(browser: Any, server: str, shot: bool, expected: str) -> None:
    with pytest.raises(AssertionError, match=expected), browser_page(browser, 1200, 900) as pg:
        pg.goto(f"{server}/ui/#/lobby")
        pg.wait_for_selector("#create")
        pg.evaluate(BAD)
        if shot:  # the violation is gone from the last state: only the screenshotted state shows it
            save_shot(pg, "axe-meta-bad")
            pg.evaluate(GOOD)


def test_a_clean_page_passes(browser: Any, server: str) -> None:
    with browser_page(browser, 1200, 900) as pg:
        pg.goto(f"{server}/ui/#/lobby")
        pg.wait_for_selector("#create")
