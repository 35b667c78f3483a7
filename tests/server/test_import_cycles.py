"""No import cycle among the server's modules, deferred imports and ``TYPE_CHECKING`` ones included.

An import moved into a function (or under ``TYPE_CHECKING``) to dodge a cycle still ties the two modules together:
the shared piece belongs in a module below both. Checked on the real import graph (grimp, as lint-imports reads
it) by ``tools/import_cycles.py``, run as the operator runs it.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("typing", [False, True], ids=["run-time", "with-typing"])
def test_the_server_modules_import_each_other_without_cycles(typing: bool) -> None:
    args = [
        sys.executable,
        str(ROOT / "tools" / "import_cycles.py"),
        *(["--typing"] if typing else []),
        "hexarena.server",
    ]
    out = subprocess.run(args, capture_output=True, text=True, timeout=300, check=False)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[-1] == "0 cycles", out.stdout
