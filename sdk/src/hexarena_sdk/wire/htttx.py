"""HTTTX bot API packets (bot-api-v1, basic_websocket v1-alpha, stateless v1-alpha) as msgspec structs.

Both sides use these: the server-side adapters in ``hexarena.players`` and the bot SDK in ``hexarena.bots``.
Decoding validates types and required fields; ``decode_*`` turn every failure into a ``ProtocolViolation`` whose
reason names the field (``Object missing required field `q` - at `$.move.pieces[0]```) so bot authors can fix it.
Unknown fields are ignored (the spec lets bots add fields); unknown packet types are rejected by name.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from hexarena_sdk.errors import ProtocolViolation
from hexarena_sdk.htttx.board import COORD_LIMIT, MAX_PLIES

Side = Literal["x", "o"]

# ----- size limits: one per direction, used by both sides -----

#: Largest packet a bot sends the game server (bws ``move_response`` / ``eval_response``, a stateless turn
#: response) and a person's page sends the HTTTX ``/ws`` seat (the same packets): a move (~100 bytes) with its
#: optional considerations (~120 bytes each at the longest coordinates: room for ~500). Never a board, so this
#: stays small; anything bigger is a protocol violation.
MAX_BOT_PACKET_BYTES = 64 * 1024

#: Most stones of a starting position sent to a bot: an analysis board (``POST /api/analyse``) or the opening a
#: match starts from. Far more than any real game needs; adapters refuse larger setups before the match starts.
MAX_SETUP_STONES = 10_000

#: Most stones of any board the game server sends: a starting position plus the two stones of each turn up to
#: the referee's cap of an HTTTX match (``MAX_PLIES``, ``HtttxGame.max_plies``). Adapters end a match whose board would pass
#: it as a draw (a match cap raised above the game's) rather than send a packet the bot may refuse.
MAX_BOARD_STONES = MAX_SETUP_STONES + 2 * MAX_PLIES

#: The longest coordinate the engine accepts prints with seven digits and a sign (|q|, |r| < COORD_LIMIT).
_LONGEST_COORD = -(COORD_LIMIT - 1)
#: One board cell at the longest coordinates, with the comma that separates it from the next.
LONGEST_CELL_BYTES = len(f'{{"q":{_LONGEST_COORD},"r":{_LONGEST_COORD},"p":"x"}},')
#: Everything of a server packet besides its board's cells: the packet's own fields (type, side, time limit,
#: request id), a move request's ``previous`` (at most two moves of two pieces, ~160 bytes at the longest
#: coordinates), an ``end`` packet's ``detail`` (the referee cuts reasons at 500 characters) and winner, and
#: the stones an ``end`` board may hold beyond the last request (two turns: four cells, ~150 bytes).
PACKET_OVERHEAD_BYTES = 4 * 1024


def _limit_for(stones: int) -> int:
    """The packet limit for boards of ``stones``: the worst case (every cell at the longest coordinates, plus
    ``PACKET_OVERHEAD_BYTES``) with a quarter more as margin (fields a later revision adds, a peer that pretty-
    prints), rounded up to a multiple of 64 KiB."""
    worst = stones * LONGEST_CELL_BYTES + PACKET_OVERHEAD_BYTES
    with_margin = worst + worst // 4
    step = 64 * 1024
    return (with_margin + step - 1) // step * step


#: Largest packet the game server sends a bot (``setup``, ``move_request``, ``end``; a stateless turn request),
#: and so the smallest limit a bot server may have on what it receives: the SDK's bot server refuses larger
#: WebSocket messages and turn request bodies, and nothing legitimate comes near it. Derived from
#: ``MAX_BOARD_STONES`` (20,000) by ``_limit_for``: 20,000 cells of 36 bytes + 4 KiB = ~724 KB, +25 %, rounded
#: up: 896 KiB. It must stay at or below 1 MiB, the default limit of the WebSocket libraries bots are commonly
#: built on (Python ``websockets``, whose ``serve`` Hivemaker's bots use), so that their bots can read it too.
MAX_SERVER_PACKET_BYTES = _limit_for(MAX_BOARD_STONES)


class Coord(msgspec.Struct, frozen=True):
    q: int
    r: int


class Cell(msgspec.Struct, frozen=True):
    q: int
    r: int
    p: Side


class Board(msgspec.Struct):
    cells: list[Cell] = []


class StatelessBoard(msgspec.Struct):
    to_move: Side
    cells: list[Cell] = []


class PositionEvaluation(msgspec.Struct, omit_defaults=True):
    heuristic: float | None = None
    win_in: int | None = None


class MoveOption(msgspec.Struct, omit_defaults=True):
    pieces: list[Coord]
    evaluation: PositionEvaluation | None = None


class Move(msgspec.Struct):
    side: Side
    pieces: list[Coord]


# ----- server -> bot (bws) -----


class Setup(msgspec.Struct, tag="setup", tag_field="type"):
    board: Board


class Config(msgspec.Struct, tag="config", tag_field="type", omit_defaults=True):
    depth: int | None = None


class MoveRequestPacket(msgspec.Struct, tag="move_request", tag_field="type", omit_defaults=True):
    side: Side
    previous: list[Move]
    board: Board | None = None  # Hivemaker extension: the authoritative full board
    move_time_limit: float | None = None


class EvalRequest(msgspec.Struct, tag="eval_request", tag_field="type", omit_defaults=True):
    side: Side
    evaluation_time_limit: float | None = None


class Heartbeat(msgspec.Struct, tag="heartbeat", tag_field="type"):
    waiting: bool


class End(msgspec.Struct, tag="end", tag_field="type"):
    """Hivemaker extension: the game is over (``reason`` win | draw | forfeit)."""

    winner: Side | None
    reason: str
    board: Board
    detail: str | None = None


class Nope(msgspec.Struct, tag="nope", tag_field="type"):
    """Hivemaker extension: a protocol violation; the server closes the connection after it."""

    reason: str


class BoardUpdate(msgspec.Struct, tag="board_update", tag_field="type"):
    """Spectator packet: the board after a turn."""

    board: Board
    to_move: Side | None
    status: str


class LazyMoveRequest(msgspec.Struct, tag="move_request", tag_field="type"):
    """A ``move_request`` whose ``board`` is left as raw JSON (empty when absent), for receivers that decode
    only the part of the board they have not seen before (see ``hexarena_sdk.session.BoardCache``)."""

    side: Side
    previous: list[Move]
    board: msgspec.Raw = msgspec.Raw()
    move_time_limit: float | None = None
    request_id: Any = None  # read here too, so a move request is decoded once (see ``decode_head``)


ServerPacket = Setup | Config | MoveRequestPacket | EvalRequest | Heartbeat | End | Nope | BoardUpdate

# ----- bot -> server (bws) -----


class MoveResponse(msgspec.Struct, tag="move_response", tag_field="type", omit_defaults=True):
    move: MoveOption
    considerations: list[MoveOption] | None = None


class EvalResponse(msgspec.Struct, tag="eval_response", tag_field="type"):
    evaluation: PositionEvaluation


BotPacket = MoveResponse | EvalResponse

# ----- stateless -----


class StatelessRequest(msgspec.Struct, omit_defaults=True):
    board: StatelessBoard
    time_limit: float | None = None


class StatelessResponse(msgspec.Struct, omit_defaults=True):
    move: MoveOption
    considerations: list[MoveOption] | None = None


# ----- capabilities (bot-api-v1) -----


class ConfigCapability(msgspec.Struct, omit_defaults=True):
    dynamic: bool = False


class BwsV1Alpha(msgspec.Struct, omit_defaults=True):
    api_root: str | None = None
    move_time_limit: bool = False
    evaluation_time_limit: bool = False
    config: ConfigCapability | None = None
    free_setup: bool = False
    move_skips: bool = False
    dual_sided: bool = False
    free_move_order: bool = False
    evaluation: bool = False
    resettable_state: bool = False
    interruptible: bool = False


class StatelessV1Alpha(msgspec.Struct, omit_defaults=True):
    api_root: str | None = None
    move_time_limit: bool = False


class BwsVersions(msgspec.Struct, omit_defaults=True, rename={"v1_alpha": "v1-alpha"}):
    v1_alpha: BwsV1Alpha | None = None


class StatelessVersions(msgspec.Struct, omit_defaults=True, rename={"v1_alpha": "v1-alpha"}):
    v1_alpha: StatelessV1Alpha | None = None


class BasicWebsocketCapability(msgspec.Struct, omit_defaults=True):
    versions: BwsVersions = msgspec.field(default_factory=BwsVersions)


class StatelessCapability(msgspec.Struct, omit_defaults=True):
    versions: StatelessVersions = msgspec.field(default_factory=StatelessVersions)


class Meta(msgspec.Struct, omit_defaults=True):
    name: str | None = None
    description: str | None = None
    authors: list[str] | None = None
    version: str | None = None
    tags: list[str] | None = None


class Capabilities(msgspec.Struct, omit_defaults=True):
    meta: Meta | None = None
    stateless: StatelessCapability | None = None
    basic_websocket: BasicWebsocketCapability | None = None


DEFAULT_BWS_API_ROOT = "bws/v1-alpha"
DEFAULT_STATELESS_API_ROOT = "stateless/v1-alpha"

_bot_decoder = msgspec.json.Decoder(BotPacket)
_server_decoder = msgspec.json.Decoder(ServerPacket)
_stateless_response_decoder = msgspec.json.Decoder(StatelessResponse)
_stateless_request_decoder = msgspec.json.Decoder(StatelessRequest)
_caps_decoder = msgspec.json.Decoder(Capabilities)
_lazy_move_decoder = msgspec.json.Decoder(LazyMoveRequest)
_board_decoder = msgspec.json.Decoder(Board)
_cells_decoder = msgspec.json.Decoder(list[Cell])
_encoder = msgspec.json.Encoder()


def _decode(decoder: msgspec.json.Decoder[Any], data: str | bytes, what: str, limit: int) -> Any:
    if len(data) > limit:
        raise ProtocolViolation(f"{what} too large: {len(data)} bytes (limit {limit})")
    try:
        return decoder.decode(data)
    except msgspec.DecodeError as exc:
        text = str(exc)
        if _is_syntax_error(text):
            raise ProtocolViolation(f"{what} is not valid JSON: {text}") from None
        raise ProtocolViolation(f"invalid {what}: {text}") from None


def _is_syntax_error(text: str) -> bool:
    """msgspec reports bad syntax as "JSON is malformed: ..." and a cut-off document as "Input data was
    truncated": both mean the bytes are not JSON at all (as opposed to JSON of the wrong shape)."""
    return "malformed" in text or text.startswith("Input data was truncated")


