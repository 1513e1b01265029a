"""What the table's displays show: the pot, the seat to act, the prompt cut to fit, the seats'
lights, all asked of the hand as it stands.

>>> display_text("Deal third street: two down and one up to seats 1, 2, 3")
'Deal third street'
>>> display_text("Seat 1 (Anna) brings in for 2 or completes to 5")
'Seat 1 (Anna) brings in for...'
"""

from __future__ import annotations

from hardware.serial import DisplayState
from hardware.serial.protocol import MAX_SEAT, MAX_TEXT
from kiosk.service import TableService


def ui(key: str, lang: str) -> str:
    from kiosk.i18n import ui_catalog

    return ui_catalog().translate(key, lang)


def display_text(prompt: str, width: int = MAX_TEXT) -> str:
    """The prompt cut for a small display: before its colon when that fits, else at a word."""
    if len(prompt) <= width:
        return prompt
    head = prompt.split(":", 1)[0]
    if len(head) <= width:
        return head
    cut = prompt[: width - 3].rsplit(" ", 1)[0]
    return cut.rstrip(" ,;:") + "..."


def display_state(table: TableService, lang: str) -> DisplayState:
    """What the displays show for the table as it stands, the prompt in ``lang``: the seat to act
    (or to show) blinks, a seat out of the hand is off, the others are on."""
    hand = table.hand
    if hand is None:
        return DisplayState(text=ui("devices.display.no_hand", lang))
    state = hand.state
    turn = state.to_act or hand.next_to_show or 0
    leds: list[tuple[int, str]] = []
    for seat in state.seats:
        if not 1 <= seat.number <= MAX_SEAT:
            continue
        if seat.folded or seat.mucked or state.finished:
            leds.append((seat.number, "off"))
        elif seat.number == turn:
            leds.append((seat.number, "blink"))
        else:
            leds.append((seat.number, "on"))
    return DisplayState(
        pot=state.total_pot,
        turn=turn if 0 <= turn <= MAX_SEAT else 0,
        text=display_text(hand.prompt().text(lang)),
        leds=tuple(leds),
    )
