"""Bounded reads of HTTP request bodies.

The code lives in the bot SDK distribution (``hexarena_sdk.wire.http``), which a bot server installs without the
arena server; this module re-exports it, so that the server and its users import it as before.
"""

from hexarena_sdk.wire.http import (
    read_limited_body,
)

__all__ = [
    "read_limited_body",
]
