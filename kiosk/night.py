"""A cash night: its ledger as a book of table events (:mod:`kiosk.table_log`).

A night is opened with its currency, the value of its chips (``chips`` chips are worth ``money``
cents: 100 chips = 10 € is ``chips=100, money=1000``), the usual buy-in, optional rebuy limits
and, when the table works that way, the bank that holds the buy-ins (a player of the list, the host,
or ``"house"``: someone who does not play). Then, between hands:

============== ===============================================================================
``buy_in``     a player of the list sits at a free seat with chips (money in)
``rebuy``      a seated player adds chips (a rebuy when their stack was 0, an add-on otherwise)
``sit_out``    a seat keeps its player and stack but is dealt no cards and pays no ante
``sit_in``     and comes back
``move``       a player changes seat
``cash_out``   one or more players leave with the chips counted (a count that differs from the
               stack the kiosk knows leaves a *difference*)
``assign``     the difference goes to one player's chips out
``accept``     the difference is accepted, and shared equally by every player of the night
``night_close`` with nobody seated and no difference left
============== ===============================================================================

Every entry stores the numbers its fold needs (the stack a seat had, the chips counted), so the
night is the same fold after a restart. Money is exact (fractions of a cent are kept until the
end); a result is shown rounded to the cent, and the settlement's balances are rounded so that
they still add up to 0 (largest remainder).

In a table with a bank, each buy-in is paid to the bank (or, if marked, taken on credit), and a
player who leaves early may be paid at once: the settlement then only moves what is still owed
(:meth:`Night.balances`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any

from babel.numbers import format_currency

from kiosk import table_event_schema as schema
from kiosk.errors import Kind, KioskError
from kiosk.settlement import Settlement, settle
from kiosk.table_event_schema import CURRENCIES
from kiosk.table_log import Context, EventKind, register_book, register_event

BANK_HOUSE = "house"
"""The bank is someone who does not play (the house)."""


@dataclass
class Line:
    """One player's part of the night."""

    player: int
    chips_in: int = 0
    paid_in: int = 0  # chips of the buy-ins paid to the bank
    buys: int = 0
    rebuys: int = 0
    chips_out: int = 0  # chips counted when leaving
    paid_out: int = 0  # chips the bank paid at once when leaving
    assigned: int = 0  # a difference put on this player's chips out
    seat: int | None = None
    hands: int = 0


