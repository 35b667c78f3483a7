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
    PYTHONPATH=src .venv/bin/python bench/htttx_search_ab.py --clock 1.0 [--cpu] [--base main] [--positions 16]

``--clock S`` asks instead how deep each version gets in a turn clock of ``S`` seconds (issue 31 asks for a median
of at least 4 whole turns at 1 s in the middle game): each position is searched as the bot searches it at that
clock (``SearchBot``'s budget for a move allowed ``S`` seconds, its root threat-space search bound and its learned
table), by a wall-clock deadline like a real turn, the two versions alternating position by position so that a
change in the machine's load hits both alike; it prints the completed depth in whole turns (median and how many
positions reached each depth) and the share of the wall time each search got of a CPU, since a loaded machine
takes depth away from both; ``--cpu`` stops each search on its own CPU clock instead (the search is the same, the
stop request checked every few thousand nodes; the root threat-space search keeps its bound but not its share of the
clock), which a loaded machine changes much less.

The base is checked out with ``git worktree`` under ``.bench-cache/<commit>`` and its C accelerators compiled
there (``ab_throughput.checkout``), and this checkout's engine is compiled the same way; each version's search runs in a subprocess of its own that loads that
version's ``_csearch`` by path.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import sysconfig
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT / "tests" / "bots"))

from htttx_positions import middle_games  # noqa: E402  (the positions the tests search too)

#: main when issue 31's speed-up was asked for
ISSUE_31_BASE = "42c690b"
Stones = list[tuple[int, int, int]]


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


def arguments_taken(source: Path) -> int:
    """How many of today's ``search`` arguments the engine compiled from ``source`` takes: the root threat-space
    bound came with issue 31's search, the evaluation table after it (an engine without one evaluates with its own
    hand-made weights)."""
    text = source.read_text()
    return 11 if "read_table" in text else 10 if "tss_nodes" in text else 9


def reads_a_flag(mod: Any) -> bool:
    """Whether this version's engine reads a stop flag (a one-byte buffer) or, as versions before it did, calls a
    stop function: a tiny search asked with a function tells (the newer engine refuses one)."""
    try:
        mod.search([(0, 0, 0)], 1, 6, 2, 1, 64, 0.0, lambda: False)
    except ValueError:
        return True
    return False


def set_after_cpu(flag: bytearray, begun: float, seconds: float) -> None:
    """Set ``flag`` once this process has used ``seconds`` of CPU since ``begun`` (or once someone else set it)."""
    while not flag[0] and time.process_time() - begun < seconds:
        time.sleep(0.001)
    flag[0] = 1


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
    flag_engine = reads_a_flag(mod)
    out = []
    for stones, seat in job["positions"]:
        stones = [tuple(s) for s in stones]
        t0, w0 = time.process_time(), time.monotonic()
        if "seconds" in job:  # as the bot searches at a turn clock
            secs = job["seconds"]
            stop: Any = None
            watcher = None
            if job.get("cpu"):  # the deadline on this process's CPU clock: what other processes take is not lost
                if flag_engine:  # an engine that reads a stop flag: a thread sets it once the CPU time is spent
                    stop = bytearray(1)
                    watcher = threading.Thread(target=set_after_cpu, args=(stop, t0, secs), daemon=True)
                    watcher.start()
                else:

                    def stop(begun: float = t0, secs: float = secs) -> bool:
                        return time.process_time() - begun >= secs

                secs = 0.0
            args = (stones, seat, 6, 2, 64, 1 << 62, secs, stop, job["tt_bits"], job["tss"], job["table"])
            mv, score, depth, nodes, _, _ = mod.search(*args[: job["takes"]])
            if watcher is not None:
                stop[0] = 1  # the search is over: the watcher ends
                watcher.join()
        else:
            mv, score, depth, nodes, _, _ = mod.search(stones, seat, 6, 2, job["depth"], 1 << 62, 0.0, None, 18)
        cpu, wall = time.process_time() - t0, time.monotonic() - w0
        out.append({"move": mv, "score": score, "depth": depth, "nodes": nodes, "cpu": cpu, "wall": wall})
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


