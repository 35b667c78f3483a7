"""Conformance of a battlebot client (docs/protocols/battlebot.md): check-bot hosts a lobby and waits for it.

A battlebot bot is a client: it connects to a server, logs in with ``sha256_hex(pass_hash + salt)`` and is
matched. So check-bot serves the protocol's WebSocket itself (:class:`CheckLobby`, on the address it prints, with
the credentials it prints or writes to the bot's ``auth.json``), and seats every bot that logs in as a
``BattlebotPlayer``: the server's own adapter, with the server's rules (three invalid turns lose, a turn within
the turn time, a disconnect loses), through the same referee as every other check.

The server closes the socket after each game, so the bot must log in again for every game of the run; one that
does not is checked on the games it played (a warning says so). Two probes follow the games: one of the bot's
turns is answered ``valid: false`` (the server's error), and the bot must send another; then the connection is
dropped mid-game (a network failure: no close handshake), and the bot should log in again and play on.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import os
import secrets
import tempfile
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from hexarena.checkbot.games import Plan, Settings, plans_of, play_checked, varied_positions
from hexarena.checkbot.opponents import opponent_player
from hexarena.checkbot.report import FAIL, PASS, SKIP, WARN, Report, clip
from hexarena.core.contract import MatchEnded, MoveReply, MoveRequest
from hexarena.core.errors import ConfigError, IllegalMove, InvalidMove, ProtocolViolation
from hexarena.core.game import Game
from hexarena.core.jsonvalue import JsonObject, JsonValue
from hexarena.core.types import Outcome, Termination
from hexarena.players.battlebot import MAX_TURN_CHARS, TURN_SECONDS, BattlebotConnection, BattlebotPlayer
from hexarena.referee.result import MatchResult
from hexarena.wire.battlebot import Shape, login_hash, shape_for

#: The game a battlebot client is checked on when ``--game`` is not given (the protocol's own classic).
DEFAULT_GAME = "tictactoe"
#: The bot id check-bot expects when neither the spec (``battlebot:BOT_ID``) nor ``--auth`` names one.
DEFAULT_BOT_ID = "mybot"
#: Seconds the bot has to answer the salt with its login (the server's default).
LOGIN_SECONDS = 10.0
#: Longest wait for the bot to log in again after a game ends or the connection drops (``--wait`` if shorter).
REJOIN_SECONDS = 15.0
#: Why the probe refuses a valid turn (the bot sees it as the turn's ``error``).
REFUSAL = "check-bot refuses this turn once, as a server answers an invalid turn: send another"
DROP = "check-bot dropped the connection on purpose (a network failure)"
#: Most sockets the lobby keeps open at once (a bot reconnecting in a tight loop must not pile them up).
MAX_SOCKETS = 32


@dataclass(slots=True)
class Credentials:
    """What the bot logs in with: its id, the game's wire id and the pass_hash (never printed when it is the
    bot's own, read from its auth.json)."""

    bot_id: str
    game: str
    pass_hash: str
    generated: bool


#: Called once the lobby listens: (socket URL, credentials, the auth.json written or read, if any).
Ready = Callable[[str, Credentials, Path | None], Awaitable[None] | None]


S = TypeVar("S")
M = TypeVar("M")


def credentials(bot_id: str | None, shape: Shape, auth: Path | None) -> Credentials:
    """The bot's credentials: read from an existing ``auth`` file (the bot's own), else made up (and written to
    ``auth`` once the lobby's address is known); ConfigError for an unreadable file or a clash of bot ids."""
    if auth is not None and auth.exists():
        try:
            with auth.open(encoding="utf-8") as f:
                data = json.loads(f.read(MAX_TURN_CHARS))
            own_id, pass_hash = data["bot_id"], data["pass_hash"]
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise ConfigError(
                f"{auth} is not a battlebot auth.json with bot_id and pass_hash ({exc}); "
                "give a path that does not exist yet and check-bot writes one"
            ) from None
        if not isinstance(own_id, str) or not isinstance(pass_hash, str) or not own_id or not pass_hash:
            raise ConfigError(f"{auth}: bot_id and pass_hash must be non-empty strings")
        if bot_id and bot_id != own_id:
            raise ConfigError(f"the spec names bot {bot_id!r} but {auth} is bot {own_id!r}: give one of them")
        return Credentials(own_id, shape.wire_id, pass_hash, generated=False)
    chosen = bot_id or DEFAULT_BOT_ID
    if len(chosen) > 64 or not chosen.isprintable():
        raise ConfigError(f"bot id {chosen[:80]!r} must have 1 to 64 printable characters")
    return Credentials(chosen, shape.wire_id, secrets.token_hex(32), generated=True)


