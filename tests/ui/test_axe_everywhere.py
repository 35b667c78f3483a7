"""The axe check every browser test gets (``accessibility``) fails a test whose page shows a violation: both in a
screenshotted state and in the last state of a page, and names the state and the rule. axe is put on a page once
and a state it already saw is not checked twice: any change to the page, and any new document, is checked anew."""

from __future__ import annotations

from typing import Any

import pytest
from accessibility import AXE_VERSION, axe_violations
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


def test_each_change_and_each_new_document_is_checked_again(browser: Any, server: str) -> None:
    def no_alt(pg: Any) -> bool:
        return any(line.startswith("image-alt:") for line in axe_violations(pg))

    with browser_page(browser, 1200, 900) as pg:
        pg.goto(f"{server}/ui/#/lobby")
        pg.wait_for_selector("#create")
        assert not no_alt(pg)
        pg.evaluate(BAD)
        assert no_alt(pg)
        assert no_alt(pg)  # the same state again: the same finding
        pg.evaluate("() => { document.getElementById('no-alt').alt = 'a dot'; }")  # one attribute changed
        assert not no_alt(pg)
        pg.evaluate("() => document.getElementById('no-alt').removeAttribute('alt')")
        assert no_alt(pg)
        pg.reload()  # a new document: no axe on it until the check puts the pinned one there again
        pg.wait_for_selector("#create")
        assert pg.evaluate("() => typeof window.axe") == "undefined"
        pg.evaluate(BAD)
        assert no_alt(pg)
        assert pg.evaluate("() => axe.version") == AXE_VERSION
        pg.evaluate(GOOD)
