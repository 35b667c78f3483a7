"""Long random HTTTX games between two real ``hexarena bot serve`` processes end by a win or a draw, never by our
own frame limits.

Every move request carries the whole board, so the request size grows with the game. On the code this test was
written against, the SDK refused packets over 64 KiB and random games were recorded as disconnect losses of the
seat that happened to be asked at ~1,310 moves. Here 20 random-vs-random games are played through the real bws
adapter and the real referee, with no turn limit, until a win or the referee's ply cap.

Why the games start far from the origin: the largest messages are boards of stones with the longest coordinates
(seven digits and a sign), which is also what lets 20 games cross the old 64 KiB in ~900 moves each instead of
~1,310 (the bot servers' cost per move grows with the board, so a game's cost grows with its square). The start
is a legitimate free setup: one X stone, O to move, which the SDK's bots accept (they declare ``free_setup``).
The referee's ply cap is set just past the size the old limit refused (HTTTX's own cap, 5,000 turns, would
make each game cost ~30 times more); the assertion that the largest request really went past 64 KiB keeps the
test from passing without exercising anything. Still ~19,000 moves at boards of up to 1,900 stones, ~3 min of
CPU across the three processes (the bot servers rebuild the engine's state from every board): marked slow.
"""

from __future__ import annotations

import asyncio

import pytest

from fakes.servers import cli_bot_server, wait_up
from hexarena.core.types import Termination
from hexarena.games.htttx import HTTTX
from hexarena.players.bws import BwsPlayer
from hexarena.players.htttx_common import BoardJson, move_request_json
from hexarena.referee.match import MatchConfig, Referee
from hexarena.referee.result import MatchResult

GAMES = 20
#: X's first stone: every coordinate of the game then prints with seven digits and a sign.
FAR = -1_020_000
#: Moves after which the referee calls a draw: the board then holds 1,901 stones of ~36 bytes (~68 KB).
CAP = 950
#: Games played at once: enough to keep both bot servers and the referee busy on two cores.
CONCURRENT = 4
OLD_LIMIT = 64 * 1024


def largest_request(result: MatchResult) -> int:
    """Bytes of the last move request of the game (the largest), encoded exactly as the bws adapter sends it."""
    start = HTTTX.from_cells([(FAR, FAR, 0)], 1)
    history = [(m.seat, HTTTX.parse(m.move)) for m in result.moves[:-1]]
    return len(move_request_json("x", [], BoardJson(start).encode(history), None))


@pytest.mark.slow
async def test_random_games_between_cli_bot_servers_end_by_a_win_or_a_draw() -> None:
    with cli_bot_server("random") as one, cli_bot_server("random") as two:
        await wait_up(f"{one}/capabilities.json")
        await wait_up(f"{two}/capabilities.json")
        start = HTTTX.from_cells([(FAR, FAR, 0)], 1)

        slots = asyncio.Semaphore(CONCURRENT)

        async def game(i: int) -> MatchResult:
            urls = (one, two) if i % 2 == 0 else (two, one)
            config = MatchConfig(game=HTTTX, initial_state=start, max_plies=CAP)
            async with slots:
                return await Referee(config, [BwsPlayer(urls[0]), BwsPlayer(urls[1])]).run()

        results = await asyncio.gather(*(game(i) for i in range(GAMES)))
    endings = [(r.outcome.termination, r.outcome.reason, len(r.moves)) for r in results]
    assert all(t in (Termination.NORMAL, Termination.TURN_LIMIT) for t, _, _ in endings), endings
    assert max(largest_request(r) for r in results) > OLD_LIMIT, endings