@dataclass
class Night:
    """The fold of a night's entries."""

    id: int
    currency: str = "EUR"
    chips: int = 100
    money: int = 1000
    buy_in: int = 1000
    rebuys_most: int | None = None
    rebuy_most: int | None = None
    bank: int | str | None = None
    kind: str = "night"
    closed: bool = False
    accepted: int = 0
    lines: dict[int, Line] = field(default_factory=dict)
    entries: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    def fold(cls, book_id: int, entries: list[dict[str, Any]]) -> Night:
        night = cls(book_id)
        for entry in entries:
            night.apply(entry)
        return night

    def line(self, player: int) -> Line:
        if player not in self.lines:
            self.lines[player] = Line(player)
        return self.lines[player]

    def apply(self, entry: dict[str, Any]) -> None:
        self.entries.append(entry)
        kind = entry["type"]
        if kind == "night_open":
            for key in ("currency", "chips", "money", "buy_in", "rebuys_most", "rebuy_most",
                        "bank"):
                setattr(self, key, entry.get(key))
        elif kind in ("buy_in", "rebuy"):
            line = self.line(entry["player"])
            line.chips_in += entry["chips"]
            line.paid_in += entry["chips"] if entry.get("paid") else 0
            if kind == "buy_in":
                line.buys += 1
                line.seat = entry["seat"]
            else:
                line.rebuys += 1
        elif kind == "cash_out":
            for out in entry["players"]:
                line = self.line(out["player"])
                line.chips_out += out["chips"]
                line.paid_out += out["chips"] if entry.get("paid") else 0
                line.seat = None
        elif kind == "move":
            for line in self.lines.values():
                if line.seat == entry["seat"]:
                    line.seat = entry["to"]
        elif kind == "assign":
            self.line(entry["player"]).assigned += entry["chips"]
        elif kind == "accept":
            self.accepted += entry["chips"]
        elif kind == "night_close":
            self.closed = True

    # -- what the night says ----
    def value(self, chips: int | Fraction) -> Fraction:
        """The money (cents) ``chips`` are worth."""
        return Fraction(chips) * self.money / self.chips

    def chips_in(self) -> int:
        return sum(line.chips_in for line in self.lines.values())

    def chips_out(self) -> int:
        return sum(line.chips_out + line.assigned for line in self.lines.values()) + self.accepted

    def difference(self, setup: dict[str, Any]) -> int:
        """Chips in, less chips out, less chips on the table: 0 when every chip is accounted for
        (above 0: chips missing; below 0: chips too many)."""
        return self.chips_in() - self.chips_out() - on_table(self, setup)

    def share(self) -> Fraction:
        """Each player's share of the accepted difference, in chips."""
        return Fraction(self.accepted, len(self.lines)) if self.lines else Fraction(0)

    def chips_now(self, line: Line, setup: dict[str, Any]) -> Fraction:
        """A player's chips: their stack while seated, what they left with after."""
        seat = seat_of_player(setup, line.player)
        stack = int(seat["stack"]) if seat is not None else 0
        return stack + line.chips_out + line.assigned + self.share()

    def standings(self, setup: dict[str, Any]) -> list[dict[str, Any]]:
        """Each player's money in, chips now and result (cents, exact), in order of arrival."""
        rows = []
        for line in self.lines.values():
            now = self.chips_now(line, setup)
            seat = seat_of_player(setup, line.player)
            rows.append({
                "player": line.player,
                "seat": None if seat is None else seat["seat"],
                "out": bool(seat is not None and seat.get("out")),
                "chips_in": line.chips_in,
                "money_in": self.value(line.chips_in),
                "rebuys": line.rebuys,
                "chips_now": now,
                "result": self.value(now) - self.value(line.chips_in),
                "left": seat is None,
            })
        return rows

    def balances(self, setup: dict[str, Any]) -> dict[int | str, int]:
        """What each party is still owed at the end (cents; below 0: owes), adding up to 0: a
        player's chips out less what the bank already paid, less their buy-ins not paid yet; the
        bank (``"bank"``, or the player who is the bank) the rest."""
        exact: dict[int | str, Fraction] = {}
        for line in self.lines.values():
            now = self.chips_now(line, setup)
            exact[line.player] = self.value(now - line.paid_out) - self.value(
                line.chips_in - line.paid_in)
        if self.bank is not None:
            owner: int | str = "bank" if self.bank == BANK_HOUSE else int(self.bank)
            exact[owner] = exact.get(owner, Fraction(0)) - sum(exact.values(), Fraction(0))
        return round_to_cents(exact)

    def settlement(self, setup: dict[str, Any]) -> Settlement[int | str]:
        return settle(self.balances(setup))


