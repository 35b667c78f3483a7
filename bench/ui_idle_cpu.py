"""What a UI page left open with nothing happening costs the browser: chromium's CPU (all its processes) and the
page's own task and script time (CDP ``Performance.getMetrics``) over an idle window, page by page.

Starts ``hexarena serve`` (a temporary SQLite database) and a headless chromium with the browser tests' command
line (``tests/ui/browser_pages.py``). Each page opens in a browser context of its own, settles, then is left alone for
``--idle`` seconds: a clock that redraws, a poll or an animation that never stops shows here as CPU a person's
idle tab would burn too, and as CPU every browser test pays while it waits.

Then ``--pages`` times a fresh browser context, page and lobby, closed: what each test pays before it does
anything.

    PYTHONPATH=src .venv/bin/python bench/ui_idle_cpu.py [--idle 10] [--pages 10] [--chromium PATH ...]

By default both Debian's chromium-headless-shell (what the browser tests run) and its chromium, one after the other.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "ui"))

from browser_pages import FULL_CHROMIUM, HEADLESS_SHELL, chromium_launch_options

from server_throughput import free_port, process, wait_up


def descendants(root: int) -> list[int]:
    """``root`` and every process below it (chromium's renderers are children of its zygote)."""
    children: dict[int, list[int]] = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            except OSError:
                continue
            children.setdefault(ppid, []).append(int(d))
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo.extend(children.get(pid, []))
    return out


def chromium_cpu(root: int) -> float:
    """CPU seconds chromium used below ``root``, user and system (clock ticks): its live processes' own, and what
    their exited children used (a closed renderer's time is its reaper's ``cutime``; a closed browser's is
    Playwright's driver's)."""
    total = 0
    for pid in descendants(root):
        try:
            with open(f"/proc/{pid}/stat") as f:
                comm, rest = f.read().split("(", 1)[1].rsplit(")", 1)
        except OSError:
            continue
        fields = rest.split()
        if comm.startswith(("chrom", "headless")):
            total += int(fields[11]) + int(fields[12]) + int(fields[13]) + int(fields[14])
        elif comm.startswith("node"):
            total += int(fields[13]) + int(fields[14])
    return total / os.sysconf("SC_CLK_TCK")


def metrics(cdp: Any) -> dict[str, float]:
    return {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}


def finished_game(server: str) -> str:
    r = httpx.post(
        f"{server}/api/matches",
        json={"game": "hex", "params": {"size": 5}, "players": ["builtin:random", "builtin:random"]},
    )
    game_id = str(r.json()["game_id"])
    for _ in range(200):
        if httpx.get(f"{server}/games/{game_id}").json()["status"] != "running":
            return game_id
        time.sleep(0.05)
    raise RuntimeError("the bot game did not finish")


def live_game(page: Any, server: str) -> None:
    """The lobby's form: me against a bot that never moves first, so my clock runs while the page sits."""
    page.goto(f"{server}/ui/#/lobby")
    page.select_option("#game", "hex")
    page.select_option("#seat0-kind", "you")
    page.select_option("#seat1-kind", "builtin:random")
    page.click("#create")
    page.wait_for_function("() => /Your move/.test(document.querySelector('#msg')?.textContent || '')")


def main(idle: float, chromiums: list[str], pages: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        server = f"http://127.0.0.1:{port}"
        db = f"sqlite+aiosqlite:///{tmp}/bench.sqlite3"
        args = ("serve", "--port", str(port), "--database-url", db, "--data-dir", tmp, "--log-level", "warning")
        with process(*args):
            asyncio.run(wait_up(f"{server}/healthz"))
            for chromium in chromiums:
                print(f"== {chromium}")
                measure(server, idle, pages, chromium_launch_options(chromium))


#: the browsers compared by default: the headless shell the browser tests prefer, and the full chromium
BROWSERS = (HEADLESS_SHELL, FULL_CHROMIUM)


def idle_pages(browser: Any, server: str, idle: float) -> None:
    replay = finished_game(server)
    pages: list[tuple[str, Any]] = [
        ("lobby", f"{server}/ui/#/lobby"),
        ("live game, my clock running", live_game),
        ("replay", f"{server}/ui/#/replay/{replay}"),
        ("analysis board (hex)", f"{server}/ui/#/analysis/hex"),
        ("ladder", f"{server}/ui/#/ladder"),
        ("games list", f"{server}/ui/#/games"),
    ]
    print(f"idle window {idle:.0f} s; chromium CPU: all its processes")
    print(f"{'page':32s} {'chromium CPU s':>14s} {'task s':>8s} {'script s':>9s} {'layouts':>8s}")
    for name, how in pages:
        context = browser.new_context(viewport={"width": 1200, "height": 900})
        page = context.new_page()
        if callable(how):
            how(page, server)
        else:
            page.goto(how)
        page.wait_for_load_state("networkidle")
        time.sleep(1)
        cdp = context.new_cdp_session(page)
        cdp.send("Performance.enable")
        m0, c0 = metrics(cdp), chromium_cpu(os.getpid())
        time.sleep(idle)
        m1, c1 = metrics(cdp), chromium_cpu(os.getpid())
        print(
            f"{name:32s} {c1 - c0:14.2f} {m1['TaskDuration'] - m0['TaskDuration']:8.3f}"
            f" {m1['ScriptDuration'] - m0['ScriptDuration']:9.3f} {m1['LayoutCount'] - m0['LayoutCount']:8.0f}"
        )
        context.close()


def fresh_pages(browser: Any, server: str, n: int) -> None:
    """What every browser test pays before it does anything: a context of its own, a page, the lobby, then the
    context closed."""
    time.sleep(1)
    before = chromium_cpu(os.getpid())
    for _ in range(n):
        context = browser.new_context(viewport={"width": 1200, "height": 900})
        page = context.new_page()
        page.goto(f"{server}/ui/#/lobby")
        page.wait_for_load_state("networkidle")
        context.close()
    time.sleep(1)
    print(
        f"a fresh context, page and lobby, closed: {(chromium_cpu(os.getpid()) - before) / n:.2f} s chromium CPU each"
    )


def measure(server: str, idle: float, pages: int, options: dict[str, Any]) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(headless=True, **options)
        print("chromium:", " ".join(options["args"])[:160], "...")
        idle_pages(browser, server, idle)
        fresh_pages(browser, server, pages)
        browser.close()


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--idle", type=float, default=10.0)
    ap.add_argument(
        "--chromium",
        action="append",
        help="a chromium to measure (again for several, one after the other); default: $HEXARENA_CHROMIUM, else those"
        " of " + " and ".join(BROWSERS) + " installed",
    )
    ap.add_argument("--pages", type=int, default=10, help="fresh pages to open and close, one after another")
    a = ap.parse_args()
    named = os.environ.get("HEXARENA_CHROMIUM")  # the tests' choice, when one is made
    chosen = a.chromium or ([named] if named else [path for path in BROWSERS if os.path.exists(path)])
    if not chosen:
        sys.exit(f"no chromium at {' or '.join(BROWSERS)}: apt-get install chromium-headless-shell, or pass --chromium")
    main(a.idle, chosen, a.pages)
