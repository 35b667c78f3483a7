"""``hexarena token create/list/revoke`` through the real CLI on a SQLite file, and ``hexarena serve --public``
as an operator starts it (a real process): a token made by the CLI opens the write endpoints, a revoked one does
not, and ``--allow-bot-host`` lets a loopback bot through that is refused otherwise."""

from __future__ import annotations

import asyncio
import hashlib
import re
import sqlite3
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner
from serving import start_serve, stop

from fakes.servers import serve_app
from hexarena.bots.sdk import bot_class_for
from hexarena.bots.sdk import make_app as bot_app
from hexarena.cli import main

TOKEN = re.compile(r"hxa_[A-Za-z0-9_-]{43}")
MATCH = {"game": "numberwang", "players": ["builtin:random", "builtin:random"]}


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


async def arun(*args: str) -> tuple[int, str, str]:
    """``run`` from an async test: the command runs its own event loop, so in a thread."""
    return await asyncio.to_thread(run, *args)


def test_create_list_revoke(tmp_path: Path) -> None:
    db = tmp_path / "tokens.sqlite3"
    url = f"sqlite:///{db}"
    code, out, err = run("token", "create", "--name", "ci", "--database-url", url)
    assert code == 0, err
    token = out.strip()
    assert TOKEN.fullmatch(token), out  # stdout is the token alone: TOKEN=$(hexarena token create) works
    assert "only this once" in err and "Authorization: Bearer" in err
    code, out, err = run("token", "create", "--database-url", url)  # a generated name
    assert code == 0 and TOKEN.fullmatch(out.strip()) and out.strip() != token, (out, err)

    code, out, err = run("token", "create", "--name", "ci", "--database-url", url)
    assert code == 1 and "exists already" in err and not TOKEN.search(out + err), (out, err)

    code, out, err = run("token", "list", "--database-url", url)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].split()[:2] == ["name", "created"] and len(lines) == 3, out
    assert lines[1].startswith("ci ") and lines[1].endswith("never"), out
    assert re.fullmatch(r"token-[0-9a-f]{6}", lines[2].split()[0]), out
    assert "hxa_" not in out + err  # never a secret

    with sqlite3.connect(db) as conn:
        stored = dict(conn.execute("SELECT name, token_hash FROM api_tokens").fetchall())
    assert stored["ci"] == hashlib.sha256(token.encode()).hexdigest()
    assert token.encode() not in b"".join(p.read_bytes() for p in tmp_path.glob("tokens.sqlite3*"))

    code, _, err = run("token", "revoke", "ci", "--database-url", url)
    assert code == 0 and "revoked" in err, err
    code, _, err = run("token", "revoke", "ci", "--database-url", url)
    assert code == 1 and "no API token named 'ci'" in err, err
    code, out, _ = run("token", "list", "--database-url", url)
    assert "ci " not in out and len(out.splitlines()) == 2, out


def test_bad_names_and_flags_get_clear_errors(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 't.sqlite3'}"
    code, out, err = run("token", "create", "--name", "x" * 65, "--database-url", url)
    assert code == 1 and "1 to 64 characters" in err and not TOKEN.search(out), (out, err)
    code, _, err = run("token", "list", "--database-url", url)
    assert code == 0 and "no API tokens" in err
    code, _, err = run("serve", "--allow-bot-host", "127.0.0.1", "--database-url", url)
    assert code == 2 and "--allow-bot-host needs --public" in err, err
    code, _, err = run("serve", "--public", "--allow-bot-host", "10.0.0.0/33", "--database-url", url)
    assert code == 2 and "--allow-bot-host '10.0.0.0/33': not a network" in err, err
    code, _, err = run("serve", "--public", "--create-rate-limit", "often", "--database-url", url)
    assert code == 2 and "bad create rate limit 'often'" in err, err


@pytest.mark.slow
async def test_serve_public_with_cli_tokens_and_allowed_bot_hosts(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'arena.sqlite3'}"  # the database start_serve gives the server
    code, out, err = await arun("token", "create", "--name", "op", "--database-url", url)
    assert code == 0, err
    token = out.strip()
    auth = {"Authorization": f"Bearer {token}"}
    async with serve_app(bot_app(bot_class_for("random"))) as bot:
        htttx = {"game": "htttx", "players": [bot, "builtin:random"]}
        for allow in ((), ("--allow-bot-host", "127.0.0.1")):
            proc, server = await asyncio.to_thread(start_serve, tmp_path, "--public", *allow)
            try:
                async with httpx.AsyncClient(base_url=server, timeout=30) as client:
                    r = await client.post("/api/matches", json=MATCH)
                    assert r.status_code == 401 and "hexarena token create" in r.text, r.text
                    r = await client.post("/api/matches", json=MATCH, headers=auth)
                    assert r.status_code == 200, r.text
                    r = await client.post("/api/matches", json=htttx, headers=auth)
                    if allow:
                        assert r.status_code == 200, r.text
                    else:
                        assert r.status_code == 400 and "allow-bot-host" in r.text, r.text
            finally:
                await asyncio.to_thread(stop, proc)
        log = (tmp_path / "serve.log").read_text()
        assert "public mode" in log and "10/minute;200/hour" in log and token not in log
        code, out, _ = await arun("token", "list", "--database-url", url)
        assert code == 0 and "never" not in out.splitlines()[1], out  # its use was noted
        assert (await arun("token", "revoke", "op", "--database-url", url))[0] == 0
        proc, server = await asyncio.to_thread(start_serve, tmp_path, "--public")
        try:
            async with httpx.AsyncClient(base_url=server, timeout=30) as client:
                r = await client.post("/api/matches", json=MATCH, headers=auth)
                assert r.status_code == 401 and "revoked" in r.text, r.text
        finally:
            await asyncio.to_thread(stop, proc)
