"""Build the optional C accelerator of the HTTTX board; all metadata lives in pyproject.toml.

Why a setup.py at all: pyproject.toml cannot declare C extensions. ``optional=True`` makes a failed compile a
warning, so an install without a compiler still works and ``hexarena_sdk.htttx.accel`` picks the pure-Python
``board.PyBoard`` instead.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "hexarena_sdk.htttx._cboard",
            sources=["src/hexarena_sdk/htttx/_cboard.c"],
            extra_compile_args=["-O2"],
            optional=True,
        ),
    ]
)
