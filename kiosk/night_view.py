"""What the screens show of the night: each player's money in, chips now and result, the chips
in and out, a difference, and, once everyone has left, the settlement. The same for the dealer and
the TV (who bought in for how much is no secret at a home game); the dealer also gets what the
closing needs."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kiosk.i18n import ui_catalog
from kiosk.night import BANK_HOUSE, Night, money_text, round_to_cents
from kiosk.players import display_name

if TYPE_CHECKING:
    from kiosk.service import TableService


def _ui(key: str, lang: str, **params: Any) -> str:
    return ui_catalog().translate(key, lang, **params)


def party_name(night: Night, players: dict[int, dict[str, Any]], party: int | str,
               lang: str) -> str:
    if party == "bank" or party == BANK_HOUSE:
        return _ui("night.bank", lang)
    name = display_name(players, int(party))
    return _ui("night.bank_player", lang, name=name) if night.bank == party else name


def present_night(night: Night, setup: dict[str, Any], players: dict[int, dict[str, Any]],
                  role: str, lang: str) -> dict[str, Any]:
    """The night as a screen shows it (``setup``: the table's seats and stacks now)."""

    def money(cents: Any, sign: bool = False) -> str:
        return money_text(cents, night.currency, lang, sign)

    rows = []
    standings = night.standings(setup)
    # whole cents that still add up to 0 (a difference shared out leaves fractions of a cent)
    results = round_to_cents({i: row["result"] for i, row in enumerate(standings)})
    for i, row in enumerate(standings):
        rows.append({
            "player": row["player"],
            "name": display_name(players, row["player"]),
            "seat": row["seat"],
            "out": row["out"],
            "left": row["left"],
            "chips_in": row["chips_in"],
            "money_in": money(row["money_in"]),
            "rebuys": row["rebuys"],
            "chips_now": int(row["chips_now"]) if row["chips_now"].denominator == 1
            else float(row["chips_now"]),
            "result": money(results[i], sign=True),
            "result_cents": results[i],
        })
    difference = night.difference(setup)
    seated = [s for s in setup["seats"] if s["active"]]
    view: dict[str, Any] = {
        "id": night.id,
        "closed": night.closed,
        "currency": night.currency,
        "rate_text": _ui("night.rate_text", lang, chips=night.chips, money=money(night.money)),
        "buy_in": night.buy_in,
        "buy_in_text": money(night.value(night.buy_in)),
        "rebuys_most": night.rebuys_most,
        "rebuy_most": night.rebuy_most,
        "bank": None if night.bank is None else party_name(night, players, night.bank, lang),
        "rows": rows,
        "chips_in": night.chips_in(),
        "money_in": money(night.value(night.chips_in())),
        "chips_out": night.chips_out(),
        "on_table": night.chips_in() - night.chips_out() - difference,
        "difference": difference,
        "difference_text": "" if not difference else _ui(
            "night.missing" if difference > 0 else "night.extra", lang, chips=abs(difference),
            money=money(night.value(abs(difference)))),
        "seated": len(seated),
    }
    if not seated and not difference and night.lines:
        plan = night.settlement(setup)
        view["settlement"] = {
            "exact": plan.exact,
            "transfers": [
                {"from": party_name(night, players, t.payer, lang),
                 "to": party_name(night, players, t.payee, lang),
                 "cents": t.cents, "amount": money(t.cents)}
                for t in plan.transfers
            ],
        }
    if role == "dealer":
        view["usual"] = {"buy_in": night.buy_in}
        view["bank_mode"] = night.bank is not None
    return view


def entry_words(entry: dict[str, Any], players: dict[int, dict[str, Any]], lang: str) -> str:
    """A ledger entry in words: "Anna rebuys 500"."""
    kind = entry["type"]
    if kind == "rebuy" and entry.get("stack"):
        kind = "add_on"
    key = f"night.entry.{kind}"
    if key not in ui_catalog().messages("en"):
        return str(entry["type"])
    player = entry.get("player")
    if kind == "cash_out":
        return "; ".join(
            ui_catalog().translate(key, lang, name=display_name(players, out["player"]),
                                   chips=out["chips"])
            for out in entry["players"])
    return ui_catalog().translate(
        key, lang, name=entry.get("name", "") if player is None
        else display_name(players, int(player)),
        chips=entry.get("chips", ""), to=entry.get("to", ""))


def night_of(table: TableService, role: str, lang: str) -> dict[str, Any] | None:
    """The table's open night, or the night just closed (until the next opens or a hand
    starts), as ``role`` sees it. The stream overlay has none: what the players of a home game
    bought in and owe stays in the room."""
    if role == "overlay":
        return None
    night = table.log.book if table.log.book is not None else table.log.closed
    if not isinstance(night, Night):
        return None
    return present_night(night, table._setup, table.roster.by_id, role, lang)


__all__ = ["entry_words", "night_of", "party_name", "present_night"]
