"""What the recognition tests share: one recogniser's networks, loaded once for a process."""

from __future__ import annotations

import pytest

from hardware.camera.recognize import Recognizer


@pytest.fixture(scope="session")
def recognizer() -> Recognizer:
    """A recogniser at its threshold, loaded once for the tests of a process (read it only from
    the test's own thread; ``Recognizer.using`` reads with other settings)."""
    return Recognizer()


@pytest.fixture(scope="session")
def reader(recognizer: Recognizer) -> Recognizer:
    """The same networks reporting every reading, whatever its confidence, so that thresholds
    can be applied after."""
    return recognizer.using(recognizer.params, min_confidence=0.0)
