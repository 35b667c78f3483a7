"""Run only by tests/test_suite_hygiene.py (the name keeps it out of the suite): a test that fails and then never
finishes its teardown, as one that leaves a task that never ends does."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest


@pytest.fixture
def teardown_that_hangs() -> Iterator[None]:
    yield
    time.sleep(3600)


def test_fails_and_hangs_in_teardown(teardown_that_hangs: None) -> None:
    raise AssertionError("this test fails on purpose")
