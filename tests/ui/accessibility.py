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
#: ``axe.min.js``): pinned by the repository, not by whichever copy a Python wrapper happens to ship, so a newer
#: axe's new rules reach the tests on purpose; the tests put it on the page and run it themselves. Its subresource-integrity hash, from axe-core's own
#: ``sri-history.json``, proves the file is that release unmodified.
AXE_VERSION = "4.14.1"
AXE_FILE = Path(__file__).with_name(f"axe-{AXE_VERSION}.min.js")
AXE_SRI = "sha256-KTSJmUUM3yhJqOcLeRL8LahahJ2jnA0NU5T1HUqe2Vw="

_AXE_SCRIPT: str | None = None


def _axe_script() -> str:
    global _AXE_SCRIPT
    if _AXE_SCRIPT is None:
        script = AXE_FILE.read_bytes()
        sri = "sha256-" + base64.b64encode(hashlib.sha256(script).digest()).decode()
        assert sri == AXE_SRI, f"{AXE_FILE.name} is not axe-core {AXE_VERSION} as released ({sri})"
        _AXE_SCRIPT = script.decode("utf-8")
    return _AXE_SCRIPT


#: What makes two runs of axe on one page see the same thing: the same document (its time origin), the address,
#: the viewport, scroll and emulated media (colour scheme, motion, contrast), the whole DOM (a hash of its markup
#: and its length), the values of the form fields (not in the markup) and the focused element. A state with the
#: same key was already checked, and axe would find the same again.
_STATE_KEY = """() => {
  const s = document.documentElement.outerHTML;
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
  const fields = [...document.querySelectorAll('input, select, textarea')].map(e => `${e.value}:${e.checked}`);
  const a = document.activeElement;
  const media = ['(prefers-color-scheme: dark)', '(prefers-reduced-motion: reduce)', '(forced-colors: active)',
    '(prefers-contrast: more)'].map(q => matchMedia(q).matches);
  return JSON.stringify([performance.timeOrigin, location.href, innerWidth, innerHeight, scrollX, scrollY, media,
    devicePixelRatio, s.length, h, fields,
    a ? a.outerHTML.slice(0, 300) : '']);
}"""

#: Injected once per document: the page keeps ``window.axe`` across the UI's own (hash) navigations, and a new
#: document (a reload, another page) has none, so it gets the pinned script again.
_RUN = """async ([options, version]) => {
  if (!(window.axe && window.axe.version === version)) return null;
  return await window.axe.run(document, options);
}"""

#: The last state axe saw on each page (by ``id``) and what it found there.
_LAST: dict[int, tuple[str, list[str]]] = {}


def axe_violations(page: Any) -> list[str]:
    """Every axe violation on the page as it is now: one line per element (rule, element, what to fix). The same
    state seen again (nothing on the page changed since the last run) gets the lines of that run."""
    key = page.evaluate(_STATE_KEY)
    last = _LAST.get(id(page))
    if last is not None and last[0] == key:
        return list(last[1])
    options = {"runOnly": {"type": "tag", "values": AXE_TAGS}, "resultTypes": ["violations"]}
    response = page.evaluate(_RUN, [options, AXE_VERSION])
    if response is None:  # a document without the pinned axe yet
        page.evaluate(_axe_script())
        response = page.evaluate(_RUN, [options, AXE_VERSION])
        assert response is not None, "axe did not load on the page"
    engine = response["testEngine"]["version"]
    assert engine == AXE_VERSION, f"axe {engine} ran, not the pinned {AXE_VERSION}"
    found = [
        f"{v['id']}: {node['target']} {node.get('failureSummary', '')[:200]}"
        for v in response["violations"]
        for node in v["nodes"]
    ]
    _LAST[id(page)] = (key, found)
    return list(found)


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
    for page in context.pages:
        _LAST.pop(id(page), None)
    return _LOGS.pop(id(context), AxeLog())


def check_state(page: Any, state: str) -> None:
    """Run axe on ``page`` now, for the test whose context opened it (pages of other contexts: not tracked)."""
    log = _LOGS.get(id(page.context))
    if log is not None:
        log.check(page, state)
