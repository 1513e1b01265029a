"""A finished hand replayed on the TV street by street, with the odds at each street.

A replay shows a spectator what was public by the end of the hand (the hands shown at the
showdown) from the street each card was dealt on, never a card that stayed hidden: each street is
the table as it stood once the street's cards were all out, with the odds computed from the cards
so shown, then the street's betting in words.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from engine.cards import Card
from engine.events import Act, Community, Deal, Event
from engine.hand import Hand
from engine.i18n import LANGUAGES
from engine.odds import Odds, Problem, hand_problem
from engine.settings import GameSettings
from kiosk.presenter import action_text, present_hand


def public_by_the_end(hand: Hand) -> frozenset[Card]:
    """Every card a spectator saw by the end of the hand: up, exposed and shown cards."""
    state = hand.state
    cards = {slot.card for seat in state.seats for slot in seat.cards
             if slot.card is not None and (slot.up or slot.exposed)}
    return frozenset(cards | set(state.community))


def odds_payload(seats: Sequence[int], key: str, result: Odds) -> dict[str, Any]:
    """Odds as the screens read them: each live seat's figures, and how they were found."""
    return {
        "key": key,
        "exact": result.exact,
        "runouts": result.runouts,
        "margin": round(result.margin, 4),
        "seats": {str(seat): player.to_dict(4)
                  for seat, player in zip(seats, result.players, strict=True)},
    }


def build_replay(
    settings: GameSettings,
    events: Sequence[Event],
    odds: Callable[[Problem], Odds],
    langs: Sequence[str] = LANGUAGES,
) -> dict[str, list[dict[str, Any]]]:
    """The replay's streets in each language: ``{"it": [street, ...]}``, each street
    ``{"hand": <the spectator view then>, "odds": <odds payload or None>, "actions": [words]}``.
    ``odds`` computes (or finds) the odds of a problem."""
    final = Hand(settings)
    for event in events:
        final.push(event)
    reveal = public_by_the_end(final)
    replay = Hand(settings)
    streets: dict[str, list[dict[str, Any]]] = {lang: [] for lang in langs}
    names = {seat.number: seat.name for seat in settings.seats}
    for event in events:
        dealing = replay.phase in ("deal", "community")
        before = replay.seat_bet(event.seat) if isinstance(event, Act) else 0
        stored = replay.push(event)
        if isinstance(stored, Act):
            to = before + (stored.amount or 0)
            for lang in langs:
                if streets[lang]:
                    words = action_text(stored, names[stored.seat], to, lang)
                    streets[lang][-1]["actions"].append(words)
        elif (isinstance(event, Deal | Community) and dealing
              and replay.phase not in ("deal", "community")):
            found = hand_problem(replay, "public", reveal)
            payload = None if found is None else odds_payload(found[0], found[1].key,
                                                                odds(found[1]))
            for lang in langs:
                view = present_hand(replay, "spectator", lang, reveal)
                streets[lang].append({"hand": view, "odds": payload, "actions": []})
    return streets
