"""Seat tokens (issue 12, item 2), against a served app on loopback with real sockets.

What was found: a stranger saw the creator's own seat in ``open_seats`` of ``/api/matches/live``, joined it and
got the creator's token; two sockets could use one token at once, so the stranger resigned the creator's game.
What must hold instead: a seat's token goes only to whoever holds the seat (the creator, for the seats created for
them; the first joiner, for a seat created open to anyone, with a token of its own); a second joiner gets 409; a
second socket on a token is refused and cannot act; no list, spectator message or log line carries a token; an
open seat nobody takes ends the match ``aborted`` (no result) after ``MatchManager.open_seat_seconds``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from fakes.servers import serve_app
from hexarena.core.registry import get_game
from hexarena.core.types import Outcome, Termination
from hexarena.players.browser import BrowserPlayer
from hexarena.players.inprocess import InProcessPlayer
from hexarena.referee import MatchConfig, Referee
from hexarena.server.live import OPEN_SEAT_SECONDS, MatchManager


@pytest.fixture
async def served(migrated_database_url: str, app_factory: Any) -> AsyncIterator[tuple[str, Any]]:
    """The full app on loopback, and the app (so a test can shorten the open-seat expiry)."""
    app = app_factory(migrated_database_url)
    async with serve_app(app) as url:
        yield url, app


def ws(url: str, path: str) -> str:
    return "ws" + url[len("http") :] + path


async def recv(sock: ClientConnection, kind: str | None = None, timeout: float = 10) -> dict[str, Any]:
    while True:
        msg = json.loads(await asyncio.wait_for(sock.recv(), timeout))
        if kind is None or msg["type"] == kind:
            return msg  # type: ignore[no-any-return]


async def new_match(url: str, game: str, players: list[str]) -> dict[str, Any]:
    async with httpx.AsyncClient() as client:
        r = await client.post(f"{url}/api/matches", json={"game": game, "players": players})
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


async def live_entry(client: httpx.AsyncClient, url: str, game_id: str) -> dict[str, Any] | None:
    listed = (await client.get(f"{url}/api/matches/live")).json()
    return next((m for m in listed if m["game_id"] == game_id), None)


async def stored(client: httpx.AsyncClient, url: str, game_id: str) -> dict[str, Any]:
    """The game's record once it has ended (a bounded wait)."""
    for _ in range(500):
        rec: dict[str, Any] = (await client.get(f"{url}/games/{game_id}")).json()
        if rec["status"] != "running":
            return rec
        await asyncio.sleep(0.02)
    raise AssertionError(f"game {game_id} did not end")


async def play_to_the_end(sock: ClientConnection) -> dict[str, Any]:
    """Answer every ``your_turn`` with the first legal move; the ``end`` message."""
    while True:
        msg = await recv(sock)
        if msg["type"] == "your_turn":
            await sock.send(json.dumps({"type": "move", "move": msg["legal"]["moves"][0]["move"]}))
        elif msg["type"] == "end":
            return msg


# ----- the creator's seat is never open -----


async def test_a_stranger_cannot_take_the_creators_seat(served: tuple[str, Any]) -> None:
    url, _ = served
    m = await new_match(url, "tictactoe", ["browser:alice", "builtin:random"])
    mine = m["tokens"]["X"]
    async with httpx.AsyncClient() as client:
        entry = await live_entry(client, url, m["game_id"])
        assert entry is not None and entry["open_seats"] == []  # alice's seat is hers, not anyone's
        r = await client.post(f"{url}/api/ui/matches/{m['game_id']}/join", json={"seat": "X"})
        assert r.status_code == 409, r.text
        assert "not open" in r.json()["detail"] and mine not in r.text
        info = (await client.get(f"{url}/api/ui/matches/{m['game_id']}")).json()
        assert info["open_seats"] == []
    async with connect(ws(url, f"/api/play?token={mine}")) as sock:  # still alice's, and it works
        assert (await recv(sock, "hello"))["side"] == "X"


