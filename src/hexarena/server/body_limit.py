"""A cap on the size of every HTTP request body: 413 once a body passes it, before the server buffers it.

Why a middleware: FastAPI reads a JSON body whole before any model sees it, so a field's ``max_length`` cannot
stop a 10 MB upload from being read, parsed and echoed. A declared ``Content-Length`` above the cap is refused
before the app runs; a body without one (chunked) is counted as it arrives and refused at the first byte past the
cap. Routes with smaller limits of their own (battlebot, dots) keep them: this is the outer bound.
"""

from __future__ import annotations

from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send


class BodyTooLarge(HTTPException):
    """Raised from ``receive`` inside the app, so the app's HTTPException handling answers 413."""

    def __init__(self, limit: int) -> None:
        super().__init__(status_code=413, detail=f"the request body is larger than {limit} bytes, the server's limit")


class BodySizeLimit:
    """Pure ASGI middleware: HTTP bodies of at most ``limit`` bytes; WebSockets and lifespan pass untouched."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = Headers(scope=scope).get("content-length", "")
        if declared.isdigit() and int(declared) > self.limit:
            error = BodyTooLarge(self.limit)
            await JSONResponse({"detail": error.detail}, status_code=413)(scope, receive, send)
            return
        seen = 0

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise BodyTooLarge(self.limit)
            return message

        await self.app(scope, counted, send)


__all__ = ["BodySizeLimit", "BodyTooLarge"]
