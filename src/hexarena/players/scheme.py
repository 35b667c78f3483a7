"""What a player scheme declares: its name, its factory, its help and its policy.

Apart from :mod:`hexarena.players.spec` (the registry that builds players from specs, and so imports every
built-in adapter) so that an adapter declaring its own scheme imports only this: protocol adapters stay
independent of each other (``[tool.importlinter]`` in pyproject.toml).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

from hexarena.core.game import AnyGame, Game
from hexarena.players.base import BasePlayer

Factory = Callable[[str, str], Awaitable[BasePlayer]]  # (game name, the spec after "scheme:") -> player

S = TypeVar("S")
M = TypeVar("M")


@dataclass(frozen=True, slots=True)
class Scheme:
    """A ``scheme:`` with its declared policy (None: not declared, read as the unsafe answer).

    ``starts_program``: building the player runs a program on the server. ``remote``: an API client may name
    this scheme (never together with ``starts_program``: such engines reach clients only as operator-registered
    ``engine:NAME``). Leaving either out makes the scheme local-only (CLI and operator configuration).
    """

    name: str
    factory: Factory
    help_text: str
    starts_program: bool | None = None
    remote: bool | None = None
    address: bool = False  # the spec's rest is a URL or HOST:PORT the server connects to
    #: The player is a seat a running server serves (a person's socket, a bot connected to the server): a match
    #: the command line runs by itself refuses it at once instead of waiting for somebody who cannot come.
    needs_server: bool = False
    #: Which games the scheme can seat (True for the games its protocol speaks); None: any game. The lobby offers
    #: an address scheme for exactly these games, so no page names a game to decide which bots it can seat.
    plays: Callable[[AnyGame], bool] | None = None
    #: An address of the form the scheme takes, shown as the example in the lobby's field ("127.0.0.1:8100").
    example: str = ""

    def __post_init__(self) -> None:
        if self.starts_program and self.remote:
            raise ValueError(f"scheme {self.name!r} starts programs, so it cannot be remote: register it as an engine")

    def seats(self, game: Game[S, M]) -> bool:
        """Whether the scheme can seat a player of ``game`` (its protocol speaks the game)."""
        return self.plays is None or self.plays(game)

    @property
    def declared(self) -> bool:
        return self.starts_program is not None and self.remote is not None

    @property
    def remote_allowed(self) -> bool:
        """Only a scheme declared both remote-safe and not starting a program may come from a remote client."""
        return self.remote is True and self.starts_program is False
