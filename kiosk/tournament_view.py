"""What the screens show of a tournament: the clock (level, time left, the next level's stakes),
players left, average stack, the prize pool and places paid, the places so far, and for the
dealer what a rebuy, an add-on, a colour-up or a deal needs. The TV and the dealer see the same
clock; the dealer also gets the controls' state."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from babel.dates import format_timedelta

from kiosk.i18n import ui_catalog
from kiosk.icm import chip_chop, icm, whole
from kiosk.night import money_text
from kiosk.players import display_name
from kiosk.tournament import Tournament
from kiosk.tournament_events import now, race_off
from kiosk.tournament_structure import TUNING

if TYPE_CHECKING:
    from kiosk.service import TableService


def _ui(key: str, lang: str, **params: Any) -> str:
    return ui_catalog().translate(key, lang, **params)


def stakes_text(level: dict[str, Any], lang: str) -> str:
    """A level in words: "ante 5 · bring-in 10 · bets 25/50", or "break"."""
    if level.get("break"):
        return _ui("tournament.break", lang)
    parts = []
    if int(level["ante"]):
        parts.append(_ui("stakes.text.ante", lang, amount=level["ante"]))
    if int(level["bring_in"]):
        parts.append(_ui("stakes.text.bring_in", lang, amount=level["bring_in"]))
    parts.append(_ui("stakes.text.bets", lang, small=level["small_bet"], big=level["big_bet"]))
    return " · ".join(parts)


def duration(seconds: float, lang: str) -> str:
    """A length of time in words ("3 minutes"), as Babel says it in ``lang``."""
    locale = "it_IT" if lang == "it" else "en_GB"
    return str(format_timedelta(round(seconds), threshold=1.5, locale=locale))


def _clock(book: Tournament, at: float, lang: str) -> dict[str, Any]:
    if not book.started:
        first = book.levels[0]
        return {"started": False, "running": False, "number": 1, "is_break": False,
                "left": float(first["seconds"]), "stakes_text": stakes_text(first, lang),
                "index": 0, "warning": False, "next_text": "", "last": False}
    clock = book.at(at)
    nxt = None if clock.last else clock.index + 1
    level = book.levels[clock.index]
    view: dict[str, Any] = {
        "started": True, "running": clock.running, "index": clock.index,
        "number": clock.number, "is_break": clock.is_break, "left": round(clock.left, 1),
        "last": clock.last, "stakes_text": stakes_text(level, lang),
        "warning": clock.running and nxt is not None and clock.left <= TUNING.warning,
        "next_text": "" if nxt is None else stakes_text(book.levels[nxt], lang),
        "next_is_break": nxt is not None and bool(book.levels[nxt].get("break")),
        "next_number": None if nxt is None else book.number_of(nxt),
        "level_text": _ui("tournament.break", lang) if clock.is_break
        else _ui("tournament.level_n", lang, n=clock.number),
    }
    if book.outage is not None:
        off = book.outage["up"] - book.outage["down"]
        view["outage"] = {"seconds": round(off), "text": _ui(
            "tournament.outage", lang, time=duration(off, lang))}
    if book.playing is not None and book.playing != book.clock_level(at):
        view["pending_text"] = _ui("tournament.from_next_hand", lang,
                                   n=book.number_of(book.clock_level(at)))
    return view


def present_tournament(book: Tournament, setup: dict[str, Any],
                       players: dict[int, dict[str, Any]], role: str, lang: str) -> dict[str, Any]:
    at = now()

    def money(cents: int) -> str:
        return money_text(cents, book.currency, lang)

    left = book.left()
    stacks = {int(s["seat"]): int(s["stack"]) for s in setup["seats"] if s["active"]}
    chips = sum(stacks.values())
    pool = book.pool()
    shares = book.payouts()
    prizes = book.prizes()
    amounts = [pool * share // 1000 for share in shares]
    if amounts:
        amounts[0] += pool - sum(amounts)
    view: dict[str, Any] = {
        "id": book.id,
        "closed": book.closed,
        "currency": book.currency,
        "sound": book.sound,
        "clock": _clock(book, at, lang),
        "server_time": at,
        "playing": None if book.playing is None else book.number_of(book.playing),
        "playing_text": None if book.playing is None
        else stakes_text(book.levels[book.playing], lang),
        "entries": book.entries_count(),
        "rebuys": book.rebuys(),
        "add_ons": book.add_ons(),
        "players_left": len(left),
        "average": chips // len(left) if left else 0,
        "pool": pool,
        "pool_text": money(pool),
        "places_paid": len(shares),
        "payouts": [{"place": i + 1, "share": share / 10, "amount": money(amounts[i])}
                    for i, share in enumerate(shares)],
        "by_hand": book.shares is not None,
        "left": [{"player": e.player, "name": display_name(players, e.player), "seat": e.seat,
                  "stack": stacks.get(e.seat or 0, 0), "rebuys": e.rebuys, "add_ons": e.add_ons}
                 for e in left],
        "places": sorted(({"place": e.place, "player": e.player,
                           "name": display_name(players, e.player),
                           "prize": money(prizes.get(e.player, 0)) if prizes.get(e.player)
                           else ""}
                          for e in book.entrants.values() if e.place is not None),
                         key=lambda row: (row["place"], row["name"])),
        "buy_in_text": money(book.buy_in),
        "chips": book.chips,
    }
    if book.deal is not None:
        view["deal"] = [{"name": display_name(players, p), "amount": money(c)}
                        for p, c in book.deal.items()]
    if role == "dealer":
        view["dealer"] = _dealer(book, setup, at, lang)
    return view


def _dealer(book: Tournament, setup: dict[str, Any], at: float, lang: str) -> dict[str, Any]:
    number = book.at(at).number if book.started else 1
    until = book.rebuy_until
    extra: dict[str, Any] = {
        "rebuy_open": until is not None and number <= until,
        "add_on_open": book.add_on_chips is not None and until is not None and number == until,
        "late_open": not book.started or (book.late_until is not None
                                           and number <= book.late_until),
        "rebuy_chips": book.rebuy_chips, "add_on_chips": book.add_on_chips,
        "levels": book.levels, "chip_values": book.chip_values,
    }
    chip = book.colour_up_chip()
    if chip is not None and len(book.chip_values) > 1:
        unit = book.chip_values[1]
        plan = race_off(setup, unit)
        extra["colour_up"] = {
            "chip": chip, "unit": unit, "odd": plan["odd"], "keep": plan["keep"],
            "chips": plan["chips"], "total": plan["total"],
            "text": _ui("tournament.colour_up_offer", lang, chip=chip, unit=unit),
            "race_text": _ui("tournament.race_off", lang, chip=chip, unit=unit,
                             chips=plan["chips"], total=plan["total"]),
        }
    return extra


def deal_figures(book: Tournament, setup: dict[str, Any], players: dict[int, dict[str, Any]],
                 lang: str) -> dict[str, Any]:
    """The chip-chop calculator for the players left: each one's chips, their share by chip chop
    and by ICM, in money and in words."""
    left = book.left()
    stacks_by_seat = {int(s["seat"]): int(s["stack"]) for s in setup["seats"] if s["active"]}
    stacks = [stacks_by_seat.get(e.seat or 0, 0) for e in left]
    pool = book.pool()
    shares = book.payouts()
    amounts = [pool * share // 1000 for share in shares]
    if amounts:
        amounts[0] += pool - sum(amounts)
    remaining = amounts[:len(left)]  # the places still to be paid are the top ones
    if len(left) < 2 or any(s <= 0 for s in stacks):
        return {"ok": False, "error": _ui("tournament.err.deal_players", lang)}
    exact = icm(stacks, remaining)
    by_icm = whole(exact, sum(remaining))
    by_chop = chip_chop(stacks, remaining)
    total = sum(stacks)
    rows = []
    for i, one in enumerate(left):
        name = display_name(players, one.player)
        rows.append({
            "player": one.player, "name": name, "chips": stacks[i],
            "icm": by_icm[i], "icm_text": money_text(by_icm[i], book.currency, lang),
            "chop": by_chop[i], "chop_text": money_text(by_chop[i], book.currency, lang),
            "words": _ui("tournament.icm_words", lang, name=name,
                         share=f"{100 * stacks[i] / total:.1f}",
                         icm=money_text(by_icm[i], book.currency, lang),
                         chop=money_text(by_chop[i], book.currency, lang)),
        })
    return {"ok": True, "rows": rows, "prizes": [money_text(a, book.currency, lang)
                                                 for a in remaining],
            "explain": _ui("tournament.icm_explain", lang)}


def tournament_of(table: TableService, role: str, lang: str) -> dict[str, Any] | None:
    """The table's open tournament, or the one just closed, as ``role`` sees it (the stream's
    overlay, which reads a moment of the table without its log, shows none: its money stays in
    the room)."""
    log = getattr(table, "log", None)
    if log is None or role not in ("dealer", "spectator"):
        return None
    book = log.book if log.book is not None else log.closed
    if not isinstance(book, Tournament):
        return None
    return present_tournament(book, table._setup, table.roster.by_id, role, lang)


__all__ = ["deal_figures", "duration", "present_tournament", "stakes_text", "tournament_of"]