class PacketHead(msgspec.Struct):
    """Just the ``type`` and ``request_id`` of a packet: decoding it skips every other field in C, so a
    receiver can route a packet without building Python objects for its (possibly large) board."""

    type: Any = None
    request_id: Any = None


_head_decoder = msgspec.json.Decoder(PacketHead)


def decode_head(data: str | bytes) -> PacketHead:
    """The head of a JSON object; ProtocolViolation "packet is not valid JSON" / "packet is not a JSON
    object" otherwise (size limits are the caller's)."""
    try:
        return _head_decoder.decode(data)
    except msgspec.DecodeError as exc:
        text = str(exc)
        if _is_syntax_error(text):
            raise ProtocolViolation(f"packet is not valid JSON: {text}") from None
        raise ProtocolViolation(f"packet is not a JSON object: {text}") from None


def decode_bot_packet(data: str | bytes) -> MoveResponse | EvalResponse:
    """A packet a bot sent over bws; ProtocolViolation says what is wrong with it."""
    return _decode(_bot_decoder, data, "packet", MAX_BOT_PACKET_BYTES)  # type: ignore[no-any-return]


def decode_server_packet(data: str | bytes) -> Any:
    """A packet the game server sent (used by the SDK's bot side)."""
    return _decode(_server_decoder, data, "server packet", MAX_SERVER_PACKET_BYTES)


