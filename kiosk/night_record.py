"""The record of the nights: each night's results, hands played per game, biggest pot and best hand
shown; each player's nights, net result, hands and pots won across nights; CSV of both.

Everything is read from the store: a night is its book's entries folded again
(:class:`~kiosk.night.Night`), its hands are the table's hands started while it was open (each
hand's stored setup names its book and who sat where), so the record needs nothing kept beside
the logs. A merged player counts as the player they were merged into.
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from datetime import datetime
from typing import Any

from engine.evaluate import evaluate_high
from kiosk.book_store import BookStore
from kiosk.night import Night, money_text
from kiosk.night_view import entry_words, present_night
from kiosk.players import canonical, display_name
from kiosk.store import Store

EMPTY_SETUP: dict[str, Any] = {"seats": []}
"""A closed night's table: nobody seated (every chip is out)."""


def local_time(stamp: str | None, with_date: bool = False) -> str:
    """A stored time (UTC) as the kiosk's clock shows it: ``21:04``, ``2026-03-14 21:04``."""
    if not stamp:
        return ""
    local = datetime.fromisoformat(stamp).astimezone()
    return local.strftime("%Y-%m-%d %H:%M" if with_date else "%H:%M")


def night_hands(store: Store, table_id: int, book_id: int) -> list[dict[str, Any]]:
    """The hands a night's table played while it was open, oldest first, with their results."""
    hands = [h for h in store.hands(table_id, limit=100_000)
             if h["setup"].get("book") == book_id]
    found = []
    for row in reversed(hands):
        full = store.hand(row["id"])
        if full is not None:
            found.append(full)
    return found


def _shown(result: dict[str, Any] | None) -> list[tuple[int, list[str]]]:
    """(seat, five cards) of every high hand named at a showdown of a result."""
    shown = []
    for pot in (result or {}).get("pots", []):
        for share in pot.get("high", []):
            if share.get("cards"):
                shown.append((share["seat"], share["cards"]))
        for beaten in pot.get("beaten", []):
            if beaten.get("cards") and beaten.get("half") != "low":
                shown.append((beaten["seat"], beaten["cards"]))
    return shown


def _winners(result: dict[str, Any] | None) -> set[int]:
    seats = set()
    for pot in (result or {}).get("pots", []):
        for half in ("high", "low"):
            seats |= {share["seat"] for share in pot.get(half, []) if share.get("amount")}
    return seats


def night_record(store: Store, books: BookStore, book_id: int, lang: str) -> dict[str, Any]:
    """A night as its record page shows it."""
    row = books.book(book_id)
    if row is None or row["kind"] != "night":
        raise LookupError(book_id)
    entries = [e["event"] | {"seq": e["seq"], "created_at": e["created_at"],
                             "time": local_time(e["created_at"]), "source": e["source"]}
               for e in books.book_events(book_id)]
    night = Night.fold(book_id, entries)
    players = {int(p["id"]): p for p in books.players()}
    hands = night_hands(store, row["table_id"], book_id)
    games: Counter[str] = Counter()
    biggest: dict[str, Any] | None = None
    best: tuple[Any, dict[str, Any]] | None = None
    for hand in hands:
        if hand["status"] != "finished":
            continue
        game = hand["setup"]["settings"]["variant"]
        games[game] += 1
        pot = sum(p["amount"] for p in (hand["result"] or {}).get("pots", []))
        if biggest is None or pot > biggest["amount"]:
            biggest = {"amount": pot, "number": hand["number"], "game": game}
        names = {s["number"]: s["name"] for s in hand["setup"]["settings"]["seats"]}
        for seat, cards in _shown(hand["result"]):
            value = evaluate_high(cards)
            if best is None or best[0] < value:
                best = (value, {"name": names.get(seat, str(seat)), "hand": value.name(lang),
                                "cards": cards, "number": hand["number"]})
    setup = EMPTY_SETUP
    if not night.closed:
        from kiosk.table_setup import setup_key

        setup = store.get(setup_key(row["table_id"])) or EMPTY_SETUP
    view = present_night(night, setup, players, "spectator", lang)
    return {
        "book": row,
        "opened": local_time(row["opened_at"], with_date=True),
        "closed": local_time(row["closed_at"]),
        "night": view,
        "fold": night,
        "hands": len([h for h in hands if h["status"] == "finished"]),
        "games": dict(games),
        "biggest_pot": biggest,
        "best_hand": None if best is None else best[1],
        "entries": entries,
        "players": players,
    }


