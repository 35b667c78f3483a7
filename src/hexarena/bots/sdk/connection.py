"""``hexarena_sdk.connection`` under its former name: the SDK is the ``hexarena-sdk`` distribution (sdk/), and code
written against ``hexarena.bots.sdk``'s modules keeps working."""

from hexarena_sdk.connection import (
    CLOSE_NORMAL,
    CLOSE_POLICY,
    BwsSession,
    Inbox,
    OpenRequest,
    Transport,
    WebsocketsTransport,
)

__all__ = [
    "CLOSE_NORMAL",
    "CLOSE_POLICY",
    "BwsSession",
    "Inbox",
    "OpenRequest",
    "Transport",
    "WebsocketsTransport",
]
