"""Garbage-collector settings of the long-running servers.

The code lives in the bot SDK distribution (``hexarena_sdk.gc_tuning``), which a bot server installs without the
arena server; this module re-exports it, so that the server and its users import it as before.
"""

from hexarena_sdk.gc_tuning import (
    FULL_THRESHOLD,
    MIDDLE_THRESHOLD,
    YOUNG_THRESHOLD,
    tune_for_serving,
)

__all__ = [
    "FULL_THRESHOLD",
    "MIDDLE_THRESHOLD",
    "YOUNG_THRESHOLD",
    "tune_for_serving",
]
