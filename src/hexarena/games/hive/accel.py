"""The optional C accelerator for Hive move generation, and the switch between it and pure Python.

``board.PyBoard`` is the reference implementation and stays pure Python. When the ``_chive`` extension is built
(``pip install -e .`` compiles it; a missing compiler just leaves it out) and ``HEXARENA_PURE_PYTHON`` is not
set, ``board.Board`` is ``board.CBoard``: a ``PyBoard`` whose ``moves``, ``count_moves`` and ``cut_cells`` are C
functions reading the same ``stacks``/``pos``/``ply``/``stunned`` state. Everything else (play/undo, hashing,
``movement_dests`` for Trylobot's turn types) is inherited, so the two boards hold identical state and a
position made by one can be searched by the other. The C code hands a board it cannot take (a hive spread wider
than its grid, a malformed stack) back to the Python methods. ``tests/games/hive/test_hive_accel.py`` compares
the two on many positions from random games with every expansion.

This module must not import ``board.py`` (``board.py`` imports it).
"""

from __future__ import annotations

from types import ModuleType

from hexarena.games.accel_env import PURE_PYTHON_ENV, pure_python_forced


def _load() -> ModuleType | None:
    """The ``_chive`` module, or None when it is not built (no compiler at install time, another Python)."""
    try:
        import hexarena.games.hive._chive as _chive
    except ImportError:
        return None
    return _chive


chive: ModuleType | None = _load()


def available() -> bool:
    """True when the C extension is built and importable (whether or not it is switched off)."""
    return chive is not None


def enabled() -> bool:
    """True when ``board.Board`` uses the C path: the extension is built and ``HEXARENA_PURE_PYTHON`` is not set."""
    return chive is not None and not pure_python_forced()


__all__ = ["PURE_PYTHON_ENV", "available", "chive", "enabled"]
