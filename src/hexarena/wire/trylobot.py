"""Trylobot's Hive AI module transport: ``<length>#<json>`` frames over TCP, or one JSON object per line.

The length is the JavaScript string length of the payload (UTF-16 code units), which equals the byte count for
ASCII. Both request spellings exist in the wild: ``GREETINGS``/``CHOOSE_TURN`` (the seed) and
``Greetings``/``Choose Turn`` with request ids (API 0.1.0); we accept either and answer in the caller's.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from hexarena.core.errors import BotCrashed, ProtocolViolation

#: Longest frame read in either direction: a module receives the game's whole ``turn_history`` and every
#: possible turn with each request, so this is sized for long games (the Hive cap is 1,000 plies), not answers.
MAX_FRAME = 4 * 1024 * 1024
GREETINGS = ("Greetings", "GREETINGS")
CHOOSE_TURN = ("Choose Turn", "CHOOSE_TURN")


def js_length(text: str) -> int:
    """JavaScript ``string.length``: UTF-16 code units."""
    return len(text.encode("utf-16-le")) // 2


def frame(message: dict[str, Any]) -> bytes:
    payload = json.dumps(message, separators=(",", ":"))
    return f"{js_length(payload)}#{payload}".encode()


async def read_frame(reader: asyncio.StreamReader) -> dict[str, Any]:
    """One framed JSON object; ProtocolViolation for bad framing or JSON, BotCrashed on EOF."""
    try:
        return await _read_frame(reader)
    except asyncio.IncompleteReadError:
        raise BotCrashed("the connection closed in the middle of a message") from None


async def _read_frame(reader: asyncio.StreamReader) -> dict[str, Any]:
    header = b""
    while True:
        ch = await reader.read(1)
        if not ch:
            raise BotCrashed("the connection closed before a complete message")
        if ch == b"#":
            break
        if not ch.isdigit() or len(header) > 9:
            raise ProtocolViolation(f"bad frame header {(header + ch)[:20]!r}: expected '<length>#<json>'")
        header += ch
    if not header:
        raise ProtocolViolation("bad frame header: empty length before '#'")
    units = int(header)
    if units > MAX_FRAME:
        raise ProtocolViolation(f"frame of {units} characters is larger than {MAX_FRAME}")
    data = await reader.readexactly(units) if units else b""
    while True:  # UTF-8 bytes >= UTF-16 units: read on until the payload holds ``units`` units
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            text = None
        if text is not None and js_length(text) >= units:
            break
        if len(data) > 4 * units:
            raise ProtocolViolation("frame length does not match its payload (bad UTF-8 or wrong count)")
        data += await reader.readexactly(1)
    return decode(text)


def decode(text: str) -> dict[str, Any]:
    try:
        message = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ProtocolViolation(f"message is not JSON: {exc}") from None
    if not isinstance(message, dict):
        raise ProtocolViolation(f"message must be a JSON object, got {type(message).__name__}")
    return message


MAX_ERROR_TEXT = 2000


def module_error(message: dict[str, Any]) -> str | None:
    """The module's own error text when ``message`` is json-socket's error answer, else None.

    A Trylobot module that throws is answered for by json-socket as ``{"success": false, "error": "<text>"}``
    (no ``response_type``). The text is returned verbatim (cut at MAX_ERROR_TEXT characters), so the recorded
    reason is the module's own words rather than a complaint about a missing ``response_type``.
    """
    if message.get("success") is not False and ("error" not in message or "response_type" in message):
        return None
    error = message.get("error")
    text = error if isinstance(error, str) else json.dumps(error)
    return text if len(text) <= MAX_ERROR_TEXT else text[:MAX_ERROR_TEXT] + "..."


def kind_of(message: dict[str, Any], field: str) -> str:
    """``greetings`` or ``choose_turn`` for either spelling of ``request_type``/``response_type``."""
    value = message.get(field)
    if value in GREETINGS:
        return "greetings"
    if value in CHOOSE_TURN:
        return "choose_turn"
    raise ProtocolViolation(f"{field} {value!r} is not one of {[*GREETINGS, *CHOOSE_TURN]}")