async def test_an_open_seat_is_joined_once_with_a_token_of_its_own(served: tuple[str, Any]) -> None:
    url, _ = served
    m = await new_match(url, "tictactoe", ["browser:alice", "open:friend"])
    assert set(m["tokens"]) == {"X"}  # the open seat has no token until somebody joins it
    async with httpx.AsyncClient() as client:
        entry = await live_entry(client, url, m["game_id"])
        assert entry is not None and entry["open_seats"] == ["O"]
        first = await client.post(f"{url}/api/ui/matches/{m['game_id']}/join", json={"seat": "O"})
        assert first.status_code == 200, first.text
        token = first.json()["token"]
        assert first.json()["seat"] == "O" and token != m["tokens"]["X"] and len(token) >= 32
        second = await client.post(f"{url}/api/ui/matches/{m['game_id']}/join", json={"seat": "o"})
        assert second.status_code == 409 and "already taken" in second.json()["detail"], second.text
        assert token not in second.text
        third = await client.post(f"{url}/api/ui/matches/{m['game_id']}/join", json={"seat": "1"})
        assert third.status_code == 409
        entry = await live_entry(client, url, m["game_id"])
        assert entry is not None and entry["open_seats"] == []
        assert (await client.get(f"{url}/api/ui/matches/{m['game_id']}")).json()["open_seats"] == []
        async with (
            connect(ws(url, f"/api/play?token={token}")) as friend,
            connect(ws(url, f"/api/play?token={m['tokens']['X']}")) as alice,
        ):
            assert (await recv(friend, "hello"))["side"] == "O"
            assert (await recv(alice, "hello"))["side"] == "X"
            ends = await asyncio.gather(play_to_the_end(alice), play_to_the_end(friend))
        assert {e["you"] for e in ends} in ({"won", "lost"}, {"draw"})
        rec = await stored(client, url, m["game_id"])
        assert rec["status"] == "finished" and [p["name"] for p in rec["players"]] == ["alice", "friend"]
        late = await client.post(f"{url}/api/ui/matches/{m['game_id']}/join", json={"seat": "O"})
        assert late.status_code == 404


# ----- one live socket per token -----


async def test_a_second_socket_on_a_browser_token_is_refused_and_cannot_act(served: tuple[str, Any]) -> None:
    url, _ = served
    m = await new_match(url, "tictactoe", ["browser:alice", "builtin:random"])
    token = m["tokens"]["X"]
    async with connect(ws(url, f"/api/play?token={token}")) as first:
        await recv(first, "hello")
        await recv(first, "your_turn")
        async with connect(ws(url, f"/api/play?token={token}")) as second:
            nope = await recv(second, "nope")
            assert "already connected" in nope["reason"]
            with contextlib.suppress(ConnectionClosed):  # it may already be closed: either way it must not act
                await second.send(json.dumps({"type": "resign"}))
                await second.send(json.dumps({"type": "move", "move": "a1"}))
            with pytest.raises(ConnectionClosed):
                await asyncio.wait_for(second.recv(), 10)
            assert second.close_code == 1008
        # the first socket still holds the seat: its move is taken, nothing was resigned or played for it
        await first.send(json.dumps({"type": "move", "move": "b2"}))
        assert (await recv(first, "accepted"))["move"] == "b2"
        async with httpx.AsyncClient() as client:
            rec = (await client.get(f"{url}/games/{m['game_id']}")).json()
            assert rec["status"] == "running" and rec["moves"][0]["move"] == "b2"
    # once the first socket is gone the token reconnects (a reload), and that socket plays
    async with connect(ws(url, f"/api/play?token={token}")) as again:
        await recv(again, "hello")
        end = await play_to_the_end(again)
    assert end["type"] == "end"


