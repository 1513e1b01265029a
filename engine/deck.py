"""The dealer's deck before each street: when it runs short, the burned cards go back into the
stub, and if it is still short one community card is turned for everyone (docs/rules.md §5).

The hand asks :func:`street_deck` as each street starts; the odds ask it for the streets to come
(``Hand.community_ahead``).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class StreetDeck:
    """The deck before a street's cards are dealt (docs/rules.md §5)."""

    runout: str | None
    """None, ``burns-back`` (the burned cards go back into the stub first) or ``community`` (still
    short: one community card is turned for everyone)."""
    burns_back: int
    burn: bool
    deck_left: int
    """Cards the dealer holds once the burns are back and the burn is made."""
    burned: int


def street_deck(deck_left: int, burned: int, players: int, cards: int, burns: bool) -> StreetDeck:
    """docs/rules.md §5: the dealer needs one card per player still in, plus the burn; a short
    deck takes the burns back, and if still short turns one community card.

    >>> street_deck(7, 3, 8, 1, True)
    StreetDeck(runout='burns-back', burns_back=3, burn=True, deck_left=9, burned=1)
    >>> street_deck(1, 3, 8, 1, True).runout
    'community'
    """
    needed = players * cards + (1 if burns else 0)
    runout = None
    burns_back = 0
    if deck_left < needed:
        burns_back, deck_left, burned = burned, deck_left + burned, 0
        runout = "burns-back" if deck_left >= needed else "community"
    # the burn before a community card only when a card is left to turn after it
    burn = burns and (runout != "community" or deck_left >= 2)
    if burn:
        deck_left, burned = deck_left - 1, burned + 1
    return StreetDeck(runout, burns_back, burn, deck_left, burned)
