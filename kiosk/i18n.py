"""The kiosk's own words (``kiosk/locales/ui.<lang>.json``) and each screen's language."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from flask import current_app, request, session

from engine.i18n import LANGUAGES, Catalog

UI_LOCALES = Path(__file__).with_name("locales")


@cache
def ui_catalog() -> Catalog:
    return Catalog(UI_LOCALES)


def current_lang() -> str:
    """The screen's language: ``?lang=``, then the session, then the table default."""
    lang = request.args.get("lang") or session.get("lang")
    if lang in LANGUAGES:
        return str(lang)
    default = current_app.config.get("DEFAULT_LANG", "it")
    return default if default in LANGUAGES else "en"


def t(key: str, lang: str | None = None, **params: Any) -> str:
    """A UI message in ``lang`` (the current screen's language when omitted)."""
    return ui_catalog().translate(key, lang or current_lang(), **params)


def js_messages(lang: str) -> dict[str, str]:
    """Every UI message for ``lang`` with English filling any gap, for the pages' scripts."""
    merged = dict(ui_catalog().messages("en"))
    merged.update(ui_catalog().messages(lang))
    return merged