def decode_lazy_move_request(data: str | bytes) -> LazyMoveRequest:
    """A ``move_request`` with its board undecoded; errors read like ``decode_server_packet``'s."""
    return _decode(_lazy_move_decoder, data, "server packet", MAX_SERVER_PACKET_BYTES)  # type: ignore[no-any-return]


def decode_board(data: str | bytes) -> Board:
    """A ``board`` object (msgspec.DecodeError as is: callers fall back to decoding the whole packet)."""
    return _board_decoder.decode(data)


def decode_cells(data: str | bytes) -> list[Cell]:
    """A JSON array of cells (msgspec.DecodeError as is)."""
    return _cells_decoder.decode(data)


def decode_stateless_response(data: str | bytes) -> StatelessResponse:
    return _decode(_stateless_response_decoder, data, "turn response", MAX_BOT_PACKET_BYTES)  # type: ignore[no-any-return]


def decode_stateless_request(data: str | bytes) -> StatelessRequest:
    return _decode(_stateless_request_decoder, data, "turn request", MAX_SERVER_PACKET_BYTES)  # type: ignore[no-any-return]


def decode_capabilities(data: str | bytes) -> Capabilities:
    return _decode(_caps_decoder, data, "capabilities.json", MAX_BOT_PACKET_BYTES)  # type: ignore[no-any-return]


def encode(packet: Any) -> bytes:
    """JSON bytes of any struct in this module."""
    return _encoder.encode(packet)


def side_of(seat: int) -> Side:
    return "x" if seat == 0 else "o"


def seat_of(side: str) -> int:
    return 0 if side == "x" else 1
