"""Player adapters: one module per wire protocol, each turning wire messages into the ``Player`` interface.

The interface itself (requests, replies, match info, clocks, how a match ends) is the player-referee contract,
``hexarena.core.contract``. The spec schemes (``builtin:``, ``bws:``, ``uais:``...) are ``Scheme`` objects
declared as ``hexarena.players`` entry points (pyproject.toml) and loaded by ``hexarena.players.spec`` when a
spec names them: importing this package registers nothing.
"""
