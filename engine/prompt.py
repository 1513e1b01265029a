"""What the hand says to the dealer: the next step (:class:`Prompt`), the actions the seat to act
may take (:class:`LegalAction`), and the small word values that errors and prompts read in any
language.

>>> LegalAction("raise", 5, 10).text("it")
'rilanciare a 10'
>>> Words((LegalAction("call", 5, 5), LegalAction("fold", 0, 0))).text()
'call 5 or fold'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.i18n import translate


@dataclass(frozen=True, slots=True)
class LegalAction:
    """An action the seat to act may take: ``amount`` chips now, ``to`` its round total after;
    ``all_in`` when those chips are all the seat has left (a call or raise that puts it all in)."""

    action: str
    amount: int
    to: int
    all_in: bool = field(default=False, repr=False, compare=False)

    def text(self, lang: str = "en") -> str:
        """``call 5``, ``raise to 10``, ``fold``."""
        name = translate(f"play.action.{self.action}", lang)
        if self.action in ("fold", "check"):
            return name
        if self.action in ("raise", "complete"):
            return translate("play.action.to", lang, action=name, to=self.to)
        return translate("play.action.for", lang, action=name, amount=self.amount)


@dataclass(frozen=True, slots=True)
class Words:
    """Several items read as one phrase: ``call 5, raise to 10 or fold``."""

    items: tuple[Any, ...]

    def text(self, lang: str = "en") -> str:
        words = [i.text(lang) if hasattr(i, "text") else str(i) for i in self.items]
        if len(words) <= 1:
            return "".join(words)
        return translate("play.list", lang, head=", ".join(words[:-1]), last=words[-1])


@dataclass(frozen=True, slots=True)
class StreetWord:
    """A street by name (``third``), read as a word."""

    name: str

    def text(self, lang: str = "en") -> str:
        return translate(f"play.street.{self.name}", lang)


@dataclass(frozen=True, slots=True)
class Where:
    """Where a card is: a seat, or the middle (0)."""

    seat: int

    def text(self, lang: str = "en") -> str:
        if self.seat == 0:
            return translate("play.community", lang)
        return translate("play.seat", lang, seat=self.seat)


@dataclass(frozen=True, slots=True)
class ActionWord:
    """An action by name (``bring_in``), read as words."""

    name: str

    def text(self, lang: str = "en") -> str:
        return translate(f"play.action.{self.name}", lang)


@dataclass(frozen=True, slots=True)
class Prompt:
    """What the dealer should do next. ``kind``: deal, community, bring_in, act, show, over,
    misdeal. ``seats``: the seats concerned. ``params``: the details (see docs/engine.md)."""

    kind: str
    seats: tuple[int, ...]
    params: tuple[tuple[str, Any], ...] = ()

    def param(self, name: str) -> Any:
        return dict(self.params).get(name)

    def text(self, lang: str = "en") -> str:
        """The prompt in words, in ``lang`` (``en``, ``it``)."""
        text = self._text(lang)
        return text[:1].upper() + text[1:]

    def _text(self, lang: str) -> str:
        p = dict(self.params)
        seat_label = _seat_label(self.seats[0], p.get("name", ""), lang) if self.seats else ""
        if self.kind == "deal":
            cards = translate(f"play.cards.d{p['downs']}u{p['ups']}", lang)
            street = translate(f"play.street.{p['street']}", lang)
            text = translate(
                "play.prompt.deal", lang, street=street, cards=cards,
                seats=", ".join(map(str, self.seats)),
            )
            if p.get("runout") == "burns-back":
                step = _burns_back(p.get("burns_back", 0), lang)
                text = translate("play.prompt.burns_back", lang, step=step, then=text)
            return text
        if self.kind == "community":
            # docs/rules.md §5: each step that applies, in the order the dealer does them
            steps = [_burns_back(p["burns_back"], lang)] if p.get("burns_back") else []
            if p.get("burn"):
                steps.append(translate("play.step.burn", lang))
            steps.append(translate("play.step.community", lang))
            return translate("play.prompt.community", lang, steps=_steps(steps, lang))
        if self.kind == "bring_in":
            key = "play.prompt.bring_in_open" if p.get("optional") else "play.prompt.bring_in"
            if p.get("complete") is None:
                key += "_all_in" if p.get("all_in") else "_only"
            return translate(
                key, lang, seat=seat_label, amount=p["bring_in"], complete=p.get("complete")
            )
        if self.kind == "act":
            return translate("play.prompt.act", lang, seat=seat_label)
        if self.kind == "show":
            key = "play.prompt.show_first" if p.get("first") else "play.prompt.show"
            if p.get("must_show"):
                key = "play.prompt.must_show"
            return translate(key, lang, seat=seat_label)
        return translate(f"play.prompt.{self.kind}", lang)


def _burns_back(count: int, lang: str) -> str:
    if count == 1:
        return translate("play.step.burn_back", lang)
    return translate("play.step.burns_back", lang, count=count)


def _steps(steps: list[str], lang: str) -> str:
    if len(steps) == 1:
        return steps[0]
    return translate("play.steps", lang, head=", ".join(steps[:-1]), last=steps[-1])


def _seat_label(seat: int, name: str, lang: str) -> str:
    if name and name != str(seat):  # a seat named after its own number says nothing more
        return translate("play.seat_named", lang, seat=seat, name=name)
    return translate("play.seat", lang, seat=seat)
