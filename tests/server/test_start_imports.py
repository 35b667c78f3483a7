"""What ``hexarena serve`` imports before it answers: a request needs none of alembic (with mako), strawberry,
the Redis client or ray, so a start without --redis-url, on a database at the newest schema,
imports none of them. Checked in fresh interpreters (``sys.modules``), not by timing."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from procs import ServeProcess

HEAVY = ("alembic", "mako", "strawberry", "redis", "ray")


def heavy_imported(code: str) -> list[str]:
    """The HEAVY packages imported after running ``code`` in a fresh interpreter."""
    probe = f"import sys, json\n{code}\nprint(json.dumps(sorted({{m.split('.')[0] for m in sys.modules}})))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    loaded = json.loads(done.stdout.strip().splitlines()[-1])
    return [name for name in HEAVY if name in loaded]


def test_what_serve_imports_pulls_in_no_heavy_package() -> None:
    code = (
        "import hexarena.cli\n"
        "from hexarena.server.app import Settings, create_app\n"
        "from hexarena.server.serving import ArenaServer, server_config\n"
        "from hexarena.store.recorder import default_data_dir\n"
        "from hexarena.server.ratelimit import CreateLimiter\n"
        "CreateLimiter('60/minute')\n"
    )
    assert heavy_imported(code) == []


def test_opening_a_store_at_the_newest_schema_needs_no_alembic(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'a.sqlite3'}"
    opening = f"import asyncio\nfrom hexarena.store import Store\nasync def go():\n    store = await Store.open({url!r})\n    await store.close()\nasyncio.run(go())\n"
    assert "alembic" in heavy_imported(opening)  # a new file: its schema is made by the migrations
    assert heavy_imported(opening) == []  # at the newest revision: nothing to migrate


def test_the_head_read_from_the_migration_files_is_alembics() -> None:
    from hexarena.store.migrate import file_head, head_revision

    assert file_head() == head_revision()


def imported_by_log(log: Path, package: str) -> bool:
    """Whether ``package`` shows in the ``-X importtime`` lines a process wrote to ``log`` so far."""
    return any(line.split("|")[-1].strip() == package for line in log.read_text().splitlines() if "|" in line)


@pytest.mark.parametrize("mode", [(), ("--public",)], ids=["local", "public"])
async def test_a_served_graphql_imports_strawberry_on_its_first_request(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mode: tuple[str, ...]
) -> None:
    """Public mode too: its token check must not ask the schema at start whether ``POST /graphql`` stays open."""
    monkeypatch.setenv("PYTHONPROFILEIMPORTTIME", "1")  # the server logs every import it makes, as it makes it
    log = tmp_path / "serve.log"
    serve = ServeProcess(f"sqlite+aiosqlite:///{tmp_path / 'a.sqlite3'}", tmp_path, log, extra=mode)
    await serve.start()
    try:
        assert (await serve.get("/api/gametypes")).status_code == 200  # the REST twin needs no strawberry
        assert imported_by_log(log, "hexarena.server.app"), "the import log is empty: its absence proves nothing"
        assert not imported_by_log(log, "strawberry"), "strawberry was imported before /graphql was asked"
        assert not imported_by_log(log, "hexarena.server.graphql.schema"), "the schema was imported at start"
        page = await serve.get("/graphql")
        assert page.status_code == 200 and "graphiql" in page.text.lower()
        answer = await serve.post("/graphql", {"query": "{ gameTypes { id title } }"})
        assert answer.status_code == 200, answer.text
        assert answer.json()["data"]["gameTypes"], answer.text
        assert imported_by_log(log, "strawberry")
    finally:
        serve.stop()
