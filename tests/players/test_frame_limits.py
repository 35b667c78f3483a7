"""The bot API's size limits: the largest packet the game server can legitimately send fits every limit on the
way to the bot (the server's encoders, the SDK's decoders, the real ``hexarena bot serve`` process), one byte
more is refused, and boards beyond what the limit is sized for never reach a bot.

The largest legitimate packet: a board of ``MAX_BOARD_STONES`` stones (a starting position of the largest size
plus every turn up to HTTTX's turn cap), every coordinate as long as the engine allows (seven digits and a
sign), built by the same encoders the adapters use.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from fakes.servers import cli_bot_server, serve_app, wait_up
from hexarena.bots.sdk import bot_class_for, make_app
from hexarena.core.contract import MatchEnded, PlayerResult
from hexarena.core.types import Outcome, Termination
from hexarena.games.htttx import COORD_LIMIT, HTTTX, HtttxState
from hexarena.players.bws import BwsPlayer
from hexarena.players.htttx_common import (
    BoardJson,
    board_of,
    check_board_size,
    end_packet,
    move_request_json,
    stateless_board_of,
    wire_move,
)
from hexarena.players.inprocess import InProcessPlayer
from hexarena.players.stateless import StatelessPlayer
from hexarena.referee.match import MatchConfig, Referee
from hexarena.wire import htttx as w
from hexarena_sdk.session import BoardCache

#: The far corner: every coordinate from here to 282 cells on prints with seven digits and a sign.
CORNER = -(COORD_LIMIT - 1)


def far_cells(n: int) -> Iterator[tuple[int, int, int]]:
    """``n`` stones near the far corner, two cells apart (so no two touch and nobody has a line), x and o."""
    side = 1
    while side * side < n:
        side += 1
    for i in range(n):
        q, r = divmod(i, side)
        yield (CORNER + 2 * q, CORNER + 2 * r, i % 2)


def largest_state(stones: int = w.MAX_BOARD_STONES) -> HtttxState:
    return HTTTX.from_cells(far_cells(stones), 1)


@pytest.fixture(scope="module")
def biggest() -> HtttxState:
    return largest_state()


def largest_move_request(state: HtttxState) -> bytes:
    """What ``BwsPlayer.move`` sends for ``state``: its two latest turns as ``previous``, the whole board, a
    time limit with every digit a float prints."""
    cells = list(state.cells.items())
    previous = [wire_move(cells[i][1], (cells[i][0], cells[i + 2][0])) for i in (-4, -3)]
    return move_request_json("o", previous, BoardJson(state).encode([]), 1234.5678901234567)


def test_the_limits_are_derived_from_the_game_and_fit_common_websocket_libraries() -> None:
    assert w.MAX_SETUP_STONES + 2 * HTTTX.max_plies == w.MAX_BOARD_STONES
    assert len(json.dumps({"q": CORNER, "r": CORNER, "p": "x"}, separators=(",", ":"))) + 1 == w.LONGEST_CELL_BYTES
    assert w.MAX_SERVER_PACKET_BYTES <= 1024 * 1024  # websockets' default max_size: Hivemaker-style bots read it
    assert w.MAX_BOT_PACKET_BYTES < w.MAX_SERVER_PACKET_BYTES


def test_the_largest_packets_fit_the_limit_and_the_sdk_decodes_them(biggest: HtttxState) -> None:
    request = largest_move_request(biggest)
    assert len(request) <= w.MAX_SERVER_PACKET_BYTES
    lazy = w.decode_lazy_move_request(request)
    cells = BoardCache().cells_of(bytes(lazy.board))
    assert cells is not None and len(cells) == w.MAX_BOARD_STONES
    assert min(q for q, _ in cells) == CORNER

    outcome = Outcome(0, Termination.PROTOCOL, "x" * 500)  # the referee cuts reasons at 500 characters
    result = PlayerResult(outcome=outcome, seat=1, final_state=biggest)
    end = w.encode(end_packet(result, board_of(biggest)))
    assert len(end) <= w.MAX_SERVER_PACKET_BYTES
    assert len(w.decode_server_packet(end).board.cells) == w.MAX_BOARD_STONES

    stateless = w.encode(w.StatelessRequest(board=stateless_board_of(biggest), time_limit=1234.5678901234567))
    assert len(stateless) <= w.MAX_SERVER_PACKET_BYTES
    assert len(w.decode_stateless_request(stateless).board.cells) == w.MAX_BOARD_STONES


def test_a_packet_over_the_limit_is_refused_by_the_sdk() -> None:
    padded = b'{"type":"heartbeat","waiting":false,"x-pad":"' + b" " * w.MAX_SERVER_PACKET_BYTES + b'"}'
    with pytest.raises(Exception, match="too large"):
        w.decode_server_packet(padded)


async def test_the_real_bot_server_answers_the_largest_requests_and_refuses_one_byte_more(
    biggest: HtttxState,
) -> None:
    request = largest_move_request(biggest)
    pad = w.MAX_SERVER_PACKET_BYTES - len(request)
    at_limit = request[:-1] + b',"x-pad":"' + b" " * (pad - len(',"x-pad":""')) + b'"}'
    assert len(at_limit) == w.MAX_SERVER_PACKET_BYTES
    with cli_bot_server("random") as url:
        await wait_up(f"{url}/capabilities.json")
        socket_url = "ws" + url[len("http") :] + "/bws/v1-alpha/game"
        async with connect(socket_url, max_size=None) as ws:
            await ws.send(at_limit.decode())
            reply: dict[str, Any] = json.loads(await ws.recv())
        assert reply["type"] == "move_response" and len(reply["move"]["pieces"]) == 2

        async with connect(socket_url, max_size=None) as ws:
            # The server refuses on the frame's header and closes, so the close can arrive while the client is
            # still writing the rest of the frame: the send or the recv after it raises, either with code 1009.
            with pytest.raises(ConnectionClosed) as closed:
                await ws.send(at_limit[:-2].decode() + ' "}')  # one byte over
                await ws.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009

        body = w.encode(w.StatelessRequest(board=stateless_board_of(biggest), time_limit=30.0))
        async with httpx.AsyncClient(timeout=60) as client:
            ok = await client.post(f"{url}/stateless/v1-alpha/turn", content=body)
            too_big = await client.post(
                f"{url}/stateless/v1-alpha/turn", content=b" " * (w.MAX_SERVER_PACKET_BYTES - len(body) + 1) + body
            )
        assert ok.status_code == 200 and len(ok.json()["move"]["pieces"]) == 2, ok.text
        assert too_big.status_code == 413, too_big.text


def test_a_board_past_the_limit_ends_the_match_as_a_draw_instead_of_being_sent() -> None:
    check_board_size(w.MAX_SETUP_STONES, HTTTX.max_plies)  # the largest legitimate board goes out
    with pytest.raises(MatchEnded) as ended:
        check_board_size(w.MAX_SETUP_STONES, HTTTX.max_plies + 1)  # a match cap above the game's
    outcome = ended.value.outcome
    assert outcome.winner is None and outcome.termination == Termination.TURN_LIMIT
    assert f"{w.MAX_BOARD_STONES + 2} stones" in outcome.reason


async def test_a_starting_position_too_large_for_the_bot_api_aborts_the_match() -> None:
    start = largest_state(w.MAX_SETUP_STONES + 1)
    bot = BwsPlayer("http://127.0.0.1:9")  # never contacted: the position is refused first
    config = MatchConfig(game=HTTTX, initial_state=start)
    result = await Referee(config, [InProcessPlayer.builtin("htttx", "random"), bot]).run()
    assert result.outcome.termination == Termination.ABORTED and result.winner is None
    assert f"{w.MAX_SETUP_STONES + 1} stones" in result.outcome.reason


@pytest.mark.parametrize("kind", ["bws", "stateless"])
async def test_the_adapters_stop_before_sending_a_board_past_the_limit(
    kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the limit lowered to 7 stones, a match without a cap of its own ends as a draw after 4 turns, before
    the request whose board would hold 9 (what a match cap above the game's would bring), never by a loss."""
    monkeypatch.setattr(w, "MAX_BOARD_STONES", 1 + 2 * 3)
    player = BwsPlayer if kind == "bws" else StatelessPlayer
    async with serve_app(make_app(bot_class_for("random"))) as one, serve_app(make_app(bot_class_for("random"))) as two:
        result = await Referee(MatchConfig(game=HTTTX), [player(one), player(two)]).run()
    assert result.outcome.termination == Termination.TURN_LIMIT and result.winner is None, result.outcome
    assert len(result.moves) == 4 and "would hold 9 stones" in result.outcome.reason
