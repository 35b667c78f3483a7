"""The HTTTX search engine (``_csearch``) as an A/B against another commit: nodes a CPU second and instructions a node.

Why an A/B: the machine is shared and its speed changes within minutes, so a rate alone says as much about the
hour as about the code. Here both versions search the same positions to the same fixed depth in the same run,
rounds alternating which goes first, each timed by its own process's CPU clock (``time.process_time``, which
other processes' load does not inflate the way it does wall time); ``--callgrind`` also counts the instructions
each version executes inside its search (valgrind's count does not depend on load at all). The positions are
middle games of the heuristic bot with random turns mixed in, the same for both versions; the report also says
whether both versions found the same move and score on each, which a speed-up that keeps the search must. The
searches are the alpha-beta alone (no threat-space search at the root, which the base does not have), as the
bot's depth- and node-bounded analyses of then were.

    PYTHONPATH=src .venv/bin/python bench/htttx_search_ab.py [--base 42c690b] [--depth 3] [--positions 24]
        [--rounds 3] [--callgrind]

The base is checked out with ``git worktree`` under ``.bench-cache/<commit>`` and its C accelerators compiled
there (``ab_throughput.checkout``), and this checkout's engine is compiled the same way; each version's search runs in a subprocess of its own that loads that
version's ``_csearch`` by path.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

#: main when issue 31's speed-up was asked for
ISSUE_31_BASE = "42c690b"
Stones = list[tuple[int, int, int]]


def positions(count: int, seed: int) -> list[tuple[Stones, int]]:
    """``count`` middle-game positions (stones, seat to move): heuristic turns mixed with random ones near stones,
    6-24 turns, none already won and none where the side to move completes a line at once (nothing to search)."""
    from hexarena.bots.htttx.heuristic import choose_on_board, winning_move
    from hexarena.games.htttx import HTTTX

    rng = random.Random(seed)
    out: list[tuple[Stones, int]] = []
    while len(out) < count:
        state = HTTTX.new()
        turns = rng.randint(6, 24)
        for _ in range(turns):
            board = state.board()
            seat = state.to_move_seat
            assert seat is not None
            if rng.random() < 0.6:
                move = choose_on_board(board, seat)
            else:
                cells = sorted(board.legal_cells())
                near = [
                    c
                    for c in cells
                    if any(max(abs(c[0] - q), abs(c[1] - r), abs(c[0] + c[1] - q - r)) <= 2 for q, r in board.cells)
                ]
                a, b = rng.sample(near or cells, 2)
                move = (a, b)
            nxt = HTTTX.play(state, move)
            if nxt.is_over:
                break
            state = nxt
        seat = state.to_move_seat
        if state.is_over or seat is None or len(state.stones) < 8 or winning_move(state.board(), seat) is not None:
            continue
        out.append((list(state.stones), seat))
    return out


def module_path(root: Path) -> Path:
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    path = root / "src" / "hexarena" / "bots" / "htttx" / f"_csearch{suffix}"
    if not path.exists():
        raise SystemExit(f"{path} is not built: run `make setup` (or `.venv/bin/pip install -e .`) in {root}")
    return path


def same_flags(root: Path) -> Path:
    """This checkout's ``_csearch`` compiled as ``checkout`` compiles the base's (``cc -O2``): the installed one
    carries the interpreter's flags too (``-fwrapv`` among them), which cost it ~15 % more instructions."""
    source = root / "src" / "hexarena" / "bots" / "htttx" / "_csearch.c"
    out = root / ".bench-cache" / "head" / module_path(root).name
    out.parent.mkdir(parents=True, exist_ok=True)
    include = sysconfig.get_paths()["include"]
    cc = ["cc", "-O2", "-shared", "-fPIC", f"-I{include}", str(source), "-o", str(out)]
    if subprocess.run(cc, capture_output=True).returncode != 0:
        raise SystemExit(f"could not compile {source}")
    return out


def worker(so: str) -> None:
    """Search every position on stdin with the ``_csearch`` at ``so``; print one JSON line of results."""
    import importlib.machinery
    import importlib.util

    loader = importlib.machinery.ExtensionFileLoader("_csearch", so)
    spec = importlib.util.spec_from_file_location("_csearch", so, loader=loader)
    assert spec is not None
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    job = json.loads(sys.stdin.read())
    out = []
    for stones, seat in job["positions"]:
        stones = [tuple(s) for s in stones]
        t0 = time.process_time()
        mv, score, depth, nodes, _, _ = mod.search(stones, seat, 6, 2, job["depth"], 1 << 62, 0.0, None, 18)
        out.append({"move": mv, "score": score, "depth": depth, "nodes": nodes, "cpu": time.process_time() - t0})
    print(json.dumps(out))


