"""The table setup's one schema, for the setup page's form and ``PUT /api/setup`` alike.

:func:`validate_setup` checks a setup's shape, types and ranges with pydantic (:class:`Setup`)
and returns the value it produced, which is what the table stores: a seat number is a number, a
stake a whole number of chips, a flag true or false, a name cleaned text of at most
:data:`NAME_MOST` characters, and nothing else is kept. What it refuses is a
:class:`~kiosk.errors.KioskError` (``422``) naming each field and what is allowed there. The facts
come from the engine: the games are its variants, the odd-chip rules and the house rules'
defaults its settings; whether the whole makes a table (players for the game, the bring-in
against the small bet...) is the engine's to say when its settings are built.

JSON is read strictly (``"1"`` is not a number, ``"false"`` is not false, ``1.5`` is not a whole
number of chips); the form, whose every value is text, is read as a form is: ``"5"`` is 5 and a
ticked box ``"on"``.
"""

from __future__ import annotations

import unicodedata
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from engine.settings import ODD_CHIP_RULES, GameSettings, HouseRules
from engine.variants import VARIANTS
from kiosk.errors import Kind, KioskError
from kiosk.rotation import MODES as ROTATION_MODES

SEAT_COUNT = max(v.max_players for v in VARIANTS.values())
"""The seats of a setup: enough for the game with the most players."""
#: the longest player name, in characters
NAME_MOST = 24
#: the most chips a stake or a stack may be
CHIPS_MOST = 10**9
#: the longest idle time the dealer screen may be set to lock after (minutes: a day)
LOCK_AFTER_MOST = 24 * 60
#: the most raises a house may allow in a betting round
RAISES_MOST = 99
#: the table's usual buy-in unless the house sets another: what a seat sitting down starts with
DEFAULT_BUY_IN = 200
#: the longest delay the stream overlay may be set to run behind the table (seconds)
OVERLAY_DELAY_MOST = 3600

#: the largest id of a player of the list
ID_MOST = 2**53 - 1
#: the most hands a game of a rotation may be played for before the next
EVERY_MOST = 1000

#: characters that reorder text (a right-to-left override turns "evil" into "live"): never kept
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
                          "\u2066\u2067\u2068\u2069")

#: the engine's house rules as they are unless a house changes them, and its chip unit
_HOUSE = HouseRules()
_CHIP_UNIT: int = GameSettings.__dataclass_fields__["chip_unit"].default  # type: ignore[assignment]

Chips = Annotated[int, Field(ge=0, le=CHIPS_MOST)]
Bet = Annotated[int, Field(ge=1, le=CHIPS_MOST)]


def clean_name(name: str) -> str:
    """A player's name as the screens show it: no bidirectional or other control characters,
    spaces trimmed and single.

    >>> clean_name("\\u202eevil")
    'evil'
    >>> clean_name("  Anna\\tMaria ")
    'Anna Maria'
    """
    kept = "".join(" " if unicodedata.category(c) == "Cc" else c
                   for c in name if c not in BIDI_CONTROLS)
    return " ".join(kept.split())


