"""Table setup: game, stakes, house rules, seats, stacks and dealer position (between hands)."""

from __future__ import annotations

from flask import Blueprint, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from kiosk.errors import status_of, words
from kiosk.i18n import current_lang, t
from kiosk.service import service
from kiosk.table_setup import GAMES, ODD_CHIP_RULES, parse_form
from kiosk.views.auth import dealer_required

bp = Blueprint("setup", __name__, url_prefix="/setup")


def label(field: str) -> str:
    """A field of the setup (``stakes.ante``, ``seats[3].stack``) as the page names it."""
    from kiosk.i18n import ui_catalog

    known = ui_catalog().messages("en")
    if field.startswith("seats[") and "]" in field:
        number, _, rest = field[len("seats["):].partition("]")
        part = rest.lstrip(".")
        words = t(f"setup.{part}") if f"setup.{part}" in known else part
        return f"{t('setup.seat')} {number} · {words}".rstrip(" ·")
    last = field.rsplit(".", 1)[-1]
    for key in (field, f"setup.{last}", f"rules.{last}"):
        if key in known:
            return t(key)
    return field


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
            lang = current_lang()
            problems = [f"{label(field)}: {problem.text(lang)}" if field else problem.text(lang)
                        for field, problem in found]
            if problems:
                setup, status = wanted, 422
            else:
                try:
                    table.configure(wanted)
                except ValueError as exc:  # the engine's word on the whole table
                    problems.append(words(exc, lang))
                    setup, status = wanted, status_of(exc)
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
