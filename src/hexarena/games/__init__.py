"""Rules engines, one package per game. Importing this package imports no game.

Each built-in game is declared in pyproject.toml's ``hexarena.games`` entry points, the way a plugin declares
its own (README "Add a game"), and ``hexarena.core.registry`` loads them on first use: importing one game never
pays for the others, and a game outside the tree is registered no differently. ``builtin.py`` lists the same
games as typed objects, so that mypy checks each one against the ``Game`` protocol.
"""
