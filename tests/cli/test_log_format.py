"""``hexarena serve --log-format json`` and ``--metrics-token-file`` (issue 28), on the real command.

The server runs as an operator starts it (a subprocess on a free loopback port, its own SQLite file); its stderr
is read back line by line: every line must be one JSON object with time, level, logger and message, uvicorn's
access lines carry the request's fields, and a seat token in a request's URL is blanked there as in text logs.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from serving import SRC, stop, wait_answering

from fakes.procs import free_port

SECRET = "seat-secret-which-must-never-be-logged"


#: ``hexarena serve`` started the way a non-interactive shell starts a background job (``hexarena serve &`` in a
#: script, CI): SIGINT ignored, which exec keeps and Python then leaves as it found it
SIGINT_IGNORED = (
    "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_IGN); "
    "os.execv(sys.executable, [sys.executable, '-m', 'hexarena.cli', *sys.argv[1:]])"
)


def start(tmp: Path, *extra: str, sigint_ignored: bool = False) -> tuple[subprocess.Popen[bytes], str]:
    """``hexarena serve`` with stdout and stderr apart (``tmp/stdout``, ``tmp/stderr``); waits until it answers."""
    port = free_port()
    env = dict(os.environ, PYTHONPATH=str(SRC), HEXARENA_DATA_DIR=str(tmp / "data"))
    for name in ("HEXARENA_DATABASE_URL", "HEXARENA_METRICS_TOKEN"):
        env.pop(name, None)
    cmd = [sys.executable, *(("-c", SIGINT_IGNORED) if sigint_ignored else ("-m", "hexarena.cli")), "serve"]
    cmd += ["--port", str(port)]
    cmd += ["--database-url", f"sqlite+aiosqlite:///{tmp / 'arena.sqlite3'}", *extra]
    with open(tmp / "stdout", "wb") as out, open(tmp / "stderr", "wb") as err:
        proc = subprocess.Popen(cmd, env=env, stdout=out, stderr=err, cwd=tmp)
    url = f"http://127.0.0.1:{port}"
    wait_answering(proc, url, tmp / "stderr")
    return proc, url


def interrupt(proc: subprocess.Popen[bytes]) -> None:
    """Stop it as an operator does (Ctrl-C), so its shutdown lines are logged too."""
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(60)
    finally:
        stop(proc)


@pytest.mark.parametrize("sigint_ignored", [False, True], ids=["foreground", "sigint-ignored"])
def test_json_logs_are_one_object_per_line_access_log_included(tmp_path: Path, sigint_ignored: bool) -> None:
    proc, url = start(tmp_path, "--log-format", "json", "--log-level", "info", sigint_ignored=sigint_ignored)
    try:
        assert httpx.get(f"{url}/api/matches/live", timeout=30).status_code == 200
        assert httpx.get(f"{url}/metrics", timeout=30).status_code == 200  # local mode: open
        httpx.get(f"{url}/ws?token={SECRET}", timeout=30)  # a seat token in a URL (a plain GET: refused)
    finally:
        interrupt(proc)
    text = (tmp_path / "stderr").read_text()
    assert SECRET not in text
    lines = [line for line in text.splitlines() if line.strip()]
    assert lines, "nothing logged"
    records: list[dict[str, Any]] = []
    for line in lines:
        record = json.loads(line)  # every line: one object
        assert isinstance(record, dict), line
        for key in ("time", "level", "logger", "message"):
            assert isinstance(record[key], str), (key, line)
        assert datetime.fromisoformat(record["time"]).utcoffset() is not None, line
        records.append(record)
    loggers = {r["logger"] for r in records}
    assert "uvicorn.error" in loggers, loggers  # uvicorn's own (started, shutting down)
    assert any("startup complete" in r["message"] for r in records), records
    access = [r for r in records if r["logger"] == "uvicorn.access"]
    live = [r for r in access if r.get("path") == "/api/matches/live"]
    assert live and live[0]["method"] == "GET" and live[0]["status"] == 200, access
    assert live[0]["client"].startswith("127.0.0.1"), live[0]
    assert any(r.get("path") == "/metrics" and r["status"] == 200 for r in access), access
    redacted = [r for r in access if r.get("path") == "/ws?token=[redacted]"]
    assert redacted and redacted[0]["status"] == 404 and "token=[redacted]" in redacted[0]["message"], access
    assert records[-1]["message"] == "stopped: interrupted", records[-1]  # however the server was started
    assert proc.returncode == 0  # a clean stop on Ctrl-C is a success, as uvicorn's own command has it


def test_text_logs_stay_the_default(tmp_path: Path) -> None:
    proc, url = start(tmp_path, "--log-level", "info")
    try:
        assert httpx.get(f"{url}/api/matches/live", timeout=30).status_code == 200
    finally:
        interrupt(proc)
    lines = [line for line in (tmp_path / "stderr").read_text().splitlines() if line.strip()]
    assert any("Application startup complete" in line for line in lines), lines
    assert not any(line.startswith("{") for line in lines), lines


@pytest.mark.parametrize("sigint_ignored", [False, True], ids=["foreground", "sigint-ignored"])
def test_ctrl_c_is_a_clean_stop_not_an_abort(tmp_path: Path, sigint_ignored: bool) -> None:
    """Ctrl-C is how an operator stops ``make serve``: once the shutdown is done the command says so and succeeds,
    so neither click's "Aborted!" nor make's "Error 1" makes a normal stop look like a crash."""
    proc, _ = start(tmp_path, sigint_ignored=sigint_ignored)
    interrupt(proc)
    errors = (tmp_path / "stderr").read_text()
    output = errors + (tmp_path / "stdout").read_text()
    assert "Aborted" not in output, output
    assert "Application shutdown complete" in errors, errors
    assert errors.rstrip().splitlines()[-1] == "stopped: interrupted", errors
    assert proc.returncode == 0, output


def test_public_metrics_token_from_a_file(tmp_path: Path) -> None:
    token = "prometheus-token-0123456789"
    path = tmp_path / "metrics.token"
    path.write_text(token + "\n")
    proc, url = start(tmp_path, "--public", "--metrics-token-file", str(path), "--log-format", "json")
    try:
        assert httpx.get(f"{url}/metrics", timeout=30).status_code == 401
        bad = httpx.get(f"{url}/metrics", headers={"Authorization": "Bearer nope"}, timeout=30)
        assert bad.status_code == 403
        good = httpx.get(f"{url}/metrics", headers={"Authorization": f"Bearer {token}"}, timeout=30)
        assert good.status_code == 200 and "hexarena_moves" in good.text
    finally:
        interrupt(proc)
    logged = (tmp_path / "stderr").read_text() + (tmp_path / "stdout").read_text()
    assert token not in logged
    for line in (tmp_path / "stderr").read_text().splitlines():
        json.loads(line)


def test_extra_fields_and_tracebacks_are_fields_of_the_object() -> None:
    """What hexarena's own code logs with ``extra=`` becomes fields; a traceback is one field, not more lines."""
    import io
    import logging

    from hexarena.server.log_format import MAX_TEXT, JsonFormatter

    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    log = logging.getLogger("hexarena.test_log_format")
    log.addHandler(handler)
    log.propagate = False
    try:
        log.warning("match %s ended", "m1", extra={"match": "m1", "plies": 42, "where": Path("/x"), "ok": True})
        try:
            raise ValueError("boom\nsecond line")
        except ValueError:
            log.exception("failed")
        log.warning("x" * (MAX_TEXT * 2))
    finally:
        log.removeHandler(handler)
    first, second, third = (json.loads(line) for line in stream.getvalue().splitlines())
    assert first["message"] == "match m1 ended" and first["logger"] == "hexarena.test_log_format"
    assert (first["match"], first["plies"], first["where"], first["ok"]) == ("m1", 42, "/x", True)
    assert second["level"] == "ERROR" and "ValueError: boom" in second["exc"] and "Traceback" in second["exc"]
    assert len(third["message"]) == MAX_TEXT


def test_a_refused_start_is_a_json_line_too(tmp_path: Path) -> None:
    """A start-up refusal (here an empty token file) is an ERROR record, not a plain line, and the exit is 2."""
    empty = tmp_path / "empty.token"
    empty.write_text("\n")
    env = dict(os.environ, PYTHONPATH=str(SRC), HEXARENA_DATA_DIR=str(tmp_path / "data"))
    cmd = [sys.executable, "-m", "hexarena.cli", "serve", "--port", str(free_port()), "--public"]
    cmd += ["--database-url", f"sqlite+aiosqlite:///{tmp_path / 'arena.sqlite3'}"]
    cmd += ["--metrics-token-file", str(empty), "--log-format", "json"]
    done = subprocess.run(cmd, env=env, capture_output=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 2, done
    records = [json.loads(line) for line in done.stderr.decode().splitlines() if line.strip()]
    assert [r["level"] for r in records] == ["ERROR"], records
    assert str(empty) in records[0]["message"] and "one token" in records[0]["message"], records
