"""``hexarena_sdk.moves`` under its former name: the SDK is the ``hexarena-sdk`` distribution (sdk/), and code
written against ``hexarena.bots.sdk``'s modules keeps working."""

from hexarena_sdk.moves import (
    check,
    considerations_of,
    fallback_move,
    normalise,
    quick_move,
    to_option,
)

__all__ = [
    "check",
    "considerations_of",
    "fallback_move",
    "normalise",
    "quick_move",
    "to_option",
]
