"""The one switch that turns every C accelerator off: ``HEXARENA_PURE_PYTHON`` set to anything but "" or "0".

Each engine's ``accel`` module asks here, so the variable means the same for every game (benchmarks and tests
compare the C and Python paths with it).
"""

from __future__ import annotations

import os

PURE_PYTHON_ENV = "HEXARENA_PURE_PYTHON"


def pure_python_forced() -> bool:
    """True when the user asked for the pure-Python engines."""
    return os.environ.get(PURE_PYTHON_ENV, "") not in ("", "0")
