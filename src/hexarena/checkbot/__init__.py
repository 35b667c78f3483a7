"""``hexarena check-bot SPEC``: a conformance run of one bot, with a verdict per check (pass, warn, fail).

Bot authors meet a protocol's rules one forfeit at a time ("the two pieces are the same cell"); this plays the
bot through hexarena's own adapters and referee, from the start and from varied positions, against ``random``
and ``best``, and says for every failure what the bot sent, what the protocol expects and how to fix it.
"""

from hexarena.checkbot.report import FAIL, PASS, SKIP, WARN, Check, Report
from hexarena.checkbot.run import check_bot

__all__ = ["FAIL", "PASS", "SKIP", "WARN", "Check", "Report", "check_bot"]
