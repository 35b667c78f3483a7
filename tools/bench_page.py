"""Write docs/benchmarks.md from a run of every benchmark under bench/: one current figure each, not by hand.

    .venv/bin/python tools/bench_page.py                 # every benchmark in its quick mode, then the page
    .venv/bin/python tools/bench_page.py --only hex_engine --only http_cost   # rerun some; keep the others' runs
    .venv/bin/python tools/bench_page.py --from-saved    # the page again from the saved outputs, running nothing

Each benchmark runs as its own process with the small arguments listed below (its quick mode: seconds, not the
minutes its defaults take), and its whole output is kept under build/bench/NAME.txt. The page's figure is the
benchmark's own printed line(s) that ``figure`` selects, verbatim, so a benchmark that compares with a peer or a
base in the same run (OpenSpiel, the pure-Python reference, SQLite against PostgreSQL) keeps both sides in the
row. Every row names the command that produced it and the machine's load when it ran: quick runs on a shared
machine are noisy, and the figures are for comparing runs of one sitting, not for quoting.

A benchmark under bench/ without an entry here fails the page (and ``tests/test_bench_page.py``): a new benchmark
gets a row. Helpers the benchmarks start themselves are the Makefile's ``BENCH_HELPERS``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import re
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SAVED = ROOT / "build" / "bench"
PAGE = ROOT / "docs" / "benchmarks.md"
#: Longest a quick run may take before it is stopped (its row then says so).
TIMEOUT = 420.0
#: Longest figure cell, so one chatty benchmark cannot flood the page.
MAX_FIGURE = 400
#: Lines many benchmarks print about the machine, which the page states once in its header.
MACHINE_LINES = re.compile(
    r"^(cores on this machine|cores: |machine reference|serving \S+ on http|hexarena \S+ on http)"
)


@dataclass(frozen=True, slots=True)
class Bench:
    """One benchmark's row: what it measures, its quick arguments and the regex of its headline line(s)."""

    measures: str
    quick: tuple[str, ...] = ()
    figure: str | None = None  # lines matching this (every one) make the figure; None: the last line
    skip: str | None = None  # why the page script does not run it (the row still shows the command)


