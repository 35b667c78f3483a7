"""A battlebot client bot, as a newcomer would write it: plain Python, ``httpx`` and ``websockets``.

It registers once (saving ``auth.json`` like the original battlebot-client-py), then connects, logs in with
``sha256(pass_hash + salt)``, and plays: whenever ``state.nextPlayer`` is us and the game is not complete it sends
a turn. It knows numberwang, noughts and crosses and hexagon dots; pass your own ``choose(state, bot_id)`` for
any other game (the state and turn shapes are documented in ``hexarena/wire/battlebot.py``).

    python examples/battlebot_client.py --server http://127.0.0.1:8000 --game noughtsandcrosses --bot-id Me

The server closes the socket after every game: ``--forever`` connects again for the next one, and after a lost
connection too (a pause, then a new login), as a bot on a ladder must.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import websockets

Choose = Callable[[dict[str, Any], str], dict[str, Any]]


def register(server: str, game: str, bot_id: str, owner: str) -> dict[str, Any]:
    """POST /bots/<game>; returns the auth data (keep pass_hash secret)."""
    r = httpx.post(f"{server}/bots/{game}", json={"bot_id": bot_id, "owner": owner}, timeout=10)
    if r.status_code != 201:
        raise RuntimeError(f"registration failed: {r.status_code} {r.text}")
    data = r.json()
    host = server.split("://", 1)[1]
    secure = server.startswith("https")
    return {
        "game": data["game"],
        "bot_id": data["bot_id"],
        "pass_hash": data["pass_hash"],
        "hostname": host,
        "secure": secure,
    }


def choose_numberwang(state: dict[str, Any], me: str) -> dict[str, Any]:
    sign = 1 if state["players"][0] == me else -1  # the first player wants n >= 10, the second n <= -10
    return {"n": sign * random.randint(1, 5)}


def choose_noughts(state: dict[str, Any], me: str) -> dict[str, Any]:
    mark = "X" if state["marks"]["X"] == me else "O"
    free = [[r, c] for r in range(3) for c in range(3) if state["board"][r][c] == ""]
    return {"mark": mark, "space": random.choice(free)}


def dots_neighbours(rows: int, cols: int, r: int, c: int) -> list[tuple[int, int]]:
    """The six neighbours of a dot (even rows are short), kept if on the board."""
    shift = (r + 1) % 2
    out = []
    for rr, cc in (
        (r, c - 1),
        (r - 1, c + shift - 1),
        (r - 1, c + shift),
        (r, c + 1),
        (r + 1, c + shift),
        (r + 1, c + shift - 1),
    ):
        if 0 <= rr < rows and 0 <= cc < (cols - 1 if rr % 2 == 0 else cols):
            out.append((rr, cc))
    return out


def choose_hexdots(state: dict[str, Any], me: str) -> dict[str, Any]:
    board = state["board"]
    rows, cols = board["rows"], board["cols"]
    drawn = {tuple(sorted((e["row"], e["col"]) for e in line["endpoints"])) for line in board["lines"]}
    centres = {(h["center"]["row"], h["center"]["col"]) for h in board["hexagons"]}
    options = []
    for r in range(rows):
        for c in range(cols - 1 if r % 2 == 0 else cols):
            for n in dots_neighbours(rows, cols, r, c):
                line = tuple(sorted([(r, c), n]))
                if line not in drawn and (r, c) not in centres and n not in centres:
                    options.append(line)
    a, b = random.choice(options)
    return {"line": [{"row": a[0], "col": a[1]}, {"row": b[0], "col": b[1]}]}


CHOOSERS: dict[str, Choose] = {
    "numberwang": choose_numberwang,
    "noughtsandcrosses": choose_noughts,
    "hexdots": choose_hexdots,
}


async def play(
    auth: dict[str, Any], choose: Choose | None = None, contest: str | None = None, path: str = ""
) -> dict[str, Any]:
    """Connect, log in and play one game; returns the final state (or the failed login message)."""
    choose = choose or CHOOSERS[auth["game"]]
    scheme = "wss" if auth.get("secure") else "ws"
    async with websockets.connect(f"{scheme}://{auth['hostname']}{path}", max_size=2**22) as ws:
        salt = json.loads(await ws.recv())["salt"]
        login = {
            "bot_id": auth["bot_id"],
            "game": auth["game"],
            "login_hash": hashlib.sha256((auth["pass_hash"] + salt).encode()).hexdigest(),
        }
        if contest:
            login["contest"] = contest
        await ws.send(json.dumps(login))
        answer = json.loads(await ws.recv())
        if answer.get("authentication") != "OK":
            return answer
        state: dict[str, Any] = {}
        async for text in ws:
            update = json.loads(text)
            state = update["state"]
            if state.get("complete"):
                break
            turn = update.get("turn")
            if turn is not None and not turn["valid"]:
                print("invalid turn:", turn)
            if state.get("nextPlayer") == auth["bot_id"]:  # also after our own invalid turn: try again
                await ws.send(json.dumps(choose(state, auth["bot_id"])))
        return state


async def play_forever(
    auth: dict[str, Any], choose: Choose | None = None, contest: str | None = None, pause: float = 1.0
) -> dict[str, Any]:
    """Play game after game, logging in again after each and after a lost connection; returns only when the
    login is refused (the same credentials would be refused again)."""
    while True:
        try:
            final = await play(auth, choose, contest)
        except (OSError, websockets.ConnectionClosed) as exc:  # the server went away or the network failed
            print("connection lost:", exc, flush=True)
            await asyncio.sleep(pause)
            continue
        if final.get("authentication") == "failed":
            return final
        print("game over:", final.get("victor"), final.get("reason"), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", default="http://127.0.0.1:8000")
    parser.add_argument("--game", default="noughtsandcrosses", choices=sorted(CHOOSERS))
    parser.add_argument("--bot-id", help="the id to register (not needed once the auth file exists)")
    parser.add_argument("--owner", default="me")
    parser.add_argument("--auth", default="auth.json", help="credentials file (created on first run)")
    parser.add_argument("--contest", default=None)
    parser.add_argument("--forever", action="store_true", help="play game after game, reconnecting when needed")
    args = parser.parse_args()
    auth_file = Path(args.auth)
    if auth_file.exists():
        auth = json.loads(auth_file.read_text())
    elif not args.bot_id:
        parser.error(f"{auth_file} does not exist: give --bot-id to register the bot")
    else:
        auth = register(args.server, args.game, args.bot_id, args.owner)
        auth_file.write_text(json.dumps(auth))
    final = asyncio.run((play_forever if args.forever else play)(auth, contest=args.contest))
    print(json.dumps(final, indent=2))


if __name__ == "__main__":
    main()
