"""The hand's and the settings' messages exist in English and Italian with the same placeholders,
and every key the engine uses is in the catalogues."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LOCALES = ROOT / "engine" / "locales"


def _fields(template: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(template) if f}


@pytest.mark.parametrize("domain", ["hand", "settings"])
def test_italian_has_every_english_message_with_the_same_placeholders(domain: str) -> None:
    en = json.loads((LOCALES / f"{domain}.en.json").read_text(encoding="utf-8"))
    it = json.loads((LOCALES / f"{domain}.it.json").read_text(encoding="utf-8"))
    assert set(en) == set(it)
    for key, template in en.items():
        assert _fields(template) == _fields(it[key]), key


@pytest.mark.parametrize(("domain", "prefix"), [("hand", "play"), ("settings", "settings")])
def test_every_key_the_engine_names_is_in_the_catalogue(domain: str, prefix: str) -> None:
    en = json.loads((LOCALES / f"{domain}.en.json").read_text(encoding="utf-8"))
    used: set[str] = set()
    for path in (ROOT / "engine").glob("*.py"):
        text = path.read_text(encoding="utf-8")
        used |= set(re.findall(rf'"({prefix}\.[a-z_.]+[a-z_])"', text))
    assert used, "no keys found"
    assert used - set(en) == set()
