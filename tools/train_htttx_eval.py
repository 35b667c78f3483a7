"""Fit the HTTTX ``search`` bot's evaluation table by self-play: logistic regression on game outcomes.

    PYTHONPATH=src .venv/bin/python tools/train_htttx_eval.py [--games 1500] [--rounds 2] [--depth 2]
        [--nodes 3000] [--seed 31] [--check 100] [--save positions.npz | --load positions.npz] [--dry-run]
        [--out src/hexarena/bots/htttx/eval_weights.json]

What it fits: the engine's evaluation is a sum over the 6-cell windows (``win_distance`` cells along one of the
three axes) that hold stones of one colour only: ``own[k]`` for each window holding k stones of the side to move,
less ``opp[k]`` for each holding k of the opponent's (``search_py.check_table``). So a position's features are
those window counts, from the side to move's point of view, and the table is a logistic regression of "the side to
move went on to win" on them (Newton's method with a little L2, numpy only), scaled to integers (``--scale`` points
per unit of log-odds: at 300 the evaluation bar's ``tanh(score / 600)`` reads as 2 P(win) - 1).

Where the positions come from: games of the ``search`` engine against itself at a fixed small search (``--depth``
whole turns, at most ``--nodes`` nodes a move, so a run's games depend only on the seed), each from a random
opening of two turns near the stones, with a random pick among the best root turns now and then (``--explore``) so
that games differ. Positions where the side to move already has a threat (it wins on the spot, the engine never
evaluates them) are left out. Each round plays its games with the table the previous round fitted (the first with
the hand-made ``W``) and fits on the games of every round so far.

How long: the shipped ``eval_weights.json`` is this script's defaults (2 rounds of 1,500 games at depth 2, 3,000
nodes a move, seed 31), which took 21 minutes of one core on the shared 2-core development machine at load 8-10
(its first round, 1,500 games, took 8); ``--rounds 1 --games 600`` takes about 4 minutes and gives a noisier
table. It prints its progress every 50 games, the fit (how many outcomes it predicts) and, with
``--check``, how the fitted table scores against ``W`` at the training search. The same seed and arguments give
the same table on the same engine.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

try:
    import numpy as np
except ImportError:  # pragma: no cover - said plainly, the script needs it
    sys.exit("train_htttx_eval.py needs numpy: .venv/bin/pip install numpy")

from hexarena.bots.htttx.learned_eval import VERSION, WEIGHTS
from hexarena.bots.htttx.search import SearchBot
from hexarena.bots.htttx.search_py import WCAP, Table, weights
from hexarena.games.htttx import HTTTX
from hexarena.games.htttx.openings import random_turns

#: The three axes as (dq, dr) steps.
AXES = ((1, 0), (0, 1), (1, -1))
#: Turns after which a self-play game is abandoned (not used: no outcome to learn from).
MAX_TURNS = 150


def window_counts(stones: list[tuple[int, int, int]], length: int) -> dict[tuple[int, int, int], list[int]]:
    """Every window holding a stone: (axis, q, r of its first cell) -> [X stones, O stones]."""
    out: dict[tuple[int, int, int], list[int]] = {}
    for q, r, seat in stones:
        for a, (dq, dr) in enumerate(AXES):
            for i in range(length):
                key = (a, q - i * dq, r - i * dr)
                counts = out.get(key)
                if counts is None:
                    counts = out[key] = [0, 0]
                counts[seat] += 1
    return out


def features(stones: list[tuple[int, int, int]], to_move: int, length: int) -> np.ndarray | None:
    """[windows of k stones of the side to move only, k = 1..L] + [windows of k of the opponent's only, k = 1..L]
    (None when the side to move has a threat window: the engine never evaluates such a position)."""
    own = np.zeros(length + 1)
    opp = np.zeros(length + 1)
    for counts in window_counts(stones, length).values():
        mine, theirs = counts[to_move], counts[1 - to_move]
        if theirs == 0:
            own[mine] += 1
        elif mine == 0:
            opp[theirs] += 1
    if own[length - 2 :].any():
        return None
    return np.concatenate([own[1:], opp[1:]])


def opening(rng: random.Random, length: int) -> Any:
    """A random start: X's origin stone and two turns on cells near the stones."""
    return random_turns(HTTTX.new(win_distance=length), rng, 2)


def self_play(
    bot: SearchBot, rng: random.Random, explore: float, length: int
) -> tuple[list[tuple[list[tuple[int, int, int]], int]], int | None]:
    """One game: the positions before each turn (stones, side to move) and the winner (None: abandoned)."""
    state = opening(rng, length)
    positions: list[tuple[list[tuple[int, int, int]], int]] = []
    for _ in range(MAX_TURNS):
        seat = state.to_move_seat
        if seat is None:
            break
        positions.append((list(state.stones), seat))
        move, _ = bot.analyse_board(state.board(), seat, 0.0)
        considered = bot.last_considerations or []
        if len(considered) > 1 and rng.random() < explore:
            ev = bot.last_evaluation or {}
            if "win_in" not in ev:  # never throw away a forced win or walk into a forced loss on purpose
                pick = rng.choice(considered[:4])["pieces"]
                move = ((pick[0][0], pick[0][1]), (pick[1][0], pick[1][1]))
        state = HTTTX.play(state, move)
    return positions, state.winner


def check(new: Table, old: Table, pairs: int, args: argparse.Namespace, rng: random.Random) -> float:
    """``new``'s score against ``old`` at the training search (fixed depth and nodes, no exploration): ``pairs``
    random openings, each played twice with colours swapped (an abandoned game counts half)."""
    length = args.win_distance
    bots = {
        "new": SearchBot(max_depth=args.depth, max_nodes=args.nodes, tables={length: new}),
        "old": SearchBot(max_depth=args.depth, max_nodes=args.nodes, tables={length: old}),
    }
    points = 0.0
    for _ in range(pairs):
        start = opening(rng, length)
        for x_side in ("new", "old"):
            state = start
            for _ in range(MAX_TURNS):
                seat = state.to_move_seat
                if seat is None:
                    break
                name = x_side if seat == 0 else ("old" if x_side == "new" else "new")
                move, _ = bots[name].analyse_board(state.board(), seat, 0.0)
                state = HTTTX.play(state, move)
            if state.winner is None:
                points += 0.5
            elif (state.winner == 0) == (x_side == "new"):
                points += 1
    return points / (2 * pairs)


def fit(x: np.ndarray, y: np.ndarray, l2: float) -> tuple[np.ndarray, float]:
    """Logistic regression by Newton's method on standardised features: (weights on the raw features, bias)."""
    mean = x.mean(axis=0)
    std = x.std(axis=0)
    std[std == 0] = 1.0
    z = np.hstack([(x - mean) / std, np.ones((len(x), 1))])
    theta = np.zeros(z.shape[1])
    reg = np.full(z.shape[1], l2)
    reg[-1] = 0.0
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-(z @ theta)))
        grad = z.T @ (p - y) + reg * theta
        hess = (z * (p * (1 - p))[:, None]).T @ z + np.diag(reg) + 1e-9 * np.eye(len(theta))
        step = np.linalg.solve(hess, grad)
        theta -= step
        if np.abs(step).max() < 1e-8:
            break
    w = theta[:-1] / std
    bias = float(theta[-1] - (w * mean).sum())
    return w, bias


