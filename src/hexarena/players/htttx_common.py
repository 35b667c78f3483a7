"""HTTTX glue shared by the bot-API adapters (bws, stateless, human): capabilities, URLs, boards, moves."""

from __future__ import annotations

import asyncio
import functools
import ssl
import time
import weakref
from collections.abc import Sequence
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import httpx

from hexarena.core.contract import MatchEnded, PlayerResult
from hexarena.core.errors import BotCrashed, BotTimeout, ConfigError, ProtocolViolation
from hexarena.core.jsonvalue import JsonObject, JsonValue
from hexarena.core.types import Outcome, Termination
from hexarena.games.htttx import HtttxState, Move
from hexarena.wire import htttx as w

CAPABILITIES = "capabilities.json"


@functools.cache
def _ssl_context() -> ssl.SSLContext:
    """One TLS context for every bot client: building one loads the CA bundle (~20 ms of CPU), which would
    otherwise be paid by every match start and dominate the server's cost for short games."""
    import certifi

    return ssl.create_default_context(cafile=certifi.where())


def http_client() -> httpx.AsyncClient:
    """A new HTTP client for talking to a bot (clients are per match: their pools belong to one event loop)."""
    return httpx.AsyncClient(verify=_ssl_context())


HTTP_OF_WEBSOCKET = {"ws": "http", "wss": "https"}


_HTTP_FAILURES: tuple[tuple[type[httpx.HTTPError], str], ...] = (
    (httpx.ConnectError, "could not connect"),
    (httpx.ReadError, "the connection was closed or reset while reading the answer"),
    (httpx.WriteError, "the connection was closed or reset while sending the request"),
    (httpx.RemoteProtocolError, "the bot broke the HTTP protocol"),
)


def http_failure(exc: httpx.HTTPError) -> str:
    """What went wrong in words, with the error's class: some httpx errors carry no text at all (a connection
    reset is ``ReadError('')``), and a reason that ends in ``failed:`` tells nobody anything."""
    text = str(exc).strip()
    cause: BaseException | None = exc.__cause__ or exc.__context__
    while not text and cause is not None:
        text = str(cause).strip()
        cause = cause.__cause__ or cause.__context__
    if not text:
        text = next((words for kind, words in _HTTP_FAILURES if isinstance(exc, kind)), "the request failed")
    return f"{text} ({type(exc).__name__})"


def capabilities_url(url: str) -> str:
    """The capabilities.json URL for a bot URL given either as its folder or as the file itself.

    A ``ws://`` or ``wss://`` URL names the same bot server (Hivemaker's PlayerConfig defaults to
    ``ws://localhost:8002``): its HTTP base is the same URL over http:// or https://, as Hivemaker's game
    server derives it (docs/protocols/htttx.md).
    """
    parts = urlsplit(url)
    if parts.scheme in HTTP_OF_WEBSOCKET:
        parts = parts._replace(scheme=HTTP_OF_WEBSOCKET[parts.scheme])
        url = urlunsplit(parts)
    if parts.scheme not in ("http", "https"):
        raise ConfigError(f"bot URL must start with http://, https://, ws:// or wss://, got {url!r}")
    if not parts.netloc:
        raise ConfigError(f"bot URL {url!r} has no host")
    if parts.path.endswith("/" + CAPABILITIES) or parts.path == CAPABILITIES:
        return url
    path = parts.path if parts.path.endswith("/") else parts.path + "/"
    return urlunsplit((parts.scheme, parts.netloc, path + CAPABILITIES, "", ""))


def resolve(capabilities_at: str, api_root: str | None, default_root: str, leaf: str, websocket: bool) -> str:
    """``<folder of capabilities.json>/<api_root>/<leaf>``, as the spec says (ws:// for sockets)."""
    parts = urlsplit(capabilities_at)
    folder = parts.path.rsplit("/", 1)[0] + "/"
    root = (api_root if api_root is not None else default_root).strip("/")
    path = folder + (root + "/" if root else "") + leaf
    scheme = parts.scheme
    if websocket:
        scheme = "wss" if scheme == "https" else "ws"
    return urlunsplit((scheme, parts.netloc, path, "", ""))


async def fetch_capabilities(client: httpx.AsyncClient, url: str, timeout: float = 10.0) -> tuple[str, w.Capabilities]:
    """GET the bot's capabilities.json; errors say what was wrong with the bot, not with us."""
    caps_url = capabilities_url(url)
    try:
        # streamed and cut at the bot-packet limit: a hostile bot must not make the server buffer a huge body
        async with client.stream("GET", caps_url, timeout=timeout) as response:
            data = await read_limited(response, "capabilities.json")
    except httpx.TimeoutException:
        raise BotTimeout(f"no answer from {caps_url} within {timeout:g} s") from None
    except httpx.HTTPError as exc:
        raise BotCrashed(f"could not fetch {caps_url}: {http_failure(exc)}") from None
    if response.status_code != 200:
        raise ProtocolViolation(f"GET {caps_url} answered HTTP {response.status_code}, expected 200")
    return caps_url, w.decode_capabilities(data)


