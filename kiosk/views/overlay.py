"""The stream overlay's page, behind its secret link, and the dealer's renewal of that link.

``GET /overlay/<token>`` is the page for OBS's browser source (1920x1080, transparent): it shows
the table as it was the house's delay ago, with every hole card entered (kiosk.broadcast.overlay).
Without the right token there is nothing there (404, said in words). ``POST /overlay/token``
(dealer, form with the CSRF token) makes a new secret: the old link stops working at once.
"""

from __future__ import annotations

from flask import Blueprint, jsonify, redirect, render_template, url_for
from werkzeug.wrappers import Response

from kiosk.broadcast import broadcast
from kiosk.errors import Kind, KioskError
from kiosk.views.auth import dealer_required, is_dealer

bp = Blueprint("overlay", __name__)


@bp.route("/overlay/<token>")
def page(token: str) -> str:
    feed = broadcast().overlay
    if not feed.valid(token):
        raise KioskError("overlay.bad_token", Kind.MISSING)
    return render_template("overlay.html", token=token, delay=feed.delay())


@bp.post("/overlay/token")
@dealer_required
def renew() -> Response:
    broadcast().overlay.renew()
    return redirect(url_for("setup.index") + "#overlay")


@bp.get("/api/overlay")
def link() -> tuple[Response, int]:
    """(dealer) ``{"url": <the overlay's link>, "delay": <seconds>}``."""
    if not is_dealer():
        raise KioskError("live.need_pin", Kind.DEALER_ONLY)
    feed = broadcast().overlay
    return jsonify({"url": url_for("overlay.page", token=feed.token(), _external=True),
                    "delay": feed.delay()}), 200
