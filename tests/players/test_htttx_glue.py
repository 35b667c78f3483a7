"""HTTTX glue (URLs, boards, moves), the built-in player and player specs: pure pieces, no sockets."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from hexarena.core.contract import ClockConfig
from hexarena.core.errors import ConfigError, ProtocolViolation
from hexarena.core.types import Termination
from hexarena.games.htttx import HTTTX
from hexarena.players.bws import BwsPlayer
from hexarena.players.htttx_common import (
    BoardJson,
    board_of,
    capabilities_url,
    considerations_of,
    move_of,
    move_request_json,
    resolve,
    wire_move,
)
from hexarena.players.inprocess import InProcessPlayer
from hexarena.players.spec import make_player, schemes
from hexarena.players.stateless import StatelessPlayer
from hexarena.referee import MatchConfig, Referee
from hexarena.wire import htttx as w


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("http://h:1", "http://h:1/capabilities.json"),
        ("http://h:1/", "http://h:1/capabilities.json"),
        ("https://h/a/b", "https://h/a/b/capabilities.json"),
        ("http://h/a/capabilities.json", "http://h/a/capabilities.json"),
    ],
)
def test_capabilities_url(url: str, expected: str) -> None:
    assert capabilities_url(url) == expected


@pytest.mark.parametrize("url", ["ftp://h", "h:8000", "http://", "/x"])
def test_capabilities_url_rejects(url: str) -> None:
    with pytest.raises(ConfigError, match=repr(url).strip("'")[:5]):
        capabilities_url(url)


def test_resolve_follows_the_spec() -> None:
    caps = "https://example.com/epic_engine/api/htttx/v1/capabilities.json"
    assert resolve(caps, None, "bws/v1-alpha", "game", websocket=True) == (
        "wss://example.com/epic_engine/api/htttx/v1/bws/v1-alpha/game"
    )
    assert resolve(caps, None, "stateless/v1-alpha", "turn", websocket=False) == (
        "https://example.com/epic_engine/api/htttx/v1/stateless/v1-alpha/turn"
    )
    assert resolve("http://h:8/capabilities.json", "/x/y/", "d", "game", websocket=True) == "ws://h:8/x/y/game"
    assert resolve("http://h:8/capabilities.json", "", "d", "game", websocket=True) == "ws://h:8/game"


def test_incremental_board_json_matches_the_full_board() -> None:
    rng = random.Random(7)
    state = HTTTX.new(win_distance=32)
    history: list[tuple[int, Any]] = []
    enc = BoardJson(state)
    for _ in range(40):
        seat = HTTTX.to_move(state)
        assert seat is not None
        move = HTTTX.random_move(state, rng)
        state = HTTTX.play(state, move)
        history.append((seat, move))
        if len(history) % 3 == 0:  # requests come every other move, or later: any gap works
            got = json.loads(enc.encode(history))
            assert got == json.loads(w.encode(board_of(state)))
    packet = json.loads(move_request_json("o", [wire_move(1, history[-1][1])], enc.encode(history), 2.5))
    assert packet["type"] == "move_request" and packet["move_time_limit"] == 2.5
    assert packet["previous"][0]["side"] == "o" and len(packet["board"]["cells"]) == 81
    decoded = w.decode_server_packet(move_request_json("x", [], enc.encode(history), None))
    assert isinstance(decoded, w.MoveRequestPacket) and decoded.move_time_limit is None
    assert len(json.loads(BoardJson(HTTTX.new()).encode([]))["cells"]) == 1


def test_move_of_and_considerations() -> None:
    opt = w.MoveOption(pieces=[w.Coord(1, 2), w.Coord(3, 4)])
    assert move_of(opt) == ((1, 2), (3, 4))
    with pytest.raises(ProtocolViolation, match="exactly 2 pieces, got 1"):
        move_of(w.MoveOption(pieces=[w.Coord(1, 2)]))
    many = [w.MoveOption(pieces=[w.Coord(i, 0), w.Coord(i, 1)]) for i in range(50)]
    kept = considerations_of(many)
    assert kept is not None and len(kept) == 32 and kept[0] == {"pieces": [[0, 0], [0, 1]], "evaluation": None}
    assert considerations_of([]) is None


def test_adapters_refuse_bad_urls_up_front() -> None:
    with pytest.raises(ConfigError):
        BwsPlayer("ftp://h/game")  # ws:// and wss:// name the bot server, as in Hivemaker (docs/protocols/htttx.md)
    with pytest.raises(ConfigError):
        BwsPlayer("ws:///game")
    with pytest.raises(ConfigError):
        StatelessPlayer("nohost")


async def test_player_specs() -> None:
    assert set(schemes()) >= {"builtin", "bws", "stateless", "human"}
    p = await make_player("builtin:random", "htttx")
    assert isinstance(p, InProcessPlayer) and p.describe()["kind"] == "builtin"
    assert isinstance(await make_player("bws:http://127.0.0.1:9", "htttx"), BwsPlayer)
    assert isinstance(await make_player("stateless:http://127.0.0.1:9", "htttx"), StatelessPlayer)
    assert (await make_player("human", "htttx")).kind == "human"
    with pytest.raises(ConfigError, match="unknown player spec 'telnet:x'"):
        await make_player("telnet:x", "htttx")
    with pytest.raises(ConfigError, match="no built-in bot 'nobody'"):
        await make_player("builtin:nobody", "htttx")
    with pytest.raises(ConfigError, match="HTTTX only"):
        await make_player("bws:http://127.0.0.1:9", "tictactoe")


async def test_builtin_players_play_a_match_and_instant_bots_go_inline() -> None:
    x = InProcessPlayer.builtin("htttx", "random", seed=1)
    o = InProcessPlayer.builtin("htttx", "center", seed=2)
    config = MatchConfig(game=HTTTX, params={"turn_limit": 12, "win_distance": 32}, clock=ClockConfig("match", 60))
    result = await Referee(config, [x, o]).run()
    assert result.outcome.termination == Termination.TURN_LIMIT and len(result.moves) == 12
    assert x.inline_moves > 0  # the random bot is instant: it stopped hopping threads
    assert result.players[0] == {"name": "builtin:random", "kind": "builtin", "spec": "builtin:random"}


class SlowThenFast:
    name = "slow"

    def __init__(self) -> None:
        self.calls = 0

    def choose(self, game: Any, state: Any, limit: float | None, rng: random.Random) -> Any:
        import time

        self.calls += 1
        if self.calls == 5:
            time.sleep(0.01)  # one slow move while inline: back to the thread
        return HTTTX.random_move(state, rng)


async def test_inline_bot_goes_back_to_its_thread_after_a_slow_move() -> None:
    bot = SlowThenFast()
    p = InProcessPlayer(bot, seed=3)
    config = MatchConfig(game=HTTTX, params={"turn_limit": 10, "win_distance": 32})
    await Referee(config, [p, InProcessPlayer.builtin("htttx", "random", seed=4)]).run()
    assert bot.calls == 5 and p.inline_moves >= 1 and p._fast_streak == 0


async def test_a_bots_capabilities_are_read_once_for_the_games_that_start_together(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Creating a game checks the bot's capabilities, and starting each seat reads them again: three fetches of
    the same document a game (each ~2 ms of the server's CPU, a tenth of a short game's). A capabilities document
    read in the last ``CAPABILITIES_FRESH`` seconds answers for the bot; a failure is never kept."""
    from fakes.servers import FakeBot, fake_bots
    from hexarena.core.contract import MatchInfo
    from hexarena.players import htttx_common
    from hexarena.players.policy import SpecPolicy, make_answering_player

    bot, broken = FakeBot(), FakeBot(caps_status=500)
    async with fake_bots(bot, broken) as (url, broken_url):
        for _ in range(3):  # three games, each checked at creation and started for both seats
            seats = [await make_answering_player(f"bws:{url}", "htttx", SpecPolicy()) for _ in range(2)]
            for seat, player in enumerate(seats):
                state = HTTTX.new()
                await player.start(MatchInfo("m", HTTTX, {}, seat, state, ClockConfig()))
                await player.finish(None)  # type: ignore[arg-type]
        assert bot.caps_requests == 1
        monkeypatch.setattr(htttx_common, "CAPABILITIES_FRESH", 0.0)
        await htttx_common.bot_capabilities(url, 5.0)
        assert bot.caps_requests == 2  # stale: read again
        monkeypatch.setattr(htttx_common, "CAPABILITIES_FRESH", 60.0)
        for _ in range(2):
            with pytest.raises(ConfigError, match="HTTP 500"):
                await make_answering_player(f"bws:{broken_url}", "htttx", SpecPolicy())
        assert broken.caps_requests == 2  # a failure is asked again
        broken.caps_status = 200
        await make_answering_player(f"bws:{broken_url}", "htttx", SpecPolicy())
        assert broken.caps_requests == 3