def write_auth(path: Path, creds: Credentials, hostname: str) -> None:
    """The original client's ``auth.json`` for this lobby, written whole (a rename) so a bot never reads half."""
    data: JsonObject = {
        "game": creds.game,
        "bot_id": creds.bot_id,
        "pass_hash": creds.pass_hash,
        "hostname": hostname,
        "secure": False,
    }
    fd, tmp = tempfile.mkstemp(dir=path.parent or Path("."), prefix=".auth-", suffix=".json")
    with os.fdopen(fd, "w") as out:
        json.dump(data, out)
    os.replace(tmp, path)


def _login_problem(data: JsonValue, creds: Credentials, salt: str) -> tuple[str, str, str] | None:
    """(what was wrong, what was expected, how to fix it) for a login, or None when it is right."""
    form = '{"bot_id": ..., "game": ..., "login_hash": sha256_hex(pass_hash + salt)}'
    if not isinstance(data, dict):
        return "the login is not a JSON object", form, "answer the salt with one JSON object"
    bot_id, game, given = (data.get(k) for k in ("bot_id", "game", "login_hash"))
    if not (isinstance(bot_id, str) and isinstance(game, str) and isinstance(given, str)):
        return "the login lacks a string bot_id, game or login_hash", form, "send all three, as strings"
    if bot_id != creds.bot_id:
        fix = f"log in as {creds.bot_id!r}, or check the bot under its own id: check-bot battlebot:{bot_id[:64]}"
        return f"bot_id {bot_id[:64]!r}", f"bot_id {creds.bot_id!r}", fix
    if game != creds.game:
        return f"game {game[:64]!r}", f"game {creds.game!r} (the wire id)", f"log in to game {creds.game!r}"
    right = login_hash(creds.pass_hash, salt)
    if given == right:
        return None
    why = "a login_hash that is not sha256_hex(pass_hash + salt)"
    if given == login_hash(salt, creds.pass_hash):
        why = "sha256_hex(salt + pass_hash): the salt and the pass_hash the wrong way round"
    elif given.lower() == right:
        why = "the right hash in capitals: the server compares the lowercase hex digest"
    elif given == creds.pass_hash:
        why = "the pass_hash itself, not its salted hash"
    elif given == hashlib.sha256(creds.pass_hash.encode()).hexdigest():
        why = "sha256_hex(pass_hash) without the salt"
    return (
        f"login_hash {clip(given, 80)!r}: {why}",
        "login_hash = sha256_hex(pass_hash + salt) (lowercase hex), with the salt of this connection",
        "hash the pass_hash of your auth.json followed by the salt just received, e.g. "
        "hashlib.sha256((pass_hash + salt).encode()).hexdigest()",
    )