def clock_job(clock: float, stones: list[tuple[Stones, int]]) -> dict[str, Any]:
    """The search the bot makes for a move allowed ``clock`` seconds by a turn clock, early in a match (nothing late
    yet): its seconds, table size, root threat-space bound and evaluation table, as ``SearchBot.analyse_board``."""
    from hexarena.bots.htttx.learned_eval import shipped_tables
    from hexarena.bots.htttx.search import TSS_MAX, TSS_PER_SECOND, SearchBot
    from hexarena.bots.timing import budget_from

    secs = SearchBot().budget(budget_from(clock, 0.0))
    tt_bits = 16 if secs < 0.5 else 18 if secs < 5 else 19
    table = shipped_tables().get(6)
    tss = min(TSS_MAX, int(secs * TSS_PER_SECOND["C"]))
    return {"positions": stones, "seconds": secs, "tt_bits": tt_bits, "tss": tss, "table": table}


def depth_at_clock(
    base: Path, base_so: Path, head_so: Path, clock: float, stones: list[tuple[Stones, int]], cpu: bool = False
) -> None:
    """Completed depth of both versions at a turn clock, position by position, versions alternating; ``cpu``: each
    search's deadline on its process's CPU clock instead of the wall clock. ``base``: the base's checkout (an older
    engine gets the arguments it takes: ``arguments_taken``)."""
    import statistics
    from collections import Counter

    job = {**clock_job(clock, stones), "cpu": cpu}
    clock_name = "CPU" if cpu else "wall"
    print(
        f"base against head at a {clock:g} s turn clock (searches of {job['seconds']:.3f} s of {clock_name} time, "
        f"root threat-space bound {job['tss']:,}): {len(stones)} positions; load {os.getloadavg()[0]:.2f} on "
        f"{os.cpu_count()} cores",
        flush=True,
    )
    got: dict[str, list[dict[str, Any]]] = {"base": [], "head": []}
    versions = {
        name: (so, arguments_taken(root / "src" / "hexarena" / "bots" / "htttx" / "_csearch.c"))
        for name, so, root in (("base", base_so, base), ("head", head_so, ROOT))
    }
    for i, position in enumerate(stones):
        for name in ("base", "head") if i % 2 == 0 else ("head", "base"):
            so, takes = versions[name]
            results, _ = run(so, {**job, "positions": [position], "takes": takes}, False)
            got[name].append(results[0])
    for name, results in got.items():
        depths = [r["depth"] for r in results]
        counts = Counter(depths)
        cpu = sum(r["cpu"] for r in results) / sum(r["wall"] for r in results)
        rate = sum(r["nodes"] for r in results) / sum(r["cpu"] for r in results)
        # a search that proves a win or loss stops there, however little depth it took: told apart
        open_ = [r["depth"] for r in results if abs(r["score"]) <= 1_000_000 - 1000]
        unproved = f"median {statistics.median(open_):g} over the {len(open_)} not proved" if open_ else "all proved"
        print(
            f"{name}: median depth {statistics.median(depths):g} whole turns (mean {statistics.mean(depths):.2f}; "
            + ", ".join(f"{d}: {counts[d]}" for d in sorted(counts))
            + f"; {unproved}); {rate:,.0f} nodes a CPU second; CPU share of the wall time {cpu:.0%}"
        )
    print(f"load after: {os.getloadavg()[0]:.2f}")


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
    ap.add_argument(
        "--clock",
        type=float,
        metavar="SECONDS",
        help="report the depth each version completes at this turn clock (wall time, as the bot plays) instead",
    )
    ap.add_argument(
        "--cpu",
        action="store_true",
        help="with --clock: stop each search on its own CPU clock, not the wall clock (a loaded machine's figure)",
    )
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker(args.worker)
        return
    if not 1 <= args.depth <= 6 or not 1 <= args.positions <= 500 or not 1 <= args.rounds <= 50:
        ap.error("--depth must be 1-6, --positions 1-500 and --rounds 1-50")
    sys.path.insert(0, str(HERE))
    from ab_throughput import checkout

    base = checkout(args.base)
    base_so = module_path(base)
    head_so = same_flags(ROOT)
    if args.clock is not None:
        if not 0.01 <= args.clock <= 30:
            ap.error("--clock must be 0.01-30 seconds")
        depth_at_clock(base, base_so, head_so, args.clock, middle_games(args.positions, args.seed), args.cpu)
        return
    job = {"positions": middle_games(args.positions, args.seed), "depth": args.depth}
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
