"""A scripted seven-card stud hi/lo hand, played by reading the dealer's view (whatever carries it:
the table service, Socket.IO, the browser) and answering its prompt.

Three players: Anna (seat 1) makes the low A-2-3-5-7, Carla (seat 3) a club flush for high, Bruno
(seat 2) two pair, and mucks at showdown, so his down cards (Kd Qd 4s) must never reach a
spectator. Carla's down cards are not entered when dealt (hole cards are optional): they are
entered when she shows.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kiosk.service import TableService

SETUP: dict[str, Any] = {
    "game": "seven-card-stud-hilo",
    "stakes": {"ante": 1, "bring_in": 2, "small_bet": 5, "big_bet": 10},
    "rules": {
        "max_raises": 3, "heads_up_uncapped": True, "burns": True, "open_pair_double": False,
        "odd_chip": "nearest-dealer", "soko_bring_in": False, "chip_unit": 1,
    },
    "dealer": 0,
    "seats": [
        {"seat": 1, "name": "Anna", "stack": 200, "active": True},
        {"seat": 2, "name": "Bruno", "stack": 200, "active": True},
        {"seat": 3, "name": "Carla", "stack": 200, "active": True},
    ]
    + [{"seat": n, "name": str(n), "stack": 0, "active": False} for n in range(4, 11)],
}

#: each seat's cards in the order dealt (None: a down card the dealer does not enter)
PLAN: dict[int, list[str | None]] = {
    1: ["As", "2s", "5h", "7d", "9c", "Kh", "3d"],
    2: ["Kd", "Qd", "9s", "Kc", "Qs", "Ts", "4s"],
    3: [None, None, "8h", "8c", "Jc", "6c", None],
}
UP_POSITIONS = {2, 3, 4, 5}
SHOWN: dict[int, list[str]] = {3: ["3c", "4c", "6d"]}
MUCKS = {2}
NEVER_PUBLIC = ["Kd", "Qd", "4s"]
"""Bruno's down cards: he mucks, so no spectator may ever receive them."""
SHOWN_LATER = ["As", "2s", "3d", "3c", "4c", "6d"]
"""Down cards that become public only at showdown."""


def next_event(view: dict[str, Any]) -> dict[str, Any] | None:
    """The dealer's next entry for the dealer ``view`` (None when the hand is over)."""
    hand = view["hand"]
    if hand is None or hand["finished"]:
        return None
    prompt = hand["prompt"]
    kind = prompt["kind"]
    seats = {s["seat"]: s for s in hand["seats"]}
    if kind == "deal":
        seat = hand["next_card"]["seat"]  # the engine's dealing order, as the dealer deals
        index = len(seats[seat]["cards"])
        return {"type": "deal", "seat": seat, "card": PLAN[seat][index],
                "up": index in UP_POSITIONS}
    if kind in ("bring_in", "act"):
        legal = {a["action"]: a for a in hand["legal"]}
        street = hand["street_name"]
        if "bring_in" in legal:
            choice = "bring_in"
        elif street == "fifth" and "bet" in legal:
            choice = "bet"
        elif "check" in legal:
            choice = "check"
        else:
            choice = "call"
        return {"type": "act", "seat": hand["to_act"], "action": choice,
                "amount": legal[choice]["amount"]}
    if kind == "show":
        seat = prompt["seats"][0]
        if seat in MUCKS:
            return {"type": "muck", "seat": seat}
        known = [c["card"] for c in seats[seat]["cards"] if not c["public"] and c["card"]]
        more = [c for c in SHOWN.get(seat, []) if c not in known]
        return {"type": "show", "seat": seat, "cards": known + more}
    raise AssertionError(f"the script has no answer to a {kind!r} prompt: {prompt}")


def play(table: TableService, stop_after: int | None = None) -> int:
    """Play the scripted hand (or its first ``stop_after`` entries); returns entries made."""
    done = 0
    while stop_after is None or done < stop_after:
        event = next_event(table.view("dealer", "en"))
        if event is None:
            break
        table.submit(event, source="test")
        done += 1
    return done