#: Seconds a bot's capabilities, once read, answer for it. Why: creating a game checks them (a mistyped URL is
#: refused up front) and each seat's start reads them again, three or four fetches of one document a game at ~2 ms
#: of the server's CPU each (httpx, a new connection): a tenth of what a short game costs the server. The document
#: changes when its operator redeploys the bot, not between two games; a failed read is never kept.
CAPABILITIES_FRESH = 5.0
#: Most bots remembered per event loop (the oldest read goes first).
CAPABILITIES_KEPT = 512

_Caps = tuple[str, w.Capabilities]
#: Per event loop (a task belongs to one): capabilities.json URL -> (monotonic time read, answer), and the reads in
#: flight, which every asker of the same URL awaits instead of starting its own.
_RECENT: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, tuple[float, _Caps]]] = (
    weakref.WeakKeyDictionary()
)
_INFLIGHT: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, asyncio.Task[_Caps]]] = (
    weakref.WeakKeyDictionary()
)


async def bot_capabilities(url: str, timeout: float) -> _Caps:
    """``fetch_capabilities`` of the bot at ``url`` (a new client), or a read of it from the last
    ``CAPABILITIES_FRESH`` seconds, or the read already in flight for it."""
    loop = asyncio.get_running_loop()
    caps_url = capabilities_url(url)
    recent = _RECENT.setdefault(loop, {})
    kept = recent.get(caps_url)
    if kept is not None and time.monotonic() - kept[0] < CAPABILITIES_FRESH:
        return kept[1]
    inflight = _INFLIGHT.setdefault(loop, {})
    task = inflight.get(caps_url)
    if task is None:
        task = loop.create_task(_read_capabilities(url, timeout))
        inflight[caps_url] = task
        task.add_done_callback(functools.partial(_read_done, inflight, recent, caps_url))
    return await asyncio.shield(task)


async def _read_capabilities(url: str, timeout: float) -> _Caps:
    async with http_client() as client:
        return await fetch_capabilities(client, url, timeout)


def _read_done(
    inflight: dict[str, asyncio.Task[_Caps]],
    recent: dict[str, tuple[float, _Caps]],
    caps_url: str,
    task: asyncio.Task[_Caps],
) -> None:
    inflight.pop(caps_url, None)
    if task.cancelled() or task.exception() is not None:  # retrieved: no "never retrieved" for an abandoned read
        return
    recent.pop(caps_url, None)  # re-inserted last: the dict's order is the order of reads
    recent[caps_url] = (time.monotonic(), task.result())
    while len(recent) > CAPABILITIES_KEPT:
        del recent[next(iter(recent))]


