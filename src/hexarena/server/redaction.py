"""Seat tokens never reach a log line.

A person's seat socket carries its token in the URL (``/ws?token=``: Hivemaker's protocol; ``/api/play?token=``:
the web UI), and uvicorn logs every socket with its path and query (``"WebSocket /api/play?token=..."
[accepted]`` at INFO, the handshake's ``< GET ...`` at DEBUG, the whole ASGI scope at TRACE); anyone reading the
logs could then play that seat. :func:`redact_tokens_in_logs` puts a filter on the loggers that write request
paths, which blanks the value of every ``token=`` before the line is formatted by any handler. Logger filters,
not handler ones, so it holds whatever logging configuration uvicorn or the operator installs (``dictConfig``
keeps a logger's filters).
"""

from __future__ import annotations

import logging
import re

#: The loggers that write request paths: uvicorn's protocols (the websockets library logs through
#: ``uvicorn.error`` there), its access log, its TRACE message logger, and the websockets library's own logger.
PATH_LOGGERS = ("uvicorn.error", "uvicorn.access", "uvicorn.asgi", "websockets.server")
#: What replaces a token's value.
REDACTED = "[redacted]"

_TOKEN = re.compile(r"(token=)[^&\s'\"]+", re.IGNORECASE)


class RedactTokens(logging.Filter):
    """Rewrites a record whose message carries ``token=VALUE`` so that it carries ``token=[redacted]``."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            text = record.getMessage()
        except Exception:  # a malformed record is logging's own business (it reports it when formatting)
            return True
        if "token=" in text.lower():
            record.msg = _TOKEN.sub(r"\1" + REDACTED, text)
            record.args = None
        return True


_FILTER = RedactTokens()


def redact_tokens_in_logs() -> None:
    """Install the filter on :data:`PATH_LOGGERS` (once: calling again changes nothing)."""
    for name in PATH_LOGGERS:
        logger = logging.getLogger(name)
        if _FILTER not in logger.filters:
            logger.addFilter(_FILTER)
