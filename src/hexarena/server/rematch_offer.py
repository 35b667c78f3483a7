"""The rematch offered after a finished match, as the match keeps it (``LiveMatch.rematch``).

Its own module, below both the match manager (``server.live``, whose finished matches hold it) and the rematch
API (``server.ui.rematch``, which makes and answers it), so the manager needs nothing of the API to name it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hexarena.core.types import Seat


@dataclass(slots=True)
class Rematch:
    """The rematch of one finished match: who offered it, whether it was declined, the new game once accepted."""

    by: Seat
    declined: bool = False
    game_id: str | None = None
    #: the old seat -> that person's token of the new game (where they play the other seat)
    tokens: dict[Seat, str] = field(default_factory=dict)
    #: the new game is being created: a second accept arriving meanwhile must not create another
    starting: bool = False


__all__ = ["Rematch"]
