"""``hexarena_sdk.ws_protocol`` under its former name: the SDK is the ``hexarena-sdk`` distribution (sdk/), and code
written against ``hexarena.bots.sdk``'s modules keeps working."""

from hexarena_sdk.ws_protocol import (
    ws_protocol,
)

__all__ = [
    "ws_protocol",
]
