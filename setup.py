"""Build the optional C accelerators (HTTTX search, Hex rules and MCTS, Hive move generation); all metadata lives in pyproject.toml. The
HTTTX board's accelerator goes with the board in the bot SDK distribution (sdk/setup.py).

Why a setup.py at all: pyproject.toml cannot declare C extensions. ``optional=True`` makes a failed compile a
warning, so an install without a compiler still works and the pure-Python code is used instead.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "hexarena.bots.htttx._csearch",
            sources=["src/hexarena/bots/htttx/_csearch.c"],
            extra_compile_args=["-O2"],
            optional=True,
        ),
        Extension(
            "hexarena.games.hex._chex",
            sources=["src/hexarena/games/hex/_chex.c"],
            extra_compile_args=["-O2"],
            optional=True,
        ),
        Extension(
            "hexarena.games.hive._chive",
            sources=["src/hexarena/games/hive/_chive.c"],
            extra_compile_args=["-O2"],
            optional=True,
        ),
        Extension(
            "hexarena.bots.hex._cmcts",
            sources=["src/hexarena/bots/hex/_cmcts.c"],
            extra_compile_args=["-O2"],
            optional=True,
        ),
    ]
)
