"""An HTTTX bot server declaring bws *without* ``free_setup``, and stateless: run as
``python no_free_setup_bot.py PORT``. Over bws it can only start from the opening, so a match taken over in its
middle plays on only over the protocol its spec named (stateless), never over a bws guessed from its bare URL."""

from __future__ import annotations

import sys

from hexarena.bots.sdk import bot_class_for, run
from hexarena.bots.sdk.capabilities import Capabilities

Heuristic = bot_class_for("heuristic")


class OpeningOnlyBot(Heuristic):  # type: ignore[misc,valid-type]
    @classmethod
    def capabilities(cls) -> Capabilities:
        caps = super().capabilities()
        assert caps.basic_websocket is not None and caps.basic_websocket.versions.v1_alpha is not None
        bws = caps.basic_websocket.versions.v1_alpha.model_copy(update={"free_setup": False})
        caps.basic_websocket.versions.v1_alpha = bws
        return caps


if __name__ == "__main__":
    run(OpeningOnlyBot, host="127.0.0.1", port=int(sys.argv[1]))
