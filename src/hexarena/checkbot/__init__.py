"""``hexarena check-bot SPEC``: a conformance run of one bot, with a verdict per check (pass, warn, fail).

Bot authors meet a protocol's rules one forfeit at a time ("the two pieces are the same cell"); this plays the
bot through hexarena's own adapters and referee, from the start and from varied positions, against ``random``
and ``best``, and says for every failure what the bot sent, what the protocol expects and how to fix it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hexarena_sdk._lazy import lazy_exports

if TYPE_CHECKING:
    from hexarena.checkbot.report import FAIL, PASS, SKIP, WARN, Check, Report
    from hexarena.checkbot.run import check_bot

#: where each exported name lives: imported on first use, so the CLI, which imports ``hexarena.checkbot.cli`` to
#: list the command, loads the protocol adapters and the report's terminal library only when check-bot runs
_LAZY = {name: "hexarena.checkbot.report" for name in ("FAIL", "PASS", "SKIP", "WARN", "Check", "Report")} | {
    "check_bot": "hexarena.checkbot.run"
}

__all__ = ["FAIL", "PASS", "SKIP", "WARN", "Check", "Report", "check_bot"]


__getattr__ = lazy_exports(__name__, _LAZY)
