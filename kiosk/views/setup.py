"""Table setup: game, stakes, house rules, seats, stacks and dealer position (between hands)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from kiosk.broadcast import broadcast
from kiosk.errors import status_of, words
from kiosk.i18n import current_lang, t
from kiosk.rotation import STAKE_KEYS, form_rotation, rotation
from kiosk.service import service
from kiosk.table_setup import (
    GAMES,
    ODD_CHIP_RULES,
    SCREEN_OPTIONS,
    TV_OPTIONS,
    parse_form,
    with_defaults,
)
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


def known_names(setup: dict[str, Any], hands: list[dict[str, Any]]) -> list[str]:
    """The players' names of the table's setup and of its recent hands, most recent first: the
    dealer picks a returning player's name from them instead of typing it."""
    names: list[str] = []
    seats = [setup["seats"]] + [h["setup"].get("settings", {}).get("seats", []) for h in hands]
    for group in seats:
        for seat in group:
            name = str(seat.get("name") or "").strip()
            number = str(seat.get("seat", seat.get("number", "")))
            if name and name != number and name not in names:
                names.append(name)
    return names[:40]


@bp.route("/", methods=["GET", "POST"])
@dealer_required
def index() -> Response | tuple[str, int] | str:
    table = service()
    problems: list[str] = []
    setup = with_defaults(table.setup())
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
            wanted, rotation_problems = form_rotation(request.form, wanted)
            problems += [p.text(lang) for p in rotation_problems]
            if table.log.book is not None:  # the night keeps the seats (the Night page)
                wanted["seats"] = setup["seats"]
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
        screen_flags=SCREEN_OPTIONS,
        tv_flags=TV_OPTIONS,
        overlay_url=url_for("overlay.page", token=broadcast().overlay.token(), _external=True),
        known_names=known_names(table.setup(), table.store.hands(table.table_id, limit=100)),
        rotation=rotation(setup),
        rotation_order=_order(setup),
        stake_keys=STAKE_KEYS,
        night_open=table.log.book is not None,
    ), status


def _order(setup: dict[str, Any]) -> list[str]:
    """The games as the rotation lists them: those in it first, in its order, then the others."""
    listed = rotation(setup)["games"]
    return [g for g in listed if g in GAMES] + [g for g in GAMES if g not in listed]
