"""The shape of each tournament event (:mod:`kiosk.tournament_events`), one pydantic model per
type, read as strictly as the night's (:mod:`kiosk.table_event_schema`): what a model refuses is
refused field by field in words. A structure's levels are read one by one, so that a refusal names
the level ("levels.3.small_bet: a whole number from 1 to 1000000000")."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from kiosk.errors import KioskError
from kiosk.table_event_schema import Chips, Currency, Entry, Id, SeatNumber, SomeChips, validate

LEVELS_MOST = 60
Seconds = Annotated[int, Field(ge=5, le=4 * 3600)]
LevelNumber = Annotated[int, Field(ge=1, le=LEVELS_MOST)]
Share = Annotated[int, Field(ge=1, le=1000)]
Count = Annotated[int, Field(ge=0, le=1000)]


class PlayedLevel(Entry):
    seconds: Seconds
    ante: Chips = 0
    bring_in: Chips = 0
    small_bet: SomeChips
    big_bet: SomeChips


class Break(Entry):
    seconds: Seconds
    brk: Literal[True] = Field(alias="break")


class OpenTournament(Entry):
    type: Literal["tournament_open"]
    currency: Currency = "EUR"
    buy_in: SomeChips
    """What an entry costs, in cents."""
    chips: SomeChips
    """The starting stack."""
    levels: Annotated[list[dict[str, Any]], Field(min_length=1, max_length=LEVELS_MOST)]
    chip_values: Annotated[list[SomeChips], Field(min_length=1, max_length=8)] | None = None
    rebuy_until: LevelNumber | None = None
    rebuys_most: Count | None = None
    rebuy_chips: SomeChips | None = None
    rebuy_money: SomeChips | None = None
    add_on_chips: SomeChips | None = None
    add_on_money: SomeChips | None = None
    late_until: LevelNumber | None = None
    payouts: Annotated[list[Share], Field(min_length=1, max_length=20)] | None = None
    sound: bool = False


class Entrant(Entry):
    type: Literal["entrant"]
    player: Id
    seat: SeatNumber


class TournamentRebuy(Entry):
    type: Literal["tournament_rebuy", "add_on"]
    player: Id


class Clock(Entry):
    type: Literal["clock"]
    action: Literal["start", "pause", "resume", "lengthen", "end_level"]
    seconds: Seconds | None = None
    count_outage: bool | None = None


class ColourUp(Entry):
    type: Literal["colour_up"]
    chip: SomeChips
    winners: Annotated[list[SeatNumber], Field(default_factory=list, max_length=10)]


class Payouts(Entry):
    type: Literal["payouts"]
    shares: Annotated[list[Share], Field(min_length=1, max_length=20)] | None = None


class Deal(Entry):
    type: Literal["chop"]
    amounts: Annotated[dict[str, Annotated[int, Field(ge=0, le=10**9)]],
                       Field(min_length=2, max_length=10)]


class CloseTournament(Entry):
    type: Literal["tournament_close"]


def read_levels(levels: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each level as stored: ``{"seconds", "ante", "bring_in", "small_bet", "big_bet"}`` or
    ``{"break": true, "seconds"}``; a level that is not one of those is refused by its number."""
    read = []
    for i, level in enumerate(levels, start=1):
        if not isinstance(level, dict):
            raise KioskError("tournament.err.level_shape", level=i)
        try:
            if "break" in level:
                Break.model_validate(level)
                read.append({"break": True, "seconds": level["seconds"]})
            else:
                read.append(validate(level, PlayedLevel))
        except KioskError as exc:
            raise KioskError("tournament.err.level_field", level=i, problem=exc) from None
        except ValueError:
            raise KioskError("tournament.err.level_shape", level=i) from None
    return read


__all__ = ["LEVELS_MOST", "Clock", "CloseTournament", "ColourUp", "Deal", "Entrant",
           "OpenTournament", "Payouts", "TournamentRebuy", "read_levels"]
