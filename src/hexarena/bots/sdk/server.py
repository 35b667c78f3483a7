"""``hexarena_sdk.server`` under its former name: the SDK is the ``hexarena-sdk`` distribution (sdk/), and code
written against ``hexarena.bots.sdk``'s modules keeps working."""

from hexarena_sdk.server import (
    HIVEMAKER_BWS_PATH,
    AsgiTransport,
    BotFactory,
    bot_class_of,
    make_app,
    run,
    serve,
)

__all__ = [
    "HIVEMAKER_BWS_PATH",
    "AsgiTransport",
    "BotFactory",
    "bot_class_of",
    "make_app",
    "run",
    "serve",
]
