"""Hand histories in PHH, the TOML hand-history format that pokerkit reads and writes.

Seven-card stud (``F7S``), stud hi/lo (``F7S/8``) and razz (``FR``) are standard PHH; five-card stud
(``X-F5S``) and Sökö (``X-SOKO``) are codes of ours. Players are written clockwise from the dealer's
left (``p1`` is nearest the dealer); ``seats`` and ``players`` give our seat numbers and names, and
the user-defined fields ``_dealer``, ``_chip_unit`` and ``_house_rules`` the settings PHH has no
field for. Events with no PHH action (a card exposed by accident, a misdeal) are written as comment
actions (``# _expose p2 Ah``, ``# _misdeal``), which pokerkit reads as no-operations.

>>> from engine.settings import GameSettings, SeatConfig
>>> seats = (SeatConfig(1, "A", 50), SeatConfig(2, "B", 50))
>>> hand = Hand(GameSettings("razz", 1, 2, 4, 8, seats=seats))
>>> text = to_phh(hand)
>>> from_phh(text).state == hand.state
True
"""

from __future__ import annotations

import tomllib
from typing import Any

import tomli_w

from engine.cards import Card
from engine.errors import CardError
from engine.events import Act, Community, Deal, Event, Expose, Identify, Misdeal, Muck, Show
from engine.hand import CardSlot, Hand
from engine.hand_errors import HandError, PHHError, SettingsError
from engine.settings import GameSettings, HouseRules, SeatConfig
from engine.variants import PHH_CODES, VARIANTS


def _cards_text(cards: list[Card | None]) -> str:
    return "".join("??" if c is None else str(c) for c in cards)


def _phh_order(slots: tuple[CardSlot, ...], hand: Hand) -> list[Card | None]:
    """A seat's cards as PHH deals them: street by street, down cards first."""
    out: list[Card | None] = []
    start = 0
    for street in hand.variant.streets:
        part = slots[start : start + street.cards]
        out += [s.card for s in part if not s.up] + [s.card for s in part if s.up]
        start += street.cards
    return out


def to_phh(hand: Hand) -> str:
    """The hand as PHH text (TOML)."""
    settings = hand.settings
    variant = settings.variant_info
    order = settings.clockwise()
    label = {seat: f"p{i + 1}" for i, seat in enumerate(order)}
    stacks = {s.number: s.stack for s in settings.seats}
    names = {s.number: s.name for s in settings.seats}
    final = {s.number: s for s in hand.state.seats}
    actions: list[str] = []
    replay = Hand(settings)
    dealt: dict[int, int] = dict.fromkeys(order, 0)
    street_open: int | None = None
    written: set[int] = set()

    def flush_street() -> None:
        # one dealing action per seat and street, down cards first as PHH deals them; the cards
        # are the final ones (entered later or shown), each street written once
        nonlocal street_open
        if street_open is None or street_open in written:
            street_open = None
            return
        written.add(street_open)
        street = variant.streets[street_open]
        for seat in order:
            slots = final[seat].cards
            start = dealt[seat]
            got = [i for i in range(start, len(slots))][: street.cards]
            if not got:
                continue
            downs = [slots[i].card for i in got if not slots[i].up]
            ups = [slots[i].card for i in got if slots[i].up]
            actions.append(f"d dh {label[seat]} {_cards_text([*downs, *ups])}")
            dealt[seat] = start + len(got)
        street_open = None

    for event in hand.events:
        if isinstance(event, Deal):
            if street_open is not None and replay.street != street_open:
                flush_street()
            street_open = replay.street
            replay.push(event)
            continue
        flush_street()
        if isinstance(event, Act):
            seat_before = replay.seat_bet(event.seat)
            replay.push(event)
            who = label[event.seat]
            if event.action == "bring_in":
                actions.append(f"{who} pb")
            elif event.action in ("check", "call"):
                actions.append(f"{who} cc")
            elif event.action == "fold":
                actions.append(f"{who} f")
            else:
                actions.append(f"{who} cbr {seat_before + (event.amount or 0)}")
            continue
        replay.push(event)
        if isinstance(event, Community):
            actions.append(f"d db {event.card}")
        elif isinstance(event, Show):
            shown = _phh_order(final[event.seat].cards, hand)
            actions.append(f"{label[event.seat]} sm {_cards_text(shown)}")
        elif isinstance(event, Muck):
            actions.append(f"{label[event.seat]} sm")
        elif isinstance(event, Expose):
            actions.append(f"# _expose {label[event.seat]} {event.card}")
        elif isinstance(event, Misdeal):
            actions.append("# _misdeal")
        # Identify needs no action: the card is written where it was dealt
    flush_street()
    data: dict[str, Any] = {
        "variant": variant.phh_code,
        "ante_trimming_status": False,
        "antes": [settings.ante] * len(order),
        "bring_in": settings.bring_in,
        "small_bet": settings.small_bet,
        "big_bet": settings.big_bet,
        "starting_stacks": [stacks[s] for s in order],
        "actions": actions,
        "seats": list(order),
        "players": [names[s] for s in order],
    }
    if hand.finished and not (hand.result and hand.result.misdeal):
        data["finishing_stacks"] = [hand.finishing_stacks[s] for s in order]
    data["_dealer"] = settings.dealer
    data["_chip_unit"] = settings.chip_unit
    data["_house_rules"] = settings.house.to_dict()
    return tomli_w.dumps(data)