class _Form(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Stakes(_Form):
    ante: Chips
    bring_in: Chips
    small_bet: Bet
    big_bet: Bet


class Rules(_Form):
    max_raises: Annotated[int, Field(ge=0, le=RAISES_MOST)] = _HOUSE.max_raises
    heads_up_uncapped: bool = _HOUSE.heads_up_uncapped
    burns: bool = _HOUSE.burns
    open_pair_double: bool = _HOUSE.open_pair_double
    odd_chip: str = _HOUSE.odd_chip
    #: Sökö opens with the highest upcard unless the house plays a bring-in (the engine's
    #: ``bring_in`` house rule)
    soko_bring_in: bool = _HOUSE.bring_in
    chip_unit: Annotated[int, Field(ge=1, le=CHIPS_MOST)] = _CHIP_UNIT

    @field_validator("odd_chip")
    @classmethod
    def _odd_chip(cls, value: str) -> str:
        if value not in ODD_CHIP_RULES:
            raise ValueError("choice")
        return value


class Seat(_Form):
    seat: Annotated[int, Field(ge=1, le=SEAT_COUNT)]
    name: Annotated[str, Field(max_length=NAME_MOST * 4)] = ""
    stack: Chips = 0
    active: bool = False
    #: the player of the list sitting here (a night's seats), if known
    player: Annotated[int, Field(ge=1, le=ID_MOST)] | None = None
    #: sitting out: seated, dealt no cards
    out: bool = False

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        cleaned = clean_name(value)
        if len(cleaned) > NAME_MOST:
            raise ValueError("text")
        return cleaned


class Screen(_Form):
    """The dealer screen's house options."""

    #: a short tone after every entry
    sound: bool = False
    #: the dealer screen says whose turn it is (the browser's speech synthesis)
    speech: bool = False
    #: known down cards drawn as backs on the dealer screen, shown while a finger holds them
    hide_down: bool = True


class Tv(_Form):
    """The TV's and the stream overlay's house options."""

    #: the TV shows each live player's odds from the cards it shows
    odds: bool = True
    #: after a hand, the TV replays it street by street with the odds
    replays: bool = True
    #: seconds the stream overlay (hole cards) runs behind the table
    overlay_delay: Annotated[int, Field(ge=0, le=OVERLAY_DELAY_MOST)] = 60


class Rotation(_Form):
    """The games the table plays in turn or by dealer's choice (:mod:`kiosk.rotation`, whose
    :func:`~kiosk.rotation.check_rotation` says whether the games make a rotation)."""

    mode: str = "fixed"
    games: Annotated[list[str], Field(max_length=len(VARIANTS))] = Field(default_factory=list)
    every: Annotated[int, Field(ge=0, le=EVERY_MOST)] = 0
    #: each game's own stakes, which come back with it
    stakes: dict[str, Stakes] = Field(default_factory=dict)
    #: where the rotation is: the game's index in ``games``, the hands played of it, the
    #: button's seat when it came up
    at: Annotated[int, Field(ge=0, le=len(VARIANTS))] = 0
    played: Annotated[int, Field(ge=0, le=EVERY_MOST)] = 0
    orbit_start: Annotated[int, Field(ge=0, le=SEAT_COUNT)] | None = None

    @field_validator("mode")
    @classmethod
    def _mode(cls, value: str) -> str:
        if value not in ROTATION_MODES:
            raise ValueError("choice")
        return value

    @field_validator("games")
    @classmethod
    def _games(cls, games: list[str]) -> list[str]:
        if any(game not in VARIANTS for game in games):
            raise ValueError("choice")
        return games

    @field_validator("stakes")
    @classmethod
    def _stakes(cls, stakes: dict[str, Stakes]) -> dict[str, Stakes]:
        if any(game not in VARIANTS for game in stakes):
            raise ValueError("choice")
        return stakes


class Setup(_Form):
    game: str
    stakes: Stakes
    rules: Rules = Field(default_factory=Rules)
    buy_in: Annotated[int, Field(ge=1, le=CHIPS_MOST)] = DEFAULT_BUY_IN
    screen: Screen = Field(default_factory=Screen)
    tv: Tv = Field(default_factory=Tv)
    dealer: Annotated[int, Field(ge=0, le=SEAT_COUNT)] = 0
    #: the seat at the button (:mod:`kiosk.rotation`); left out, the table's stays
    button: Annotated[int, Field(ge=0, le=SEAT_COUNT)] | None = None
    rotation: Rotation | None = None
    lock_after_minutes: Annotated[float, Field(ge=0, le=LOCK_AFTER_MOST)] = 0
    seats: list[Seat]

    @field_validator("game")
    @classmethod
    def _game(cls, value: str) -> str:
        if value not in VARIANTS:
            raise ValueError("choice")
        return value

    @field_validator("seats")
    @classmethod
    def _seats(cls, seats: list[Seat]) -> list[Seat]:
        if sorted(s.seat for s in seats) != list(range(1, SEAT_COUNT + 1)):
            raise ValueError("seats")
        return sorted(seats, key=lambda s: s.seat)


#: the parts of a setup that are objects of their own, by field name
_PARTS: dict[str, type[BaseModel]] = {"stakes": Stakes, "rules": Rules, "screen": Screen,
                                      "tv": Tv, "rotation": Rotation}


def _allowed(loc: tuple[Any, ...], error_type: str, message: str) -> tuple[str, dict[str, Any]]:
    """The message key and parameters saying what is allowed at ``loc``."""
    name = str(loc[-1]) if loc else ""
    if error_type == "extra_forbidden":
        if len(loc) >= 2 and loc[-2] in _PARTS:
            return "setup.allow.unknown_in", {"fields": ", ".join(_PARTS[loc[-2]].model_fields)}
        return "setup.allow.unknown", {}
    if error_type == "missing":
        return "setup.allow.missing", {}
    if "seats" in message and name == "seats":
        return "setup.allow.seats", {"most": SEAT_COUNT}
    if name in _PARTS and error_type in ("model_type", "model_attributes_type"):
        return "setup.allow.fields", {"fields": ", ".join(_PARTS[name].model_fields)}
    part = loc[1] if len(loc) >= 2 and loc[0] == "rotation" else None
    if part == "stakes" and len(loc) == 3:  # a game's stakes that are not an object
        return "setup.allow.fields", {"fields": ", ".join(Stakes.model_fields)}
    if name == "game" or (part == "games" or (part == "stakes" and len(loc) == 2
                                              and error_type == "value_error")):
        return "setup.allow.choice", {"allowed": ", ".join(VARIANTS)}
    if name == "mode":
        return "setup.allow.choice", {"allowed": ", ".join(ROTATION_MODES)}
    if name == "odd_chip":
        return "setup.allow.choice", {"allowed": ", ".join(ODD_CHIP_RULES)}
    if name == "name":
        return "setup.allow.name", {"most": NAME_MOST}
    if name == "lock_after_minutes":
        return "setup.allow.minutes", {"most": LOCK_AFTER_MOST}
    if name == "player":
        return "setup.allow.player", {}
    bounds = {"seat": (1, SEAT_COUNT), "dealer": (0, SEAT_COUNT), "button": (0, SEAT_COUNT),
              "orbit_start": (0, SEAT_COUNT), "every": (0, EVERY_MOST),
              "played": (0, EVERY_MOST), "at": (0, len(VARIANTS)),
              "max_raises": (0, RAISES_MOST),
              "small_bet": (1, CHIPS_MOST), "big_bet": (1, CHIPS_MOST),
              "chip_unit": (1, CHIPS_MOST), "buy_in": (1, CHIPS_MOST),
              "overlay_delay": (0, OVERLAY_DELAY_MOST)}
    if name in ("heads_up_uncapped", "burns", "open_pair_double", "soko_bring_in", "active", "out",
                *Screen.model_fields, "odds", "replays"):
        return "setup.allow.flag", {}
    least, most = bounds.get(name, (0, CHIPS_MOST))
    return "setup.allow.whole", {"least": least, "most": most}


def field_name(loc: tuple[Any, ...], seats: list[Any] | None) -> str:
    """A field's name as docs/api.md writes it: ``stakes.ante``, ``seats[3].name`` (seat 3)."""
    parts: list[str] = []
    for index, part in enumerate(loc):
        if isinstance(part, int) and index and loc[index - 1] == "seats":
            number = part + 1
            if seats and part < len(seats) and isinstance(seats[part], dict):
                number = seats[part].get("seat", number)
            parts[-1] += f"[{number}]"
        else:
            parts.append(str(part))
    return ".".join(parts)


def validate_setup(data: Any, *, form: bool = False) -> dict[str, Any]:
    """The setup ``data`` stands for, as the table stores it; what is not allowed raises
    :class:`KioskError` (``422``) with a problem per field. ``form``: values are the setup page's
    text."""
    if not isinstance(data, dict):
        raise KioskError("json.not_object", Kind.UNREADABLE)
    try:
        setup = Setup.model_validate(data, strict=not form)
    except ValidationError as exc:
        seats = data.get("seats") if isinstance(data.get("seats"), list) else None
        problems = []
        for error in exc.errors(include_input=False, include_url=False):
            loc = tuple(error["loc"])
            key, params = _allowed(loc, error["type"], str(error.get("msg", "")))
            problems.append((field_name(loc, seats), KioskError(key, **params)))
        first_field, first = problems[0]
        raise KioskError("setup.err.field", Kind.REFUSED, field=first_field, allowed=first,
                         problems=problems) from None
    stored = setup.model_dump()
    for seat in stored["seats"]:
        seat["name"] = seat["name"] or str(seat["seat"])
        if seat["player"] is None and not seat["out"]:  # a seat of no night: as it always was
            del seat["player"], seat["out"]
    for optional in ("button", "rotation"):  # not sent: the table's stays (TableService)
        if stored[optional] is None:
            del stored[optional]
    return stored
