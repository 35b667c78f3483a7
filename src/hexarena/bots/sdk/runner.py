"""``hexarena_sdk.runner`` under its former name: the SDK is the ``hexarena-sdk`` distribution (sdk/), and code
written against ``hexarena.bots.sdk``'s modules keeps working."""

from hexarena_sdk.runner import (
    BACK_TO_THREAD,
    INLINE_AFTER,
    INLINE_BELOW,
    BotRunner,
    CallKind,
    CallResult,
    safety_margin,
    soft_deadline,
)

__all__ = [
    "BACK_TO_THREAD",
    "INLINE_AFTER",
    "INLINE_BELOW",
    "BotRunner",
    "CallKind",
    "CallResult",
    "safety_margin",
    "soft_deadline",
]
