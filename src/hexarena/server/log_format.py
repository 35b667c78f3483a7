"""``hexarena serve --log-format json``: one JSON object per line on stderr, uvicorn's access log included.

Why: a log collector (Loki, Elasticsearch, journald with a JSON parser) reads fields, not prose; a text line
whose message holds quotes or a newline cannot be split back into them. Each line is an object with ``time``
(ISO 8601, UTC, milliseconds), ``level``, ``logger`` and ``message``, then the record's extra fields
(``log.info(..., extra={"match": id})``), the request's ``client``, ``method``, ``path``, ``http_version`` and
``status`` on an access line, and ``exc`` with a traceback. ``text`` (the default) keeps the usual lines.

Logging is configured per process, so the format is too: :func:`use` sets it for the root logger (what
``hexarena`` logs) and :func:`uvicorn_log_config` gives uvicorn the matching configuration
(``server.serving.server_config``). The seat-token filter (``server.redaction``) sits on the loggers, so it
has blanked a token before either formatter sees the record.
"""

from __future__ import annotations

import json
import logging
import re
from datetime import UTC, datetime
from typing import Any

from uvicorn.config import LOGGING_CONFIG

FORMATS = ("text", "json")
#: Characters kept of a message or a traceback: one runaway line must not fill the log.
MAX_TEXT = 16_000
#: The attributes every LogRecord has: what is not among them was passed as ``extra``.
_STANDARD = frozenset(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {"message", "asctime"}
#: Extras never written: uvicorn's copy of its message with terminal colours.
_SKIPPED = frozenset({"color_message"})
_ACCESS_FIELDS = ("client", "method", "path", "http_version", "status")
#: uvicorn's access line: ``client - "METHOD path HTTP/version" status``.
_ACCESS_LINE = re.compile(r'(\S+) - "(\S+) (\S+) HTTP/([\d.]+)" (\d{3})')

_format = "text"


def _cap(text: str) -> str:
    return text if len(text) <= MAX_TEXT else text[: MAX_TEXT - 3] + "..."


def _plain(value: Any) -> Any:
    """A JSON value: as it is when it is one, else its text."""
    if value is None or isinstance(value, bool | int | float):
        return value
    if isinstance(value, str):
        return _cap(value)
    return _cap(str(value))


def _access_fields(record: logging.LogRecord, message: str) -> dict[str, Any]:
    """An access line's request fields: from the record's arguments, or, when the token filter rewrote the
    line (its arguments are gone then), from the redacted text."""
    args = record.args
    if isinstance(args, tuple) and len(args) == len(_ACCESS_FIELDS):
        return {k: _plain(a) for k, a in zip(_ACCESS_FIELDS, args, strict=True)}
    found = _ACCESS_LINE.fullmatch(message)
    if found is None:
        return {}
    fields: dict[str, Any] = dict(zip(_ACCESS_FIELDS, found.groups(), strict=True))
    fields["status"] = int(fields["status"])
    return fields


class JsonFormatter(logging.Formatter):
    """A record as one JSON object on one line (see the module docstring)."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, tz=UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": _cap(record.getMessage()),
        }
        if record.name == "uvicorn.access":
            out.update(_access_fields(record, out["message"]))
        for key, value in vars(record).items():
            if key not in _STANDARD and key not in _SKIPPED and not key.startswith("_") and key not in out:
                out[key] = _plain(value)
        if record.exc_info:
            out["exc"] = _cap(self.formatException(record.exc_info))
        if record.stack_info:
            out["stack"] = _cap(self.formatStack(record.stack_info))
        return json.dumps(out, ensure_ascii=False)


def use(fmt: str) -> None:
    """Log in ``fmt`` (``text`` or ``json``) from now on: the root logger's handlers, and uvicorn's once it
    starts with :func:`uvicorn_log_config`. ValueError for another format."""
    global _format
    if fmt not in FORMATS:
        raise ValueError(f"log format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    _format = fmt
    if fmt == "json":
        root = logging.getLogger()
        if not root.handlers:
            root.addHandler(logging.StreamHandler())
        for handler in root.handlers:
            handler.setFormatter(JsonFormatter())
        logging.captureWarnings(True)  # Python's warnings are log records too, not free text on stderr


def uvicorn_log_config() -> dict[str, Any]:
    """uvicorn's ``log_config`` for the format in use: its own default for ``text``."""
    if _format != "json":
        return LOGGING_CONFIG
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": {"()": JsonFormatter}},
        "handlers": {"stderr": {"class": "logging.StreamHandler", "formatter": "json", "stream": "ext://sys.stderr"}},
        "loggers": {
            "uvicorn": {"handlers": ["stderr"], "level": "INFO", "propagate": False},
            "uvicorn.error": {"level": "INFO"},
            "uvicorn.access": {"handlers": ["stderr"], "level": "INFO", "propagate": False},
        },
    }


def json_logs() -> bool:
    """Whether this process logs JSON lines (then free text on stderr would break the reader's parsing)."""
    return _format == "json"


__all__ = ["FORMATS", "JsonFormatter", "json_logs", "use", "uvicorn_log_config"]