def _read_cards(text: str) -> list[Card | None]:
    if len(text) % 2:
        raise PHHError(f"{text!r} is not a list of cards: each card is two characters, ?? unknown")
    cards: list[Card | None] = []
    for i in range(0, len(text), 2):
        token = text[i : i + 2]
        cards.append(None if token == "??" else Card.parse(token))
    return cards


def _settings(data: dict[str, Any]) -> GameSettings:
    code = data.get("variant")
    if code not in PHH_CODES:
        raise PHHError(
            f"variant {code!r} is not played here: the codes are {', '.join(sorted(PHH_CODES))}"
        )
    missing = [
        k for k in ("antes", "bring_in", "small_bet", "big_bet", "starting_stacks", "actions")
        if k not in data
    ]
    if missing:
        raise PHHError(f"the history lacks {', '.join(missing)}")
    stacks = data["starting_stacks"]
    if not isinstance(stacks, list) or not stacks:
        raise PHHError(f"starting_stacks must be a list of stacks, not {stacks!r}")
    n = len(stacks)
    antes = data["antes"]
    if isinstance(antes, int):
        antes = [antes] * n
    if not isinstance(antes, list) or len(antes) != n:
        raise PHHError(f"antes must be one number or one per player, not {antes!r}")
    if len(set(antes)) > 1:
        raise PHHError(f"antes {antes} differ by player: every player antes the same here")
    seats = data.get("seats") or list(range(1, n + 1))
    players = data.get("players") or [""] * n
    if len(seats) != n or len(players) != n:
        raise PHHError(f"seats and players must name all {n} players")
    dealer = data.get("_dealer")
    if dealer is None:
        # p1 is the player on the dealer's left: the dealer sits just before p1 clockwise
        dealer = 0 if list(seats) == sorted(seats) else seats[-1]
    try:
        settings = GameSettings(
            PHH_CODES[code],
            ante=antes[0],
            bring_in=data["bring_in"],
            small_bet=data["small_bet"],
            big_bet=data["big_bet"],
            seats=tuple(
                SeatConfig(int(s), str(p), st)
                for s, p, st in zip(seats, players, stacks, strict=True)
            ),
            dealer=int(dealer),
            chip_unit=data.get("_chip_unit", 1),
            house=HouseRules.from_dict(dict(data.get("_house_rules", {}))),
        )
    except (SettingsError, TypeError, ValueError) as exc:
        raise PHHError(f"the settings cannot be played: {exc}") from exc
    if list(settings.clockwise()) != [int(s) for s in seats]:
        raise PHHError(
            f"seats {seats} are not in clockwise order from the dealer's left "
            f"(dealer {settings.dealer})"
        )
    return settings


