"""Message catalogues: every word the engine says to a person, in English or Italian.

Catalogues are JSON files named ``<domain>.<lang>.json`` in a folder (the engine's own are in
``engine/locales``); all domains of one language are merged. A message is a ``str.format`` template.
A key missing in a language falls back to English; a key missing everywhere is a programming error.

>>> translate("lang.name", "it")
'Italiano'
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

LANGUAGES = ("en", "it")
"""The languages every catalogue provides in full. Others (``fi``) may add a few messages."""
DEFAULT_LANGUAGE = "en"
ENGINE_LOCALES = Path(__file__).with_name("locales")


class Catalog:
    """All the messages of the ``<domain>.<lang>.json`` files in one folder."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._messages: dict[str, dict[str, str]] = {}

    def messages(self, lang: str) -> dict[str, str]:
        """Every message of ``lang`` (without fallback), loaded once."""
        if lang not in self._messages:
            merged: dict[str, str] = {}
            for path in sorted(self.folder.glob(f"*.{lang}.json")):
                data = json.loads(path.read_text(encoding="utf-8"))
                for key, value in data.items():
                    if key in merged:
                        raise ValueError(
                            f"message {key!r} is defined twice for {lang!r} ({path.name})"
                        )
                    merged[key] = value
            self._messages[lang] = merged
        return self._messages[lang]

    def get(self, key: str, lang: str = DEFAULT_LANGUAGE) -> str:
        """The template for ``key`` in ``lang``, or in English when ``lang`` lacks it."""
        for candidate in (lang, DEFAULT_LANGUAGE):
            template = self.messages(candidate).get(key)
            if template is not None:
                return template
        raise KeyError(f"no message {key!r} in {self.folder}")

    def translate(self, key: str, lang: str = DEFAULT_LANGUAGE, **params: Any) -> str:
        """The message for ``key`` in ``lang`` with ``params`` filled in."""
        return self.get(key, lang).format(**params)


@cache
def engine_catalog() -> Catalog:
    return Catalog(ENGINE_LOCALES)


def translate(key: str, lang: str = DEFAULT_LANGUAGE, **params: Any) -> str:
    """An engine message in ``lang`` (``en``, ``it``; ``fi`` where a message has it)."""
    return engine_catalog().translate(key, lang, **params)