async def test_a_second_socket_on_an_htttx_token_is_refused_and_cannot_act(served: tuple[str, Any]) -> None:
    url, _ = served
    async with httpx.AsyncClient() as client:
        r = await client.post(
            f"{url}/game/new",
            json={"player_x": {"type": "human"}, "player_o": {"type": "builtin", "name": "random"}},
        )
        assert r.status_code == 200, r.text
        game = r.json()
        async with connect(ws(url, f"/ws?token={game['token_x']}")) as first:
            assert (await recv(first, "setup"))["type"] == "setup"
            request = await recv(first, "move_request")
            async with connect(ws(url, f"/ws?token={game['token_x']}")) as second:
                assert "already" in (await recv(second, "nope"))["reason"]
                with contextlib.suppress(ConnectionClosed):
                    await second.send(json.dumps({"type": "move_response", "move": {"pieces": [{"q": 0, "r": 1}]}}))
                with pytest.raises(ConnectionClosed):
                    await asyncio.wait_for(second.recv(), 10)
            # the refused socket neither moved nor forfeited the seat: the first one plays the turn
            taken = {(c["q"], c["r"]) for c in request["board"]["cells"]}
            free = [c for c in [(q, r) for q in range(-3, 4) for r in range(-3, 4)] if c not in taken][:2]
            pieces = [{"q": q, "r": r} for q, r in free]
            await first.send(json.dumps({"type": "move_response", "move": {"pieces": pieces}}))
            await recv(first, "move_request")
            rec = (await client.get(f"{url}/games/{game['game_id']}")).json()
            assert rec["status"] == "running" and [mv["seat"] for mv in rec["moves"]][:2] == [1, 0]


# ----- tokens appear nowhere else -----


class Collect(logging.Handler):
    """Every log record, formatted with its logger's name and any traceback."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.setFormatter(logging.Formatter("%(name)s %(levelname)s %(message)s"))
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        # the test's own clients log what they send (websockets.client, httpx): that is the client, not the server
        if not record.name.startswith(("websockets.client", "httpx", "httpcore")):
            self.lines.append(self.format(record))


@contextlib.contextmanager
def server_logs() -> Iterator[Collect]:
    """Capture what the server logs at DEBUG: uvicorn's loggers do not propagate, so the handler goes on them too."""
    handler = Collect()
    loggers = [logging.getLogger(n) for n in ("", "uvicorn", "uvicorn.access", "hexarena")]
    levels = [lg.level for lg in loggers]
    for lg in loggers:
        lg.addHandler(handler)
    logging.getLogger("hexarena").setLevel(logging.DEBUG)
    try:
        yield handler
    finally:
        for lg, level in zip(loggers, levels, strict=True):
            lg.removeHandler(handler)
            lg.setLevel(level)


GRAPHQL = """query($type: ID!, $id: ID!) { gameType(id: $type) {
  games(filters: {limit: 50}) { id players kinds status reason detail params }
  game(id: $id) { id players kinds status reason detail params turns { player move turn } }
} }"""


