"""The server's error answers: every client mistake becomes a 4xx whose JSON says what was wrong, in a few
hundred characters, whatever the client sent.

Why own handlers: FastAPI's default 422 echoes each bad ``input`` whole (a 10 MB field comes back as a 10 MB
answer) and cannot serialise NaN, Infinity or a lone surrogate, so exactly the worst inputs turned into 500s.
Here every string in an error answer is cut to :data:`MAX_ECHO` characters and escaped to valid Unicode, and
non-finite numbers are written as text. The store's own refusals keep their meaning (400 for a value it
refuses, 409 for a conflict, 404 for a missing record); a database failure is logged and answered 503 without
the driver's text, which is no business of the client's. :func:`install` also caps request bodies
(``hexarena.server.body_limit``).
"""

from __future__ import annotations

import logging
import math
from collections.abc import Mapping
from typing import Any

from fastapi import FastAPI
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from hexarena.core.errors import ConfigError
from hexarena.server.body_limit import BodySizeLimit
from hexarena.server.schemas import MAX_BODY_BYTES
from hexarena.store.errors import Conflict, InvalidRecord, NotFound, StoreError
from hexarena.store.recorder import StoreUnavailable

log = logging.getLogger(__name__)

#: Characters of any one string an error answer quotes (a bad input, a message).
MAX_ECHO = 300
#: Items of a list or mapping an error answer shows, and how deep it goes.
MAX_ITEMS = 20
MAX_DEPTH = 6


def safe(value: Any, depth: int = 0) -> Any:
    """``value`` as small, strict JSON: strings cut to MAX_ECHO characters with lone surrogates escaped
    (``\\ud800`` as text), NaN and Infinity as strings, containers cut to MAX_ITEMS, anything else as its str."""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int):  # str() of a huge int is slow, and refused past 4300 digits
        return value if abs(value) < 10**18 else f"an integer of {value.bit_length()} bits"
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, str):
        return _cut(value)
    if depth >= MAX_DEPTH:
        return "..."
    if isinstance(value, Mapping):
        items = list(value.items())
        out = {_cut(str(k)): safe(v, depth + 1) for k, v in items[:MAX_ITEMS]}
        if len(items) > MAX_ITEMS:
            out["..."] = f"{len(items) - MAX_ITEMS} more"
        return out
    if isinstance(value, (list, tuple)):
        shown = [safe(v, depth + 1) for v in value[:MAX_ITEMS]]
        return shown + ([f"... {len(value) - MAX_ITEMS} more"] if len(value) > MAX_ITEMS else [])
    return _cut(str(value))


def _cut(text: str) -> str:
    if len(text) > MAX_ECHO:
        text = f"{text[:MAX_ECHO]}... ({len(text)} characters)"
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def error_response(status: int, detail: Any, headers: Mapping[str, str] | None = None) -> JSONResponse:
    """``{"detail": ...}`` made safe (see :func:`safe`)."""
    return JSONResponse(status_code=status, content={"detail": safe(detail)}, headers=dict(headers or {}))


_MESSAGES = {
    # pydantic's words for a string that is not valid Unicode (it holds a lone surrogate)
    "string_unicode": "Input should be valid Unicode: it contains a lone surrogate (e.g. \\ud800)",
}


def _validation_error(error: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {
        "type": str(error.get("type", "")),
        "loc": [p if isinstance(p, int) else _cut(str(p)) for p in error.get("loc", ())][:MAX_ITEMS],
        "msg": _MESSAGES.get(str(error.get("type")), _cut(str(error.get("msg", "")))),
    }
    if "input" in error:
        out["input"] = safe(error["input"], MAX_DEPTH - 2)
    if error.get("ctx"):
        out["ctx"] = safe(error["ctx"], MAX_DEPTH - 1)
    return out


async def validation_failed(request: Request, exc: Exception) -> Response:
    """422 in FastAPI's shape (``detail``: a list of ``{type, loc, msg, input, ctx}``), safe and small."""
    errors = exc.errors() if isinstance(exc, RequestValidationError) else []
    return JSONResponse(status_code=422, content={"detail": [_validation_error(e) for e in errors[:MAX_ITEMS]]})


#: FastAPI's words for a body ``json.loads`` refused otherwise than by a syntax error (its cause says why).
_UNPARSED = "There was an error parsing the body"


async def http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    if exc.status_code in (204, 304):
        return Response(status_code=exc.status_code, headers=exc.headers)
    detail = exc.detail
    if detail == _UNPARSED and exc.__cause__ is not None:  # e.g. invalid UTF-8, nesting too deep, a huge integer
        detail = f"the body is not usable JSON: {type(exc.__cause__).__name__}: {exc.__cause__}"
    return error_response(exc.status_code, detail, exc.headers)


async def config_error(request: Request, exc: Exception) -> Response:
    return error_response(400, str(exc))


async def store_error(request: Request, exc: Exception) -> Response:
    """The store's refusals keep their meaning; anything else is the database's failure, not the client's."""
    if isinstance(exc, InvalidRecord):
        return error_response(400, str(exc))
    if isinstance(exc, Conflict):
        return error_response(409, str(exc))
    if isinstance(exc, NotFound):
        return error_response(404, str(exc))
    log.error("%s %s: %s", request.method, request.url.path, exc)
    return error_response(503, "the database failed to answer; the error is in the server's log")


async def store_unavailable(request: Request, exc: Exception) -> Response:
    """The database can't record a new game: refuse it (no ghost match) and say when to come back."""
    return JSONResponse(status_code=503, content={"detail": str(exc)}, headers={"Retry-After": "5"})


def install(app: FastAPI) -> None:
    """Install the handlers above (replacing FastAPI's) and the request body cap on ``app``."""
    app.add_exception_handler(RequestValidationError, validation_failed)
    app.add_exception_handler(HTTPException, http_error)
    app.add_exception_handler(ConfigError, config_error)
    app.add_exception_handler(StoreError, store_error)
    app.add_exception_handler(StoreUnavailable, store_unavailable)
    app.add_middleware(BodySizeLimit, limit=MAX_BODY_BYTES)


__all__ = ["MAX_ECHO", "error_response", "install", "safe"]
