"""The optional C accelerator for the immutable Hex API, and the switch between it and pure Python.

``HexGame`` (game.py) is the reference implementation and stays pure Python. When the ``_chex`` extension is
built (``pip install -e .`` compiles it; a missing compiler just leaves it out) and ``HEXARENA_PURE_PYTHON``
is not set to ``1``, the registered ``GAME`` is an ``AcceleratedHexGame``: a ``HexGame`` whose hot methods
(``play``, ``random_move``, ``to_move``, ``outcome``, ``legal``) are C functions. They take the common case
(a cell move on a board up to 15x15) themselves and hand everything else -- swap, resign, every error, larger
boards -- to the ``HexGame`` methods, so behaviour, states and messages are the reference's by construction
(``tests/games/hex/test_hex_accel.py`` compares the two move by move).

States are the same ``HexState`` objects either way, so states made by one implementation can be played on
by the other.
"""

from __future__ import annotations

from types import ModuleType

from hexarena.core.types import Termination
from hexarena.games.accel_env import PURE_PYTHON_ENV, pure_python_forced
from hexarena.games.hex.game import SWAP, HexGame, HexState
from hexarena.games.hex.geometry import geometry


def _load() -> ModuleType | None:
    """The initialised ``_chex`` module, or None when it is not built (or fails to initialise)."""
    try:
        import hexarena.games.hex._chex as _chex
    except ImportError:
        return None
    _chex.init(HexState, HexGame, Termination.NORMAL, SWAP, geometry)
    return _chex


chex: ModuleType | None = _load()

if chex is not None:

    class AcceleratedHexGame(chex.FastHex, HexGame):  # type: ignore[misc,name-defined]
        """``HexGame`` with the C hot path first in the MRO; the inherited methods are its fallback."""

        __slots__ = ()

else:  # pragma: no cover - exercised only where the extension is not built
    AcceleratedHexGame = None  # type: ignore[assignment,misc]


def available() -> bool:
    """True when the C extension is built and importable (whether or not it is switched off)."""
    return chex is not None


def enabled() -> bool:
    """True when ``GAME`` uses the C path: the extension is built and ``HEXARENA_PURE_PYTHON`` is not set."""
    return chex is not None and not pure_python_forced()


def make_game(accelerated: bool | None = None) -> HexGame:
    """A Hex rules object: C-accelerated when ``accelerated`` (default: ``enabled()``), else the reference.

    Asking for the accelerated game when the extension is missing raises RuntimeError rather than quietly
    returning the slow one, so a benchmark or test never measures the wrong thing.
    """
    if accelerated is None:
        accelerated = enabled()
    if not accelerated:
        return HexGame()
    if AcceleratedHexGame is None:
        raise RuntimeError("the hexarena.games.hex._chex extension is not built (pip install -e . with a C compiler)")
    game: HexGame = AcceleratedHexGame()
    return game


__all__ = ["PURE_PYTHON_ENV", "AcceleratedHexGame", "available", "enabled", "make_game"]