async def test_tokens_never_show_in_lists_spectator_streams_or_logs(
    migrated_database_url: str, app_factory: Any
) -> None:
    app = app_factory(migrated_database_url)
    texts: list[str] = []  # every answer and spectator message, as received
    async with serve_app(app, log_level="debug") as url, httpx.AsyncClient() as client:
        with server_logs() as logs:

            async def lists(game_id: str, game_type: str) -> None:
                for path in (
                    "/api/matches/live",
                    "/games",
                    f"/games/{game_id}",
                    f"/api/ui/matches/{game_id}",
                    "/api/ui/games",
                    f"/api/ui/replay/{game_id}",
                    "/healthz",
                ):
                    texts.append((await client.get(url + path)).text)
                r = await client.post(
                    f"{url}/graphql", json={"query": GRAPHQL, "variables": {"type": game_type, "id": game_id}}
                )
                assert r.status_code == 200 and "errors" not in r.json(), r.text
                texts.append(r.text)

            # a web UI game: the creator's seat and an open seat joined by a friend, watched by a spectator
            m = await new_match(url, "tictactoe", ["browser:alice", "open:friend"])
            join = await client.post(f"{url}/api/ui/matches/{m['game_id']}/join", json={"seat": "O"})
            tokens = [m["tokens"]["X"], join.json()["token"]]
            async with connect(ws(url, f"/spectate/{m['game_id']}")) as spectator:
                await lists(m["game_id"], "noughtsandcrosses")
                async with (
                    connect(ws(url, f"/api/play?token={tokens[0]}")) as alice,
                    connect(ws(url, f"/api/play?token={tokens[1]}")) as friend,
                ):
                    await lists(m["game_id"], "noughtsandcrosses")
                    await asyncio.gather(play_to_the_end(alice), play_to_the_end(friend))
                while True:
                    text = await asyncio.wait_for(spectator.recv(), 10)
                    texts.append(str(text))
                    if json.loads(text)["type"] == "end":
                        break
            await stored(client, url, m["game_id"])
            await lists(m["game_id"], "noughtsandcrosses")

            # an HTTTX game with a person on /ws, who leaves after the first request (a forfeit)
            r = await client.post(
                f"{url}/game/new",
                json={"player_x": {"type": "human"}, "player_o": {"type": "builtin", "name": "random"}},
            )
            htttx = r.json()
            tokens.append(htttx["token_x"])
            async with connect(ws(url, f"/spectate/{htttx['game_id']}")) as spectator:
                async with connect(ws(url, f"/ws?token={htttx['token_x']}")) as person:
                    await recv(person, "move_request")
                    await lists(htttx["game_id"], "htttx")
                with contextlib.suppress(ConnectionClosed):
                    async for text in spectator:
                        texts.append(str(text))
            assert (await stored(client, url, htttx["game_id"]))["termination"] == "disconnect"
            await lists(htttx["game_id"], "htttx")
            # a token used where it does not belong is refused: that is logged too (and must not show)
            async with connect(ws(url, f"/ws?token={tokens[0]}")) as stray:
                await recv(stray, "nope")

    assert any("/api/play" in line for line in logs.lines), "uvicorn logged no socket: the scan would be empty"
    assert len(texts) > 30
    for token in tokens:
        assert not [t for t in texts if token in t], "a token in an answer or a spectator message"
        assert not [line for line in logs.lines if token in line], "a token in the server's logs"


# ----- an open seat nobody takes expires -----


@pytest.mark.parametrize("players", [["browser:alice", "open"], ["open", "browser:alice"]], ids=["second", "first"])
async def test_an_open_seat_nobody_joins_ends_the_match_aborted(
    migrated_database_url: str, app_factory: Any, players: list[str]
) -> None:
    app = app_factory(migrated_database_url)
    async with serve_app(app) as url, httpx.AsyncClient() as client:
        app.state.services.manager.open_seat_seconds = 0.5
        m = await new_match(url, "tictactoe", players)
        mine = next(iter(m["tokens"].values()))
        async with connect(ws(url, f"/api/play?token={mine}")) as alice:
            await recv(alice, "hello")  # alice is here and does not move; nobody takes the other seat
            end = await recv(alice, "end")
        assert end["termination"] == "aborted" and end["winner"] is None and end["you"] == "draw"
        assert "nobody joined" in end["reason"]
        rec = await stored(client, url, m["game_id"])
        assert rec["status"] == "aborted" and rec["winner"] is None and "nobody joined" in rec["reason"]
        assert await live_entry(client, url, m["game_id"]) is None


async def test_a_joined_seat_does_not_expire(migrated_database_url: str, app_factory: Any) -> None:
    app = app_factory(migrated_database_url)
    async with serve_app(app) as url, httpx.AsyncClient() as client:
        # long enough to join and connect on a loaded machine (the claim needs the joiner connected before the
        # expiry), and waited out once connected
        expiry = 3.0
        app.state.services.manager.open_seat_seconds = expiry
        created = asyncio.get_running_loop().time()
        m = await new_match(url, "tictactoe", ["open", "builtin:random"])
        join = await client.post(f"{url}/api/ui/matches/{m['game_id']}/join", json={"seat": "X"})
        async with connect(ws(url, f"/api/play?token={join.json()['token']}")) as friend:
            await recv(friend, "your_turn")
            # past the expiry: the seat was taken, so the match goes on
            await asyncio.sleep(created + expiry + 0.5 - asyncio.get_running_loop().time())
            await friend.send(json.dumps({"type": "move", "move": "b2"}))
            assert (await recv(friend, "accepted"))["move"] == "b2"
            assert (await client.get(f"{url}/games/{m['game_id']}")).json()["status"] == "running"


