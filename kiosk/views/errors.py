"""Every refusal answered in words, and the headers every answer carries.

A JSON route (``/api/...``, or a request that sent JSON) gets ``{"ok": false, "error": "...",
"kind": "..."}``; a page gets a short page in the screen's language; the status follows
:data:`kiosk.errors.STATUS`. No answer shows a Python internal or echoes the request.
"""

from __future__ import annotations

import logging

from flask import Flask, jsonify, render_template, request
from flask_wtf.csrf import CSRFError
from sqlalchemy.exc import SQLAlchemyError
from werkzeug.exceptions import HTTPException, InternalServerError
from werkzeug.wrappers import Response

from kiosk.errors import STATUS, Kind, KioskError, answer, status_of
from kiosk.i18n import current_lang

log = logging.getLogger(__name__)

#: werkzeug's statuses, as the kiosk's kinds of refusal
HTTP_KINDS: dict[int, tuple[Kind, str]] = {
    400: (Kind.UNREADABLE, "error.bad_request"),
    403: (Kind.DEALER_ONLY, "error.dealer_only"),
    404: (Kind.MISSING, "error.missing"),
    405: (Kind.REFUSED, "error.method"),
    413: (Kind.TOO_LARGE, "error.too_large"),
}

#: no other site may show the kiosk's pages in a frame (the dealer's controls least of all)
SECURITY_HEADERS = {
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": "frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}


def _wants_json() -> bool:
    return request.path.startswith("/api/") or request.is_json


def refuse(error: BaseException) -> tuple[Response | str, int]:
    """The answer to ``error``: JSON for programs, a page for screens."""
    lang = current_lang()
    status = status_of(error)
    if _wants_json():
        return jsonify(answer(error, lang)), status
    body = answer(error, lang)
    return render_template("error.html", message=body["error"]), status


def init_app(app: Flask) -> None:
    @app.errorhandler(KioskError)
    def kiosk_error(error: KioskError) -> tuple[Response | str, int]:
        return refuse(error)

    @app.errorhandler(CSRFError)
    def csrf_error(_error: CSRFError) -> tuple[Response | str, int]:
        return refuse(KioskError("error.csrf", Kind.UNREADABLE))

    @app.errorhandler(SQLAlchemyError)
    def store_error(error: SQLAlchemyError) -> tuple[Response | str, int]:
        from kiosk.entries import store_refusal

        log.error("the store refused a write: %s", error)
        return refuse(store_refusal(error))

    @app.errorhandler(InternalServerError)
    def internal(error: InternalServerError) -> tuple[Response | str, int]:
        original = getattr(error, "original_exception", None)
        if isinstance(original, KioskError):
            return refuse(original)
        refusal = KioskError("error.internal", Kind.UNAVAILABLE)
        page, _status = refuse(refusal)
        return page, 500

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> tuple[Response | str, int] | HTTPException:
        code = error.code or 500
        if code not in HTTP_KINDS:
            return error
        kind, key = HTTP_KINDS[code]
        most = app.config.get("MAX_CONTENT_LENGTH") or 0
        page, _status = refuse(KioskError(key, kind, most=most // 1024))
        return page, code

    @app.after_request
    def headers(response: Response) -> Response:
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        return response

    assert set(STATUS) == set(Kind)
