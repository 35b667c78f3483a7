"""``hexarena serve`` with a PostgreSQL or Redis URL on an install without that extra stops at once with what to
install (``hexarena[postgres]``, ``hexarena[cluster]``), not with a driver's ModuleNotFoundError. Each runs in a
subprocess whose import of the driver fails, as it does where the extra is not installed."""

from __future__ import annotations

import subprocess
import sys

import pytest


def serve_without(module: str, *args: str, tmp: str) -> subprocess.CompletedProcess[str]:
    code = (
        f"import sys; sys.modules[{module!r}] = None\n"
        "from hexarena.cli import main\n"
        "main(['serve', '--port', '0', '--data-dir', sys.argv[1], *sys.argv[2:]])\n"
    )
    return subprocess.run(
        [sys.executable, "-c", code, tmp, *args], capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL
    )


@pytest.mark.parametrize(
    ("module", "args", "extra"),
    [
        ("asyncpg", ["--database-url", "postgresql://postgres@127.0.0.1:5432/test"], "hexarena[postgres]"),
        ("redis", ["--redis-url", "redis://127.0.0.1:6379"], "hexarena[cluster]"),
    ],
)
def test_a_url_whose_driver_is_missing_names_the_extra(
    module: str, args: list[str], extra: str, tmp_path: object
) -> None:
    done = serve_without(module, *args, tmp=str(tmp_path))
    assert done.returncode == 2, done.stdout[-2000:] + done.stderr[-2000:]
    assert extra in done.stderr
    assert "Traceback" not in done.stderr
