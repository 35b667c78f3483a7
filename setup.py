"""Build the optional C accelerator of the HTTTX board; all metadata lives in pyproject.toml.

Why a setup.py at all: pyproject.toml cannot declare C extensions. ``optional=True`` makes a failed compile a
warning, so an install without a compiler still works and ``hexarena.games.htttx.accel`` falls back to the
pure-Python board.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "hexarena.games.htttx._cboard",
            sources=["src/hexarena/games/htttx/_cboard.c"],
            extra_compile_args=["-O2"],
            optional=True,
        ),
        Extension(
            "hexarena.games.hex._chex",
            sources=["src/hexarena/games/hex/_chex.c"],
            extra_compile_args=["-O2"],
            optional=True,
        ),
    ]
)
