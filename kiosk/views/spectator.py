"""The spectator TV: read-only, public information only, live over Socket.IO."""

from __future__ import annotations

from flask import Blueprint, render_template

bp = Blueprint("spectator", __name__)


@bp.route("/spectator")
def index() -> str:
    return render_template("spectator.html")