def _event(hand: Hand, label: dict[str, int], words: list[str], comment: str) -> list[Event]:
    """The engine events for one PHH action."""
    if not words:
        parts = comment.split()
        if parts[:1] == ["_misdeal"]:
            return [Misdeal()]
        if parts[:1] in (["_expose"], ["_identify"]) and len(parts) == 3:
            seat = _seat(label, parts[1])
            kind = Expose if parts[0] == "_expose" else Identify
            return [kind(seat, Card.parse(parts[2]))]
        return []
    if words[0] == "d":
        if len(words) == 4 and words[1] == "dh":
            seat = _seat(label, words[2])
            events: list[Event] = []
            downs = hand.needs(seat)[0]
            for i, card in enumerate(_read_cards(words[3])):
                events.append(Deal(seat, card, i >= downs))
            return events
        if len(words) == 3 and words[1] == "db":
            cards = _read_cards(words[2])
            return [Community(c) for c in cards if c is not None]
        raise PHHError("a dealing action is 'd dh pN CARDS' or 'd db CARD'")
    seat = _seat(label, words[0])
    verb = words[1] if len(words) > 1 else ""
    if verb == "pb" and len(words) == 2:
        return [Act(seat, "bring_in")]
    if verb == "f" and len(words) == 2:
        return [Act(seat, "fold")]
    if verb == "cc" and len(words) == 2:
        return [Act(seat, "check" if hand.seat_bet(seat) >= hand.current_bet else "call")]
    if verb == "cbr" and len(words) == 3:
        try:
            to = int(words[2])
        except ValueError as exc:
            raise PHHError(f"{words[2]!r} is not an amount") from exc
        options = [o for o in hand.legal_actions() if o.action in ("bet", "raise", "complete")]
        for option in options:
            if option.to == to:
                return [Act(seat, option.action, option.amount)]
        if hand.to_act == seat and not options:
            raise PHHError(
                f"seat {seat} cannot complete, bet or raise now: allowed are "
                + ", ".join(o.text() for o in hand.legal_actions())
            )
        if hand.to_act == seat:
            raise PHHError(
                f"seat {seat} cannot bet or raise to {to}: allowed is "
                + ", ".join(o.text() for o in options)
            )
        return [Act(seat, "raise", to)]  # the engine says whose turn it is
    if verb == "sm":
        if len(words) == 2:
            return [Muck(seat)]
        if words[2] == "-":
            held = hand.seat_cards(seat)
            if any(c is None for c in held):
                raise PHHError(f"seat {seat} shows cards that were never entered")
            return [Show(seat, tuple(c for c in held if c is not None))]
        cards = _read_cards(words[2])
        if any(c is None for c in cards):
            raise PHHError("shown cards must be known")
        return [Show(seat, tuple(c for c in cards if c is not None))]
    raise PHHError("not a stud action: use pb, cc, cbr, f, sm, d dh or d db")


def _seat(label: dict[str, int], text: str) -> int:
    if text not in label:
        raise PHHError(f"{text!r} is not a player: the players are {', '.join(label)}")
    return label[text]


def from_phh(text: str, *, finish_showdown: bool = True) -> Hand:
    """Replay a PHH history. A malformed or illegal one raises :class:`PHHError` naming the
    action by number (from 1) and text, and the reason.

    With ``finish_showdown``, a history that stops at the showdown with every hand known is shown
    down in order, as pokerkit does when it shows hands itself.
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PHHError(f"the history is not TOML: {exc}") from exc
    settings = _settings(data)
    label = {f"p{i + 1}": seat for i, seat in enumerate(settings.clockwise())}
    hand = Hand(settings)
    actions = data["actions"]
    if not isinstance(actions, list):
        raise PHHError("actions must be a list of texts")
    early: dict[int, Event] = {}
    for number, action in enumerate(actions, 1):
        if not isinstance(action, str):
            raise PHHError(f"action {number} ({action!r}): an action is text")
        body, _, comment = action.partition("#")
        try:
            for event in _event(hand, label, body.split(), comment.strip()):
                if isinstance(event, Show | Muck) and event.seat != hand.next_to_show:
                    # pokerkit shows all-in hands before the last cards are dealt, and may show
                    # in another order: the shown cards are entered now and the hand is shown
                    # when its turn comes
                    if isinstance(event, Show):
                        held = set(hand.seat_cards(event.seat))
                        for card in event.cards:
                            if card not in held:
                                hand.push(Identify(event.seat, card))
                    early[event.seat] = event
                    continue
                hand.push(event)
                while hand.next_to_show in early:
                    seat = hand.next_to_show
                    if isinstance(early.pop(seat), Muck):
                        hand.push(Muck(seat))
                    else:
                        cards = hand.seat_cards(seat)
                        hand.push(Show(seat, tuple(c for c in cards if c is not None)))
        except HandError as exc:
            raise PHHError(f"action {number} ({action!r}): ", exc) from exc
        except (PHHError, CardError) as exc:
            raise PHHError(f"action {number} ({action!r}): {exc}") from exc
    if finish_showdown:
        while hand.next_to_show is not None:
            seat = hand.next_to_show
            whole = hand.seat_cards(seat)
            if any(c is None for c in whole):
                break
            hand.push(Show(seat, tuple(c for c in whole if c is not None)))
    return hand


def finishing_stacks_in_file_order(hand: Hand) -> list[int]:
    """The stacks in the order of the history's players (clockwise from the dealer's left)."""
    return [hand.finishing_stacks[s] for s in hand.settings.clockwise()]


__all__ = ["VARIANTS", "finishing_stacks_in_file_order", "from_phh", "to_phh"]
