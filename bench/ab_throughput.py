"""``bench/server_throughput.py`` as an A/B against another commit: both versions served at once, waves alternated.

Why: this machine's speed changes by up to 1.8x within minutes and by more between sittings (the commit issue 17
was filed on read 194 us of game-server CPU a move when it was filed, and 460-558 us on the evening of
2026-11-27, interleaved with main at 218-244 us), so a figure alone says as much about the hour as about the code.
Here a game server and a bot server of each version run side by side and the versions play alternate waves of the
same games (32 concurrent HTTTX games of 100 turns of an O(1) SDK bot, as ``server_throughput``), each wave's CPU
read from its own processes only: both see the same machine, and the ratio of their CPU a move is the figure.
``--scale-to`` turns the ratio back into microseconds at the speed the base's figures were taken (by default the
issue's: 194 us game server, 154 us bot server), which is how issue 17's targets (<= 80 us both) are read.

    PYTHONPATH=src .venv/bin/python bench/ab_throughput.py [--base dbefac5] [--rounds 6] [--games 32] [--turns 100]

The base is checked out with ``git worktree`` under ``.bench-cache/<commit>`` (kept for the next run; remove it
with ``git worktree remove``) and its C accelerators are compiled there; both versions run this interpreter and
these bench scripts (the instant bot is this checkout's, on each version's SDK).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import statistics
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

import httpx

from server_throughput import ROOT, cpu_seconds, free_port, process, wait_up, wave

#: main when issue 17 was filed, and its figures then (game server, bot server: us of CPU a move)
ISSUE_17_BASE = "dbefac5"
ISSUE_17_FIGURES = (194.0, 154.0)


def checkout(commit: str) -> Path:
    """A worktree of ``commit`` with its C extensions built in place (reused when already there)."""
    sha = subprocess.run(
        ["git", "rev-parse", "--verify", f"{commit}^{{commit}}"], cwd=ROOT, capture_output=True, text=True
    )
    if sha.returncode != 0:
        raise SystemExit(f"unknown commit {commit!r}: give a commit of this repository (git log --oneline)")
    tree = ROOT / ".bench-cache" / sha.stdout.strip()[:12]
    if not (tree / "src" / "hexarena").is_dir():
        tree.parent.mkdir(exist_ok=True)
        subprocess.run(["git", "worktree", "prune"], cwd=ROOT, check=True)
        subprocess.run(
            ["git", "worktree", "add", "--detach", "-f", str(tree), sha.stdout.strip()], cwd=ROOT, check=True
        )
    include, suffix = sysconfig.get_paths()["include"], sysconfig.get_config_var("EXT_SUFFIX")
    for source in sorted((tree / "src").rglob("_c*.c")):
        built = source.with_name(source.stem + suffix)
        if not built.exists():
            print(f"compiling {source.relative_to(tree)}")
            cc = ["cc", "-O2", "-shared", "-fPIC", f"-I{include}", str(source), "-o", str(built)]
            if subprocess.run(cc).returncode != 0:
                raise SystemExit(f"could not compile {source}: the base would run its pure-Python fallback")
    return tree


async def ab(base: Path, rounds: int, games: int, turns: int) -> list[dict[str, dict[str, float]]]:
    """``rounds`` rounds of one wave each side (order alternating): each round's CPU a move, per version."""
    with contextlib.ExitStack() as stack, tempfile.TemporaryDirectory() as tmp:
        sides: dict[str, tuple[str, str, subprocess.Popen[bytes], subprocess.Popen[bytes]]] = {}
        for name, root in (("base", base), ("head", ROOT)):
            gport, bport = free_port(), free_port()
            data = Path(tmp) / name
            data.mkdir()
            serve = stack.enter_context(
                process(
                    "serve",
                    "--port",
                    str(gport),
                    "--database-url",
                    f"sqlite+aiosqlite:///{data}/bench.sqlite3",
                    "--data-dir",
                    str(data),
                    "--log-level",
                    "warning",
                    "--create-rate-limit",
                    "off",
                    root=root,
                )
            )
            bot = stack.enter_context(process("instant", str(bport), "auto", "0", root=root))
            sides[name] = (f"http://127.0.0.1:{gport}", f"http://127.0.0.1:{bport}", serve, bot)
        out: list[dict[str, dict[str, float]]] = []
        async with httpx.AsyncClient(timeout=60, limits=httpx.Limits(max_connections=games)) as client:
            for server, bot_url, _, _ in sides.values():
                await wait_up(f"{server}/healthz")
                await wait_up(f"{bot_url}/capabilities.json")
                await wave(client, server, bot_url, 2, 10)  # warm-up
            for i in range(rounds):
                figures: dict[str, dict[str, float]] = {}
                for name in ("base", "head") if i % 2 == 0 else ("head", "base"):
                    server, bot_url, gproc, bproc = sides[name]
                    g0, b0 = cpu_seconds(gproc.pid), cpu_seconds(bproc.pid)
                    moves, elapsed, bad = await wave(client, server, bot_url, games, turns)
                    g, b = cpu_seconds(gproc.pid) - g0, cpu_seconds(bproc.pid) - b0
                    figures[name] = {
                        "rate": moves / elapsed,
                        "game": g / moves * 1e6,
                        "bot": b / moves * 1e6,
                        "bad": bad,
                    }
                out.append(figures)
                print(
                    f"round {i + 1}/{rounds}: game server {figures['base']['game']:.0f} -> {figures['head']['game']:.0f}"
                    f" us a move ({figures['base']['game'] / figures['head']['game']:.2f}x), bot server "
                    f"{figures['base']['bot']:.0f} -> {figures['head']['bot']:.0f} us "
                    f"({figures['base']['bot'] / figures['head']['bot']:.2f}x)"
                    + (
                        f"; games ended abnormally: base {figures['base']['bad']:.0f}, head {figures['head']['bad']:.0f}"
                        if figures["base"]["bad"] or figures["head"]["bad"]
                        else ""
                    ),
                    flush=True,
                )
    return out


