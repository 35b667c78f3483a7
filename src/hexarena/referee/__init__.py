"""The match loop: the only clock in hexarena."""
