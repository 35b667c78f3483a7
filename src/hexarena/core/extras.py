"""The optional parts of an install: what a feature needs beyond the runtime, and saying so when it is missing.

Why: serving needs the runtime only, so the PostgreSQL driver and the Redis client are extras of their own
(``hexarena[postgres]``, ``hexarena[cluster]``). A URL that needs one on an install without it must stop with what
to install, not with a ``ModuleNotFoundError`` deep in a driver's import.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from hexarena.core.errors import ConfigError


class MissingExtra(ConfigError):
    """A feature asked for needs a package that is not installed."""


def require(module: str, extra: str, feature: str) -> ModuleType:
    """``module`` imported, or :class:`MissingExtra` naming the extra that installs it, for ``feature``."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise MissingExtra(
            f"{feature} needs {module.split('.')[0]!r}, which is not installed ({exc}): "
            f"pip install 'hexarena[{extra}]' (in a checkout: make serve EXTRAS={extra})"
        ) from None


def require_postgres() -> None:
    """The PostgreSQL driver, for a ``postgresql://`` database URL."""
    require("asyncpg", "postgres", "a PostgreSQL database (--database-url postgresql://...)")


def require_redis() -> None:
    """The Redis client, for several instances or a shared rate limit (--redis-url)."""
    require("redis.asyncio", "cluster", "several instances (--redis-url)")