BENCHES: dict[str, Bench] = {
    "analysis_board": Bench(
        "server CPU per analysis-board position by game and line length; an analysis's answer time against the time given",
        ("--plies", "200", "--requests", "5", "--think", "0.5"),
        r"^(position|analysis)\b",  # the two summary lines (each game's report is the line above them)
    ),
    "ab_throughput": Bench(
        "`server_throughput` as an A/B against another commit, both served side by side",
        ("--rounds", "1", "--games", "8", "--turns", "40"),
        skip="checks out and compiles another commit (git worktree): run it by hand",
    ),
    "bot_board_cost": Bench(
        "the bot server's CPU a move as the board grows", ("--games", "1", "--window", "20"), r"stones:"
    ),
    "bytecode_cost": Bench(
        "CPU of a server's imports and of a test worker's collection with no compiled module kept, and with all",
        ("--runs", "1"),
        r"\bimport hexarena|pytest --collect-only",
    ),
    "bws_frame_cost": Bench(
        "CPU to take in one bws frame, websockets' parser against whole text frames read directly",
        ("--frames", "20000", "--rounds", "1"),
        r"parser:|adapter's reading:",
    ),
    "connect_in_load": Bench(
        "battlebot and hexagon-dots logins with many bots at once",
        ("--bots", "20", "--rounds", "1", "--dots", "4"),
        r"matches/s:|handshake latency",
    ),
    "game_end_cost": Bench(
        "CPU per rated game end (result and both ratings, one transaction), SQLite and PostgreSQL",
        ("--games", "64", "--repeat", "1"),
        r"^(store|SQLite|PostgreSQL) ",
    ),
    "graphql_aliases": Bench(
        "a GraphQL query of many aliases against its limits",
        ("--aliases", "200", "--turns", "20"),
        r"^answer:|peak memory",
    ),
    "htttx_search_ab": Bench(
        "the HTTTX search engine as an A/B against another commit: nodes a CPU second, instructions a node, same "
        "move and score; with --clock S, the depth in whole turns each completes at an S-second turn clock",
        ("--positions", "4", "--depth", "3", "--rounds", "1"),
        skip="checks out and compiles another commit (git worktree): run it by hand",
    ),
    "hex_engine": Bench(
        "11x11 random Hex games a second through the public API, against OpenSpiel",
        ("--seconds", "0.5", "--mcts-iterations", "2000"),
        r"public API, C accelerator|OpenSpiel apply_action loop|ratio public API \(C\) / OpenSpiel apply_action",
    ),
    "hexdots_engine": Bench(
        "random hexagon dots games a second, immutable API and mutable core",
        ("0.5",),
        r"^(immutable_game|board_game) +5x5",
    ),
    "hive_engine": Bench(
        "Hive perft and random games, against OpenSpiel",
        ("--quick", "--repeat", "1"),
        r"^(perft Base d4|random games Base) ",
    ),
    "hive_search_depth": Bench(
        "depth the Hive alphabeta search completes in a fixed time, pure-Python board and C moves",
        ("--positions", "4", "--seconds", "0.3"),
        r"^(pure Python|C moves) +depth",
    ),
    "http_cost": Bench(
        "server CPU per plain API request", ("--requests", "100", "--repeat", "1"), r"GET /healthz|POST /graphql"
    ),
    "htttx_engine": Bench(
        "validated HTTTX stones a second, C board and pure Python",
        ("--quick",),
        r"compact: near any stone|HtttxGame API, stones/s",
    ),
    "machine_speed": Bench("how fast the machine runs Python right now (a fixed pure-Python workload)"),
    "move_cost_by_stones": Bench(
        "CPU a move at 100 and at 1,000 stones, game server and bot server",
        ("--games", "4", "--repeat", "1"),
        r"game server +bot server|stones +[\d,]+ us|^ratio",
    ),
    "multi_instance": Bench(
        "one instance against two on PostgreSQL and Redis, and the failover time",
        ("--games", "4", "--turns", "40", "--waves", "1"),
        r"^set-up |^(1 instance, no Redis|2 instances, Redis) |^failover:",
    ),
    "per_move_calls": Bench(
        "event-loop lookups and masking keys each extra move of a bws match costs", (), r"^a move:"
    ),
    "referee_overhead": Bench(
        "referee cost per move", ("--turns", "50", "--matches", "8"), r"referee cost per move|concurrent matches"
    ),
    "sdk_move_cost": Bench(
        "the SDK's own CPU a move at 100 and at 1,000 stones", ("--repeat", "1"), r"stones +[\d.]+ us|^ratio"
    ),
    "server_throughput": Bench(
        "concurrent HTTTX games, game server and SDK bot server over loopback WebSockets",
        ("--games", "8", "--waves", "1", "--turns", "50"),
        r"^total:|CPU per move",
    ),
    "soak": Bench(
        "memory and handles over many finished games of every kind of seat",
        ("--games", "150", "--every", "50", "--concurrency", "8"),
    ),
    "sqlite_busy_loop": Bench(
        "a batch of 1,000 moves into SQLite while the event loop is busy",
        ("--batches", "2"),
        r"rows a statement|^\d+ +[\d.]+ +[\d.]+$",
    ),
    "sqlite_driver_calls": Bench(
        "calls into aiosqlite's thread a store transaction makes on SQLite", (), r"driver calls"
    ),
    "sqlite_cursor_cost": Bench(
        "CPU to store and to read back games on SQLite: the store's one-call cursor against SQLAlchemy's own (its "
        "fallback)",
        ("--games", "8", "--rounds", "3"),
        r"the one-call cursor saves",
    ),
    "start_time": Bench("seconds from `hexarena serve` to its first answer", ("--runs", "2")),
    "store_throughput": Bench(
        "moves the recorder absorbs, concurrent games, SQLite and PostgreSQL",
        ("--games", "8", "--moves", "500", "--waves", "1", "--turns", "50"),
        r"^(SQLite|PostgreSQL) +[\d,]+ moves/s",
    ),
    "strength": Bench(
        "built-in HTTTX `search` against `heuristic` (SPRT), a short match",
        ("--games", "6", "--clock", "0.05"),
        r"^search vs heuristic|^SPRT",
    ),
    "subprocess_overhead": Bench("UAIS round trip over pipes", ("1000",), r"round trip"),
    "time_losses": Bench(
        "the built-in searches against themselves on short turn clocks: time losses",
        ("--games", "3"),
        r"^game +bot|^(hex|hive|htttx) ",
    ),
    "time_use": Bench(
        "how much of its turn clock a built-in search uses",
        ("--games", "4", "--concurrency", "2"),
        r"clock used mean \S+ p50|^time losses:",
    ),
    "tournament_reliability": Bench(
        "time forfeits at 200 ms + 2 ms a game, concurrency 4", ("--games", "40"), r"^time forfeits|^games \d+ in"
    ),
    "ui_idle_cpu": Bench(
        "chromium CPU of UI pages left idle (a running clock among them), and of the fresh context and page each"
        " browser test opens",
        ("--idle", "3", "--pages", "5"),
        r"^(live game|a fresh context)",
    ),
}


