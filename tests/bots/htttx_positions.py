"""Random HTTTX positions for the search engine's tests: games of random turns near the stones, so lines form."""

from __future__ import annotations

import random
from typing import Any

from hexarena.games.htttx import HTTTX
from hexarena.games.htttx.openings import random_turns


def random_position(rng: random.Random, most: int = 14, least: int = 0) -> Any:
    """A game of ``least``..``most`` random turns near the stones, stopped before it is won."""
    return random_turns(HTTTX.new(), rng, rng.randint(least, most))
