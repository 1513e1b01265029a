"""The tournament's table events: each one's check and its change to the table's setup, registered
with the table log (:mod:`kiosk.table_log`) as the night's are.

================== ============================================================================
``tournament_open`` the structure and rules; the seats are emptied (the chips are the entrants')
``entrant``        a player of the list takes a seat with the starting stack (until late
                   registration closes)
``tournament_rebuy`` during the rebuy period, a player at or under the starting stack buys the
                   rebuy's chips; a player who went out in the hand just played is back in
``add_on``         once per player, in the last level of the rebuy period or the break after it
``clock``          ``start``, ``pause``, ``resume`` (after an outage: counted or not),
                   ``lengthen`` (seconds more for the level on the clock), ``end_level``;
                   made during a hand too
``colour_up``      the smallest chip taken off, the race-off's winners
``payouts``        the shares paid chosen by hand (none: the table by entrants)
``chop``           the last players' agreed prizes; ends the tournament
``tournament_close`` when one player is left
``level``          (the kiosk's) the clock's level put in play before a hand
``elimination``    (the kiosk's) the players left with no chips after a hand, with their places
================== ============================================================================
"""

from __future__ import annotations

import time
from typing import Any

from kiosk import tournament_schema as schema
from kiosk.errors import Kind, KioskError
from kiosk.night import _player, _set_seat, seat_of, seat_of_player
from kiosk.table_log import Context, EventKind, register_book, register_event
from kiosk.tournament import Tournament
from kiosk.tournament_structure import CHIP_VALUES, check_levels, check_payouts


def now() -> float:
    """The wall time a clock entry is stamped with (seconds since the epoch)."""
    return time.time()


def _empty(number: int) -> dict[str, Any]:
    return {"name": str(number), "stack": 0, "active": False, "player": None, "out": False}


def _check_open(_book: Any, setup: dict[str, Any], event: dict[str, Any],
                ctx: Context) -> dict[str, Any]:
    levels = schema.read_levels(event["levels"])
    check_levels(levels, setup)
    values = sorted(set(event["chip_values"] or CHIP_VALUES))
    payouts = check_payouts(event["payouts"]) if event["payouts"] is not None else None
    return {
        "currency": event["currency"], "buy_in": event["buy_in"], "chips": event["chips"],
        "levels": levels, "chip_values": values,
        "rebuy_until": event["rebuy_until"], "rebuys_most": event["rebuys_most"],
        "rebuy_chips": event["rebuy_chips"] or event["chips"],
        "rebuy_money": event["rebuy_money"] or event["buy_in"],
        "add_on_chips": event["add_on_chips"], "add_on_money": event["add_on_money"] or 0,
        "late_until": event["late_until"], "payouts": payouts, "sound": event["sound"],
    }


def _table_open(setup: dict[str, Any], entry: dict[str, Any]) -> dict[str, Any]:
    for seat in setup["seats"]:
        seat.update(_empty(seat["seat"]))
    first = entry["levels"][0]
    setup["stakes"] = {key: first[key] for key in ("ante", "bring_in", "small_bet", "big_bet")}
    setup.setdefault("rules", {})["chip_unit"] = 1
    return setup


def _clock_number(book: Tournament) -> int:
    return book.at(now()).number if book.started else 1


def _check_entrant(book: Tournament, setup: dict[str, Any], event: dict[str, Any],
                   ctx: Context) -> dict[str, Any]:
    number = _clock_number(book)
    if book.late_until is not None and number > book.late_until and book.started:
        raise KioskError("tournament.err.late", Kind.NOT_NOW, level=book.late_until)
    if book.late_until is None and book.started:
        raise KioskError("tournament.err.started", Kind.NOT_NOW)
    player = _player(event, ctx)
    if player.get("merged_into"):
        player = ctx.players(int(player["merged_into"])) or player
    if player["id"] in book.entrants:
        raise KioskError("tournament.err.entered", name=player["name"])
    seat = seat_of(setup, event["seat"])
    if seat["active"]:
        raise KioskError("night.err.taken", seat=seat["seat"], name=seat["name"])
    return {"player": player["id"], "name": player["name"], "seat": seat["seat"],
            "chips": book.chips}


def _table_entrant(setup: dict[str, Any], entry: dict[str, Any]) -> dict[str, Any]:
    return _set_seat(setup, entry["seat"], name=entry["name"], stack=entry["chips"],
                     active=True, player=entry["player"], out=False)


