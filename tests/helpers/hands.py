"""A hand dealt from a fixed deck and played by a fixed plan, answering the kiosk's prompt from
the dealer's view (the eight-handed tables of the browser tests)."""

from __future__ import annotations

from typing import Any

DECK = [r + s for r in "AKQJT98765432" for s in "shdc"]


def next_event(hand: dict[str, Any], deck: list[str]) -> dict[str, Any]:
    prompt = hand["prompt"]
    if prompt["kind"] == "deal":
        needs = hand["needs"]
        seat = next((s for s in prompt["seats"] if str(s) in needs), int(next(iter(needs))))
        return {"type": "deal", "seat": seat, "card": deck.pop(0),
                "up": not needs[str(seat)].get("down")}
    if prompt["kind"] in ("bring_in", "act"):
        legal = {a["action"]: a for a in hand["legal"]}
        seat, street = hand["to_act"], hand["street_name"]
        if "bring_in" in legal:
            choice = "bring_in"
        elif seat == 2 and "raise" in legal:
            choice = "raise"
        elif seat in (5, 6) and street == "fourth" and "fold" in legal:
            choice = "fold"
        elif seat == 3 and "bet" in legal:
            choice = "bet"
        else:
            choice = "check" if "check" in legal else "call"
        return {"type": "act", "seat": seat, "action": choice, "amount": legal[choice]["amount"]}
    if prompt["kind"] == "show":
        seat = prompt["seats"][0]
        cards = next(s for s in hand["seats"] if s["seat"] == seat)["cards"]
        down = [c["card"] for c in cards if not c["public"]]
        return {"type": "show", "seat": seat, "cards": down}
    raise AssertionError(f"no answer to {prompt}")