class CheckLobby:
    """check-bot's own battlebot server: the salt/login handshake, then each logged-in connection queued for the
    next game. A failed login is a ``login`` failure of the report; the bot's socket is refused as a server
    would (``{"authentication": "failed"}``, close 1008)."""

    def __init__(self, report: Report, creds: Credentials, login_seconds: float = LOGIN_SECONDS) -> None:
        self.report = report
        self.creds = creds
        self.login_seconds = login_seconds
        #: a logged-in connection, or None for a refused login (the run stops waiting then)
        self.arrivals: asyncio.Queue[BattlebotConnection | None] = asyncio.Queue()
        self.sockets: dict[str, ServerConnection] = {}
        self.logins = 0
        self.open = 0
        self._server: Server | None = None

    async def start(self, host: str, port: int) -> str:
        """Listen; the socket URL the bot connects to (``ws://HOST:PORT``)."""
        try:
            self._server = await serve(
                self._handle, host, port, max_size=MAX_TURN_CHARS, ping_interval=None, compression=None
            )
        except OSError as exc:
            raise ConfigError(f"check-bot can't listen on {host}:{port} ({exc}); choose another --listen") from None
        bound = next(iter(self._server.sockets)).getsockname()
        return f"ws://{_host(host)}:{bound[1]}"

    async def next(self, timeout: float) -> BattlebotConnection | None:
        """The next logged-in connection still open; None after a refused login or when none came within
        ``timeout`` (a connection the bot closed while it waited is passed over)."""
        try:
            async with asyncio.timeout(timeout):
                while True:
                    conn = await self.arrivals.get()
                    if conn is None or not conn.closed:
                        return conn
        except TimeoutError:
            return None

    def drop(self, conn: BattlebotConnection) -> None:
        """End the connection as a network failure would: no close frame, the TCP connection cut."""
        ws = self.sockets.get(conn.id)
        if ws is not None:
            ws.transport.abort()

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 5.0)

    async def _handle(self, ws: ServerConnection) -> None:
        if self.open >= MAX_SOCKETS:
            await ws.close(1013, f"more than {MAX_SOCKETS} connections at once; try again")
            return
        self.open += 1
        try:
            await self._session(ws)
        finally:
            self.open -= 1

    async def _session(self, ws: ServerConnection) -> None:
        salt = secrets.token_hex(32)
        try:
            await ws.send(json.dumps({"salt": salt}))
            text = await asyncio.wait_for(ws.recv(), self.login_seconds)
        except TimeoutError:
            await self._refuse(ws, f"no login within {self.login_seconds:g} s of the salt", "nothing")
            return
        except ConnectionClosed:
            return
        try:
            data: JsonValue = json.loads(text)
        except (ValueError, RecursionError):
            data = None
        problem = _login_problem(data, self.creds, salt)
        if problem is not None:
            what, expected, fix = problem
            self.report.add("login", FAIL, f"refused a login: {what}", sent=str(text), expected=expected, fix=fix)
            await self._refuse(ws, what, None)
            return
        self.logins += 1
        await ws.send(json.dumps({"authentication": "OK", "bot_id": self.creds.bot_id, "game": self.creds.game}))

        async def close_socket(code: int, reason: str) -> None:
            await ws.close(code, reason)

        conn = BattlebotConnection(self.creds.bot_id, shape_for(self.creds.game).game.name, None, ws.send, close_socket)
        self.sockets[conn.id] = ws
        self.arrivals.put_nowait(conn)
        try:
            async for message in ws:
                await conn.deliver(message if isinstance(message, str) else message.decode(errors="replace"))
        except ConnectionClosed:
            pass
        finally:
            self.sockets.pop(conn.id, None)
            conn.lost()

    async def _refuse(self, ws: ServerConnection, what: str, sent: str | None) -> None:
        if sent is not None:
            self.report.add(
                "login",
                FAIL,
                f"refused a login: {what}",
                sent=sent,
                expected='{"bot_id", "game", "login_hash"} in answer to the salt',
                fix="answer the salt at once with the login",
            )
        with contextlib.suppress(Exception):
            await ws.send(json.dumps({"authentication": "failed"}))
            await ws.close(1008)
        self.arrivals.put_nowait(None)


def _host(host: str) -> str:
    return f"[{host}]" if ":" in host else host


