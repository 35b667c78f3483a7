"""Run only by tests/test_suite_hygiene.py (the name keeps it out of the suite): quick and ``slow`` tests
interleaved, in the order they are collected."""

from __future__ import annotations

import pytest


def test_quick_collected_first() -> None:
    pass


@pytest.mark.slow
def test_slow_collected_second() -> None:
    pass


def test_quick_collected_third() -> None:
    pass


@pytest.mark.slow
def test_slow_collected_last() -> None:
    pass
