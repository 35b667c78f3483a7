"""Bodies ``json.loads`` refuses for other reasons than syntax (an integer over Python's 4,300-digit limit,
nesting too deep for the parser) get a clear 400, and the keep-alive connection they came on stays usable.

Tested over one raw keep-alive TCP connection to a real server, so a reset connection is seen as one (an HTTP
client would quietly open a new connection)."""

from __future__ import annotations

import asyncio
import json

import pytest

from fakes.servers import serve_app
from hexarena.server.app import Settings, create_app

HUGE_INT = "9" * 5000
DEEP = "[" * 100_000 + "]" * 100_000


async def _exchange(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, method: str, path: str, body: bytes
) -> tuple[int, str]:
    head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    writer.write(f"{head}Content-Length: {len(body)}\r\n\r\n".encode() + body)
    await writer.drain()
    status_line = await asyncio.wait_for(reader.readline(), 30)
    assert status_line, f"{method} {path}: the connection was closed (no answer)"
    length = 0
    while (line := await asyncio.wait_for(reader.readline(), 30)) not in (b"\r\n", b""):
        name, _, value = line.decode().partition(":")
        if name.strip().lower() == "content-length":
            length = int(value)
        assert name.strip().lower() != "connection" or value.strip().lower() != "close", line
    data = await asyncio.wait_for(reader.readexactly(length), 30)
    return int(status_line.split()[1]), data.decode()


@pytest.mark.parametrize("bad", [HUGE_INT, DEEP], ids=["huge-int", "deep"])
@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/graphql", '{"query": "{ __typename }", "variables": {"n": %s}}'),
        ("/api/matches", '{"game": "htttx", "players": ["builtin:random", "builtin:random"], "params": {"n": %s}}'),
    ],
    ids=["graphql", "rest"],
)
async def test_an_unparsable_json_body_is_a_400_and_the_connection_lives_on(
    migrated_sqlite_url: str, path: str, body: str, bad: str
) -> None:
    app = create_app(Settings(database_url=migrated_sqlite_url))
    async with serve_app(app) as url:
        port = int(url.rsplit(":", 1)[1])
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            status, answer = await _exchange(reader, writer, "POST", path, (body % bad).encode())
            assert status == 400, (status, answer)
            assert "not usable JSON" in answer and ("digits" in answer or "recursion" in answer), answer
            status, answer = await _exchange(reader, writer, "POST", "/graphql", b'{"query": "{ __typename }"}')
            assert status == 200 and json.loads(answer) == {"data": {"__typename": "Query"}}, (status, answer)
        finally:
            writer.close()


@pytest.mark.parametrize("path", ["/bots/htttx", "/dots/"])
async def test_the_connect_in_protocols_refuse_deep_json_with_a_400(migrated_sqlite_url: str, path: str) -> None:
    """Their bodies are small (4 to 16 KB), still room for nesting deeper than the parser goes."""
    app = create_app(Settings(database_url=migrated_sqlite_url))
    async with serve_app(app) as url:
        reader, writer = await asyncio.open_connection("127.0.0.1", int(url.rsplit(":", 1)[1]))
        try:
            status, answer = await _exchange(reader, writer, "POST", path, ("[" * 2000 + "]" * 2000).encode())
            assert status in (400, 403) and "JSON" in answer, (status, answer)
            status, answer = await _exchange(reader, writer, "POST", "/graphql", b'{"query": "{ __typename }"}')
            assert status == 200, (status, answer)
        finally:
            writer.close()