def player_stats(store: Store, books: BookStore, lang: str) -> list[dict[str, Any]]:
    """Each player of the list (merged ones counted with the player they were merged into): the
    nights played, the net result per currency, the hands played and the pots won."""
    players = {int(p["id"]): p for p in books.players()}
    stats: dict[int, dict[str, Any]] = {
        pid: {"player": pid, "name": p["name"], "nickname": p.get("nickname"), "nights": 0,
              "net": Counter(), "hands": 0, "pots": 0,
              "merged_into": p.get("merged_into"),
              "merged_name": display_name(players, pid) if p.get("merged_into") else None}
        for pid, p in players.items()
    }
    for row in books.books("night"):
        record = night_record(store, books, row["id"], lang)
        night: Night = record["fold"]
        for standing in record["night"]["rows"]:
            pid = canonical(players, standing["player"])
            if pid in stats:
                stats[pid]["nights"] += 1
                stats[pid]["net"][night.currency] += standing["result_cents"]
        for hand in night_hands(store, row["table_id"], row["id"]):
            if hand["status"] != "finished":
                continue
            seated = {int(s): int(p) for s, p in (hand["setup"].get("players") or {}).items()}
            winners = _winners(hand["result"])
            for seat, pid in seated.items():
                pid = canonical(players, pid)
                if pid in stats:
                    stats[pid]["hands"] += 1
                    stats[pid]["pots"] += seat in winners
    found = []
    for item in stats.values():
        item["net_text"] = " · ".join(money_text(c, cur, lang, sign=True)
                                      for cur, c in sorted(item["net"].items())) or "—"
        item["net"] = dict(item["net"])
        found.append(item)
    return sorted(found, key=lambda s: (bool(s["merged_into"]), s["name"].casefold()))


def nights_csv(store: Store, books: BookStore, table_id: int | None, lang: str) -> str:
    """One line per player per night: date, table, night, currency, player, money in, money out,
    result, rebuys (amounts in the currency's units, a dot for decimals)."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["night", "table", "opened_at", "closed_at", "currency", "player",
                     "chips_in", "money_in", "chips_out", "money_out", "result", "rebuys"])
    for row in books.books("night", table_id):
        record = night_record(store, books, row["id"], lang)
        night: Night = record["fold"]
        for standing in record["night"]["rows"]:
            chips_now = standing["chips_now"]
            money_in = night.value(standing["chips_in"])
            writer.writerow([
                row["id"], row["table_id"], row["opened_at"], row["closed_at"] or "",
                night.currency, _text(standing["name"]), standing["chips_in"], _units(money_in),
                chips_now, _units(money_in + standing["result_cents"]),
                _units(standing["result_cents"]), standing["rebuys"],
            ])
    return out.getvalue()


def ledger_csv(store: Store, books: BookStore, book_id: int, lang: str) -> str:
    """Every entry of a night: its number, time, type, player, seat, chips, money and words."""
    record = night_record(store, books, book_id, lang)
    night: Night = record["fold"]
    players = record["players"]
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["seq", "time", "type", "player", "seat", "chips", "money", "paid",
                     "source", "entry"])
    for entry in record["entries"]:
        lines = entry.get("players") or [entry]
        for line in lines:
            chips = line.get("chips")
            player = line.get("player")
            writer.writerow([
                entry["seq"], entry["created_at"], entry["type"],
                "" if player is None else _text(display_name(players, int(player))),
                line.get("seat", ""), "" if chips is None else chips,
                "" if chips is None or entry["type"] == "night_open"
                else _units(night.value(chips)),
                "yes" if entry.get("paid") else "", entry["source"],
                _text(entry_words(entry, players, lang)),
            ])
    return out.getvalue()


#: what a spreadsheet reads as the start of a formula in a cell
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _text(words: str) -> str:
    """A name or words as a cell: one starting like a formula (a player called ``=1+1``) is kept
    as text by a leading ``'``, so that opening the export runs nothing."""
    return "'" + words if words.startswith(FORMULA_START) else words


def _units(cents: Any) -> str:
    """Cents as units with two decimals: ``1050`` -> ``10.50``."""
    whole = round(cents)
    sign = "-" if whole < 0 else ""
    return f"{sign}{abs(whole) // 100}.{abs(whole) % 100:02d}"


__all__ = ["ledger_csv", "night_hands", "night_record", "nights_csv",
           "player_stats"]
