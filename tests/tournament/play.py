"""Hands for tests of a tournament: five-card stud with every card known, the players named going
all in (betting or calling everything) and everyone else folding; the winner is whoever the cards
say."""

from __future__ import annotations

from typing import Any

#: the best five-card hand first: four aces, then four kings, ... (each seat's five cards)
STRONG = [["As", "Ah", "Ad", "Ac", "2c"], ["Ks", "Kh", "Kd", "Kc", "2d"],
          ["Qs", "Qh", "Qd", "Qc", "2h"], ["Js", "Jh", "Jd", "Jc", "2s"],
          ["Ts", "Th", "Td", "Tc", "3c"], ["9s", "9h", "9d", "9c", "3d"]]
SPARE = [r + s for r in "45678" for s in "cdhs"]


def next_entry(view: dict[str, Any], ranks: dict[int, int],
               all_in: set[int]) -> dict[str, Any] | None:
    """The entry for the dealer ``view``: seat ``s`` holds ``STRONG[ranks[s]]`` (a seat not in
    ``ranks`` gets spare cards); the seats of ``all_in`` put every chip in, the others fold."""
    hand = view["hand"]
    if hand is None or hand["finished"]:
        return None
    prompt, seats = hand["prompt"], {s["seat"]: s for s in hand["seats"]}
    if prompt["kind"] == "deal":
        seat = hand["next_card"]["seat"]
        index = len(seats[seat]["cards"])
        if seat in ranks:
            card = STRONG[ranks[seat]][index]
        else:
            card = next(c for c in SPARE if c not in hand["seen"])
        return {"type": "deal", "seat": seat, "card": card, "up": index > 0}
    if prompt["kind"] in ("bring_in", "act"):
        legal = {a["action"]: a for a in hand["legal"]}
        seat = hand["to_act"]
        if seat in all_in:
            for choice in ("bet", "raise", "complete", "call", "check", "bring_in"):
                if choice in legal:
                    most = max((a for a in hand["legal"] if a["action"] == choice),
                               key=lambda a: a["amount"])
                    return {"type": "act", "seat": seat, "action": choice,
                            "amount": most["amount"]}
        for choice in ("bring_in", "check", "fold"):
            if choice in legal:
                return {"type": "act", "seat": seat, "action": choice,
                        "amount": legal[choice]["amount"]}
    if prompt["kind"] == "show":
        seat = prompt["seats"][0]
        return {"type": "show", "seat": seat,
                "cards": [c["card"] for c in seats[seat]["cards"] if not c["public"]]}
    raise AssertionError(f"no entry for {prompt}")


def play(table: Any, ranks: dict[int, int], all_in: set[int]) -> dict[str, Any]:
    """Deal and play a hand on ``table`` (a TableService); returns its finished view."""
    table.start_hand()
    while (entry := next_entry(table.view("dealer", "en"), ranks, all_in)) is not None:
        table.submit(entry, source="test")
    return dict(table.view("dealer", "en")["hand"])