class _Watched(BattlebotPlayer):
    """The server's battlebot adapter, remembering the bot's invalid turns (so a failure can quote them and tell a
    malformed turn from an illegal one), and able to refuse one valid turn or drop the connection on purpose."""

    def __init__(self, conn: BattlebotConnection, shape: Shape, turn_seconds: float, lobby: CheckLobby) -> None:
        super().__init__(conn, shape, turn_seconds=turn_seconds)
        self.lobby = lobby
        self.last_invalid: str | None = None
        self.last_malformed = False
        self.refuse_once = False
        self.refused = False
        self.turns_after_refusal = 0
        self.drop_at: int | None = None  # drop the connection at this move request of the bot
        self.dropped = False
        self.requests = 0

    async def move(self, request: MoveRequest) -> MoveReply:
        self.requests += 1
        if self.drop_at is not None and self.requests >= self.drop_at:
            self.lobby.drop(self.conn)
            self.dropped = True
            raise MatchEnded(Outcome(None, Termination.ABORTED, DROP))
        try:
            return await super().move(request)
        except IllegalMove as exc:
            if self.last_malformed:  # the last strike was not a turn at all: a protocol error, not a bad move
                raise ProtocolViolation(str(exc)) from None
            raise

    def _check(self, value: Any, state: Any) -> tuple[Any, Any]:
        if self.refused:
            self.turns_after_refusal += 1
        try:
            checked = super()._check(value, state)
        except InvalidMove:
            self.last_malformed = True
            raise
        except IllegalMove:
            self.last_malformed = False
            raise
        if self.refuse_once and not self.refused:
            self.refused = True
            self.last_malformed = False
            raise InvalidMove(REFUSAL)
        return checked

    async def _invalid(self, value: Any, ms: int, reason: str) -> bool:
        shown = value.text if hasattr(value, "text") else json.dumps(value)
        self.last_invalid = f"{clip(str(shown), 200)} (answered valid:false: {reason})"
        return await super()._invalid(value, ms, reason)


async def run_battlebot(
    report: Report,
    bot_id: str | None,
    shape: Shape,
    games: int,
    settings: Settings,
    opponents: list[str],
    *,
    listen: tuple[str, int] = ("127.0.0.1", 0),
    wait: float = 60.0,
    auth: Path | None = None,
    ready: Ready | None = None,
) -> None:
    """Host a lobby, wait for the bot, play it (see the module docstring); every verdict goes to ``report``."""
    creds = credentials(bot_id, shape, auth)
    if creds.bot_id in opponents:
        raise ConfigError(f"the bot id {creds.bot_id!r} is also an opponent's name: choose another bot id")
    turn_seconds = settings.clock.seconds or TURN_SECONDS
    lobby = CheckLobby(report, creds)
    url = await lobby.start(*listen)
    try:
        if auth is not None and creds.generated:
            write_auth(auth, creds, url.removeprefix("ws://"))
        if ready is not None:
            maybe = ready(url, creds, auth)
            if maybe is not None:
                await maybe
        await _play_all(report, lobby, url, shape, games, settings, opponents, wait, turn_seconds)
    finally:
        await lobby.close()


async def _play_all(
    report: Report,
    lobby: CheckLobby,
    url: str,
    shape: Shape,
    games: int,
    settings: Settings,
    opponents: list[str],
    wait: float,
    turn_seconds: float,
) -> None:
    game = shape.game
    creds = lobby.creds
    rejoin = min(wait, REJOIN_SECONDS)
    plans = plans_of(game, games, settings, opponents)

    async def seat(timeout: float) -> _Watched | None:
        conn = await lobby.next(timeout)
        return None if conn is None else _Watched(conn, shape, turn_seconds, lobby)

    async def play(player: _Watched, plan: Plan, into: Report) -> MatchResult:
        return await play_checked(
            into,
            game,
            player,
            await opponent_player(plan.opponent, game.name),
            plan,
            settings,
            raw=_quote_of(player),
        )

    for k, plan in enumerate(plans):
        plan.seat = k % 2
        player = await seat(wait if k == 0 else rejoin)
        if player is None:
            if k == 0:
                _never_connected(report, url, creds, wait)
                return
            report.add(
                "game-end",
                WARN,
                f"played {k} game(s); the bot did not log in again within {rejoin:g} s of the last one's end",
                sent="no new login",
                expected="a new connection and login for every game: the server closes the socket after each",
                fix="connect, log in and play in a loop (the reference client: examples/battlebot_client.py "
                "--forever); the run checked only the games played",
            )
            for name in ("invalid-turn", "reconnection"):
                report.add(name, SKIP, "not tried: the bot did not log in again for another game")
            return
        if k == 0:
            report.add("login", PASS, f"logged in as {creds.bot_id!r} with sha256_hex(pass_hash + salt)")
        else:
            report.add("game-end", PASS, "logged in again for every game")
        await play(player, plan, report)
    await _probe_invalid_turn(report, seat, play, rejoin)
    await _probe_drop(report, seat, play, game, settings, opponents, rejoin)


