"""Fixtures shared by the suite: a real mosquitto broker on a free port."""

from __future__ import annotations

import os

import pytest

from firmware_bridge.referee.broker import MOSQUITTO, Mosquitto


@pytest.fixture
def mosquitto():
    """A fresh anonymous mosquitto on 127.0.0.1:<free port>, stopped after the test."""
    if not os.access(MOSQUITTO, os.X_OK):
        pytest.skip("mosquitto is not installed")
    broker = Mosquitto().start()
    yield broker
    broker.cleanup()
