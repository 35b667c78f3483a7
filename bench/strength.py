"""Playing strength of the HTTTX ``search`` bot, through hexarena's own tournament runner with SPRT.

    PYTHONPATH=src .venv/bin/python bench/strength.py [--opponent heuristic|previous|hexbot-ab|hexbot-heuristic|all]
        [--clock 0.1] [--games 200] [--sprt 0,100] [--hexbot-python /tmp/hexbot-venv/bin/python] [--previous 42c690b]
    PYTHONPATH=src .venv/bin/python bench/strength.py --speed     # nodes/s, C engine vs Python reference
    PYTHONPATH=src .venv/bin/python bench/strength.py --game hive [--hive-opponent previous|greedy|openspiel|all]
        [--clock 0.3] [--games 20] [--hive-sprt 0,50] [--hive-max-plies 200]
    PYTHONPATH=src .venv/bin/python bench/strength.py --game hex [--opponent uct|openspiel|all] [--size 9]
        [--clock 0.3] [--games 40] [--openspiel-factor 1]        # Hex mcts (see hex_main)

Each match is ``search`` against one opponent at equal time per move (a turn clock, ``--clock`` seconds a turn),
in pairs of games on the same random two-turn opening with colours swapped, until the SPRT decides (H1: search is
at least ELO1 stronger; H0: at most ELO0) or ``--games`` games are played. It prints the runner's standings (score,
Elo difference with its 95 % error bar, SPRT log-likelihood ratio and decision).

Opponents: ``heuristic`` (the previous best built-in), ``previous`` (today's ``search`` on the C engine of
``--previous``, by default main before issue 31's faster engine and threat-space search; give it today's main to
measure a change of the engine or its evaluation table: the previous engine gets the arguments it takes, so one
older than the table evaluates with its own hand-made weights) and hexbot's bots (PyPI ``hexbot``, a C engine behind
ctypes), which must be installed in a separate venv, outside hexarena's dependencies:

    python3 -m venv /tmp/hexbot-venv && /tmp/hexbot-venv/bin/pip install hexbot

hexbot plays through ``bench/hexbot/bridge.py`` (run by that venv's Python), served here as a bws bot with
hexarena's bot SDK, so the tournament meets it like any remote bot: ``hexbot-ab`` is its alpha-beta search
(``HexGame.search``, transposition table, killers, late-move reductions; iterative deepening by time in the bridge),
``hexbot-heuristic`` its one-ply move scorer. hexbot's neural bots need downloaded weights and are left out.

Hive (``--game hive``): ``alphabeta`` against ``previous`` (the ``alphabeta`` of ``--hive-baseline`` in git, the
previous best, loaded from that commit's source), ``greedy`` and OpenSpiel's C++ MCTS with random rollouts
(``bench/openspiel/hive_bridge.py``; it thinks for the same share of each turn as ``alphabeta`` through its wall-clock
limit, and the simulations it ran are printed), on the base game with all expansions (Base+MLP), a turn clock,
random two-ply openings in colour-swapped pairs and a ply cap (a capped game is a draw).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, ClassVar

from rich.console import Console

from hexarena.bots.htttx.heuristic import choose_on_board
from hexarena.bots.sdk import BaseBot, make_app
from hexarena.tournament.cli import _executor, print_final
from hexarena.tournament.runner import Runner, TournamentConfig
from hexarena_sdk.capabilities import BwsV1AlphaCapability, Capabilities, Meta, default_capabilities
from hexarena_sdk.game import SEAT_OF, board_of
from hexarena_sdk.models import Cell, Coord, Match, Player

BRIDGE = Path(__file__).with_name("hexbot") / "bridge.py"
OPENSPIEL_BRIDGE = Path(__file__).with_name("openspiel") / "htp_bridge.py"
#: Part of the turn's time hexbot's bridge may spend (the same share our search keeps in reserve at short clocks).
HEXBOT_SHARE = 0.6


class HexbotBridge:
    """One bridge subprocess; restarted when hexbot's engine crashes it (it does outside its 31x31 grid)."""

    def __init__(self, python: str, engine: str) -> None:
        self.python = python
        self.engine = engine
        self.proc: subprocess.Popen[str] | None = None
        self.lock = threading.Lock()
        self.crashes = 0

    def _start(self) -> subprocess.Popen[str]:
        if self.proc is None or self.proc.poll() is not None:
            self.proc = subprocess.Popen(
                [self.python, str(BRIDGE)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
            )
        return self.proc

    def move(self, cells: list[Cell], seconds: float) -> tuple[tuple[int, int], tuple[int, int]] | None:
        xs = [[c.q, c.r] for c in cells if SEAT_OF[Player(c.p)] == 0]
        os_ = [[c.q, c.r] for c in cells if SEAT_OF[Player(c.p)] == 1]
        request = json.dumps({"x": xs, "o": os_, "seconds": seconds, "engine": self.engine})
        with self.lock:
            proc = self._start()
            assert proc.stdin is not None and proc.stdout is not None
            try:
                proc.stdin.write(request + "\n")
                proc.stdin.flush()
                line = proc.stdout.readline()
            except (BrokenPipeError, OSError):
                line = ""
            if not line:
                self.crashes += 1
                proc.kill()
                self.proc = None
                return None
        (a, b) = json.loads(line)["move"]
        return (a[0], a[1]), (b[0], b[1])

    def close(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()


def hexbot_bot(bridge: HexbotBridge, name: str) -> type[BaseBot]:
    """A bws bot class answering with hexbot's move (the heuristic's when the bridge crashed)."""

    class HexbotBot(BaseBot):
        engine: ClassVar[HexbotBridge] = bridge

        @classmethod
        def capabilities(cls) -> Capabilities:
            caps = default_capabilities(BwsV1AlphaCapability(move_time_limit=True, free_setup=True))
            caps.meta = Meta(name=name, description="hexbot (PyPI) through bench/hexbot/bridge.py")
            return caps

        def choose_move(self, cells: list[Cell], player: Player, match: Match) -> tuple[Coord, Coord]:
            left = self.time_left()
            move = self.engine.move(cells, (left if left is not None else 1.0) * HEXBOT_SHARE)
            if move is None:
                board = board_of(cells, match.view_distance, match.win_distance)
                move = choose_on_board(board, SEAT_OF[player])
            (aq, ar), (bq, br) = move
            return Coord(q=aq, r=ar), Coord(q=bq, r=br)

    return HexbotBot


def serve_in_thread(app: Any) -> tuple[str, Any]:
    """Serve an ASGI app on a free loopback port from a daemon thread; returns (url, server)."""
    import uvicorn

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    deadline = time.monotonic() + 30
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    return f"http://127.0.0.1:{port}", server


async def run_pairing(
    console: Console,
    title: str,
    *,
    args: argparse.Namespace,
    sprt: str,
    players: list[str],
    names: list[str],
    **config: Any,
) -> dict[str, Any]:
    """One pairing through hexarena's tournament runner, ``args.games`` games at most at ``args.clock`` seconds a
    turn, stopped early by SPRT (``sprt`` is "elo0,elo1"); prints the standings and the first player's score line.
    ``config``: the game and the rest of ``TournamentConfig`` (params, opening plies, margin...)."""
    elo0, elo1 = (float(x) for x in sprt.split(","))
    tournament = TournamentConfig(
        players=players,
        names=names,
        games_per_pairing=args.games,
        clock={"kind": "turn", "seconds": args.clock, "increment": None},
        seed=args.seed,
        sprt={"elo0": elo0, "elo1": elo1, "alpha": 0.05, "beta": 0.05, "model": "logistic"},
        name=f"strength: {title}",
        rated=False,
        **config,
    ).validate()
    runner = await Runner.create(tournament, None, None, executor=_executor(None, 0, 1))
    began = time.monotonic()
    summary: dict[str, Any] = await runner.run()
    console.rule(f"{title}: {args.clock:g} s a turn, {time.monotonic() - began:.0f} s")
    print_final(console, summary)
    row = next(r for r in summary["standings"] if r["index"] == 0)
    console.print(f"{title}: {score_line(row['wins'], row['draws'], row['losses'])}")
    return summary


async def match(opponent: tuple[str, str], args: argparse.Namespace, console: Console) -> dict[str, Any]:
    """HTTTX ``search`` against one opponent."""
    name, spec = opponent
    return await run_pairing(
        console,
        f"search vs {name}",
        args=args,
        sprt=args.sprt,
        players=["builtin:search", spec],
        names=["search", name],
        game="htttx",
        opening_plies=2,
    )


#: main when issue 31 asked for a stronger HTTTX search: ``previous`` plays its search engine
HTTTX_PREVIOUS = "42c690b"


def register_previous_search(commit: str) -> None:
    """``previous:search``: today's ``SearchBot`` (its clock handling) on the C engine of ``commit``, built in a
    worktree under .bench-cache (``ab_throughput.checkout``) and loaded by path."""
    import importlib.machinery
    import importlib.util
    import sysconfig

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from ab_throughput import checkout
    from hexarena.bots.htttx.search import SearchBot
    from hexarena.players.inprocess import InProcessPlayer
    from hexarena.players.spec import register_scheme

    source = checkout(commit) / "src/hexarena/bots/htttx" / "_csearch.c"
    so = source.with_name(f"_csearch{sysconfig.get_config_var('EXT_SUFFIX')}")
    from htttx_search_ab import arguments_taken, reads_a_flag

    takes = arguments_taken(source)  # what that engine takes of today's arguments
    loader = importlib.machinery.ExtensionFileLoader("_csearch", str(so))
    spec = importlib.util.spec_from_file_location("_csearch", so, loader=loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)

    flag = reads_a_flag(module)  # the stop request: today's engine reads a flag, one from before it called a function

    def previous_engine(*args: Any) -> Any:
        if not flag and args[7] is not None:
            stop = args[7]
            args = (*args[:7], lambda: stop[0] != 0, *args[8:])
        return module.search(*args[:takes])

    async def previous(game: str, rest: str) -> Any:
        if game != "htttx" or rest != "search":
            raise ValueError(f"previous: only previous:search plays, and only HTTTX (got {game} {rest!r})")
        bot = SearchBot()
        bot.search = previous_engine
        return InProcessPlayer(bot, name=f"previous:search@{commit}")

    register_scheme("previous", previous, f"previous:search  HTTTX search at {commit} (bench only)")


def score_line(wins: int, draws: int, losses: int) -> str:
    """Score with its 95 % Wilson interval (sound at 0 % and 100 %, unlike +- 2 sigma) and the Elo it implies."""
    n = wins + draws + losses
    if n == 0:
        return "no games"
    z = 1.96
    p = (wins + 0.5 * draws) / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    lo, hi = centre - half, centre + half

    def elo(s: float) -> str:
        if s <= 0:
            return "-inf"
        if s >= 1:
            return "+inf"
        return f"{-400 * math.log10(1 / s - 1):+.0f}"

    return (
        f"{wins}W {draws}D {losses}L in {n} games: score {100 * p:.1f} % (95 % interval {100 * lo:.1f}-{100 * hi:.1f} %),"
        f" Elo {elo(p)} (95 % interval {elo(lo)} to {elo(hi)})"
    )


def speed(console: Console, positions: int = 12, nodes: int = 3000) -> None:
    """Nodes a CPU second of the C engine and the Python reference on the same middle-game positions (the same
    node budget, so both search exactly the same trees)."""
    import random

    from hexarena.bots.htttx.search import engine
    from hexarena.games.htttx import HTTTX
    from hexarena.games.htttx.openings import random_turns

    rng = random.Random(3)
    cases = []
    for _ in range(positions):
        state = random_turns(HTTTX.new(), rng, 8)
        cases.append((list(state.stones), state.to_move_seat))
    for name in ("Python", "C"):
        try:
            fn = engine(name)
        except RuntimeError as exc:
            console.print(f"{name}: {exc}")
            continue
        total = 0
        began = time.process_time()
        for stones, seat in cases:
            total += fn(stones, seat, 6, 2, 64, nodes, 0.0, None, 16)[3]
        used = time.process_time() - began
        console.print(f"{name:>6}: {total:,} nodes in {used:.2f} CPU s = {total / used:,.0f} nodes/s")


# ---------------------------------------------------------------------------------------------------------- Hive
#: The commit whose ``alphabeta`` is the previous best Hive bot (main before the principal-variation search).
HIVE_BASELINE = "119c22d"
HIVE_OPPONENTS = ("previous", "greedy", "openspiel")


def add_hive_arguments(parser: argparse.ArgumentParser) -> None:
    """The Hive section's options (``--clock`` and ``--games`` are shared with HTTTX)."""
    parser.add_argument("--hive-opponent", default="all", choices=[*HIVE_OPPONENTS, "all"])
    parser.add_argument("--hive-baseline", default=HIVE_BASELINE, help="git commit of the previous alphabeta")
    parser.add_argument("--hive-sprt", default="0,50", help="ELO0,ELO1 of the Hive SPRT")
    parser.add_argument("--hive-max-plies", type=int, default=200, help="a Hive game is drawn after this many plies")
    parser.add_argument("--hive-expansions", default="MLP")
    parser.add_argument(
        "--hive-margin",
        type=float,
        default=2.0,
        help="seconds a Hive move may overrun its turn without a time forfeit (the referee's time_margin): OpenSpiel's"
        " MCTS checks its clock only between random rollouts (one can take half a second on a loaded machine), and the"
        " previous alphabeta read its clock every 256 nodes: the match measures strength at equal think time, not"
        " clock handling (tests/bots/test_hive_bots.py checks that alphabeta loses no game on time)",
    )


def previous_hive_bot(commit: str) -> Any:
    """The ``AlphaBetaBot`` class of ``commit``'s ``bots/hive/alphabeta.py``, loaded from git as its own module
    (the bot, not its evaluation: greedy's ``evaluate``, which it used, is unchanged)."""
    import types

    root = Path(__file__).resolve().parents[1]
    source = subprocess.run(
        ["git", "show", f"{commit}:src/hexarena/bots/hive/alphabeta.py"],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    module = types.ModuleType(f"hive_alphabeta_{commit}")
    module.__file__ = f"{commit}:src/hexarena/bots/hive/alphabeta.py"
    sys.modules[module.__name__] = module
    exec(compile(source, module.__file__, "exec"), module.__dict__)
    return module.AlphaBetaBot


class Timed:
    """An EngineBot wrapper that adds up its bot's think time by name (``TIMES``), to show the time was equal."""

    TIMES: ClassVar[dict[str, list[float]]] = {}

    def __init__(self, bot: Any, name: str) -> None:
        self.bot = bot
        self.name = name

    def choose(self, game: Any, state: Any, time_limit: float | None, rng: Any) -> Any:
        began = time.monotonic()
        try:
            return self.bot.choose(game, state, time_limit, rng)
        finally:
            tally = self.TIMES.setdefault(self.name, [0.0, 0.0])
            tally[0] += 1
            tally[1] += time.monotonic() - began

    @property
    def last_evaluation(self) -> Any:
        return getattr(self.bot, "last_evaluation", None)

    @property
    def last_considerations(self) -> Any:
        return getattr(self.bot, "last_considerations", None)


def register_hive_players(baseline: str) -> None:
    """Player schemes for the Hive matches: ``previous:hive``, ``timed:BOT`` and OpenSpiel's ``openspiel:mcts``."""
    sys.path.insert(0, str(OPENSPIEL_BRIDGE.parent))  # bench/openspiel: the OpenSpiel bridges
    from hive_bridge import register

    from hexarena.players.inprocess import InProcessPlayer
    from hexarena.players.spec import register_scheme

    register()
    bot_class = previous_hive_bot(baseline)

    async def previous(game: str, rest: str) -> Any:
        return InProcessPlayer(Timed(bot_class(), "previous"), name=f"previous:{baseline}")

    async def timed(game: str, rest: str) -> Any:
        from hexarena.bots.registry import make_builtin

        return InProcessPlayer(Timed(make_builtin(game, rest), rest), name=f"builtin:{rest}")

    register_scheme("previous", previous, f"previous:hive  alphabeta at {baseline} (bench only)")
    register_scheme("timed", timed, "timed:BOT  a built-in bot with its think time added up (bench only)")


async def hive_match(opponent: str, spec: str, args: argparse.Namespace, console: Console) -> dict[str, Any]:
    """``alphabeta`` against one opponent through the tournament runner; prints standings and the score line."""
    return await run_pairing(
        console,
        f"hive alphabeta vs {opponent}",
        args=args,
        sprt=args.hive_sprt,
        players=["timed:alphabeta", spec],
        names=["alphabeta", opponent],
        game="hive",
        params={"expansions": args.hive_expansions},
        opening_plies=2,
        max_plies=args.hive_max_plies,
        time_margin=args.hive_margin,
    )


def hive_main(args: argparse.Namespace, console: Console) -> None:
    """The Hive section: the new alphabeta against the previous best, greedy and OpenSpiel's MCTS."""
    register_hive_players(args.hive_baseline)
    from hive_bridge import OpenSpielMcts

    specs = {"previous": "previous:hive", "greedy": "timed:greedy", "openspiel": "openspiel:mcts"}
    names = list(HIVE_OPPONENTS) if args.hive_opponent == "all" else [args.hive_opponent]
    for name in names:
        OpenSpielMcts.totals.clear()
        Timed.TIMES.clear()
        asyncio.run(hive_match(name, specs[name], args, console))
        for who, (moves, seconds) in Timed.TIMES.items():
            console.print(f"{who}: {seconds / max(moves, 1):.3f} s a move on average over {moves:.0f} moves")
        if name == "openspiel" and OpenSpielMcts.totals.get("moves"):
            t = {
                k: OpenSpielMcts.totals.get(k, 0)
                for k in ("moves", "simulations", "seconds", "illegal_skipped", "off_board")
            }
            console.print(
                f"OpenSpiel MCTS: {t['simulations'] / t['moves']:.0f} simulations and {t['seconds'] / t['moves']:.3f} s"
                f" a move on average over {t['moves']:.0f} moves; moves it offered that break the one-hive rule skipped: {t['illegal_skipped']:.0f};"
                f" moves past its board edge (random): {t['off_board']:.0f}"
            )


def hex_calibrate(size: int, seconds: float) -> dict[str, Any]:
    """How many simulations OpenSpiel's MCTS runs in ``seconds`` here, now (the bridge measures it: see there)."""
    out = subprocess.run(
        [sys.executable, str(OPENSPIEL_BRIDGE), "--calibrate", str(size), str(seconds)],
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, Any] = json.loads(out.stdout)
    return result


async def hex_match(
    opponent: tuple[str, str], args: argparse.Namespace, console: Console, margin: float = 0.0
) -> dict[str, Any]:
    """Hex ``mcts`` against one opponent at ``args.clock`` seconds a turn on ``args.size``, without the swap rule
    (OpenSpiel's Hex has none), in pairs of games on the same random one-stone opening with colours swapped.
    ``margin``: seconds of overrun the referee forgives (``MatchConfig.time_margin``), for both players."""
    name, spec = opponent
    return await run_pairing(
        console,
        f"hex {args.size}x{args.size}: mcts vs {name}",
        args=args,
        sprt=args.sprt,
        players=["builtin:mcts", spec],
        names=["mcts", name],
        game="hex",
        params={"size": args.size, "swap": False},
        opening_plies=1,
        time_margin=margin,
    )


def hex_main(args: argparse.Namespace, console: Console) -> None:
    """Hex: ``mcts`` against ``uct`` (the previous best built-in) and OpenSpiel's C++ MCTS
    (``pyspiel.MCTSBot`` with random rollouts, as an HTP engine through ``bench/openspiel/htp_bridge.py``). OpenSpiel
    has no clock, so its simulation count is calibrated first: its measured simulations a second on this machine,
    now, times the part of the turn our bot is told it may use (``bots.timing.USE`` of the clock)."""
    from hexarena.bots.timing import USE

    names = ["uct", "openspiel"] if args.opponent == "all" else [args.opponent]
    for name in names:
        if name == "uct":
            asyncio.run(hex_match(("uct", "builtin:uct"), args, console))
            continue
        cal = hex_calibrate(args.size, args.clock * USE)
        sims = max(1, round(cal["simulations"] * args.openspiel_factor))
        console.print(
            f"OpenSpiel MCTS on {args.size}x{args.size}: {cal['rate']:,} simulations/s measured here, so "
            f"{cal['simulations']:,} simulations a move for {args.clock * USE:.3f} s; x{args.openspiel_factor:g}:"
            f" {sims:,} a move"
        )
        command = f"{sys.executable} {OPENSPIEL_BRIDGE} --simulations {sims} --seed {args.seed}"
        label = "openspiel-mcts" + (f"-x{args.openspiel_factor:g}" if args.openspiel_factor != 1 else "")
        # OpenSpiel's strength is its simulation count, not the clock (a calibration at the start cannot follow the
        # load of a shared machine: on 11x11 it lost 15 of 24 games on time with a 0.3 s margin), so the clock is
        # not allowed to decide: our bot's time discipline is measured against uct (no margin) and in the tests.
        asyncio.run(hex_match((label, f"htp:{command}"), args, console, margin=60.0))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="htttx", choices=["htttx", "hex", "hive"])
    parser.add_argument("--size", type=int, default=9, help="Hex board size")
    parser.add_argument(
        "--openspiel-factor",
        type=float,
        default=1.0,
        help="Hex: OpenSpiel gets this many times its equal-time simulations",
    )
    parser.add_argument(
        "--opponent",
        default=None,
        choices=["heuristic", "previous", "hexbot-ab", "hexbot-heuristic", "uct", "openspiel", "all"],
        help="HTTTX: heuristic (default), previous (the search of --previous), hexbot-ab, hexbot-heuristic; Hex: uct, "
        "openspiel (default); or all",
    )
    parser.add_argument("--previous", default=HTTTX_PREVIOUS, help="HTTTX: git commit of the previous search")
    parser.add_argument("--clock", type=float, default=0.1, help="seconds a turn, for both players")
    parser.add_argument("--games", type=int, default=200, help="most games a match plays if SPRT does not stop it")
    parser.add_argument("--sprt", default="0,100", help="ELO0,ELO1 of the SPRT")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hexbot-python", default=os.environ.get("HEXBOT_PYTHON", "/tmp/hexbot-venv/bin/python"))
    parser.add_argument("--speed", action="store_true", help="only measure nodes/s of the C and Python engines")
    add_hive_arguments(parser)
    args = parser.parse_args()
    console = Console(width=150)
    if args.game == "hive":
        hive_main(args, console)
        return
    if args.game == "hex":
        args.opponent = args.opponent or "openspiel"
        hex_main(args, console)
        return
    args.opponent = args.opponent or "heuristic"
    if args.speed:
        speed(console)
        return
    names = ["heuristic", "previous", "hexbot-ab", "hexbot-heuristic"] if args.opponent == "all" else [args.opponent]
    console.print(f"load {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; games one at a time")
    bridges: list[HexbotBridge] = []
    servers: list[Any] = []
    opponents: list[tuple[str, str]] = []
    for name in names:
        if name == "heuristic":
            opponents.append((name, "builtin:heuristic"))
            continue
        if name == "previous":
            register_previous_search(args.previous)
            opponents.append((f"search@{args.previous}", "previous:search"))
            continue
        if not Path(args.hexbot_python).exists():
            console.print(f"{name}: hexbot's venv not found at {args.hexbot_python}; skipped (see --help)")
            continue
        bridge = HexbotBridge(args.hexbot_python, name.removeprefix("hexbot-"))
        url, server = serve_in_thread(make_app(hexbot_bot(bridge, name)))
        bridges.append(bridge)
        servers.append(server)
        opponents.append((name, f"bws:{url}"))
    try:
        for opponent in opponents:
            asyncio.run(match(opponent, args, console))
    finally:
        for bridge in bridges:
            if bridge.crashes:
                console.print(
                    f"hexbot bridge ({bridge.engine}) crashed {bridge.crashes} times (heuristic moves played)"
                )
            bridge.close()
        for server in servers:
            server.should_exit = True
    sys.exit(0)


if __name__ == "__main__":
    main()
