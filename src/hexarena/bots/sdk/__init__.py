"""The HTTTX bot SDK as the arena server's users import it: ``hexarena_sdk`` (the ``hexarena-sdk`` distribution, which
a bot server installs without the arena server) re-exported, plus ``EngineBotAdapter``, which serves the server's
built-in bots through the SDK and so belongs to the server. Existing bots keep ``from hexarena.bots.sdk import ...``.
"""

import hexarena_sdk
from hexarena.bots.sdk.adapter import EngineBotAdapter, bot_class_for
from hexarena_sdk import *  # noqa: F403  (the SDK's own names, exactly as it exports them)

__all__ = ["EngineBotAdapter", "bot_class_for"]
__all__ += hexarena_sdk.__all__
