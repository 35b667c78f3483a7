"""WebSocket frame helpers.

The code lives in the bot SDK distribution (``hexarena_sdk.wire.ws_frames``), which a bot server installs without the
arena server; this module re-exports it, so that the server and its users import it as before.
"""

from hexarena_sdk.wire.ws_frames import (
    MISSING,
    parser_between_frames,
    text_frame,
    whole_text_frame,
)

__all__ = [
    "MISSING",
    "parser_between_frames",
    "text_frame",
    "whole_text_frame",
]
