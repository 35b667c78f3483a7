"""HTTP helpers shared by every server-side protocol endpoint (and the bot SDK's server)."""

from __future__ import annotations

from starlette.requests import Request


async def read_limited_body(request: Request, limit: int) -> bytes | None:
    """The body, or None once it grows past ``limit`` bytes: a huge upload is never buffered."""
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
    return b"".join(chunks)
