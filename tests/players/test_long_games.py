"""Games whose boards are past 64 KiB a request, between two real ``hexarena bot serve`` processes, end by a win
or a draw, never by our own frame limits.

Every move request carries the whole board, so the request size grows with the game. On the code this test was
written against, the SDK refused packets over 64 KiB and random games were recorded as disconnect losses of the
seat that happened to be asked at ~1,310 moves. Playing that long costs minutes of CPU (the bot servers rebuild
the engine's state from every board), and only the size matters: so the games start from a free setup already
that large (the SDK's bots accept one: they declare ``free_setup``), and a few dozen moves are played on it
through the real bws adapter and the real referee, until a win or the referee's ply cap.

The setup: stones two cells apart on a square patch far from the origin (every coordinate prints with seven
digits and a sign, the longest), so no two touch and no line is started; X and O alternate.
"""

from __future__ import annotations

import asyncio

from fakes.servers import cli_bot_server, wait_up
from hexarena.core.types import Termination
from hexarena.games.htttx import HTTTX, HtttxState
from hexarena.players.bws import BwsPlayer
from hexarena.players.htttx_common import BoardJson, move_request_json
from hexarena.referee.match import MatchConfig, Referee
from hexarena.referee.result import MatchResult

GAMES = 2
#: The patch's corner: every coordinate of the game then prints with seven digits and a sign.
FAR = -1_020_000
#: Stones a side of the patch: 44 x 44 = 1,936 stones of ~36 bytes, ~70 KB a request from the first move.
SIDE = 44
#: Moves played on the setup before the referee calls a draw (unless a random bot wins first).
CAP = 40
OLD_LIMIT = 64 * 1024


def setup() -> HtttxState:
    cells = [(FAR + 2 * i, FAR + 2 * j, (i + j) % 2) for i in range(SIDE) for j in range(SIDE)]
    return HTTTX.from_cells(cells, 1)


def first_request(start: HtttxState) -> int:
    """Bytes of the first move request (the smallest), encoded exactly as the bws adapter sends it."""
    return len(move_request_json("o", [], BoardJson(start).encode([]), None))


async def test_games_on_boards_past_64_kib_between_cli_bot_servers_end_by_a_win_or_a_draw() -> None:
    start = setup()
    assert first_request(start) > OLD_LIMIT  # (or the test would pass without exercising anything)
    with cli_bot_server("random") as one, cli_bot_server("random") as two:
        await wait_up(f"{one}/capabilities.json")
        await wait_up(f"{two}/capabilities.json")

        async def game(i: int) -> MatchResult:
            urls = (one, two) if i % 2 == 0 else (two, one)
            config = MatchConfig(game=HTTTX, initial_state=start, max_plies=CAP)
            return await Referee(config, [BwsPlayer(urls[0]), BwsPlayer(urls[1])]).run()

        results = await asyncio.gather(*(game(i) for i in range(GAMES)))
    endings = [(r.outcome.termination, r.outcome.reason, len(r.moves)) for r in results]
    assert all(t in (Termination.NORMAL, Termination.TURN_LIMIT) for t, _, _ in endings), endings
    assert all(len(r.moves) > 1 for r in results), endings  # both seats answered requests that large
