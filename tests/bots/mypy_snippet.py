"""Type-checking a snippet with mypy itself (its API), for tests of what the type checker sees of the bots."""

from __future__ import annotations

import sys
from pathlib import Path

from mypy import api

ROOT = Path(__file__).resolve().parents[2]


def check(snippet: str, source: Path) -> tuple[list[str], list[int], str]:
    """mypy --strict's report on ``snippet`` written to ``source``: its lines, the line numbers of its errors, and
    the lines of ``snippet`` marked ``# WRONG`` (the errors a test expects), with mypy's whole output last."""
    source.write_text(snippet)
    limit = sys.getrecursionlimit()
    try:
        out, err, _ = api.run(["--strict", "--no-error-summary", "--cache-dir", str(ROOT / ".mypy_cache"), str(source)])
    finally:
        sys.setrecursionlimit(limit)  # mypy raises it for the whole process: the tests after this one keep theirs
    lines = [line for line in out.splitlines() if line.strip()]
    errors = [int(line.split(":")[1]) for line in lines if ": error:" in line]
    wrong = [n for n, line in enumerate(snippet.splitlines(), 1) if line.endswith("# WRONG")]
    return errors, wrong, out + err
