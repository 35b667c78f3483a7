"""A page left open with nothing happening does no work it has no need of (issue 30): a tab left open for hours
must not keep a core busy, and every browser test pays for what a page does while the test waits.

A running clock changes what it shows once a second (tenths only in its last ten seconds), so its page redraws
no more often than that; a stopped clock (the game is over) is not redrawn at all. The bound counts the page's own
DOM changes and layouts against the time that passed in the page, so a slow machine (timers late, fewer ticks) can
only make it easier to meet.
"""

from __future__ import annotations

import time
from typing import Any

from test_browser_ui import create, wait_turn_or_end

#: counts every change under #app from now on (text, children, attributes) and notes the page's clock
_WATCH = """() => {
  window.__idle = { changes: 0, start: performance.now() };
  new MutationObserver((records) => { window.__idle.changes += records.length; })
    .observe(document.querySelector('#app'), { subtree: true, childList: true, characterData: true, attributes: true });
}"""
_SEEN = "() => ({ changes: window.__idle.changes, seconds: (performance.now() - window.__idle.start) / 1000 })"


def idle_window(page: Any, seconds: float) -> tuple[int, float, float, float]:
    """Leave the page alone for ``seconds``: the DOM changes and layouts it made meanwhile, the time that passed
    in it, and its main thread's busy time (CDP ``Performance.getMetrics``)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Performance.enable")

    def metrics() -> dict[str, float]:
        return {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}

    page.evaluate(_WATCH)
    before = metrics()
    time.sleep(seconds)  # the idle window itself: nothing to wait for, the page is meant to do nothing
    after = metrics()
    seen = page.evaluate(_SEEN)
    cdp.detach()
    layouts = after["LayoutCount"] - before["LayoutCount"]
    busy = after["TaskDuration"] - before["TaskDuration"]
    return int(seen["changes"]), layouts, float(seen["seconds"]), busy


def test_a_running_clock_redraws_once_a_second_and_a_stopped_one_never(page: Any, server: str, shot: Any) -> None:
    create(page, server, "tictactoe", clock=("match", "300"))
    assert wait_turn_or_end(page)
    first = page.text_content("#player0 .clock")
    changes, layouts, seconds, busy = idle_window(page, 4)
    assert page.text_content("#player0 .clock") != first, "my clock is not running: nothing was measured"
    # one change of the clock's text a second, and its colour and turn marks untouched; a little slack for
    # a second boundary at each end of the window
    assert changes <= seconds + 2, f"{changes} DOM changes in {seconds:.1f} s of a page showing a running clock"
    assert layouts <= seconds + 2, f"{layouts} layouts in {seconds:.1f} s of a page showing a running clock"
    assert busy < 0.25 * seconds, f"the page's main thread was busy {busy:.2f} s of {seconds:.1f} s idle"
    shot(page, "idle-clock-running")

    page.click(".resign-ask")
    page.click(".resign-yes")
    page.wait_for_function("() => !document.querySelector('#result').hidden")
    stopped = page.text_content("#player0 .clock")
    changes, layouts, seconds, busy = idle_window(page, 3)
    assert page.text_content("#player0 .clock") == stopped
    assert changes == 0, f"{changes} DOM changes in {seconds:.1f} s of a finished game's page"
    assert layouts <= 1, f"{layouts} layouts in {seconds:.1f} s of a finished game's page"
    assert busy < 0.25 * seconds, f"the page's main thread was busy {busy:.2f} s of {seconds:.1f} s idle"
