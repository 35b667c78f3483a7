"""Names a package exports but imports only when first used (PEP 562), so importing one small submodule of it does
not load everything the package's other names need."""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Callable
from typing import Any


def lazy_exports(package: str, where: dict[str, str]) -> Callable[[str], Any]:
    """The package's module ``__getattr__``: ``where`` maps each exported name to the module that defines it. A name
    once imported becomes a plain module global, so it is looked up here once. A submodule's name gives the
    submodule, as it did when the package imported them all up front (``import pkg; pkg.sub.f()``)."""

    def __getattr__(name: str) -> Any:
        module = where.get(name)
        if module is not None:
            value = getattr(importlib.import_module(module), name)
        elif not name.startswith("__") and importlib.util.find_spec(f"{package}.{name}") is not None:
            value = importlib.import_module(f"{package}.{name}")
        else:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        setattr(sys.modules[package], name, value)
        return value

    return __getattr__
