"""One function decides what each viewer may see: :func:`present`.

The dealer sees everything that was entered. A spectator sees only public information: up cards,
exposed and shown cards, stacks, bets, pots, whose turn, the last action and, at the end, the
result. A face-down card that has not been shown is sent to a spectator as ``{"card": null}``
(a card back), never as its value; the spectator view is built field by field from the engine's
state (a whitelist), so nothing hidden can leak through a field added later to the engine. The
stream overlay (``overlay``, shown to viewers only after the house's delay) sees every card
entered, as the dealer does, without the dealer's controls; a replay of a finished hand shows a
spectator the cards that were public by its end (``reveal``) from the street they were dealt on.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING, Any

from engine.events import Act, Community, Deal
from kiosk import rotation
from kiosk.i18n import ui_catalog
from kiosk.night_view import entry_words, night_of
from kiosk.table_log import is_table_event
from kiosk.table_setup import screen_options, tv_options
from kiosk.tournament_view import tournament_of

if TYPE_CHECKING:
    from kiosk.service import TableService

SUITS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}


def _ui(key: str, lang: str, **params: Any) -> str:
    return ui_catalog().translate(key, lang, **params)


def _to(name: str, lang: str) -> str:
    """"to Anna": Italian says "ad Anna" but "a Bruno"."""
    key = "to.ad" if lang == "it" and name[:1].lower() == "a" else "to"
    return _ui(key, lang, name=name)


def _card(card: Any) -> str | None:
    return None if card is None else str(card)


def _hand_words(hand_value: Any, lang: str) -> str | None:
    if hand_value is None:
        return None
    try:
        return str(hand_value.name(lang))
    except Exception:  # an evaluator value without words in this language
        return str(hand_value)


def _public_seats(state: Any) -> set[int]:
    """Seats whose every card is public (they showed their hand)."""
    public = set()
    for seat in state.seats:
        if seat.cards and all(slot.exposed or slot.up for slot in seat.cards):
            public.add(seat.number)
    return public


ROLES = ("dealer", "spectator", "overlay")
"""Who a view is for; the overlay sees every card entered (docs/architecture.md, "Who sees
what")."""


def _present_seat(seat: Any, dealer: bool, reveal: Collection[Any] = ()) -> dict[str, Any]:
    cards = []
    for slot in seat.cards:
        public = bool(slot.up or slot.exposed)
        if dealer:
            cards.append({"card": _card(slot.card), "up": bool(slot.up), "public": public})
        elif public or (slot.card is not None and slot.card in reveal):
            cards.append({"card": _card(slot.card), "up": bool(slot.up), "public": True})
        else:
            cards.append({"card": None, "up": False, "public": False})
    return {
        "seat": seat.number,
        "name": seat.name,
        "stack": seat.stack,
        "bet": seat.bet,
        "committed": seat.committed,
        "folded": bool(seat.folded),
        "all_in": bool(seat.all_in),
        "shown": bool(seat.shown),
        "mucked": bool(seat.mucked),
        "cards": cards,
    }


def _current_street_act(hand: Any) -> Any:
    """The engine's last action if it belongs to the street now on the table, else None.

    A street's cards being dealt (phase ``deal`` or ``community``), or any card dealt after the
    last action, means a new street has begun: the previous street's closing call is history.
    """
    state = hand.state
    if state.last_action is None or state.phase in ("deal", "community"):
        return None
    for event in reversed(hand.events):
        if isinstance(event, Act):
            return state.last_action
        if isinstance(event, (Deal, Community)):
            return None
    return None


def _last_action(hand: Any, names: dict[int, str], lang: str) -> dict[str, Any] | None:
    state = hand.state
    act = _current_street_act(hand)
    if act is None:
        return None
    return {
        "seat": act.seat,
        "name": names.get(act.seat, str(act.seat)),
        "action": act.action,
        "amount": act.amount,
        "text": action_text(
            act,
            names.get(act.seat, str(act.seat)),
            next((s.bet for s in state.seats if s.number == act.seat), 0) or act.amount,
            lang,
        ),
    }


def action_text(act: Any, name: str, to: int, lang: str) -> str:
    """An action in words: "Anna raises to 10" (``to``: the seat's round total after it)."""
    return _ui(f"did.{act.action}", lang, name=name, amount=act.amount, to=to)


def _present_result(result: Any, names: dict[int, str], public: set[int], dealer: bool,
                    lang: str) -> dict[str, Any]:
    pots = []
    for pot in result.pots:
        shares = []
        for half, group in (("high", pot.high), ("low", pot.low)):
            for share in group:
                show = dealer or share.seat in public
                shares.append({
                    "half": half,
                    "seat": share.seat,
                    "name": names.get(share.seat, str(share.seat)),
                    "to": _to(names.get(share.seat, str(share.seat)), lang),
                    "amount": share.amount,
                    "hand": _hand_words(share.hand, lang) if show else None,
                    "cards": [str(c) for c in share.hand.cards]
                    if show and share.hand is not None and hasattr(share.hand, "cards")
                    else None,
                })
        pots.append({
            "index": pot.index,
            "title": _ui("result.main", lang) if pot.index == 0
            else _ui("result.side", lang, n=pot.index),
            "amount": pot.amount,
            "eligible": list(pot.eligible),
            "eligible_names": [names.get(s, str(s)) for s in pot.eligible],
            "no_low": bool(getattr(pot, "no_low", False)),
            "shares": shares,
            "awards": [
                {"seat": seat, "name": names.get(seat, str(seat)), "amount": amount}
                for seat, amount in sorted(dict(pot.awards).items())
            ],
            "odd_chips": [chip.text(lang) for chip in pot.odd_chips],
            "beaten": [
                {
                    "seat": b.seat,
                    "name": names.get(b.seat, str(b.seat)),
                    "half": b.half,
                    "hand": b.name(lang),
                    "why": b.why(lang),
                }
                for b in getattr(pot, "beaten", ())
                if dealer or b.seat in public
            ],
        })
    return {
        "misdeal": bool(result.misdeal),
        "pots": pots,
        "returned": [
            {"seat": seat, "name": names.get(seat, str(seat)),
             "to": _to(names.get(seat, str(seat)), lang), "amount": amount}
            for seat, amount in result.returned
        ],
        "payouts": [
            {"seat": seat, "name": names.get(seat, str(seat)), "amount": amount}
            for seat, amount in sorted(dict(result.payouts).items())
        ],
    }


def present_hand(hand: Any, role: str, lang: str, reveal: Collection[Any] = ()) -> dict[str, Any]:
    """The hand as ``role`` (``dealer``, ``spectator`` or ``overlay``) may see it, texts in
    ``lang``; ``reveal``: cards a spectator sees wherever they are (a replay's, public by the end
    of the hand)."""
    full = role in ("dealer", "overlay")
    dealer = role == "dealer"
    state = hand.state
    names = {seat.number: seat.name for seat in state.seats}
    public = _public_seats(state)
    view: dict[str, Any] = {
        "variant": state.variant,
        "phase": state.phase,
        "street": state.street,
        "street_name": state.street_name,
        "street_text": _street_text(state.street_name, lang),
        "seats": [_present_seat(seat, full, reveal) for seat in state.seats],
        "community": [_card(c) for c in state.community],
        "pots": [{"amount": pot.amount, "eligible": list(pot.eligible)} for pot in state.pots],
        "total_pot": state.total_pot,
        "to_act": state.to_act,
        "last_action": _last_action(hand, names, lang),
        "finished": bool(state.finished),
        "first_to_show": state.first_to_show,
        "runout": state.runout,
        "result": None
        if state.result is None
        else _present_result(state.result, names, public, full, lang),
    }
    prompt = hand.prompt()
    view["prompt"] = {"kind": prompt.kind, "seats": list(prompt.seats)}
    if dealer:
        view["prompt"]["text"] = prompt.text(lang)
        view["prompt"]["params"] = _jsonable(prompt.params)
        view["prompt"]["say"] = _say(prompt, names, lang)
        view["legal"] = [
            {"action": a.action, "amount": a.amount, "to": a.to, "label": a.text(lang),
             "all_in": a.all_in}
            for a in hand.legal_actions()
        ]
        nxt = hand.next_card()
        view["next_card"] = None if nxt is None else {"seat": nxt[0], "up": nxt[1]}
        view["seen"] = sorted(
            {str(slot.card) for seat in state.seats for slot in seat.cards if slot.card}
            | {str(c) for c in state.community if c}
        )
        view["deck_left"] = state.deck_left
        view["needs"] = {
            str(seat): {"down": down, "up": up}
            for seat, (down, up) in hand.cards_needed().items()
        }
        view["events"] = len(hand.events)
    return view


def _called(seat: int, names: dict[int, str], lang: str) -> str:
    """How the screen calls a seat: its player's name, or "seat 3" for a seat without one."""
    name = names.get(seat, "")
    return name if name and name != str(seat) else _ui("say.seat", lang, seat=seat)


def _say(prompt: Any, names: dict[int, str], lang: str) -> str:
    """The prompt as the dealer screen says it aloud: short, the player by name."""
    kind = prompt.kind
    if kind == "deal":
        return _street_text(prompt.param("street"), lang)
    if kind not in ("act", "bring_in", "show") or not prompt.seats:
        return ""
    called = _called(prompt.seats[0], names, lang)
    if kind == "act":
        return _ui("say.act", lang, name=called, to=_to(called, lang))
    if kind == "show":
        return _ui("say.show", lang, name=called)
    if prompt.param("complete") is None:
        key = "say.bring_in_all_in" if prompt.param("all_in") else "say.bring_in_only"
        return _ui(key, lang, name=called, amount=prompt.param("bring_in"))
    return _ui("say.bring_in", lang, name=called, amount=prompt.param("bring_in"),
               complete=prompt.param("complete"))


def _card_label(code: str | None) -> str:
    """A card as the screens draw it: ``K♥``, ``10♠``."""
    if not code:
        return ""
    return ("10" if code[0] == "T" else code[0]) + SUITS[code[1]]


def undone_text(table: TableService, event: dict[str, Any], lang: str) -> str:
    """What an undo took back, in words: "K♥ di Anna", "Anna vede 5"."""
    if is_table_event(event):
        return entry_words(event, table.roster.by_id, lang)
    hand = table.hand
    names = {s.number: s.name for s in hand.settings.seats} if hand is not None else {}
    kind = str(event.get("type"))
    seat = event.get("seat")
    name = _called(int(seat), names, lang) if isinstance(seat, int) else ""
    card = _card_label(event.get("card"))
    if kind == "act":
        amount = int(event.get("amount") or 0)
        before = hand.seat_bet(int(seat)) if hand is not None and isinstance(seat, int) else 0
        to = before + amount
        return _ui(f"did.{event.get('action')}", lang, name=name, amount=amount, to=to)
    if kind == "deal" and not card:
        return _ui("undone.deal_unknown", lang, name=name)
    if f"undone.{kind}" in ui_catalog().messages("en"):
        return _ui(f"undone.{kind}", lang, name=name, card=card)
    return kind


def _stakes_text(setup: dict[str, Any], settings: Any, lang: str) -> str:
    """The stakes with their names: "ante 1 · bring-in 2 · bets 5/10" (a game played without a
    bring-in, as Sökö by default, shows none; an ante of 0 neither)."""
    stakes = setup["stakes"]
    parts = []
    if int(stakes["ante"]):
        parts.append(_ui("stakes.text.ante", lang, amount=stakes["ante"]))
    bring_in = settings.has_bring_in if settings is not None else int(stakes["bring_in"]) > 0
    if bring_in:
        parts.append(_ui("stakes.text.bring_in", lang, amount=stakes["bring_in"]))
    parts.append(_ui("stakes.text.bets", lang, small=stakes["small_bet"], big=stakes["big_bet"]))
    return " · ".join(parts)


def _settings(table: TableService) -> Any:
    """The engine's settings of the hand on the table, else of the setup (None if it has none)."""
    if table.hand is not None:
        return table.hand.settings
    from kiosk.table_setup import settings_from_setup

    try:
        return settings_from_setup(table._setup)
    except ValueError:
        return None


def _street_text(name: str | None, lang: str) -> str:
    if not name:
        return ""
    key = f"street.{name}"
    return _ui(key, lang) if key in ui_catalog().messages("en") else name


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    return str(value)


def present(table: TableService | Any, role: str, lang: str) -> dict[str, Any]:
    """Everything a screen shows: the table and, if any, the current (or last) hand. ``table`` is
    the table service, or a moment of it kept with the same attributes (the stream overlay's)."""
    setup = table._setup
    dealer = role == "dealer"
    seats = [
        {"seat": s["seat"], "name": s["name"], "stack": s["stack"], "out": bool(s.get("out"))}
        for s in setup["seats"]
        if s["active"]
    ]
    view: dict[str, Any] = {
        "role": role,
        "lang": lang,
        "version": table.version,
        "table": {
            "game": setup["game"],
            "game_name": _ui(f"game.{setup['game']}", lang),
            "stakes": dict(setup["stakes"]),
            "stakes_text": _stakes_text(setup, _settings(table), lang),
            "dealer": setup["dealer"],
            "seats": seats,
            "rotation": _rotation(setup, lang),
            "show_night": table.show_night,
        },
        "hand": None,
        "night": night_of(table, role, lang),
        "tournament": tournament_of(table, role, lang),
    }
    if dealer:
        view["table"]["screen"] = screen_options(setup)
    if dealer and table.notice is not None:
        view["notice"] = table.notice.text(lang)
    if role == "spectator":
        tv = tv_options(setup)
        view["table"]["tv"] = {"odds": tv["odds"], "replays": tv["replays"]}
    if table.hand is not None:
        view["hand"] = present_hand(table.hand, role, lang)
        view["hand"]["id"] = table.hand_id
        view["hand"]["number"] = table.hand_number
        if role == "spectator" and view["table"]["tv"]["odds"]:
            view["hand"]["odds_key"] = odds_key(table.hand, "public")
    if dealer:
        view["can_undo"] = table.can_undo()
        if view["hand"] is not None:
            view["hand"]["can_undo"] = view["can_undo"]
    return view


def _rotation(setup: dict[str, Any], lang: str) -> dict[str, Any]:
    """The game of the next hand and, in a rotation, the game after it; in a dealer's choice the
    games to choose from; the seat at the button and its player."""
    found = rotation.upcoming(setup)
    found["game_name"] = _ui(f"game.{found['game']}", lang)
    found["games"] = [{"game": g, "name": _ui(f"game.{g}", lang)} for g in found["games"]]
    if "next" in found:
        found["next_name"] = _ui(f"game.{found['next']}", lang)
        found["next_text"] = _ui("rotation.next" if found["in_hands"] > 1 else "rotation.next_one",
                                 lang, game=found["next_name"], n=found["in_hands"])
    names = {s["seat"]: s["name"] for s in setup["seats"] if s["active"]}
    found["button_name"] = names.get(found["button"], "")
    if found["mode"] == "choice" and found["button_name"]:
        found["chooser_text"] = _ui("rotation.chooses", lang, name=found["button_name"])
    return found


def odds_key(hand: Any, known: str) -> str | None:
    """The key of the odds a viewer may see (``public``: from the cards a spectator sees;
    ``all``: from every card entered, for the overlay), or None when there are none to see (the
    hand is over, or fewer than two players are left)."""
    from engine.odds import hand_problem

    found = hand_problem(hand, "all" if known == "all" else "public")
    return None if found is None else found[1].key
