"""The suite itself: it collects the same tests in every process (so pytest-xdist's workers agree on what to run)
and a missing optional tool skips the tests that need it, with the reason, instead of stopping collection.

Each check runs pytest in a subprocess, on the few files concerned (collecting the whole suite takes a minute).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent

#: Files whose parametrize arguments are built from values made at import time (frames with masking keys).
BUILT_AT_IMPORT = ["tests/bots/sdk/test_ws_protocol.py"]


def pytest_run(*args: str, pythonpath: str | None = None) -> subprocess.CompletedProcess[str]:
    env = None if pythonpath is None else dict(os.environ, PYTHONPATH=pythonpath)
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def collected(paths: list[str]) -> list[str]:
    """The test ids pytest collects from ``paths``; without schemathesis's plugin, which makes no ids of these files
    and is much of what a pytest start costs."""
    run = pytest_run("-p", "no:schemathesis", "--collect-only", "-q", *paths)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    return [line for line in run.stdout.splitlines() if "::" in line]


def test_parametrized_ids_are_the_same_in_every_process() -> None:
    first, second = collected(BUILT_AT_IMPORT), collected(BUILT_AT_IMPORT)
    assert first and first == second, sorted(set(first) ^ set(second))


def test_without_schemathesis_the_fuzz_tests_are_skipped_with_the_reason(tmp_path: Path) -> None:
    shadow = tmp_path / "schemathesis"  # an installation without the package: importing it fails
    shadow.mkdir()
    (shadow / "__init__.py").write_text("raise ModuleNotFoundError(\"No module named 'schemathesis'\")\n")
    # (its pytest plugin goes with it)
    run = pytest_run("-p", "no:schemathesis", "-rs", "tests/server/test_fuzz_api.py", pythonpath=str(tmp_path))
    out = run.stdout + run.stderr
    assert run.returncode == 5, out[-3000:]  # collected nothing to run: no error
    assert "1 skipped" in out and "pip install -e '.[test]'" in out, out[-3000:]


def test_each_xdist_worker_gets_a_redis_database_of_its_own() -> None:
    from worker_isolation import worker_redis_url

    base = "redis://127.0.0.1:6379"
    assert worker_redis_url(base, None) == base  # serial: as given
    assert worker_redis_url(base, "gw0") == base + "/1"
    assert worker_redis_url(base + "/", "gw1") == base + "/2"
    assert worker_redis_url(base + "/7", "gw1") == base + "/7"  # a database chosen explicitly: kept
    with pytest.raises(pytest.UsageError, match="run fewer workers"):
        worker_redis_url(base, "gw15")


def test_a_failed_test_whose_teardown_hangs_is_stopped_by_the_timeout() -> None:
    """pytest-timeout stops its timer once a failure is reported; tests/conftest.py keeps it running through the
    teardown, where a task a failed test left behind can hang the whole run."""
    try:
        run = pytest_run("-p", "no:schemathesis", "--timeout", "5", "tests/data/suite/fails_then_hangs.py")
    except subprocess.TimeoutExpired:
        raise AssertionError("the failed test's teardown hung the run: no timeout stopped it") from None
    out = run.stdout + run.stderr
    assert run.returncode != 0 and "Timeout" in out and "time.sleep(3600)" in out, out[-3000:]


def run_order(*args: str) -> list[str]:
    """The names of the tests of ``slow_and_quick.py`` in the order ``pytest -v ARGS`` ran them."""
    run = pytest_run("-p", "no:schemathesis", "-v", *args, "tests/data/suite/slow_and_quick.py")
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    return [name for line in run.stdout.splitlines() if "PASSED" in line for name in re.findall(r"::(test_\w+)", line)]


def test_an_xdist_worker_runs_its_slow_tests_first_and_a_serial_run_keeps_the_collected_order() -> None:
    """A long test collected late would start last under xdist and end the run alone while the other workers idle
    (tests/conftest.py sorts a worker's ``slow`` tests to the front); a serial run keeps each module's order."""
    quick = ["test_quick_collected_first", "test_quick_collected_third"]
    slow = ["test_slow_collected_second", "test_slow_collected_last"]
    assert run_order("-n", "1", "--dist", "loadgroup") == slow + quick
    assert run_order("-p", "no:xdist") == [quick[0], slow[0], quick[1], slow[1]]