def to_table(w: np.ndarray, length: int, scale: float, monotone: bool) -> Table:
    """The engine's table from the fitted weights: own[k] for k < L - 2 (larger never evaluated: WCAP), opp[k]
    the negated opponent weights (the engine subtracts them); ``monotone``: no window is worth less than one
    holding a stone fewer (the fit's correlated counts can say so, the search should not believe it)."""
    own = [0] * (length + 1)
    opp = [0] * (length + 1)
    for k in range(1, length + 1):
        if k < length - 2:
            own[k] = int(np.clip(round(scale * w[k - 1]), -WCAP, WCAP))
        else:
            own[k] = WCAP
        opp[k] = int(np.clip(round(-scale * w[length + k - 1]), -WCAP, WCAP))
    if monotone:
        for k in range(2, length + 1):
            own[k] = max(own[k], own[k - 1])
            opp[k] = max(opp[k], opp[k - 1]) if k < length else opp[k]
    return (own, opp)


def fitted(xs: list[np.ndarray], ys: list[float], args: argparse.Namespace, what: str) -> Table:
    """The engine's table fitted on the positions so far (printed with how well the fit predicts outcomes)."""
    x = np.array(xs)
    y = np.array(ys)
    w, bias = fit(x, y, args.l2)
    table = to_table(w, args.win_distance, args.scale, args.monotone)
    acc, loss = accuracy(x, y, w, bias)
    print(
        f"{what}: own {table[0]} opp {table[1]} bias {bias:+.3f}; predicts {100 * acc:.1f} % of the {len(x):,}"
        f" outcomes, log loss {loss:.3f}",
        flush=True,
    )
    return table


