"""The dealer's touchscreen: the hand, guided by the engine's prompt (driven by Socket.IO)."""

from __future__ import annotations

from flask import Blueprint, redirect, render_template, url_for
from werkzeug.wrappers import Response

from kiosk.views.auth import dealer_required

bp = Blueprint("dealer", __name__)


@bp.route("/")
def home() -> Response:
    return redirect(url_for("dealer.index"))


@bp.route("/dealer")
@dealer_required
def index() -> str:
    return render_template("dealer.html")
