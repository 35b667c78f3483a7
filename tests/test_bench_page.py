"""docs/benchmarks.md is written by tools/bench_page.py and has a row for every benchmark under bench/: a new
benchmark without a row (or without an entry in the script) fails here."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def bench_page() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_page", ROOT / "tools" / "bench_page.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_page"] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module


def benchmarks() -> set[str]:
    """bench/*.py without the Makefile's BENCH_HELPERS, read here on its own (not through the script)."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    helpers = set(re.search(r"^BENCH_HELPERS\s*:=(.*)$", makefile, re.M).group(1).split())  # type: ignore[union-attr]
    return {f"bench/{p.name}" for p in (ROOT / "bench").glob("*.py")} - helpers


def test_the_page_has_a_row_for_every_benchmark() -> None:
    page = (ROOT / "docs" / "benchmarks.md").read_text(encoding="utf-8")
    rows = set(re.findall(r"^\| `(bench/\w+\.py)` \|", page, re.M))
    assert benchmarks() - rows == set(), "run tools/bench_page.py: docs/benchmarks.md lacks these"
    assert rows - benchmarks() == set(), "docs/benchmarks.md lists benchmarks that are gone"
    assert "Written by `tools/bench_page.py`" in page
    assert re.search(r"Last run: \d{4}-\d\d-\d\d", page) and "cores" in page


def test_the_script_knows_every_benchmark_and_each_row_names_its_command() -> None:
    module = bench_page()
    assert {f"bench/{n}.py" for n in module.BENCHES} == benchmarks()
    page = (ROOT / "docs" / "benchmarks.md").read_text(encoding="utf-8")
    for name in module.BENCHES:
        assert "`" + " ".join(module.command(name)) + "`" in page, name


def test_the_figure_is_the_benchmarks_own_lines_with_its_peer() -> None:
    module = bench_page()
    out = (
        "Hex 11x11, random games\n  hexarena public API, C accelerator   23178 games/s\n"
        "  hexarena public API, pure Python   5328 games/s\n  OpenSpiel apply_action loop   6649 games/s\n"
        "cores on this machine: 2, load average 3.0\n"
    )
    assert module.figure("hex_engine", out) == (
        "hexarena public API, C accelerator 23178 games/s; OpenSpiel apply_action loop 6649 games/s"
    )
    assert module.figure("machine_speed", "a\nb 12 µs a unit\n") == "b 12 µs a unit"
    assert module.figure("machine_speed", "x\n[stopped after 240 s]") == "[stopped after 240 s]"
    assert module.figure("hex_engine", "a new output format\n").startswith("no output line matched /")


def test_a_benchmark_without_an_entry_is_refused_by_name(tmp_path: Path) -> None:
    helpers = ROOT / "tools" / "bench_page.py"
    out = subprocess.run(
        [sys.executable, str(helpers), "--only", "nope"], capture_output=True, text=True, cwd=ROOT, timeout=60
    )
    assert out.returncode == 2 and "no benchmark nope under bench/" in out.stderr
