"""``hexarena_sdk.bot`` under its former name: the SDK is the ``hexarena-sdk`` distribution (sdk/), and code
written against ``hexarena.bots.sdk``'s modules keeps working."""

from hexarena_sdk.bot import (
    BaseBot,
    CenterBot,
    JobContext,
    MoveResult,
    PositionEvaluation,
)

__all__ = [
    "BaseBot",
    "CenterBot",
    "JobContext",
    "MoveResult",
    "PositionEvaluation",
]
