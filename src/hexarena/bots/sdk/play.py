"""``hexarena_sdk.play`` under its former name: the SDK is the ``hexarena-sdk`` distribution (sdk/), and code
written against ``hexarena.bots.sdk``'s modules keeps working."""

from hexarena_sdk.play import (
    answer_eval,
    answer_move,
)

__all__ = [
    "answer_eval",
    "answer_move",
]