def accuracy(x: np.ndarray, y: np.ndarray, w: np.ndarray, bias: float) -> tuple[float, float]:
    """(share of outcomes the fit's sign predicts, mean log loss)."""
    p = 1.0 / (1.0 + np.exp(-(x @ w + bias)))
    p = np.clip(p, 1e-9, 1 - 1e-9)
    return float(((p > 0.5) == (y > 0.5)).mean()), float(-(y * np.log(p) + (1 - y) * np.log(1 - p)).mean())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Fit the HTTTX search bot's evaluation table by self-play (logistic regression on outcomes).",
        epilog="The default run (2 x 1500 games at depth 2) took 21 minutes of one core at load 8-10; --rounds 1 --games"
        " 600 about 4.",
    )
    parser.add_argument("--games", type=int, default=1500, help="self-play games a round (1-20000)")
    parser.add_argument("--rounds", type=int, default=2, help="rounds of play-then-fit (1-10)")
    parser.add_argument("--depth", type=int, default=2, help="whole turns each self-play move searches (1-6)")
    parser.add_argument("--nodes", type=int, default=3000, help="nodes a self-play move may search at most")
    parser.add_argument("--explore", type=float, default=0.15, help="chance a move is a random one of the best 4")
    parser.add_argument("--l2", type=float, default=1.0, help="L2 penalty on the standardised weights")
    parser.add_argument("--scale", type=float, default=300.0, help="table points per unit of log-odds")
    parser.add_argument("--win-distance", type=int, default=6, help="the game's win distance (4-10)")
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument(
        "--out", type=Path, default=WEIGHTS, help="weights file to write (merged: other win distances' tables are kept)"
    )
    parser.add_argument("--dry-run", action="store_true", help="print the table, write nothing")
    parser.add_argument(
        "--check", type=int, default=100, help="opening pairs the fitted table plays against W at the training search"
    )
    parser.add_argument("--monotone", action="store_true", help="no window worth less than one with a stone fewer")
    parser.add_argument("--save", type=Path, help="keep the positions' features and outcomes in this .npz")
    parser.add_argument("--load", type=Path, help="fit on the positions of a --save file instead of playing games")
    args = parser.parse_args(argv)
    bounds = {
        "games": (1, 20_000),
        "rounds": (1, 10),
        "depth": (1, 6),
        "nodes": (100, 1_000_000),
        "win_distance": (4, 10),
    }
    for name, (lo, hi) in bounds.items():
        if not lo <= getattr(args, name) <= hi:
            parser.error(f"--{name.replace('_', '-')} must be {lo}..{hi}, got {getattr(args, name)}")
    if not 0 <= args.explore <= 1 or args.l2 < 0 or not 1 <= args.scale <= 10_000:
        parser.error("--explore must be 0..1, --l2 >= 0 and --scale 1..10000")
    length = args.win_distance
    rng = random.Random(args.seed)
    table: Table = (weights(length), weights(length))
    xs: list[np.ndarray] = []
    ys: list[float] = []
    began = time.monotonic()
    rounds = 0 if args.load else args.rounds
    if args.load:
        try:
            saved = np.load(args.load)
            xs, ys = list(saved["x"]), list(saved["y"])
        except (OSError, ValueError, KeyError) as exc:
            parser.error(f"--load {args.load}: not a positions file of --save ({exc})")
        if not xs or len(xs[0]) != 2 * length:
            parser.error(f"--load {args.load}: no positions of win distance {length} in it")
    for rnd in range(1, rounds + 1):
        bot = SearchBot(max_depth=args.depth, max_nodes=args.nodes, tables={length: table})
        wins = [0, 0]
        abandoned = 0
        for g in range(1, args.games + 1):
            positions, winner = self_play(bot, rng, args.explore, length)
            if winner is None:
                abandoned += 1
            else:
                wins[winner] += 1
                for stones, seat in positions:
                    f = features(stones, seat, length)
                    if f is not None:
                        xs.append(f)
                        ys.append(1.0 if winner == seat else 0.0)
            if g % 50 == 0 or g == args.games:
                print(
                    f"round {rnd}: {g}/{args.games} games (X won {wins[0]}, O {wins[1]}, abandoned {abandoned}),"
                    f" {len(xs):,} positions, {time.monotonic() - began:.0f} s",
                    flush=True,
                )
        if rnd < rounds:
            table = fitted(xs, ys, args, f"round {rnd}")
    table = fitted(xs, ys, args, "fit")
    if args.save:
        np.savez_compressed(args.save, x=np.array(xs), y=np.array(ys))
        print(f"kept {len(xs):,} positions in {args.save}")
    if args.check:
        score = check(table, (weights(length), weights(length)), args.check, args, rng)
        print(
            f"check: the fitted table scored {100 * score:.1f} % against W in {2 * args.check} games at the"
            f" training search",
            flush=True,
        )
    made_by = (
        f"tools/train_htttx_eval.py --games {args.games} --rounds {args.rounds} --depth {args.depth} --nodes"
        f" {args.nodes} --explore {args.explore:g} --l2 {args.l2:g} --scale {args.scale:g} --win-distance {length}"
        f" --seed {args.seed}{' --monotone' if args.monotone else ''}: logistic regression of the side to move's win on"
        f" its window counts, {len(xs)}"
        + (f" positions of {args.load}" if args.load else f" positions of {args.rounds * args.games} self-play games")
        + f", {time.monotonic() - began:.0f} s"
    )
    if args.dry_run:
        print(made_by)
        return 0
    doc: dict[str, Any] = {"version": VERSION, "scale": args.scale, "tables": {}}
    if args.out.exists():
        old = json.loads(args.out.read_text())
        if isinstance(old, dict) and isinstance(old.get("tables"), dict):
            doc["tables"].update(old["tables"])
    doc["tables"][str(length)] = {"own": table[0], "opp": table[1], "made_by": made_by}
    args.out.write_text(json.dumps(doc, indent=1) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
