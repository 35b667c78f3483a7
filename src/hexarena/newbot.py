"""``hexarena new-bot LANGUAGE [DIR]``: copy a starter bot into a folder of its own, ready to edit.

The starters (one folder per language: a small bot, its README, and a ``serve PORT`` or ``run`` script that
builds it) ship inside the package as data files, ``hexarena/starters/<language>/``, so an installed hexarena
has them too; the repository's top-level ``starters/`` is a link to that folder. What a build leaves behind
(``node_modules/``, ``build/``) is not copied: the new folder builds itself on first use.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from hexarena.core.errors import ConfigError

#: Where the starters live: package data next to this module.
STARTERS = Path(__file__).resolve().parent / "starters"

#: Build products and caches a starter folder may hold after it ran; never copied.
LEFT_BEHIND = ("node_modules", "build", "__pycache__", "*.tmp")


def languages() -> list[str]:
    """The starters on offer: every folder of ``STARTERS`` with a README."""
    if not STARTERS.is_dir():
        return []
    return sorted(p.name for p in STARTERS.iterdir() if (p / "README.md").is_file())


def new_bot(language: str, target: Path | None = None) -> Path:
    """Copy the ``language`` starter to ``target`` (default ``./<language>-bot``) and return where it went.

    Refuses an unknown language and a target that exists already (nothing of the user's is ever overwritten).
    """
    offered = languages()
    if language not in offered:
        raise ConfigError(f"no starter for {language!r}; there are: {', '.join(offered) or 'none'}")
    dest = target if target is not None else Path(f"{language}-bot")
    if dest.exists():
        raise ConfigError(f"{dest} exists already: give a new folder")
    shutil.copytree(STARTERS / language, dest, ignore=shutil.ignore_patterns(*LEFT_BEHIND))
    return dest
