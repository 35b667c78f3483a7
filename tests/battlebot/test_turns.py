"""The rules of a battlebot game: echoes, invalid turns, strikes, timeouts, disconnects, server errors."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from bbhelp import Session, connect, register, waiting


async def pair(
    srv: Any, game: str = "numberwang", names: tuple[str, str] = ("First", "Second")
) -> tuple[Session, Session]:
    """Two connected bots; the first waits and therefore plays first. Both have read the initial state."""
    a = await connect(srv, await register(srv, game, names[0]))
    await waiting(srv)
    b = await connect(srv, await register(srv, game, names[1]))
    sa, sb = await a.recv(), await b.recv()
    assert sa == sb and sa["state"]["players"] == list(names) and sa["state"]["nextPlayer"] == names[0]
    return a, b


async def stored(srv: Any) -> Any:
    for _ in range(100):
        games = await srv.store.list_games()
        if games and all(g.status not in ("running", "pending") for g in games):
            return await srv.store.get_game(games[0].game_id)
        await asyncio.sleep(0.05)
    raise AssertionError("no ended game stored")


async def test_numberwang_echoes_and_the_original_shapes(server: Any) -> None:
    a, b = await pair(server)
    await a.send({"n": 6})
    ea, eb = await a.recv(), await b.recv()
    assert ea == eb
    assert ea["state"] == {"players": ["First", "Second"], "complete": False, "nextPlayer": "Second", "board": {"n": 6}}
    turn = ea["turn"]
    assert turn["n"] == 6 and turn["player"] == "First" and turn["valid"] is True and turn["time"] > 1.5e12
    await b.send({"n": -1})
    await a.recv(), await b.recv()
    await a.send({"n": 5})
    fa, fb = await a.recv(), await b.recv()
    assert fa == fb and fa["state"]["complete"] is True and fa["state"]["victor"] == "First"
    assert fa["state"]["reason"] == "complete"
    assert await a.closed() and await b.closed()
    record = await stored(server)
    assert [m.move for m in record.moves] == ["6", "-1", "5"] and record.winner_name == "First"
    assert record.moves[0].timestamp <= record.moves[1].timestamp <= record.moves[2].timestamp


async def test_invalid_turns_go_to_the_sender_only_and_three_lose(server: Any) -> None:
    a, b = await pair(server)
    await a.send({"n": "seven"})
    reply = await a.recv()
    assert reply["turn"]["valid"] is False and reply["turn"]["player"] == "First" and reply["turn"]["n"] == "seven"
    assert reply["state"]["board"] == {"n": 0} and reply["state"]["nextPlayer"] == "First"
    assert await b.silent(0.2)
    await a.send("not json at all")
    assert (await a.recv())["turn"]["valid"] is False
    assert await b.silent(0.1)
    await a.send({"n": 99})  # out of range: the third strike
    third = await a.recv()
    assert third["turn"]["valid"] is False
    fa, fb = await a.until_complete(), await b.until_complete()
    assert fa["state"]["victor"] == fb["state"]["victor"] == "Second"
    assert fa["state"]["reason"] == "Didn't write unit tests"
    record = await stored(server)
    assert record.termination == "illegal_move" and record.winner == 1 and record.moves == ()


async def test_a_turn_out_of_turn_is_invalid_and_a_bot_cannot_play_for_the_other(server: Any) -> None:
    a, b = await pair(server)
    await b.send({"n": -5, "player": "First"})  # not its turn, and pretending to be the other bot
    reply = await b.recv()
    assert reply["turn"]["valid"] is False and reply["turn"]["player"] == "Second"
    assert reply["turn"]["error"] == "it is not your turn"
    assert await a.silent(0.2)
    await a.send({"n": 3, "player": "Second"})  # the claimed player is overwritten by the socket's bot
    ea = await a.recv()
    assert ea["turn"]["player"] == "First" and ea["turn"]["valid"] is True
    await b.recv()


async def test_timeout_loses(make_server: Any) -> None:
    async with make_server(turn_seconds=0.4) as srv:
        a, b = await pair(srv)
        fa, fb = await a.until_complete(), await b.until_complete()
        assert fa["state"]["victor"] == "Second" and fa["state"]["reason"] == "timeout"
        assert fa == fb
        record = await stored(srv)
        assert record.termination == "time"


async def test_disconnect_loses_after_the_grace(server: Any) -> None:
    a, b = await pair(server)
    await a.send({"n": 2})
    await a.recv(), await b.recv()
    await a.close()
    final = await b.until_complete()
    assert final["state"]["victor"] == "Second" and final["state"]["reason"] == "disconnect"
    assert final["state"]["board"] == {"n": 2}
    record = await stored(server)
    assert record.termination == "disconnect" and record.winner == 1 and len(record.moves) == 1


async def test_both_disconnecting_within_the_grace_is_a_draw(make_server: Any) -> None:
    """One bot leaves, then the other (each close awaited). A grace no stall uses up keeps the second within it, and
    a turn clock as long keeps the first bot's turn from running out first; the draw is decided as soon as both
    are gone, so the test never waits either out."""
    async with make_server(grace=60.0, turn_seconds=60.0) as srv:
        a, b = await pair(srv)
        await b.close()
        await a.close()
        record = await stored(srv)
        assert record.winner is None and record.termination == "disconnect" and "both" in record.reason


@pytest.mark.parametrize("when", ["before_first_turn", "mid_game", "after_invalid"])
async def test_disconnects_at_every_step_end_the_match(server: Any, when: str) -> None:
    a, b = await pair(server)
    if when != "before_first_turn":
        await a.send({"n": 1})
        await a.recv(), await b.recv()
    if when == "after_invalid":
        await b.send({"n": "x"})
        await b.recv()
    await b.close()
    final = await a.until_complete()
    assert final["state"]["victor"] == "First" and final["state"]["reason"] == "disconnect"
    assert (await stored(server)).winner == 0


async def test_a_server_error_is_a_logged_draw(
    server: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    import hexarena.players.battlebot as adapter

    def broken(*args: Any) -> Any:
        raise RuntimeError("simulated bug")

    a, b = await pair(server)
    monkeypatch.setattr(adapter, "check_turn", broken)
    await a.send({"n": 1})
    fa, fb = await a.until_complete(), await b.until_complete()
    assert fa["state"]["victor"] is None and fa["state"]["reason"] == "error" and fb == fa
    record = await stored(server)
    # hexarena's own failure is no result; before the first move was accepted the game never really started
    assert record.status == "aborted" and record.winner is None
    assert record.termination == "error" and "simulated bug" in record.reason
    assert "simulated bug" in caplog.text


async def test_noughts_and_crosses_seed_shapes(server: Any) -> None:
    a, b = await pair(server, "noughtsandcrosses", ("IdiotBot2", "IdiotBot"))
    moves = [(a, "X", [0, 0]), (b, "O", [1, 1]), (a, "X", [0, 1]), (b, "O", [2, 2]), (a, "X", [0, 2])]
    for s, mark, space in moves:
        await s.send({"mark": mark, "space": space})
        ea, eb = await a.recv(), await b.recv()
        assert ea == eb
    final = ea
    assert final["turn"] == {
        "mark": "X",
        "space": [0, 2],
        "player": "IdiotBot2",
        "valid": True,
        "time": final["turn"]["time"],
    }
    assert final["state"] == {
        "players": ["IdiotBot2", "IdiotBot"],
        "complete": True,
        "board": [["X", "X", "X"], ["", "O", ""], ["", "", "O"]],
        "nextPlayer": "IdiotBot",
        "marks": {"X": "IdiotBot2", "O": "IdiotBot"},
        "victor": "IdiotBot2",
        "reason": "complete",
    }
    assert await a.closed() and await b.closed()  # the server closes both sockets after the final state


async def test_huge_and_oversized_frames(server: Any) -> None:
    a, b = await pair(server)
    await a.send(json.dumps({"n": 1, "pad": "x" * 100_000}))  # over the turn limit: an invalid turn
    reply = await a.recv()
    assert reply["turn"]["valid"] is False and "larger than" in reply["turn"]["error"]
    await a.send({"n": 1})  # the game goes on
    assert (await a.recv())["turn"]["valid"] is True
    await b.recv()
    await b.send("x" * (2 * 1024 * 1024))  # over the socket's frame limit: the server drops that bot
    final = await a.until_complete()
    assert final["state"]["victor"] == "First" and final["state"]["reason"] == "disconnect"
    assert (await stored(server)).termination == "disconnect"
