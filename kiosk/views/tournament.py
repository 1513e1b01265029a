"""The tournament's pages and JSON routes (docs/tournament.md): the dealer's tournament screen
(every entry through ``TableService.submit`` over Socket.IO), the ready structures, the
chip-chop calculator and a tournament's record."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, abort, jsonify, render_template
from flask_wtf.csrf import generate_csrf

from kiosk.i18n import current_lang, t
from kiosk.night import CURRENCIES
from kiosk.service import service
from kiosk.tournament import Tournament
from kiosk.tournament_structure import CHIP_VALUES, READY
from kiosk.tournament_view import deal_figures, present_tournament
from kiosk.views.auth import dealer_required, is_dealer

bp = Blueprint("tournament", __name__)


@bp.get("/tournament")
@dealer_required
def page() -> str:
    return render_template("tournament.html", currencies=CURRENCIES, csrf=generate_csrf())


@bp.get("/api/tournament/structures")
def structures() -> Response:
    """The ready structures: each one's game, starting stack and levels, and the chips."""
    return jsonify({"ok": True, "structures": READY, "chip_values": CHIP_VALUES})


def _refuse(key: str, status: int) -> tuple[Response, int]:
    return jsonify({"ok": False, "error": t(key, current_lang())}), status


@bp.get("/api/tournament/deal")
def deal() -> tuple[Response, int]:
    """The chip-chop calculator for the players left: ICM and chip chop, in words."""
    if not is_dealer():
        return _refuse("live.need_pin", 403)
    table = service()
    with table.lock:
        book = table.log.book
        if not isinstance(book, Tournament):
            return _refuse("tournament.err.none", 409)
        figures = deal_figures(book, table.setup(), table.roster.by_id, current_lang())
    return jsonify(figures), 200 if figures["ok"] else 409


@bp.get("/tournaments/<int:book_id>")
@dealer_required
def record(book_id: int) -> str:
    """A tournament's places, prizes and every entry, printable."""
    table = service()
    row = table.books.book(book_id)
    if row is None or row["kind"] != "tournament":
        abort(404)
    book = table.log.fold(row)
    lang = current_lang()
    view: dict[str, Any] = present_tournament(book, table.setup(), table.roster.by_id,
                                              "spectator", lang)
    return render_template("tournament_record.html", view=view, entries=book.entries)
