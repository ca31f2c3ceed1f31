import pytest

from llmkit import SEAT_POLICY


@pytest.fixture
def seat_policy() -> str:
    return SEAT_POLICY
