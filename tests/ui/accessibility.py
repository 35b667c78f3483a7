"""axe-core in every browser test: the full rule set (WCAG 2.0-2.2 A and AA, and axe's best practices) on every
page and state a test visits, not on a few chosen ones.

Where it runs: each ``shot(page, name)`` (every state worth a screenshot), and the last state of every page a
test opened (``browser_page`` checks it before closing). What it finds fails the test that visited it, one line
per element, naming the state. Tests may also call ``axe_violations(page)`` themselves for a state in between.
"""

from __future__ import annotations

import base64
import hashlib
from pathlib import Path
from typing import Any

#: axe's tags for the WCAG 2.0, 2.1 and 2.2 success criteria at levels A and AA, and its best practices (what
#: axe runs by default, named so that a new axe release cannot quietly narrow it).
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]

#: The axe-core release the tests run, vendored beside this file (``npm pack axe-core@VERSION``, its
#: ``axe.min.js``): pinned by the repository, not by whichever copy axe-playwright-python happens to ship, so a
#: newer axe's new rules reach the tests on purpose. Its subresource-integrity hash, from axe-core's own
#: ``sri-history.json``, proves the file is that release unmodified.
AXE_VERSION = "4.14.1"
AXE_FILE = Path(__file__).with_name(f"axe-{AXE_VERSION}.min.js")
AXE_SRI = "sha256-KTSJmUUM3yhJqOcLeRL8LahahJ2jnA0NU5T1HUqe2Vw="

_AXE: Any = None


def _axe() -> Any:
    global _AXE
    if _AXE is None:
        from axe_playwright_python.sync_playwright import Axe

        script = AXE_FILE.read_bytes()
        sri = "sha256-" + base64.b64encode(hashlib.sha256(script).digest()).decode()
        assert sri == AXE_SRI, f"{AXE_FILE.name} is not axe-core {AXE_VERSION} as released ({sri})"
        _AXE = Axe(axe_script=script.decode("utf-8"))
    return _AXE


def axe_violations(page: Any) -> list[str]:
    """Every axe violation on the page as it is now: one line per element (rule, element, what to fix)."""
    results = _axe().run(page, options={"runOnly": {"type": "tag", "values": AXE_TAGS}, "resultTypes": ["violations"]})
    engine = results.response["testEngine"]["version"]
    assert engine == AXE_VERSION, f"axe {engine} ran, not the pinned {AXE_VERSION}"
    return [
        f"{v['id']}: {node['target']} {node.get('failureSummary', '')[:200]}"
        for v in results.response["violations"]
        for node in v["nodes"]
    ]


def is_ui_page(page: Any) -> bool:
    """hexarena's web UI (``/ui/``), where the promise holds; API docs and other pages are not checked."""
    try:
        return "/ui/" in page.url and not page.is_closed()
    except Exception:
        return False


class AxeLog:
    """What axe found in one browser context (a test's page and the pages it opened), by state."""

    def __init__(self) -> None:
        self.found: list[str] = []

    def check(self, page: Any, state: str) -> None:
        if is_ui_page(page):
            self.found.extend(f"{state}: {line}" for line in axe_violations(page))


#: The log of each open browser context, by id: ``shot`` finds it from the page it is given.
_LOGS: dict[int, AxeLog] = {}


def open_log(context: Any) -> AxeLog:
    log = _LOGS[id(context)] = AxeLog()
    return log


def close_log(context: Any) -> AxeLog:
    return _LOGS.pop(id(context), AxeLog())


def check_state(page: Any, state: str) -> None:
    """Run axe on ``page`` now, for the test whose context opened it (pages of other contexts: not tracked)."""
    log = _LOGS.get(id(page.context))
    if log is not None:
        log.check(page, state)
