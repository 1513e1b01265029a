"""A short hand for tests of the night: the up cards dealt from a fresh deck, the hole cards left
unknown, the bring-in posted and everyone else folding (or, with ``call``, the first caller
calling and then everyone checking down to a showdown where every hand is mucked but one)."""

from __future__ import annotations

from typing import Any

UP_CARDS = [r + s for r in "23456789TJQKA" for s in "cdhs"]


def next_entry(view: dict[str, Any]) -> dict[str, Any] | None:
    """The dealer's next entry for the dealer ``view`` of a fold-out hand (None: it is over)."""
    hand = view["hand"]
    if hand is None or hand["finished"]:
        return None
    kind = hand["prompt"]["kind"]
    if kind == "deal":
        target = hand["next_card"]
        if not target["up"]:
            return {"type": "deal", "seat": target["seat"], "card": None, "up": False}
        card = next(c for c in UP_CARDS if c not in hand["seen"])
        return {"type": "deal", "seat": target["seat"], "card": card, "up": True}
    if kind == "community":
        return {"type": "community", "card": next(c for c in UP_CARDS if c not in hand["seen"])}
    if kind in ("bring_in", "act"):
        legal = {a["action"]: a for a in hand["legal"]}
        for choice in ("bring_in", "fold", "check"):
            if choice in legal:
                return {"type": "act", "seat": hand["to_act"], "action": choice,
                        "amount": legal[choice]["amount"]}
    if kind == "show":
        return {"type": "muck", "seat": hand["prompt"]["seats"][0]}
    raise AssertionError(f"no entry for the prompt {hand['prompt']}")


def play_hand(table: Any, game: str | None = None) -> dict[str, Any]:
    """Start a hand on ``table`` (a TableService) and play it out; returns its finished view."""
    table.start_hand(game=game)
    while (entry := next_entry(table.view("dealer", "en"))) is not None:
        table.submit(entry, source="test")
    return dict(table.view("dealer", "en")["hand"])
