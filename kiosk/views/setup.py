"""Table setup: game, stakes, house rules, seats, stacks and dealer position (between hands)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from kiosk.i18n import current_lang, t
from kiosk.service import service
from kiosk.table_setup import GAMES, ODD_CHIP_RULES, parse_form
from kiosk.views.auth import dealer_required

bp = Blueprint("setup", __name__, url_prefix="/setup")


def _labelled(params: dict[str, Any]) -> dict[str, Any]:
    """Message parameters with a field's message key replaced by its label."""
    if "field" in params:
        return {**params, "field": t(params["field"])}
    return params


@bp.route("/", methods=["GET", "POST"])
@dealer_required
def index() -> Response | tuple[str, int] | str:
    table = service()
    problems: list[str] = []
    setup = table.setup()
    status = 200
    if request.method == "POST":
        if table.hand_running():
            problems.append(t("setup.locked"))
            status = 409
        else:
            wanted, found = parse_form(request.form, setup)
            problems = [t(key, **_labelled(params)) for key, params in found]
            if problems:
                setup, status = wanted, 400
            else:
                try:
                    table.configure(wanted)
                except ValueError as exc:  # the engine's checks, in the dealer's language
                    from kiosk.live import error_text

                    problems.append(error_text(exc, current_lang()))
                    setup, status = wanted, 400
                else:
                    return redirect(url_for("dealer.index"))
    return render_template(
        "setup.html",
        setup=setup,
        games=list(GAMES),
        odd_chip_rules=ODD_CHIP_RULES,
        problems=problems,
        hand_running=table.hand_running(),
    ), status