def report(rounds: list[dict[str, dict[str, float]]], scale: tuple[float, float] | None) -> None:
    rates = {name: statistics.median(r[name]["rate"] for r in rounds) for name in ("base", "head")}
    print(f"moves/s (medians): base {rates['base']:,.0f}, head {rates['head']:,.0f}")
    for i, (key, label) in enumerate((("game", "game server"), ("bot", "bot server"))):
        ratios = sorted(r["base"][key] / r["head"][key] for r in rounds)
        base_us = statistics.median(r["base"][key] for r in rounds)
        head_us = statistics.median(r["head"][key] for r in rounds)
        ratio = statistics.median(ratios)
        line = (
            f"{label}: base {base_us:.0f} us a move, head {head_us:.0f} us (medians); head is {ratio:.2f}x faster "
            f"(rounds {ratios[0]:.2f}-{ratios[-1]:.2f}x)"
        )
        if scale is not None:
            line += f"; at the speed the base read {scale[i]:.0f} us: head {scale[i] / ratio:.0f} us"
        print(line)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "--base", default=ISSUE_17_BASE, help="the commit to compare with (default: main when #17 was filed)"
    )
    ap.add_argument("--rounds", type=int, default=6, help="rounds of one wave a version (alternating which goes first)")
    ap.add_argument("--games", type=int, default=32, help="concurrent games a wave")
    ap.add_argument("--turns", type=int, default=100, help="turns a game")
    ap.add_argument(
        "--scale-to",
        default=None,
        metavar="GAME,BOT",
        help="the base's figures (us a move) when they were taken, to print head's at that speed; default: the "
        f"issue's {ISSUE_17_FIGURES[0]:.0f},{ISSUE_17_FIGURES[1]:.0f} for the default base, none for another",
    )
    args = ap.parse_args()
    if args.rounds < 1 or args.games < 1 or args.turns < 2:
        ap.error("--rounds and --games must be at least 1 and --turns at least 2")
    scale: tuple[float, float] | None = None
    if args.scale_to:
        try:
            game, bot = (float(x) for x in args.scale_to.split(","))
        except ValueError:
            ap.error("--scale-to takes two numbers, GAME,BOT (us a move), e.g. 194,154")
        scale = (game, bot)
    elif args.base == ISSUE_17_BASE:
        scale = ISSUE_17_FIGURES
    base = checkout(args.base)
    print(
        f"base {args.base} ({base}) against head ({ROOT}): {args.rounds} rounds of {args.games} concurrent games "
        f"of {args.turns} turns a version, alternating",
        flush=True,
    )
    report(asyncio.run(ab(base, args.rounds, args.games, args.turns)), scale)


if __name__ == "__main__":
    sys.exit(main())
