#!/usr/bin/env python3
"""A random Hex bot for the UAIS protocol, written the way a tournament participant would write it.

Run by the central program (or hexarena) as ``python3 uais_random_bot.py black`` (or ``white``). It reads one
message per line on stdin and answers on stdout, flushing every line.
"""

import random
import sys


def main() -> None:
    colour = sys.argv[1] if len(sys.argv) > 1 else "black"
    size = 11
    board: dict[str, str] = {}
    moves_made = 0

    def cells() -> list[str]:
        return [f"{chr(ord('a') + r)}{c + 1}" for r in range(size) for c in range(size)]

    for line in sys.stdin:
        parts = line.split()
        if not parts:
            continue  # the central program sends blank lines: skip them
        cmd = parts[0]
        if cmd == "init_board":
            size = int(parts[1]) if len(parts) > 1 else 11
            board = {}
            moves_made = 0
        elif cmd == "make_move":
            if colour == "white" and moves_made == 0 and len(board) == 1 and random.random() < 0.5:
                colour = "black"
                moves_made += 1
                print("swap", flush=True)
                continue
            free = [c for c in cells() if c not in board]
            move = random.choice(free)
            board[move] = colour
            moves_made += 1
            print(move, flush=True)
        elif cmd in ("seto", "sety") and len(parts) == 2:
            if parts[1] in board:
                print("error", flush=True)
                continue
            board[parts[1]] = colour if cmd == "sety" else ("white" if colour == "black" else "black")
        elif cmd == "unset" and len(parts) == 2:
            board.pop(parts[1], None)
        elif cmd == "swap":
            colour = "white" if colour == "black" else "black"
        elif cmd == "show_board":
            rows = []
            for r in range(size):
                row = ""
                for c in range(size):
                    owner = board.get(f"{chr(ord('a') + r)}{c + 1}")
                    row += "." if owner is None else ("B" if owner == "black" else "W")
                rows.append(row + "|")
            print("".join(rows), flush=True)
        elif cmd == "check_win":
            print(0, flush=True)
        elif cmd == "quit":
            sys.exit(0)
        else:
            print("error", flush=True)


if __name__ == "__main__":
    main()