async def test_a_joined_seat_nobody_connects_to_expires_too(migrated_database_url: str, app_factory: Any) -> None:
    """The join must land before the expiry: on a machine too loaded for that it is refused (409, the match ends
    as nobody joined it) and the test tries a longer expiry."""
    app = app_factory(migrated_database_url)
    async with serve_app(app) as url, httpx.AsyncClient() as client:
        for seconds in (0.3, 1.2, 4.8):
            app.state.services.manager.open_seat_seconds = seconds
            m = await new_match(url, "tictactoe", ["open", "builtin:random"])
            join = await client.post(f"{url}/api/ui/matches/{m['game_id']}/join", json={"seat": "X"})
            rec = await stored(client, url, m["game_id"])
            assert rec["status"] == "aborted" and rec["winner"] is None
            if join.status_code == 409:  # the expiry came first
                assert rec["reason"] == f"nobody joined seat X within {seconds:g} s", rec["reason"]
                continue
            assert join.status_code == 200  # taken, but its holder never connects: the seat holds the match hostage
            assert rec["reason"] == f"nobody joined seat X within {seconds:g} s (it was joined, but nobody connected)"
            break
        else:
            raise AssertionError("every join came after its seat's expiry")


async def test_a_join_after_the_expiry_fired_gets_no_seat(migrated_database_url: str, app_factory: Any) -> None:
    """Between the expiry firing and the match's end being stored, a join must be refused, not handed a token for
    a match being aborted (a stressed CI run saw a 200 there)."""
    app = app_factory(migrated_database_url)
    async with serve_app(app) as url, httpx.AsyncClient() as client:
        manager = app.state.services.manager
        m = await new_match(url, "tictactoe", ["open", "builtin:random"])
        live = manager.live[m["game_id"]]
        manager._expire_open_seats(live)  # the expiry's timer, fired now: the end is not stored yet
        assert manager.join_open_seat(live, 0) is None
        rec = await stored(client, url, m["game_id"])
        assert rec["status"] == "aborted" and rec["reason"].startswith("nobody joined seat X within"), rec["reason"]


async def test_an_open_seat_outside_the_match_manager_ends_aborted_too() -> None:
    """A referee run without the manager (e.g. a tournament's) has no expiry timer: the seat's own wait ends it."""
    seat = BrowserPlayer("guest", open_seat=True, join_timeout=0.2)
    players: list[Any] = [seat, InProcessPlayer.builtin("tictactoe", "random")]
    result = await asyncio.wait_for(Referee(MatchConfig(game=get_game("tictactoe")), players).run(), 10)
    assert result.outcome == Outcome(None, Termination.ABORTED, "nobody joined seat X within 0.2 s")


def test_the_expiry_is_configured_by_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HEXARENA_OPEN_SEAT_SECONDS", "90")
    assert MatchManager(None).open_seat_seconds == 90
    assert MatchManager(None, open_seat_seconds=5).open_seat_seconds == 5
    monkeypatch.delenv("HEXARENA_OPEN_SEAT_SECONDS")
    assert MatchManager(None).open_seat_seconds == OPEN_SEAT_SECONDS == 600
    for bad in ("soon", "0", "-1", "inf", "nan"):
        monkeypatch.setenv("HEXARENA_OPEN_SEAT_SECONDS", bad)
        with pytest.raises(ValueError, match="HEXARENA_OPEN_SEAT_SECONDS must be a positive number"):
            MatchManager(None)
