"""The switch that turns every C accelerator off.

The code lives in the bot SDK distribution (``hexarena_sdk.accel_env``), which a bot server installs without the
arena server; this module re-exports it, so that the server and its users import it as before.
"""

from hexarena_sdk.accel_env import (
    PURE_PYTHON_ENV,
    pure_python_forced,
)

__all__ = [
    "PURE_PYTHON_ENV",
    "pure_python_forced",
]
