"""The servers' garbage collector settings (``hexarena.core.gc_tuning``), checked in a fresh interpreter each:
freezing and thresholds are process-wide, and a test must not change them for the rest of the run."""

from __future__ import annotations

import subprocess
import sys

import pytest

from hexarena.core.gc_tuning import FULL_THRESHOLD, MIDDLE_THRESHOLD, YOUNG_THRESHOLD


def _after_tuning(setup: str) -> str:
    code = f"import gc; {setup}; from hexarena.core.gc_tuning import tune_for_serving; tune_for_serving(); "
    code += "print(gc.get_threshold(), gc.get_freeze_count() > 0)"
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()


@pytest.mark.parametrize(
    ("setup", "expected"),
    [
        ("pass", f"({YOUNG_THRESHOLD}, {MIDDLE_THRESHOLD}, {FULL_THRESHOLD}) True"),
        ("gc.set_threshold(90000, 50, 40)", "(90000, 50, 40) True"),  # never collects more often than asked
        ("gc.set_threshold(0)", "(0, 10, 10) True"),  # a collector switched off stays off
    ],
)
def test_serving_collects_less_often_and_freezes_what_is_loaded(setup: str, expected: str) -> None:
    assert _after_tuning(setup) == expected
