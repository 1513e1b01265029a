"""Hand history: past hands, each street by street, downloadable as PHH, JSON and PokerStars text,
and replayed on the TV on the dealer's word (dealer only)."""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Response, current_app, render_template
from werkzeug.wrappers import Response as WerkzeugResponse

from engine.events import event_from_dict
from engine.hand import Hand
from engine.settings import GameSettings
from kiosk.errors import Kind, KioskError
from kiosk.presenter import present_hand
from kiosk.service import service
from kiosk.views import attachment
from kiosk.views.auth import dealer_required

bp = Blueprint("history", __name__, url_prefix="/history")


def load_hand(hand_id: int) -> tuple[dict[str, Any], Hand, list[dict[str, Any]]]:
    """The stored hand row, the engine hand replayed from its events, and the events replayed
    (a ``void`` hand whose log no longer replays shows up to its first refused entry)."""
    from kiosk.views.api import LARGEST_ID

    table = service()
    row = table.store.hand(hand_id) if hand_id <= LARGEST_ID else None
    if row is None or row["table_id"] != table.table_id:
        raise KioskError("history.no_hand", Kind.MISSING, hand=hand_id)
    events = table.store.events(hand_id)
    hand = Hand(GameSettings.from_dict(row["setup"]["settings"]))
    for seq, event in enumerate(events):
        try:
            hand.push(event_from_dict(event))
        except (ValueError, KeyError, TypeError):
            if row["status"] != "void":
                raise
            return row, hand, events[:seq]
    return row, hand, events


def streets(hand_id: int, lang: str) -> list[dict[str, Any]]:
    """The hand's entries grouped by street, each with the table as it stood after it."""
    row, _full, events = load_hand(hand_id)
    replay = Hand(GameSettings.from_dict(row["setup"]["settings"]))
    groups: list[dict[str, Any]] = []
    for event in events:
        before = replay.state
        replay.push(event_from_dict(event))
        # the shows and mucks are the showdown's own part of the hand, after the last street
        if before.phase == "showdown":
            name = "showdown"
        else:
            name = before.street_name or replay.state.street_name or ""
        if not groups or groups[-1]["name"] != name:
            groups.append({"name": name, "entries": []})
        entry = dict(event)
        seats = {s.number: s for s in replay.state.seats}
        if "seat" in entry and entry["seat"] in seats:
            entry["name"] = seats[entry["seat"]].name
            entry["to"] = seats[entry["seat"]].bet or entry.get("amount")
        if entry.get("type") == "show":
            entry["slots"] = [{"card": c, "public": True} for c in entry.get("cards", [])]
        groups[-1]["entries"].append(entry)
        groups[-1]["after"] = present_hand(replay, "dealer", lang)
        groups[-1]["pot"] = _pot(replay)
    named = _shown_hands(groups[-1]["after"]) if groups else {}
    for group in groups:
        for entry in group["entries"]:
            if entry.get("type") == "show":
                entry["hand"] = named.get(entry.get("seat"))
    return groups


def _pot(hand: Hand) -> int:
    """Every chip in the middle after an entry: the chips committed while the hand runs, and the
    pots pushed once it is over (the state's total is 0 from then on)."""
    state = hand.state
    if state.finished and state.result is not None and not state.result.misdeal:
        return sum(pot.amount for pot in state.pots)
    return int(state.total_pot)


def _shown_hands(view: dict[str, Any]) -> dict[int, str]:
    """Seat -> the name of the hand it showed (its high, or its only, hand), from the result."""
    named: dict[int, str] = {}
    result = view.get("result") or {}
    for pot in result.get("pots", []):
        for share in pot["shares"]:
            if share["hand"] and share["half"] == "high":
                named.setdefault(share["seat"], share["hand"])
        for beaten in pot.get("beaten", []):
            if beaten["half"] != "low":
                named.setdefault(beaten["seat"], beaten["hand"])
    return named


@bp.route("/")
@dealer_required
def index() -> str:
    table = service()
    return render_template("history.html", hands=table.store.hands(table.table_id))


@bp.route("/<int:hand_id>")
@dealer_required
def hand(hand_id: int) -> str:
    from kiosk.i18n import current_lang

    row, full, _events = load_hand(hand_id)
    lang = current_lang()
    return render_template(
        "hand.html",
        row=row,
        streets=streets(hand_id, lang),
        final=present_hand(full, "dealer", lang),
    )


@bp.route("/<int:hand_id>.json")
@dealer_required
def hand_json(hand_id: int) -> Response:
    row, full, _events = load_hand(hand_id)
    body = {"hand": {k: row[k] for k in ("id", "number", "status", "started_at", "ended_at")}}
    body.update(full.to_dict())
    return attachment(json.dumps(body, indent=1, ensure_ascii=False), "application/json",
                      f"hand-{row['number']}.json")


@bp.route("/<int:hand_id>.phh")
@dealer_required
def hand_phh(hand_id: int) -> Response:
    from engine.phh import to_phh

    row, full, _events = load_hand(hand_id)
    return attachment(to_phh(full), "text/plain; charset=utf-8", f"hand-{row['number']}.phh")


@bp.route("/<int:hand_id>.txt")
@dealer_required
def hand_pokerstars(hand_id: int) -> Response:
    """The hand in the PokerStars hand-history form (engine.pokerstars), for viewers and
    trackers."""
    from datetime import datetime

    from engine.pokerstars import to_pokerstars

    row, full, _events = load_hand(hand_id)
    table = service()
    started = datetime.fromisoformat(row["started_at"]) if row["started_at"] else None
    name = str(current_app.config.get("TABLE_NAME") or f"stud-kiosk {table.table_id}")
    return attachment(to_pokerstars(full, number=row["number"], table=name, started=started),
                      "text/plain; charset=utf-8", f"hand-{row['number']}.txt")


@bp.post("/<int:hand_id>/replay")
@dealer_required
def replay_on_tv(hand_id: int) -> WerkzeugResponse:
    """Replay a finished hand on the TV now, street by street with its odds."""
    from flask import redirect, url_for

    from kiosk.broadcast import broadcast

    row, full, _events = load_hand(hand_id)
    if full.finished and full.result is not None and not full.result.misdeal:
        broadcast().replay_now(full, hand_id, row["number"])
    return redirect(url_for("history.hand", hand_id=hand_id))