def _quote_of(player: _Watched) -> Callable[[MoveRequest | None], Awaitable[str | None]]:
    async def raw(_request: MoveRequest | None) -> str | None:
        return player.last_invalid

    return raw


def _never_connected(report: Report, url: str, creds: Credentials, wait: float) -> None:
    if "login" in report.checks:  # it did connect, and its login was refused: that row says what to fix
        report.add("starts", SKIP, "no game: the login was refused")
        return
    secret = "the pass_hash check-bot printed" if creds.generated else "its own pass_hash"
    report.add(
        "starts",
        FAIL,
        f"no battlebot client logged in to {url} within {wait:g} s",
        sent="nothing (no connection, or no login answer)",
        expected=f"a WebSocket to {url}, answering the salt with bot_id {creds.bot_id!r}, game {creds.game!r} and "
        "login_hash",
        fix=f"start the bot against hostname {url.removeprefix('ws://')} (its auth.json, or --auth FILE for "
        f"check-bot to write one) as bot {creds.bot_id!r} with {secret}, within --wait seconds of check-bot",
    )


Seater = Callable[[float], Awaitable[_Watched | None]]
Play = Callable[[_Watched, Plan, Report], Awaitable[MatchResult]]


async def _probe_invalid_turn(report: Report, seat: Seater, play: Play, rejoin: float) -> None:
    """One valid turn is answered ``valid: false``: the bot must send another (its turn is still on)."""
    player = await seat(rejoin)
    if player is None:
        report.add("invalid-turn", SKIP, "not tried: the bot did not log in again for another game")
        return
    player.refuse_once = True
    scratch = Report(report.spec, report.protocol, report.game)  # this game's own verdicts are the probe's
    result = await play(player, Plan("random", 0, None, "the invalid-turn probe"), scratch)
    if not player.refused:
        report.add("invalid-turn", SKIP, "not tried: the bot never sent a valid turn in that game")
    elif player.turns_after_refusal > 0:
        report.add("invalid-turn", PASS, "after a turn answered valid:false the bot sent another")
    else:
        report.add(
            "invalid-turn",
            FAIL,
            f"after a turn answered valid:false the bot sent nothing more: {result.outcome.reason}",
            sent="no turn after the invalid-turn answer",
            expected="another turn within the turn time: the answer's state is unchanged and nextPlayer is the bot",
            fix="after every message, if state.nextPlayer is your bot_id and state.complete is false, send a turn "
            "(also after your own turn came back valid:false)",
        )


async def _probe_drop(
    report: Report, seat: Seater, play: Play, game: Game[S, M], settings: Settings, opponents: list[str], rejoin: float
) -> None:
    """Drop the connection mid-game (no close frame); the bot should log in again and play on."""
    player = await seat(rejoin)
    if player is None:
        report.add("reconnection", SKIP, "not tried: the bot did not log in again for another game")
        return
    found = varied_positions(game, 1, 11, settings.params)
    state = found[0] if found else None
    player.drop_at = 1  # its first request of a game a few moves in: mid-game
    await play(player, Plan(opponents[0], 1, state, "the drop probe"), Report(report.spec, report.protocol, "-"))
    if not player.dropped:
        report.add("reconnection", SKIP, "not tried: the probe's game ended before the bot's turn")
        return
    again = await seat(rejoin)
    if again is None:
        report.add(
            "reconnection",
            WARN,
            f"after its connection dropped mid-game the bot did not log in again within {rejoin:g} s",
            sent="no new login",
            expected="a battlebot client that lost its connection connects and logs in again (the game that was "
            "on is over: the server scores a disconnect; the protocol does not require more, a ladder bot needs it)",
            fix="catch the connection error around connect/login/play and start over after a short pause",
        )
        return
    await play(again, Plan(opponents[0], 0, None, "after the drop"), report)
    report.add("reconnection", PASS, "logged in again after a dropped connection and played a new game")


__all__ = ["DEFAULT_GAME", "CheckLobby", "Credentials", "credentials", "run_battlebot", "write_auth"]
