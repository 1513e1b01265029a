"""The runnable examples in the hand engine's docstrings stay true."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "engine.variants", "engine.settings", "engine.events", "engine.pots", "engine.prompt",
    "engine.betting", "engine.hand", "engine.phh", "engine.beats", "engine.deck",
    "engine.pokerstars", "engine.odds",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0
    assert result.failed == 0