def bench_scripts() -> list[str]:
    """Every benchmark under bench/ (the Makefile's ``BENCH_HELPERS`` left out), by name."""
    helpers = set()
    for line in (ROOT / "Makefile").read_text(encoding="utf-8").splitlines():
        if line.startswith("BENCH_HELPERS"):
            helpers = {Path(p).stem for p in line.split(":=", 1)[1].split()}
    return sorted(p.stem for p in (ROOT / "bench").glob("*.py") if p.stem not in helpers)


def command(name: str) -> list[str]:
    return ["bench/" + name + ".py", *BENCHES[name].quick]


def machine() -> str:
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{os.cpu_count()} cores{f' ({model})' if model else ''}, Python {platform.python_version()}"


def run(name: str, timeout: float) -> tuple[str, float, float]:
    """Run one benchmark; its output (stdout and stderr) is saved. Returns (output, seconds, load when started)."""
    load = os.getloadavg()[0]
    start = time.monotonic()
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")]))
    try:
        done = subprocess.run(
            [sys.executable, *command(name)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout
        )
        out = done.stdout + ("" if done.returncode == 0 else f"\n[exit {done.returncode}] {done.stderr[-600:]}")
    except subprocess.TimeoutExpired as exc:
        partial = exc.stdout.decode() if isinstance(exc.stdout, bytes) else exc.stdout or ""
        out = partial + f"\n[stopped after {timeout:.0f} s]"
    seconds = time.monotonic() - start
    SAVED.mkdir(parents=True, exist_ok=True)
    header = f"# load {load:.2f} seconds {seconds:.1f} date {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC\n"
    (SAVED / f"{name}.txt").write_text(header + out, encoding="utf-8")
    return out, seconds, load


def saved(name: str) -> tuple[str, float, float, str] | None:
    """A saved run: (output, seconds, load, date), or None."""
    path = SAVED / f"{name}.txt"
    if not path.exists():
        return None
    header, _, out = path.read_text(encoding="utf-8").partition("\n")
    m = re.match(r"# load ([\d.]+) seconds ([\d.]+) date (.+)", header)
    if m is None:
        return None
    return out, float(m.group(2)), float(m.group(1)), m.group(3)


def figure(name: str, out: str) -> str:
    """The headline: the output lines the benchmark's ``figure`` regex selects, verbatim (its last line if none)."""
    bench = BENCHES[name]
    lines = [" ".join(line.split()) for line in out.splitlines() if line.strip()]
    if lines and lines[-1].startswith(("[exit", "[stopped")):
        return lines[-1][:MAX_FIGURE]
    if name != "machine_speed":
        lines = [line for line in lines if not MACHINE_LINES.match(line)]
    if not lines:
        return "no output"
    if bench.figure is None:
        text = lines[-1]
    else:
        picked = [line for line in lines if re.search(bench.figure, line)]
        # a benchmark whose output changed says so on the page, rather than a line that may be no figure at all
        text = "; ".join(picked) or f"no output line matched /{bench.figure}/: see build/bench/{name}.txt"
    return text if len(text) <= MAX_FIGURE else text[: MAX_FIGURE - 1] + "…"


def cell(text: str) -> str:
    return text.replace("|", "\\|")


def page(rows: dict[str, tuple[str, float, float, str] | None], when: str) -> str:
    lines = [
        "# Benchmarks",
        "",
        "Written by `tools/bench_page.py` (`make bench-page`), which runs every script under `bench/` in a quick mode (the arguments",
        "in each row) and takes its figure from the benchmark's own output; do not edit this page by hand. Quick",
        "runs on a shared machine are noisy: compare runs of one sitting, rerun a benchmark with its defaults for a",
        "figure to quote (`.venv/bin/python bench/NAME.py --help` lists its options), or use `bench/ab_throughput.py`,",
        "which runs two versions side by side. `make bench` runs every benchmark with its defaults.",
        "",
        f"Last run: {when}, on {machine()}. Load: the machine's 1-minute load average when the row's run began.",
        "",
        "| benchmark | what it measures | figure (quick run) | load | s | command |",
        "|---|---|---|---|---|---|",
    ]
    for name in bench_scripts():
        bench = BENCHES[name]
        cmd = "`" + " ".join(command(name)) + "`"
        got = rows.get(name)
        if bench.skip is not None:
            lines.append(f"| `bench/{name}.py` | {cell(bench.measures)} | not run here: {bench.skip} | | | {cmd} |")
        elif got is None:
            lines.append(f"| `bench/{name}.py` | {cell(bench.measures)} | not run yet | | | {cmd} |")
        else:
            out, seconds, load, _ = got
            fig = cell(figure(name, out))
            lines.append(f"| `bench/{name}.py` | {cell(bench.measures)} | {fig} | {load:.1f} | {seconds:.0f} | {cmd} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", action="append", default=[], metavar="NAME", help="run only these (others: saved runs)")
    ap.add_argument("--from-saved", action="store_true", help="run nothing: the page from build/bench/ alone")
    ap.add_argument("--timeout", type=float, default=TIMEOUT, help=f"seconds a run may take (default {TIMEOUT:.0f})")
    ap.add_argument("--out", type=Path, default=PAGE, help="the page to write (default docs/benchmarks.md)")
    args = ap.parse_args()
    names = bench_scripts()
    missing = sorted(set(names) - set(BENCHES))
    if missing:
        ap.error(f"benchmarks without an entry in tools/bench_page.py BENCHES: {', '.join(missing)}: add one")
    unknown = sorted(set(args.only) - set(names))
    if unknown:
        ap.error(f"no benchmark {', '.join(unknown)} under bench/; there are: {', '.join(names)}")
    to_run = [] if args.from_saved else [n for n in (args.only or names) if BENCHES[n].skip is None]
    for i, name in enumerate(to_run, 1):
        print(f"[{i}/{len(to_run)}] bench/{name}.py (load {os.getloadavg()[0]:.1f}) ...", end=" ", flush=True)
        out, seconds, _ = run(name, args.timeout)
        print(f"{seconds:.0f} s: {figure(name, out)[:120]}", flush=True)
    rows = {name: saved(name) for name in names}
    dates = sorted(r[3] for r in rows.values() if r is not None)
    when = f"{dates[0]} to {dates[-1]}" if dates and dates[0] != dates[-1] else (dates[0] if dates else "never")
    args.out.write_text(page(rows, when), encoding="utf-8")
    print(f"wrote {args.out.relative_to(ROOT) if args.out.is_relative_to(ROOT) else args.out}")


if __name__ == "__main__":
    main()
