"""The dealer PIN: set at first start (stored as a werkzeug hash), asked for a dealer session."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar, cast

from flask import (
    Blueprint,
    current_app,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from werkzeug.security import check_password_hash, generate_password_hash
from werkzeug.wrappers import Response

from kiosk.i18n import t
from kiosk.store import Store

bp = Blueprint("auth", __name__)

PIN_KEY = "dealer_pin_hash"
PIN_MIN, PIN_MAX = 4, 8
LOCKOUT_AFTER, LOCKOUT_SECONDS = 5, 30.0

F = TypeVar("F", bound=Callable[..., Any])

_failures_lock = threading.Lock()


def _failures() -> dict[str, list[float]]:
    """Wrong-PIN times per client address, kept per app."""
    return cast(dict[str, list[float]], current_app.extensions.setdefault("stud_pin_failures", {}))


def _store() -> Store:
    return cast(Store, current_app.extensions["stud_store"])


def pin_is_set(store: Store) -> bool:
    return bool(store.get(PIN_KEY))


def pin_problem(pin: str) -> str | None:
    """The message key saying why ``pin`` cannot be a PIN, or None when it can."""
    if not pin.isdigit() or not PIN_MIN <= len(pin) <= PIN_MAX:
        return "pin.rule"
    return None


def set_pin(store: Store, pin: str) -> None:
    store.put(PIN_KEY, generate_password_hash(pin))


def check_pin(store: Store, pin: str) -> bool:
    stored = store.get(PIN_KEY)
    return bool(stored) and check_password_hash(str(stored), pin)


def is_dealer() -> bool:
    return bool(session.get("dealer"))


def dealer_required(view: F) -> F:
    """Send anyone without a dealer session to the PIN page (or to set a PIN at first start)."""

    @wraps(view)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        if not pin_is_set(_store()):
            return redirect(url_for("auth.new_pin"))
        if not is_dealer():
            return redirect(url_for("auth.login", next=request.full_path.rstrip("?")))
        return view(*args, **kwargs)

    return cast(F, wrapped)


def _safe_next(target: str | None) -> str:
    if target and target.startswith("/") and not target.startswith("//"):
        return target
    return url_for("dealer.index")


@bp.route("/pin/new", methods=["GET", "POST"])
def new_pin() -> Response | str:
    if pin_is_set(_store()):
        return redirect(url_for("auth.login"))
    error = None
    if request.method == "POST":
        pin = request.form.get("pin", "").strip()
        again = request.form.get("pin_again", "").strip()
        error = pin_problem(pin) or (None if pin == again else "pin.mismatch")
        if error is None:
            set_pin(_store(), pin)
            session.clear()
            session["dealer"] = True
            session.permanent = True
            return redirect(url_for("setup.index"))
    return render_template("pin_new.html", error=error and t(error, min=PIN_MIN, max=PIN_MAX))


@bp.route("/login", methods=["GET", "POST"])
def login() -> Response | str:
    if not pin_is_set(_store()):
        return redirect(url_for("auth.new_pin"))
    error = None
    status = 200
    if request.method == "POST":
        who = request.remote_addr or "?"
        now = time.monotonic()
        with _failures_lock:
            recent = [s for s in _failures().get(who, []) if now - s < LOCKOUT_SECONDS]
            _failures()[who] = recent
        if len(recent) >= LOCKOUT_AFTER:
            error, status = t("pin.locked", seconds=int(LOCKOUT_SECONDS)), 429
        elif check_pin(_store(), request.form.get("pin", "").strip()):
            with _failures_lock:
                _failures().pop(who, None)
            lang = session.get("lang")
            session.clear()
            session["dealer"] = True
            if lang:
                session["lang"] = lang
            session.permanent = True
            return redirect(_safe_next(request.args.get("next")))
        else:
            with _failures_lock:
                _failures().setdefault(who, []).append(now)
            error, status = t("pin.wrong"), 401
    return render_template("login.html", error=error), status  # type: ignore[return-value]


@bp.route("/logout", methods=["POST"])
def logout() -> Response:
    lang = session.get("lang")
    session.clear()
    if lang:
        session["lang"] = lang
    return redirect(url_for("auth.login"))


@bp.route("/lang/<code>", methods=["POST"])
def set_lang(code: str) -> Response:
    from engine.i18n import LANGUAGES

    if code in LANGUAGES:
        session["lang"] = code
    return redirect(_safe_next(request.form.get("next")))
