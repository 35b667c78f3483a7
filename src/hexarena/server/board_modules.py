"""Where the browser loads each game's board from (``Game.board_module``).

A game names its board as ``"package:path/to/board.js"``, a file among its package's files, so a plugin game
brings its own board the way it brings its rules. A board inside hexarena's own web folder is loaded from its
static URL (``/ui/js/boards/hex.js``), where its relative imports of the shared helpers resolve; any other is
served by ``GET /api/games/NAME/board.js`` (it imports the helpers by their absolute ``/ui/js/...`` URLs). A
declaration that names no readable file leaves the game on the generic board, with the reason in the log.
"""

from __future__ import annotations

import logging
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path, PurePosixPath
from typing import TypeVar

from hexarena.core.errors import ConfigError
from hexarena.core.game import Game

log = logging.getLogger(__name__)

#: hexarena's own web folder, served under ``/ui``.
WEB_DIR = Path(str(resources.files("hexarena"))) / "web"

#: No board module is larger; the bound keeps a mistaken declaration from serving an arbitrary large file.
MAX_BOARD_BYTES = 512 * 1024

S = TypeVar("S")
M = TypeVar("M")


def board_file(declared: str) -> Traversable:
    """The file ``"package:path/to/board.js"`` names; ConfigError says what is wrong with the declaration."""
    package, sep, rel = declared.partition(":")
    path = PurePosixPath(rel)
    if not sep or not package or not rel or path.is_absolute() or ".." in path.parts or path.suffix != ".js":
        raise ConfigError(f"board module {declared!r}: write it as 'package:relative/path/board.js'")
    try:
        root = resources.files(package)
    except (ModuleNotFoundError, TypeError) as exc:
        raise ConfigError(f"board module {declared!r}: package {package!r} not found ({exc})") from None
    file = root.joinpath(*path.parts)
    if not file.is_file():
        raise ConfigError(f"board module {declared!r}: no such file in package {package!r}")
    return file


def _inside_web(file: Traversable) -> str | None:
    """The ``/ui/...`` URL of a file in hexarena's web folder, else None."""
    try:
        rel = Path(str(file)).resolve().relative_to(WEB_DIR.resolve())
    except ValueError:
        return None
    return "/ui/" + rel.as_posix()


@cache
def _board_url(name: str, declared: str | None) -> str | None:
    if declared is None:
        return None
    try:
        file = board_file(declared)
    except ConfigError as exc:
        log.warning("game %s keeps the generic board: %s", name, exc.reason)
        return None
    return _inside_web(file) or f"/api/games/{name}/board.js"


def board_url(game: Game[S, M]) -> str | None:
    """The URL the web UI imports the game's board from; None: the generic board."""
    return _board_url(game.name, game.board_module)


def board_source(game: Game[S, M]) -> bytes:
    """The text of the game's board module, for the plugin route; ConfigError when it has none to serve."""
    if game.board_module is None:
        raise ConfigError(f"game {game.name!r} has no board module of its own (the web UI uses the generic board)")
    file = board_file(game.board_module)
    with file.open("rb") as f:
        data = f.read(MAX_BOARD_BYTES + 1)
    if len(data) > MAX_BOARD_BYTES:
        raise ConfigError(f"board module of {game.name!r} is over the {MAX_BOARD_BYTES}-byte limit")
    return data
