"""The web UI's API-token handling (``web/js/api.js``) against a real public server, run by node.

No browser here: node runs the page's own ``api.js`` module with ``localStorage`` and ``prompt`` supplied, and
``fetch`` pointed at the server (the page posts to relative paths). The first create is refused (401), the page
asks once, retries with ``Authorization: Bearer``, keeps the token and sends it from then on; a token the server
refuses is forgotten; a cancelled prompt gives the server's message as the error.
"""

from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path

import pytest

from fakes.servers import serve_app
from hexarena.server.app import Settings, create_app

API_JS = Path(__file__).resolve().parents[2] / "src" / "hexarena" / "web" / "js" / "api.js"
MATCH = {"game": "numberwang", "players": ["builtin:random", "builtin:random"]}

SCRIPT = """
const [base, good, apiJs, match] = process.argv.slice(1);
const kept = new Map();
globalThis.localStorage = {
  getItem: (k) => (kept.has(k) ? kept.get(k) : null),
  setItem: (k, v) => kept.set(k, String(v)),
  removeItem: (k) => kept.delete(k),
};
const answers = [];
const prompts = [];
globalThis.prompt = (message) => { prompts.push(message); return answers.length ? answers.shift() : null; };
const sent = [];
const realFetch = globalThis.fetch;
globalThis.fetch = (path, options) => { sent.push(options.headers.Authorization || ""); return realFetch(base + path, options); };
const { postJSON } = await import(apiJs);
const out = {};
answers.push(good);
out.first = { game: (await postJSON("/api/matches", JSON.parse(match))).game_id, sent: sent.splice(0), prompts: prompts.splice(0), kept: localStorage.getItem("hexarena.apiToken") };
out.second = { game: (await postJSON("/api/matches", JSON.parse(match))).game_id, sent: sent.splice(0), prompts: prompts.splice(0) };
localStorage.setItem("hexarena.apiToken", "hxa_revoked");
try { await postJSON("/api/matches", JSON.parse(match)); out.cancel = "no error"; }
catch (e) { out.cancel = { error: e.message, sent: sent.splice(0), prompts: prompts.length, kept: localStorage.getItem("hexarena.apiToken") }; }
console.log(JSON.stringify(out));
"""


async def test_the_page_asks_for_a_token_once_and_sends_it(migrated_sqlite_url: str) -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node not found; this test runs the UI's api.js with it")
    app = create_app(Settings(database_url=migrated_sqlite_url, public=True, create_rate_limit=None))
    async with serve_app(app) as url:
        _, token = await app.state.services.store.create_api_token("browser")
        proc = await asyncio.create_subprocess_exec(
            node,
            "--input-type=module",
            "-e",
            SCRIPT,
            url,
            token,
            API_JS.as_uri(),
            json.dumps(MATCH),
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        out, err = await asyncio.wait_for(proc.communicate(), 60)
    assert proc.returncode == 0, err.decode()
    result = json.loads(out)
    first = result["first"]
    assert first["game"] and first["sent"] == ["", f"Bearer {token}"] and first["kept"] == token, first
    assert len(first["prompts"]) == 1 and "hexarena token create" in first["prompts"][0], first
    second = result["second"]
    assert second["game"] and second["sent"] == [f"Bearer {token}"] and second["prompts"] == [], second
    cancel = result["cancel"]
    assert cancel["sent"] == ["Bearer hxa_revoked"] and cancel["prompts"] == 1 and cancel["kept"] is None, cancel
    assert "unknown or revoked API token" in cancel["error"], cancel