def _check_rebuy(book: Tournament, setup: dict[str, Any], event: dict[str, Any],
                 ctx: Context) -> dict[str, Any]:
    player = _player(event, ctx)
    one = book.entrants.get(player["id"])
    if one is None:
        raise KioskError("tournament.err.not_entered", name=player["name"])
    number, add_on = _clock_number(book), event["type"] == "add_on"
    if add_on:
        if book.add_on_chips is None:
            raise KioskError("tournament.err.no_add_on", Kind.NOT_NOW)
        if book.rebuy_until is None or number != book.rebuy_until:
            raise KioskError("tournament.err.add_on_when", Kind.NOT_NOW,
                             level=book.rebuy_until or 0)
        if one.add_ons:
            raise KioskError("tournament.err.add_on_once", name=one.name)
    else:
        if book.rebuy_until is None or number > book.rebuy_until:
            raise KioskError("tournament.err.rebuy_over", Kind.NOT_NOW,
                             level=book.rebuy_until or 0)
        if book.rebuys_most is not None and one.rebuys >= book.rebuys_most:
            raise KioskError("tournament.err.rebuys", name=one.name, most=book.rebuys_most)
    seat = seat_of_player(setup, player["id"])
    if seat is None and (add_on or one.out_hand is None or one.out_hand != ctx.latest_hand):
        raise KioskError("tournament.err.out", Kind.NOT_NOW, name=one.name)
    if seat is None:  # back at the seat they left in the hand just played, if still free
        free = seat_of(setup, _last_seat(book, one.player))
        if free["active"]:
            raise KioskError("night.err.taken", seat=free["seat"], name=free["name"])
        seat = {"seat": free["seat"], "stack": 0}
    if not add_on and int(seat["stack"]) > book.chips:
        raise KioskError("tournament.err.rebuy_stack", name=one.name, chips=book.chips)
    chips = book.add_on_chips if add_on else book.rebuy_chips
    return {"player": one.player, "name": one.name, "seat": seat["seat"],
            "stack": int(seat["stack"]), "chips": chips}


def _last_seat(book: Tournament, player: int) -> int:
    for entry in reversed(book.entries):
        for out in entry.get("players", []) if entry["type"] == "elimination" else []:
            if out["player"] == player:
                return int(out["seat"])
    raise KioskError("tournament.err.out", Kind.NOT_NOW, name=str(player))


def _table_rebuy(setup: dict[str, Any], entry: dict[str, Any]) -> dict[str, Any]:
    return _set_seat(setup, entry["seat"], name=entry["name"], player=entry["player"],
                     active=True, stack=entry["stack"] + entry["chips"], out=False)


def _check_clock(book: Tournament, setup: dict[str, Any], event: dict[str, Any],
                 ctx: Context) -> dict[str, Any]:
    action, at = event["action"], now()
    entry: dict[str, Any] = {"action": action, "at": at}
    if action == "start" and book.started:
        raise KioskError("tournament.err.started", Kind.NOT_NOW)
    if action != "start" and not book.started:
        raise KioskError("tournament.err.not_started", Kind.NOT_NOW)
    if action == "pause" and not book.running:
        raise KioskError("tournament.err.paused", Kind.NOT_NOW)
    if action == "resume":
        if book.running:
            raise KioskError("tournament.err.running", Kind.NOT_NOW)
        if book.outage is not None and event["count_outage"] is None:
            raise KioskError("tournament.err.outage_choice", Kind.NOT_NOW)
        entry["count_outage"] = bool(event["count_outage"]) and book.outage is not None
    if action == "lengthen":
        if event["seconds"] is None:
            raise KioskError("tournament.err.seconds")
        entry["seconds"] = event["seconds"]
    return entry


def _check_colour_up(book: Tournament, setup: dict[str, Any], event: dict[str, Any],
                     ctx: Context) -> dict[str, Any]:
    chip = book.colour_up_chip()
    if chip is None or chip != event["chip"]:
        raise KioskError("tournament.err.no_colour_up", Kind.NOT_NOW)
    unit = book.chip_values[1]
    plan = race_off(setup, unit)
    winners = set(event["winners"]) | set(plan["keep"])
    if not winners <= set(plan["odd"]):
        raise KioskError("tournament.err.race_seats", seats=", ".join(map(str, plan["odd"])))
    if len(winners) != plan["chips"]:
        raise KioskError("tournament.err.race_count", chips=plan["chips"], unit=unit)
    stacks = {str(seat): stack - stack % unit + (unit if seat in winners else 0)
              for seat, stack in plan["stacks"].items()}
    change = sum(stacks.values()) - sum(plan["stacks"].values())
    return {"chip": chip, "unit": unit, "winners": sorted(winners), "stacks": stacks,
            "before": {str(k): v for k, v in plan["stacks"].items()}, "change": change}


