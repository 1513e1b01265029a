"""The night's pages: the dealer's night screen (live, every entry through ``TableService.submit``
over Socket.IO), the record of the nights, a night's printable summary, the player list, the CSV
exports and the player list's JSON routes (docs/night.md)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, abort, jsonify, render_template, request
from flask_wtf.csrf import generate_csrf

from kiosk.errors import answer, status_of
from kiosk.i18n import current_lang, t
from kiosk.night import BANK_HOUSE, CURRENCIES
from kiosk.night_record import ledger_csv, night_record, nights_csv, player_stats
from kiosk.night_view import entry_words
from kiosk.service import service
from kiosk.views import attachment
from kiosk.views.auth import dealer_required, is_dealer

bp = Blueprint("night", __name__)


@bp.get("/night")
@dealer_required
def page() -> str:
    return render_template("night.html", currencies=CURRENCIES, house=BANK_HOUSE,
                           csrf=generate_csrf())


@bp.get("/nights")
@dealer_required
def record() -> str:
    table = service()
    lang = current_lang()
    nights = []
    for row in table.books.books("night", table.table_id):
        found = night_record(table.store, table.books, row["id"], lang)
        nights.append(found)
    return render_template("nights.html", nights=nights)


@bp.get("/nights/<int:book_id>")
@dealer_required
def summary(book_id: int) -> str:
    table = service()
    lang = current_lang()
    try:
        found = night_record(table.store, table.books, book_id, lang)
    except LookupError:
        abort(404)
    words = [entry_words(e, found["players"], lang) for e in found["entries"]]
    return render_template("night_summary.html", record=found, words=words)


def _csv(text: str, name: str) -> Response:
    return attachment(text, "text/csv; charset=utf-8", name)


@bp.get("/nights.csv")
@dealer_required
def nights_export() -> Response:
    table = service()
    every = request.args.get("tables") == "all"
    return _csv(nights_csv(table.store, table.books, None if every else table.table_id,
                           current_lang()), "nights.csv")


@bp.get("/nights/<int:book_id>/ledger.csv")
@dealer_required
def ledger_export(book_id: int) -> Response:
    table = service()
    if table.books.book(book_id) is None:
        abort(404)
    return _csv(ledger_csv(table.store, table.books, book_id, current_lang()),
                f"night-{book_id}-ledger.csv")


@bp.get("/players")
@dealer_required
def players_page() -> str:
    table = service()
    return render_template("players.html",
                           stats=player_stats(table.store, table.books, current_lang()),
                           csrf=generate_csrf())


# -- JSON: the player list ----
def _answer(call: Callable[[], dict[str, Any]]) -> tuple[Response, int]:
    lang = current_lang()
    if not is_dealer():
        return jsonify({"ok": False, "error": t("live.need_pin", lang)}), 403
    try:
        body = call()
    except ValueError as exc:
        return jsonify(answer(exc, lang)), status_of(exc)
    return jsonify(body), 200


def _body() -> dict[str, Any]:
    body = request.get_json(silent=True)
    return body if isinstance(body, dict) else {}


@bp.get("/api/players")
def api_players() -> tuple[Response, int]:
    return _answer(lambda: {"ok": True, "players": service().players()})


@bp.post("/api/players")
def api_add_player() -> tuple[Response, int]:
    body = _body()
    return _answer(lambda: service().add_player(body.get("name"), body.get("nickname")))


@bp.post("/api/players/<int:player_id>")
def api_rename_player(player_id: int) -> tuple[Response, int]:
    body = _body()
    return _answer(lambda: service().rename_player(player_id, body.get("name"),
                                                   body.get("nickname")))


@bp.post("/api/players/<int:player_id>/merge")
def api_merge_player(player_id: int) -> tuple[Response, int]:
    """``{"into": 3}``: this player is player 3; ``{"into": null}``: separate them again."""
    into = _body().get("into")
    if into is not None and (not isinstance(into, int) or isinstance(into, bool)):
        into = -1
    return _answer(lambda: service().merge_player(player_id, into))
