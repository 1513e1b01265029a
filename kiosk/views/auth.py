"""The dealer PIN: set once at first start, asked for a dealer session, changed by the dealer.

How guesses are slowed down and how sessions end is :mod:`kiosk.security`; these are its pages.
"""

from __future__ import annotations

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
from werkzeug.wrappers import Response

from kiosk.i18n import t
from kiosk.security import PIN_KEY, PIN_MAX, PIN_MIN, DealerSessions, PinGuard, pin_problem
from kiosk.store import Store

bp = Blueprint("auth", __name__)

F = TypeVar("F", bound=Callable[..., Any])

__all__ = [
    "PIN_KEY", "bp", "dealer_required", "is_dealer", "pin_is_set", "pin_problem", "set_pin",
]


def _store() -> Store:
    return cast(Store, current_app.extensions["stud_store"])


def guard() -> PinGuard:
    return cast(PinGuard, current_app.extensions["stud_pin_guard"])


def sessions() -> DealerSessions:
    return cast(DealerSessions, current_app.extensions["stud_dealer_sessions"])


def pin_is_set(store: Store) -> bool:
    return bool(store.get(PIN_KEY))


def set_pin(store: Store, pin: str) -> None:
    """Store ``pin`` (replacing any PIN): for a kiosk being set up by a program or a test."""
    from werkzeug.security import generate_password_hash

    from kiosk.security import SecuritySettings

    store.put(PIN_KEY, generate_password_hash(pin, method=SecuritySettings().pin_method))


def is_dealer() -> bool:
    """Whether this request comes with a dealer session of the current generation (and, if so,
    the dealer has just done something: the idle time starts again)."""
    if not sessions().valid(session):
        return False
    sessions().touch()
    return True


def _begin_dealer_session() -> None:
    lang = session.get("lang")
    session.clear()
    session.update(sessions().grant())
    if lang:
        session["lang"] = lang
    session.permanent = True
    from kiosk.live import watch_idle

    watch_idle()


def _end_session() -> None:
    lang = session.get("lang")
    session.clear()
    if lang:
        session["lang"] = lang


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


def _client() -> str:
    return request.remote_addr or "?"


@bp.route("/pin/new", methods=["GET", "POST"])
def new_pin() -> Response | tuple[str, int] | str:
    if pin_is_set(_store()):
        return redirect(url_for("auth.login"))
    error = None
    if request.method == "POST":
        pin = request.form.get("pin", "").strip()
        again = request.form.get("pin_again", "").strip()
        error = pin_problem(pin) or (None if pin == again else "pin.mismatch")
        if error is None:
            if not _store().create(PIN_KEY, guard().hash(pin)):
                # another screen set the first PIN meanwhile: it is the dealer's, not this one
                _end_session()
                return render_template("login.html", error=t("pin.exists")), 409
            _begin_dealer_session()
            return redirect(url_for("setup.index"))
    return render_template("pin_new.html", error=error and t(error, min=PIN_MIN, max=PIN_MAX))


@bp.route("/login", methods=["GET", "POST"])
def login() -> Response | tuple[str, int]:
    if not pin_is_set(_store()):
        return redirect(url_for("auth.new_pin"))
    error = None
    status = 200
    if request.method == "POST":
        attempt = guard().attempt(_client())
        if isinstance(attempt, float):
            error, status = t("pin.locked", seconds=int(attempt + 0.999)), 429
        elif guard().check(request.form.get("pin", "").strip()):
            attempt.succeeded()
            _begin_dealer_session()
            return redirect(_safe_next(request.args.get("next")))
        else:
            error, status = t("pin.wrong"), 401
    return render_template("login.html", error=error), status


@bp.route("/pin/change", methods=["GET", "POST"])
@dealer_required
def change_pin() -> Response | tuple[str, int]:
    """A new PIN (the current one asked again): every other dealer session ends."""
    error = None
    status = 200
    if request.method == "POST":
        attempt = guard().attempt(_client())
        pin = request.form.get("pin", "").strip()
        again = request.form.get("pin_again", "").strip()
        if isinstance(attempt, float):
            error, status = t("pin.locked", seconds=int(attempt + 0.999)), 429
        elif not guard().check(request.form.get("current", "").strip()):
            error, status = t("pin.wrong"), 401
        else:
            attempt.succeeded()
            key = pin_problem(pin) or (None if pin == again else "pin.mismatch")
            if key is not None:
                error, status = t(key, min=PIN_MIN, max=PIN_MAX), 422
            else:
                _store().put(PIN_KEY, guard().hash(pin))
                sessions().revoke("pin")
                _begin_dealer_session()
                return redirect(url_for("setup.index"))
    return render_template("pin_change.html", error=error, min=PIN_MIN, max=PIN_MAX), status


@bp.route("/logout", methods=["POST"])
def logout() -> Response:
    """The dealer screen's *Lock*: every dealer session ends, on every screen, at once."""
    if is_dealer():
        sessions().revoke("lock")
    _end_session()
    return redirect(url_for("auth.login"))


@bp.route("/lang/<code>", methods=["POST"])
def set_lang(code: str) -> Response:
    from engine.i18n import LANGUAGES

    if code in LANGUAGES:
        session["lang"] = code
    return redirect(_safe_next(request.form.get("next")))