async def read_limited(response: httpx.Response, what: str) -> bytes:
    """A bot's HTTP answer body, refused (ProtocolViolation) as soon as it passes the bot-packet limit."""
    chunks: list[bytes] = []
    size = 0
    async for chunk in response.aiter_bytes():
        size += len(chunk)
        if size > w.MAX_BOT_PACKET_BYTES:
            raise ProtocolViolation(f"{what} larger than {w.MAX_BOT_PACKET_BYTES} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


_SIDE_BYTES = (b"x", b"o")


def _cell_json(q: int, r: int, seat: int) -> bytes:
    return b'{"q":%d,"r":%d,"p":"%s"}' % (q, r, _SIDE_BYTES[seat])


class BoardJson:
    """The JSON of the board for every move request of one match, built incrementally.

    A move request carries the full board (the Hivemaker extension), so encoding it from the state each time
    is O(stones) of Python work per move. This keeps the encoded cells in one growing buffer and only appends
    the stones of the turns played since the last request: a request then costs the new stones plus one copy of
    the buffer into the packet (``move_request_json``), a C-level memcpy however full the board.
    Relies on what the referee guarantees: ``history`` only grows, and every turn of a running game put both
    of its stones on the board (only a game-ending turn may ignore its second stone).
    """

    def __init__(self, initial_state: HtttxState, played: int = 0) -> None:
        self._initial = b",".join(_cell_json(q, r, seat) for (q, r), seat in initial_state.cells.items())
        self._played = played  # turns of the history already on the initial state (``MatchInfo.played``)
        self._reset()

    def _reset(self) -> None:
        self._buf = bytearray(b'{"cells":[' + self._initial)
        self._empty = not self._initial
        self._applied = self._played

    def parts(self, history: Sequence[tuple[int, Move]]) -> tuple[bytearray, bytes]:
        """The board's JSON in two parts to join (the buffer, valid until the next call, and its end)."""
        if len(history) < self._applied:  # a different game: start again
            self._reset()
        buf = self._buf
        for seat, move in history[self._applied :]:
            for q, r in move:
                if not self._empty:
                    buf += b","
                buf += _cell_json(q, r, seat)
                self._empty = False
        self._applied = len(history)
        return buf, b"]}"

    def encode(self, history: Sequence[tuple[int, Move]]) -> bytes:
        return b"".join(self.parts(history))


def check_setup_size(state: HtttxState) -> int:
    """The stones of a starting position; ConfigError (the match is aborted, nobody loses) when it is larger than
    the bot API carries: the ``setup`` packet and every request after it could pass ``w.MAX_SERVER_PACKET_BYTES``."""
    stones = len(state.cells)
    if stones > w.MAX_SETUP_STONES:
        raise ConfigError(
            f"the starting position has {stones} stones; the bot API carries at most {w.MAX_SETUP_STONES}"
        )
    return stones


def check_board_size(setup_stones: int, turns: int) -> None:
    """End the match as a draw before sending a board larger than the bot API carries.

    The board of a request holds at most ``setup_stones`` plus two per turn played since (counted, not read from
    the state: building its cell map would cost O(stones) per move). Within HTTTX's own turn cap it never gets
    past ``w.MAX_BOARD_STONES`` (derived from that cap); only a match whose cap was raised above the game's can.
    Such a game is over for the same reason the cap exists and no seat is at fault, so it is a draw
    (``turn_limit``), never a loss of the bot that would refuse the packet.
    """
    stones = setup_stones + 2 * turns
    if stones > w.MAX_BOARD_STONES:
        reason = f"the board would hold {stones} stones, more than the bot API carries ({w.MAX_BOARD_STONES})"
        raise MatchEnded(Outcome(None, Termination.TURN_LIMIT, reason))


def move_request_json(
    side: str, previous: list[w.Move], board: bytes | tuple[bytearray, bytes], time_limit: float | None
) -> bytes:
    """A bws ``move_request`` packet as bytes, around an already encoded board (``bytes``, or in parts from
    ``BoardJson.parts``): the packet is joined in one copy."""
    limit = b"" if time_limit is None else b',"move_time_limit":' + w.encode(time_limit)
    head = b'{"type":"move_request","side":"' + side.encode() + b'","previous":' + w.encode(previous)
    if isinstance(board, tuple):
        return b"".join((head, b',"board":', board[0], board[1], limit, b"}"))
    return b"".join((head, b',"board":', board, limit, b"}"))


def board_of(state: HtttxState) -> w.Board:
    return w.Board(cells=[w.Cell(q=q, r=r, p=w.side_of(seat)) for (q, r), seat in state.cells.items()])


def stateless_board_of(state: HtttxState) -> w.StatelessBoard:
    seat = state.to_move_seat
    return w.StatelessBoard(
        to_move=w.side_of(seat if seat is not None else 0),
        cells=[w.Cell(q=q, r=r, p=w.side_of(s)) for (q, r), s in state.cells.items()],
    )


def move_of(option: w.MoveOption) -> tuple[tuple[int, int], tuple[int, int]]:
    """A bot's MoveOption as an engine move; the count of pieces is a protocol matter, checked here."""
    if len(option.pieces) != 2:
        raise ProtocolViolation(f"a move must have exactly 2 pieces, got {len(option.pieces)}")
    a, b = option.pieces
    return ((a.q, a.r), (b.q, b.r))


def wire_move(seat: int, move: Move) -> w.Move:
    return w.Move(side=w.side_of(seat), pieces=[w.Coord(q=q, r=r) for q, r in move])


def evaluation_of(option: w.MoveOption) -> JsonObject | None:
    if option.evaluation is None:
        return None
    out: JsonObject = {}
    if option.evaluation.heuristic is not None:
        out["heuristic"] = option.evaluation.heuristic
    if option.evaluation.win_in is not None:
        out["win_in"] = option.evaluation.win_in
    return out


def considerations_of(options: list[w.MoveOption] | None) -> list[JsonValue] | None:
    if not options:
        return None
    return [{"pieces": [[p.q, p.r] for p in o.pieces], "evaluation": evaluation_of(o)} for o in options[:32]]


def end_packet(result: PlayerResult, board: w.Board) -> w.End:
    """The Hivemaker ``end`` packet: reason win | draw | forfeit, with our reason text as ``detail``."""
    from hexarena.core.types import Termination

    outcome = result.outcome
    if outcome.winner is None:
        reason = "draw"
    elif outcome.termination == Termination.NORMAL:
        reason = "win"
    else:
        reason = "forfeit"
    winner = None if outcome.winner is None else w.side_of(outcome.winner)
    return w.End(winner=winner, reason=reason, board=board, detail=outcome.reason or None)


def rule_extras(params: dict[str, Any]) -> dict[str, int]:
    """The match's placement and win rules that differ from the bot API's defaults, as the ``x-`` config
    extensions the SDK (and Hivemaker-style bots) read; empty for a default match (nothing to tell)."""
    from hexarena.games.htttx import HTTTX

    defaults = HTTTX.validate_params({})
    return {
        f"x-{name}": int(params[name])
        for name in ("view_distance", "win_distance")
        if params.get(name) is not None and params[name] != defaults[name]
    }


def untold_rules(rules: dict[str, int], why: str) -> ConfigError:
    """The error for a match whose non-default rules a bot can't be told (it would play by the defaults)."""
    told = ", ".join(f"{k.removeprefix('x-')} {v}" for k, v in rules.items())
    return ConfigError(f"the match plays with {told} but {why}, so it can't be told and would play by the defaults")
