"""OpenSpiel's C++ MCTS as an HTP Hex engine on stdin/stdout (run by ``bench/strength.py --game hex``).

    .venv/bin/python bench/openspiel/htp_bridge.py --simulations 5000 [--uct-c 2] [--seed 1] [--no-solve]

hexarena meets it as ``htp:COMMAND`` (``players/htp.py``), like any HTP engine. ``pyspiel.MCTSBot`` with
``pyspiel.RandomRolloutEvaluator`` (one uniform random rollout per leaf, the MCTS-solver on by default, UCT
constant 2: OpenSpiel's own defaults in its examples) plays ``genmove``; it has no clock, so its strength is set by
``--simulations``, which the benchmark calibrates to the time per move (``calibrate``).

HTP cells are column letter + row number; OpenSpiel's Hex action is ``row * size + col`` with player 0 (``x``,
Black) joining top and bottom, as in hexarena. The bridge keeps the stones it was told (``play``) and rebuilds the
OpenSpiel state on each ``genmove`` by interleaving Black and White stones, which is valid for every position of
a game without the swap rule (hexarena's resync after an opening sends the stones in board order, not move order).
Kept free of hexarena imports: it is a stand-alone engine.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import pyspiel  # type: ignore[import-untyped]


def cell_of(text: str) -> tuple[int, int]:
    """HTP ``c5`` -> (row 4, col 2)."""
    t = text.strip().lower()
    return int(t[1:]) - 1, ord(t[0]) - 97


def htp(row: int, col: int) -> str:
    return f"{chr(97 + col)}{row + 1}"


def make_bot(game: object, simulations: int, uct_c: float, seed: int, solve: bool) -> object:
    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
    return pyspiel.MCTSBot(game, evaluator, uct_c, simulations, 1000, solve, seed, False)


def calibrate(size: int, seconds: float, uct_c: float = 2.0, probes: int = 6) -> tuple[int, float]:
    """Simulations OpenSpiel's MCTS runs in ``seconds`` on this machine now: ``(simulations, sims_per_second)``.

    Measured on positions along a game (early, middle: a search gets cheaper as the board fills), at the rate of
    the whole ``step`` call (tree walk, rollouts and move choice), the median of ``probes`` runs.
    """
    game = pyspiel.load_game(f"hex(board_size={size})")
    rates = []
    state = game.new_initial_state()
    for k in range(probes):
        bot = make_bot(game, 2000, uct_c, k + 1, True)
        began = time.perf_counter()
        action = bot.step(state)  # type: ignore[attr-defined]
        rates.append(2000 / (time.perf_counter() - began))
        state.apply_action(action)
        if state.is_terminal():
            break
        state.apply_action(state.legal_actions()[len(state.legal_actions()) // 2])
    rates.sort()
    rate = rates[len(rates) // 2]
    return max(1, int(rate * seconds)), rate


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--simulations", type=int, default=1000)
    ap.add_argument("--uct-c", type=float, default=2.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-solve", action="store_true")
    ap.add_argument("--calibrate", nargs=2, metavar=("SIZE", "SECONDS"), help="print JSON {simulations, rate}, exit")
    args = ap.parse_args()
    if args.calibrate:
        sims, rate = calibrate(int(args.calibrate[0]), float(args.calibrate[1]), args.uct_c)
        print(json.dumps({"simulations": sims, "rate": round(rate)}))
        return
    size = 11
    stones: list[tuple[str, int, int]] = []
    games: dict[int, object] = {}
    bots: dict[int, object] = {}
    seed = args.seed

    def answer(text: str = "", ok: bool = True) -> None:
        sys.stdout.write(("= " if ok else "? ") + text + "\n\n")
        sys.stdout.flush()

    for line in sys.stdin:
        parts = line.split()
        if not parts:
            continue
        cmd, rest = parts[0].lower(), parts[1:]
        if cmd == "quit":
            answer()
            return
        if cmd == "name":
            answer("openspiel-mcts")
        elif cmd == "boardsize":
            size = int(rest[0])
            stones.clear()
            answer()
        elif cmd == "clear_board":
            stones.clear()
            answer()
        elif cmd == "play":
            r, c = cell_of(rest[1])
            stones.append((rest[0].lower()[0], r, c))
            answer()
        elif cmd == "genmove":
            colour = rest[0].lower()[0]
            game = games.get(size)
            if game is None:
                game = games[size] = pyspiel.load_game(f"hex(board_size={size})")
            state = game.new_initial_state()  # type: ignore[attr-defined]
            blacks = [s for s in stones if s[0] == "b"]
            whites = [s for s in stones if s[0] == "w"]
            order = (
                [x for pair in zip(blacks, whites, strict=False) for x in pair]
                + blacks[len(whites) :]
                + whites[len(blacks) :]
            )
            for _, r, c in order:
                state.apply_action(r * size + c)
            want = 0 if colour == "b" else 1
            if state.current_player() != want:
                answer(f"cannot rebuild a position with {colour} to move", ok=False)
                continue
            seed += 1
            bot = bots.get(size)
            if bot is None:
                bot = bots[size] = make_bot(game, args.simulations, args.uct_c, seed, not args.no_solve)
            action = bot.step(state)  # type: ignore[attr-defined]
            r, c = divmod(action, size)
            stones.append((colour, r, c))
            answer(htp(r, c))
        else:
            answer()


if __name__ == "__main__":
    main()
