"""Chooses the HTTTX Board implementation: the C accelerator when it is built, else the pure-Python board.

Why a separate module: ``board.py`` stays the readable reference (``PyBoard``) and the fallback for installs
without a compiler; the C extension ``_cboard`` (built by ``setup.py``, optional) implements the same API with
identical observable behaviour (legal order, Zobrist values, errors and their reasons, win lines) about an order
of magnitude faster. ``board.Board`` and the package's ``Board`` are whatever this module picked, so every
caller gets the fast board without knowing it exists.

``HEXARENA_PURE_PYTHON=1`` (any value but ``""`` / ``"0"``) forces the Python board, e.g. to rule the extension
out when chasing a bug. This module must not import ``board.py`` at import time (``board.py`` imports it);
``accel.Board`` / ``accel.PyBoard`` are resolved lazily.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

from hexarena_sdk.accel_env import pure_python_forced

FORCED_PURE = pure_python_forced()

CBoard: Any = None
_cboard: ModuleType | None = None
#: why the C board is not used, or "" when it is
UNAVAILABLE = ""
if FORCED_PURE:
    UNAVAILABLE = "HEXARENA_PURE_PYTHON is set"
else:
    try:
        _cboard = importlib.import_module("hexarena_sdk.htttx._cboard")
    except ImportError as exc:  # not built (no compiler at install time) or built for another Python
        UNAVAILABLE = f"the C extension is not built: {exc}"
    else:
        CBoard = _cboard.Board

#: "C" or "Python": the implementation behind ``hexarena.games.htttx.Board``
IMPLEMENTATION = "C" if CBoard is not None else "Python"


def choose(py_board: type) -> type:
    """The class ``board.Board`` should be: the C board if available, else ``py_board``. The C board hands view
    distances it does not support (above ``_cboard.MAX_VIEW``) to ``py_board``."""
    if CBoard is None or _cboard is None:
        return py_board
    _cboard.set_fallback(py_board)
    cls: type = CBoard
    return cls


def __getattr__(name: str) -> Any:
    if name in ("Board", "PyBoard"):
        from hexarena_sdk.htttx import board

        return getattr(board, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