def run(so: Path, job: dict[str, Any], callgrind: bool) -> tuple[list[dict[str, Any]], int | None]:
    cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", str(so)]
    with tempfile.TemporaryDirectory() as tmp:
        out_file = Path(tmp) / "callgrind.out"
        if callgrind:
            cmd = [
                "valgrind",
                "--tool=callgrind",
                "--collect-atstart=no",
                "--toggle-collect=search",
                f"--callgrind-out-file={out_file}",
                *cmd,
            ]
        done = subprocess.run(cmd, input=json.dumps(job), capture_output=True, text=True)
        if done.returncode != 0:
            raise SystemExit(f"the search of {so} failed:\n{done.stderr[-2000:]}")
        results = json.loads(done.stdout.strip().splitlines()[-1])
        instructions = None
        if callgrind:
            for line in out_file.read_text().splitlines():
                if line.startswith(("summary:", "totals:")):
                    instructions = int(line.split()[1])
    return results, instructions


def record(path: Path, base: str, so: Path, job: dict[str, Any], max_nodes: int) -> None:
    results, _ = run(so, job, False)
    kept = [
        {"stones": stones, "to_move": seat, "move": r["move"], "score": r["score"], "nodes": r["nodes"]}
        for (stones, seat), r in zip(job["positions"], results, strict=True)
        if r["nodes"] <= max_nodes
    ]
    doc = {"engine": f"_csearch at {base}", "depth": job["depth"], "win_distance": 6, "near": 2, "tt_bits": 18}
    path.write_text(json.dumps({**doc, "positions": kept}, indent=None) + "\n")
    print(f"{len(kept)} of {len(results)} positions (searches of at most {max_nodes:,} nodes) written to {path}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--base", default=ISSUE_31_BASE, help="the commit to compare with (default: main at issue 31)")
    ap.add_argument("--depth", type=int, default=3, help="whole turns each search goes to (1-6)")
    ap.add_argument("--positions", type=int, default=24, help="middle-game positions searched (1-500)")
    ap.add_argument("--seed", type=int, default=31, help="seed of the positions")
    ap.add_argument("--rounds", type=int, default=3, help="rounds a version, alternating which goes first (1-50)")
    ap.add_argument("--callgrind", action="store_true", help="also count instructions under valgrind (slow)")
    ap.add_argument(
        "--record",
        metavar="PATH",
        help="write the base's results on the positions it searches in at most --record-nodes nodes to PATH (JSON: "
        "what tests/bots/test_htttx_search.py checks every engine against) and stop",
    )
    ap.add_argument("--record-nodes", type=int, default=60_000, help="largest search --record keeps (nodes)")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker(args.worker)
        return
    if not 1 <= args.depth <= 6 or not 1 <= args.positions <= 500 or not 1 <= args.rounds <= 50:
        ap.error("--depth must be 1-6, --positions 1-500 and --rounds 1-50")
    sys.path.insert(0, str(HERE))
    from ab_throughput import checkout

    base_so = module_path(checkout(args.base))
    head_so = same_flags(ROOT)
    job = {"positions": positions(args.positions, args.seed), "depth": args.depth}
    if args.record:
        record(Path(args.record), args.base, base_so, job, args.record_nodes)
        return
    print(
        f"base {args.base} against head: {args.positions} positions to depth {args.depth}, {args.rounds} rounds; "
        f"load {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores",
        flush=True,
    )
    rates: dict[str, list[float]] = {"base": [], "head": []}
    last: dict[str, list[dict[str, Any]]] = {}
    for i in range(args.rounds):
        for name in ("base", "head") if i % 2 == 0 else ("head", "base"):
            results, _ = run(base_so if name == "base" else head_so, job, False)
            nodes = sum(r["nodes"] for r in results)
            cpu = sum(r["cpu"] for r in results)
            rates[name].append(nodes / cpu)
            last[name] = results
        print(
            f"round {i + 1}: base {rates['base'][-1]:,.0f} nodes/s, head {rates['head'][-1]:,.0f} nodes/s "
            f"({rates['head'][-1] / rates['base'][-1]:.2f}x)",
            flush=True,
        )
    best = {name: max(r) for name, r in rates.items()}
    nodes = {name: sum(r["nodes"] for r in last[name]) for name in last}
    print(
        f"nodes/s (best round, CPU time): base {best['base']:,.0f}, head {best['head']:,.0f}: "
        f"{best['head'] / best['base']:.2f}x; nodes searched: base {nodes['base']:,}, head {nodes['head']:,}"
    )
    same = sum(
        (b["move"], b["score"]) == (h["move"], h["score"]) for b, h in zip(last["base"], last["head"], strict=True)
    )
    print(f"same move and score at depth {args.depth}: {same} of {len(last['base'])} positions")
    if args.callgrind:
        counts = {name: run(base_so if name == "base" else head_so, job, True)[1] for name in ("base", "head")}
        if counts["base"] and counts["head"]:
            per = {name: counts[name] / nodes[name] for name in counts if counts[name]}
            print(
                f"instructions (callgrind, inside search): base {counts['base']:,} ({per['base']:,.0f} a node), "
                f"head {counts['head']:,} ({per['head']:,.0f} a node): {per['base'] / per['head']:.2f}x fewer a node"
            )
    print(f"load after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
