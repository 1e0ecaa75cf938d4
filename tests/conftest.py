"""Shared fixtures for the rule tests; the builders live in ``helpers.py``."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

sys.path.insert(0, str(Path(__file__).parent))

# Rule properties stay quick: a modest number of examples, no deadline (CI machines vary).
settings.register_profile("hkk", max_examples=50, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("hkk")


class FakeTime:
    """An injectable time source for :class:`hkk.clock.GameClock` (41.7): tests move time."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def fake_time() -> FakeTime:
    return FakeTime()