def round_to_cents(exact: dict[Any, Fraction]) -> dict[Any, int]:
    """Whole cents adding up to what the exact amounts add up to (rounded): each is rounded down
    and the cents left go to the largest remainders.

    >>> round_to_cents({"a": Fraction(10, 3), "b": Fraction(10, 3), "c": Fraction(-20, 3)})
    {'a': 4, 'b': 3, 'c': -7}
    """
    floors = {k: v.numerator // v.denominator for k, v in exact.items()}
    left = round(sum(exact.values(), Fraction(0))) - sum(floors.values())
    order = sorted(exact, key=lambda k: -(exact[k] - floors[k]))
    for key in order[:left]:
        floors[key] += 1
    return floors


def money_text(cents: int | Fraction, currency: str, lang: str, sign: bool = False) -> str:
    """``cents`` as money in ``lang``: "12,50 €", "€12.50"; ``sign`` writes a + before a gain."""
    amount = Fraction(cents) / 100
    locale = "it_IT" if lang == "it" else "en_GB"
    text = str(format_currency(Decimal(round(amount * 100)) / 100, currency, locale=locale))
    return "+" + text if sign and amount > 0 else text


# -- seats ----
def seat_of(setup: dict[str, Any], number: Any) -> dict[str, Any]:
    for seat in setup["seats"]:
        if seat["seat"] == number:
            return dict(seat)
    raise KioskError("night.err.seat", seat=number, most=len(setup["seats"]))


def seat_of_player(setup: dict[str, Any], player: int) -> dict[str, Any] | None:
    for seat in setup["seats"]:
        if seat["active"] and seat.get("player") == player:
            return dict(seat)
    return None


def on_table(night: Night, setup: dict[str, Any]) -> int:
    return sum(int(s["stack"]) for s in setup["seats"]
               if s["active"] and s.get("player") in night.lines)


def _set_seat(setup: dict[str, Any], number: int, **values: Any) -> dict[str, Any]:
    for seat in setup["seats"]:
        if seat["seat"] == number:
            seat.update(values)
    return setup


def _empty(number: int) -> dict[str, Any]:
    return {"name": str(number), "stack": 0, "active": False, "player": None, "out": False}


# -- the checks (the shapes are checked first: kiosk/table_event_schema.py) ----
def _player(event: dict[str, Any], ctx: Context, key: str = "player") -> dict[str, Any]:
    value = event.get(key)
    row = ctx.players(value) if isinstance(value, int) else None
    if row is None:
        raise KioskError("night.err.player", Kind.MISSING, player=value)
    return row


def _paid(night: Night | None, event: dict[str, Any]) -> bool:
    bank = night is not None and night.bank is not None
    paid = event.get("paid")
    return bank and (True if paid is None else bool(paid))


def _check_open(night: Any, setup: dict[str, Any], event: dict[str, Any],
                ctx: Context) -> dict[str, Any]:
    bank = event["bank"]
    if bank not in (None, BANK_HOUSE):
        bank = _player(event, ctx, "bank")["id"]
    return {key: event[key] for key in ("currency", "chips", "money", "buy_in", "rebuys_most",
                                        "rebuy_most")} | {"bank": bank}


def _table_open(setup: dict[str, Any], entry: dict[str, Any]) -> dict[str, Any]:
    for seat in setup["seats"]:
        seat.update(_empty(seat["seat"]))
    return setup


def _check_buy_in(night: Night, setup: dict[str, Any], event: dict[str, Any],
                  ctx: Context) -> dict[str, Any]:
    player = _player(event, ctx)
    if player.get("merged_into"):
        player = ctx.players(int(player["merged_into"])) or player
    seated = seat_of_player(setup, player["id"])
    if seated is not None:
        raise KioskError("night.err.seated", name=player["name"], seat=seated["seat"])
    seat = seat_of(setup, event.get("seat"))
    if seat["active"]:
        raise KioskError("night.err.taken", seat=seat["seat"], name=seat["name"])
    return {"player": player["id"], "name": player["name"], "seat": seat["seat"],
            "chips": event["chips"], "paid": _paid(night, event)}


def _table_buy_in(setup: dict[str, Any], entry: dict[str, Any]) -> dict[str, Any]:
    return _set_seat(setup, entry["seat"], name=entry["name"], stack=entry["chips"],
                     active=True, player=entry["player"], out=False)


def _seated(setup: dict[str, Any], event: dict[str, Any], ctx: Context) -> dict[str, Any]:
    player = _player(event, ctx)
    seat = seat_of_player(setup, player["id"])
    if seat is None:
        raise KioskError("night.err.not_seated", name=player["name"])
    return seat


def _check_rebuy(night: Night, setup: dict[str, Any], event: dict[str, Any],
                 ctx: Context) -> dict[str, Any]:
    seat = _seated(setup, event, ctx)
    line = night.line(seat["player"])
    if night.rebuys_most is not None and line.rebuys >= night.rebuys_most:
        raise KioskError("night.err.rebuys", name=seat["name"], most=night.rebuys_most)
    chips = event["chips"]
    if night.rebuy_most is not None and chips > night.rebuy_most:
        raise KioskError("night.err.rebuy_most", name=seat["name"], most=night.rebuy_most)
    return {"player": seat["player"], "seat": seat["seat"], "chips": chips,
            "stack": int(seat["stack"]), "paid": _paid(night, event)}


def _table_rebuy(setup: dict[str, Any], entry: dict[str, Any]) -> dict[str, Any]:
    seat = seat_of(setup, entry["seat"])
    return _set_seat(setup, entry["seat"], stack=int(seat["stack"]) + entry["chips"])


def _check_cash_out(night: Night, setup: dict[str, Any], event: dict[str, Any],
                    ctx: Context) -> dict[str, Any]:
    counts = event["counts"]
    players = []
    for key, chips in counts.items():
        try:
            player = int(key)
        except (TypeError, ValueError):
            raise KioskError("night.err.player", Kind.MISSING, player=str(key)[:12]) from None
        seat = _seated(setup, {"player": player}, ctx)
        players.append({"player": player, "seat": seat["seat"], "stack": int(seat["stack"]),
                        "chips": chips})
    return {"players": players, "paid": _paid(night, event)}


def _table_cash_out(setup: dict[str, Any], entry: dict[str, Any]) -> dict[str, Any]:
    for out in entry["players"]:
        _set_seat(setup, out["seat"], **_empty(out["seat"]))
    return setup


def _check_difference(night: Night, setup: dict[str, Any], event: dict[str, Any],
                      ctx: Context) -> dict[str, Any]:
    difference = night.difference(setup)
    if difference == 0:
        raise KioskError("night.err.no_difference", Kind.NOT_NOW)
    if event["chips"] != difference:
        raise KioskError("night.err.difference_moved", chips=difference)
    if event["type"] == "assign":
        player = _player(event, ctx)
        if player["id"] not in night.lines:
            raise KioskError("night.err.not_in_night", name=player["name"])
        return {"player": player["id"], "chips": difference}
    return {"chips": difference}


def _check_close(night: Night, setup: dict[str, Any], event: dict[str, Any],
                 ctx: Context) -> dict[str, Any]:
    seated = [s["name"] for s in setup["seats"] if s["active"]]
    if seated:
        raise KioskError("night.err.still_seated", Kind.NOT_NOW, names=", ".join(seated))
    difference = night.difference(setup)
    if difference:
        raise KioskError("night.err.unbalanced", Kind.NOT_NOW, chips=difference)
    return {}


def _check_seat_change(_book: Any, setup: dict[str, Any], event: dict[str, Any],
                       ctx: Context) -> dict[str, Any]:
    seat = seat_of(setup, event.get("seat"))
    if not seat["active"]:
        raise KioskError("night.err.empty_seat", seat=seat["seat"])
    kind = event["type"]
    if kind == "move":
        to = seat_of(setup, event.get("to"))
        if to["active"]:
            raise KioskError("night.err.taken", seat=to["seat"], name=to["name"])
        return {"seat": seat["seat"], "to": to["seat"], "player": seat.get("player"),
                "name": seat["name"]}
    if (kind == "sit_out") == bool(seat.get("out")):  # sit_out or sit_in
        raise KioskError(f"night.err.{kind}", name=seat["name"])
    return {"seat": seat["seat"], "player": seat.get("player"), "name": seat["name"]}


def _table_seat_change(setup: dict[str, Any], entry: dict[str, Any]) -> dict[str, Any]:
    kind = entry["type"]
    if kind == "move":
        seat = seat_of(setup, entry["seat"])
        moved = {k: v for k, v in seat.items() if k != "seat"}
        _set_seat(setup, entry["seat"], **_empty(entry["seat"]))
        return _set_seat(setup, entry["to"], **moved)
    return _set_seat(setup, entry["seat"], out=kind == "sit_out")


register_book("night", Night)
register_event(EventKind("night_open", _check_open, schema.OpenNight, _table_open, book="night",
                         opens="night"))
register_event(EventKind("buy_in", _check_buy_in, schema.BuyIn, _table_buy_in, book="night"))
register_event(EventKind("rebuy", _check_rebuy, schema.Rebuy, _table_rebuy, book="night"))
register_event(EventKind("cash_out", _check_cash_out, schema.CashOut, _table_cash_out,
                         book="night"))
register_event(EventKind("assign", _check_difference, schema.Assign, book="night"))
register_event(EventKind("accept", _check_difference, schema.Accept, book="night"))
register_event(EventKind("night_close", _check_close, schema.CloseNight, book="night",
                         closes=True))
for _kind in ("sit_out", "sit_in"):
    register_event(EventKind(_kind, _check_seat_change, schema.SeatChange, _table_seat_change))
register_event(EventKind("move", _check_seat_change, schema.Move, _table_seat_change))

__all__ = ["BANK_HOUSE", "CURRENCIES", "Line", "Night", "money_text", "round_to_cents"]
