"""Player adapters: one module per wire protocol, each turning wire messages into the ``Player`` interface.

The interface itself (requests, replies, match info, clocks, how a match ends) is the player-referee contract,
``hexarena.core.contract``. Importing this package registers every built-in player spec scheme (``builtin:``,
``bws:``, ``uais:``...).
"""

from hexarena.players import hiveai, htp, spec, uais, uhp  # noqa: F401  (register their schemes)
