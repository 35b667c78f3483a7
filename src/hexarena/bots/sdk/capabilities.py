"""``hexarena_sdk.capabilities`` under its former name: the SDK is the ``hexarena-sdk`` distribution (sdk/), and code
written against ``hexarena.bots.sdk``'s modules keeps working."""

from hexarena_sdk.capabilities import (
    BasicWebsocketCapability,
    BasicWebsocketVersions,
    BwsV1AlphaCapability,
    Capabilities,
    Meta,
    StatelessCapability,
    StatelessV1AlphaCapability,
    StatelessVersions,
    default_capabilities,
)

__all__ = [
    "BasicWebsocketCapability",
    "BasicWebsocketVersions",
    "BwsV1AlphaCapability",
    "Capabilities",
    "Meta",
    "StatelessCapability",
    "StatelessV1AlphaCapability",
    "StatelessVersions",
    "default_capabilities",
]
