"""hexarena: an open arena where bots, and people, battle at hexagonal board games."""

__version__ = "0.1.0"