def race_off(setup: dict[str, Any], unit: int) -> dict[str, Any]:
    """The race-off of the chips under ``unit``: each seat's stack, the seats with odd chips, how
    many chips of ``unit`` the odd chips of the table make (rounded half up) and the seats that
    must win one (a player is never raced out of the tournament)."""
    stacks = {int(s["seat"]): int(s["stack"]) for s in setup["seats"] if s["active"]}
    odd = [seat for seat, stack in stacks.items() if stack % unit]
    total = sum(stacks[seat] % unit for seat in odd)
    chips = (2 * total + unit) // (2 * unit)
    keep = [seat for seat in odd if stacks[seat] < unit]
    return {"stacks": stacks, "odd": odd, "chips": max(chips, len(keep)), "keep": keep,
            "total": total}


def _table_colour_up(setup: dict[str, Any], entry: dict[str, Any]) -> dict[str, Any]:
    for seat, stack in entry["stacks"].items():
        _set_seat(setup, int(seat), stack=stack)
    setup.setdefault("rules", {})["chip_unit"] = entry["unit"]
    return setup


def _check_payouts(book: Tournament, setup: dict[str, Any], event: dict[str, Any],
                   ctx: Context) -> dict[str, Any]:
    return {"shares": None if event["shares"] is None else check_payouts(event["shares"])}


def _check_deal(book: Tournament, setup: dict[str, Any], event: dict[str, Any],
                ctx: Context) -> dict[str, Any]:
    left = {one.player for one in book.left()}
    amounts = {int(k): v for k, v in event["amounts"].items() if k.isdigit()}
    if set(amounts) != left or len(left) < 2:
        raise KioskError("tournament.err.deal_players", Kind.NOT_NOW)
    owed = book.pool() - sum(book.prizes().values())
    if sum(amounts.values()) != owed:
        raise KioskError("tournament.err.deal_sum", total=owed)
    return {"amounts": {str(k): v for k, v in amounts.items()}}


def _check_close(book: Tournament, setup: dict[str, Any], event: dict[str, Any],
                 ctx: Context) -> dict[str, Any]:
    left = book.left()
    if len(left) != 1:
        raise KioskError("tournament.err.not_over", Kind.NOT_NOW, players=len(left))
    return {"winner": left[0].player}


def _kiosk_only(_book: Any, _setup: dict[str, Any], event: dict[str, Any],
                _ctx: Context) -> dict[str, Any]:
    raise KioskError("tournament.err.kiosk_only", kind=event.get("type", ""))


def _table_level(setup: dict[str, Any], entry: dict[str, Any]) -> dict[str, Any]:
    setup["stakes"] = dict(entry["stakes"])
    if isinstance(setup.get("rotation"), dict):
        setup["rotation"]["stakes"] = {}  # every game plays the level's stakes
    return setup


def _table_elimination(setup: dict[str, Any], entry: dict[str, Any]) -> dict[str, Any]:
    for out in entry["players"]:
        _set_seat(setup, out["seat"], **_empty(out["seat"]))
    return setup


register_book("tournament", Tournament)
_T = "tournament"
register_event(EventKind("tournament_open", _check_open, schema.OpenTournament, _table_open,
                         book=_T, opens=_T))
register_event(EventKind("entrant", _check_entrant, schema.Entrant, _table_entrant, book=_T))
for _kind in ("tournament_rebuy", "add_on"):
    register_event(EventKind(_kind, _check_rebuy, schema.TournamentRebuy, _table_rebuy, book=_T))
register_event(EventKind("clock", _check_clock, schema.Clock, book=_T, during_hand=True))
register_event(EventKind("colour_up", _check_colour_up, schema.ColourUp, _table_colour_up,
                         book=_T))
register_event(EventKind("payouts", _check_payouts, schema.Payouts, book=_T, during_hand=True))
register_event(EventKind("chop", _check_deal, schema.Deal, book=_T, closes=True))
register_event(EventKind("tournament_close", _check_close, schema.CloseTournament, book=_T,
                         closes=True))
register_event(EventKind("level", _kiosk_only, schema.CloseTournament, _table_level, book=_T,
                         kiosk=True))
register_event(EventKind("elimination", _kiosk_only, schema.CloseTournament, _table_elimination,
                         book=_T, kiosk=True, follows_hand=True))

__all__ = ["now", "race_off"]
