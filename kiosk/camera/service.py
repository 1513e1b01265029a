"""The table's camera: what it reads, turned into proposals for the hand, and the deck it learns.

:class:`TableCamera` holds the camera's state for one table and is the one way in for every
camera request: the frames read (:meth:`TableCamera.update`), the face-down counts
(:meth:`~TableCamera.update_down`), a proposal confirmed (:meth:`~TableCamera.confirm`, through
:meth:`TableService.submit` with ``source="camera"``, the same checks as a touch entry), the zones
and settings, the corners the dealer names, and every change of the table
(:meth:`~TableCamera.table_changed`: an up card entered becomes an example of the table's deck,
an undo takes it out). :meth:`~TableCamera.snapshot` is what the screens get.
"""

from __future__ import annotations

import logging
import statistics
import threading
import time
from pathlib import Path
from typing import Any

from engine.cards import Card
from engine.events import Deal
from engine.i18n import LANGUAGES
from hardware.camera import GOOD_RANK_PX, SMALL_RANK_PX, DeckFile, rank_height
from kiosk.camera import proposals as hand_view
from kiosk.camera.corners import CornerTracker, Tracked
from kiosk.camera.decks import TableDecks
from kiosk.camera.facedown import DownCounts
from kiosk.camera.learning import PENDING_S, Entry, Learning, check_card
from kiosk.camera.proposals import SeatProposal, SeenCard, propose
from kiosk.camera.settings import (
    CameraError,
    CameraSettings,
    Learned,
    TableConfig,
    Zone,
    parse_zones,
    seat_at,
    ui,
)
from kiosk.service import TableService

log = logging.getLogger(__name__)

#: the cards a frame must read for the size of their indices to be told (a single card's quad
#: may be drawn from a part of its rank: the median of a few is not)
SCALE_CARDS = 3


class TableCamera:
    """Proposals for one table from the camera's stable readings; calibration, settings, and
    the deck the camera learns."""

    def __init__(self, table: TableService, config_path: Path, emit: Any = None,
                 decks_folder: Path | None = None, lang: str = "it") -> None:
        self.table = table
        self.config_path = config_path
        self.emit = emit
        self.lock = threading.RLock()
        self._config_lock = threading.Lock()
        self.config = TableConfig.load(config_path)
        self.status: dict[str, str] = {"state": "off", "detail": ""}
        self.frame_size: tuple[int, int] = (1280, 720)
        self.proposals: list[SeatProposal] = []
        #: every stable reading of the latest frame, whatever the hand expects (for calibration)
        self.seen: list[SeenCard] = []
        #: the height of the read cards' index ranks in the picture (pixels; the median of the
        #: latest frame that read ``SCALE_CARDS`` cards or more), None until then
        self.rank_px: float | None = None
        self.down = DownCounts()
        self.corners = CornerTracker()
        self.decks = TableDecks(decks_folder or config_path.parent / "decks", self.config.deck,
                                on_choice=lambda key: self._keep(deck=key))
        self.learning = Learning(self.decks, self.corners, lang, self.config.learned,
                                 keep_links=lambda links: self._keep(learned=links))
        self._latest_jpeg: bytes | None = None
        self._events = (table.hand_id, len(table.hand.events) if table.hand else 0)
        self.runner: Any = None
        table.subscribe(self.table_changed)

    # ---- configuration ------------------------------------------------------------------------

    @property
    def zones(self) -> dict[int, Zone]:
        return self.config.zones

    @property
    def settings(self) -> CameraSettings:
        return self.config.settings

    def _keep(self, **changes: Any) -> None:
        """Change the table's camera file (written at once, whole or not at all)."""
        with self._config_lock:
            self.config = self.config.with_(**changes)
            self.config.save(self.config_path)

    def set_zones(self, zones: Any) -> None:
        checked = parse_zones(zones)
        with self.lock:
            self._keep(zones=checked)

    def set_settings(self, values: Any) -> None:
        new = self.settings.updated(values)
        with self.lock:
            self._keep(settings=new)

    def seat_at(self, x: float, y: float) -> int | None:
        """The seat whose zone holds the point (frame pixels); where zones overlap, the one whose
        middle is nearest."""
        w, h = self.frame_size
        return seat_at(self.zones, x / max(w, 1), y / max(h, 1))

    # ---- frames read ---------------------------------------------------------------------------

    def update(self, readings: list[Any], frame_size: tuple[int, int], result: Any = None,
               frame: Any = None) -> list[SeatProposal]:
        """New stable readings (``hardware.camera.stable.Proposal``) and, when given, the frame
        read (``FrameResult``) and its picture: the proposals to show, and the auto-confirmation
        of those the house allows."""
        if result is not None and frame is not None and self.corners.update(result, frame):
            self.learning.retry(self._look)
        with self.table.lock, self.lock:
            self.frame_size = frame_size
            if len(readings) >= SCALE_CARDS:
                self.rank_px = statistics.median(rank_height(r.quad) for r in readings)
            self.seen, self.proposals = propose(
                readings, frame_size, lambda fx, fy: seat_at(self.zones, fx, fy),
                self.table.hand, self.settings, self._explained)
            auto = [p for p in self.proposals if p.auto_ok(self.settings)]
        for p in auto:
            try:
                self.confirm(p.seat, p.card)
            except ValueError as exc:
                log.info("camera: auto-confirm of %s refused: %s", p.card, exc)
        self._broadcast()
        return self.proposals

    def _explained(self, seat: int, reading: Any) -> bool:
        """A reading lying where a card of ``seat`` the hand knows was entered, whatever the
        camera reads it as (it was corrected when entered)."""
        known = hand_view.known_at_seat(self.table.hand).get(seat, set())
        size = rank_height(reading.quad)
        for t in self.corners.in_sight(lambda x, y: True):
            if t.named in known and abs(t.center[0] - reading.center[0]) <= size \
                    and abs(t.center[1] - reading.center[1]) <= size:
                return True
        return False

    def update_down(self, centres: list[tuple[float, float]], frame_size: tuple[int, int]) -> None:
        """A new count of the face-down cards: ``centres`` of the card backs found in the frame
        (``hardware.camera.down.DownCard.center``), counted per calibrated seat zone."""
        with self.lock:
            self.frame_size = frame_size
            self.down.count((self.seat_at(x, y) for x, y in centres), self.zones)
        self._broadcast()

    def confirm(self, seat: Any, card: Any) -> dict[str, Any]:
        """Enter a proposed card through the table (same checks as a touch entry)."""
        try:
            seat_n = int(seat)
            parsed = Card.parse(str(card))
        except (TypeError, ValueError) as exc:
            raise CameraError("camera.err.confirm") from exc
        with self.table.lock:
            if str(parsed) in hand_view.cards_in_hand(self.table.hand):
                raise CameraError("camera.err.in_hand", card=parsed.symbol)
            result = self.table.submit({"type": "deal", "seat": seat_n, "card": str(parsed),
                                        "up": True}, source="camera")
        with self.lock:
            self.proposals = [p for p in self.proposals if p.card != str(parsed)]
        self._broadcast()
        return result

    # ---- learning the deck ---------------------------------------------------------------------

    def deck_file(self) -> DeckFile | None:
        """The table's learned deck, as the readers read it."""
        return self.decks.reference()

    def _in_zone(self, seat: int) -> list[Tracked]:
        return self.corners.in_sight(lambda x, y: self.seat_at(x, y) == seat)

    def _look(self, entry: Entry) -> tuple[list[Tracked], set[str]] | None:
        with self.table.lock:
            hand = self.table.hand
            if self.table.hand_id != entry.hand or hand is None or len(hand.events) <= entry.seq:
                return None
            known = hand_view.known_at_seat(hand).get(entry.seat, set()) - {entry.card}
        return self._in_zone(entry.seat), known

    def table_changed(self, table: TableService) -> None:
        """After every change of the table (subscribed to it): the up cards entered since are
        learned, the examples of the entries undone are taken out."""
        hand = table.hand
        now = (table.hand_id, len(hand.events) if hand is not None else 0)
        with self.lock:
            before, self._events = self._events, now
        if now[0] != before[0]:
            self.learning.new_hand(now[0])
            before = (now[0], 0)
        if now[0] is None or hand is None:
            return
        if now[1] < before[1]:
            self.learning.undone(now[0], now[1])
            return
        for seq in range(before[1], now[1]):
            event = hand.events[seq]
            if not (isinstance(event, Deal) and event.up and event.card is not None):
                continue
            card = str(event.card)
            known = hand_view.known_at_seat(hand).get(event.seat, set()) - {card}
            entry = Entry(now[0], table.hand_number, seq, event.seat, card,
                          time.monotonic() + PENDING_S)
            try:
                self.learning.entered(entry, self._in_zone(event.seat), known)
            except Exception:  # learning must never break the table
                log.exception("camera: learning %s failed", card)

    def name_corner(self, corner_id: Any, card: Any) -> dict[str, Any]:
        """The dealer named an outlined corner on the camera page."""
        key, example = self.learning.name(corner_id, card)
        self._broadcast()
        return {"ok": True, "deck": key, "example": example.to_json()}

    def name_read(self) -> dict[str, Any]:
        """Every corner read surely and not named yet, named as read."""
        named = self.learning.name_read(self.settings.min_confidence)
        self._broadcast()
        return {"ok": True, "named": [e.card for _key, e in named]}

    # ---- state for the screens ----------------------------------------------------------------

    def status_text(self, lang: str) -> str:
        """The camera's state in words; a setting that kept it from starting is named, with
        what is allowed."""
        text = ui(f"camera.state.{self.status['state']}", lang)
        detail = self.status.get("detail")
        return f"{text}: {detail}" if self.status["state"] == "config" and detail else text

    def unzoned_seats(self) -> list[tuple[int, str]]:
        """The seats still in the hand that have no zone (number, name): the camera cannot
        propose their cards, and the dealer is told so."""
        with self.table.lock:
            playing = hand_view.playing(self.table.hand)
        return [(n, name) for n, name in playing if n not in self.zones]

    def down_hints(self) -> list[Any]:
        """The face-down hints, when the house turned them on."""
        if not self.settings.down_hints:
            return []
        with self.table.lock:
            dealt = hand_view.down_dealt(self.table.hand)
        return self.down.hints(dealt)

    def corners_shown(self) -> list[dict[str, Any]]:
        """The corners outlined on the camera page, for the dealer to name: ``state`` read,
        named (by the dealer, not read yet as such) or unread; ``learned`` when the table's deck
        has an example of the card read or named there."""
        try:
            deck = self.decks.table_deck()
        except CameraError:  # its file damaged: said on the decks page
            deck = None
        learned = {e.card for e in deck} if deck is not None else set()
        w, h = max(self.frame_size[0], 1), max(self.frame_size[1], 1)
        out = []
        for t in self.corners.shown():
            card = t.card if t.card is not None else t.named
            state = "read" if t.card is not None else "named" if t.named else "unread"
            out.append({"id": t.id, "state": state, "card": card,
                        "confidence": round(t.confidence, 3),
                        "learned": card is not None and card in learned,
                        "center": [round(t.center[0] / w, 4), round(t.center[1] / h, 4)],
                        "quad": [[round(x / w, 4), round(y / h, 4)] for x, y in t.corner.quad]})
        return out

    def deck_state(self) -> dict[str, Any] | None:
        """The table's deck: its key, name and counts."""
        summary = self.decks.table_summary()
        return None if summary is None else summary.to_json()

    def snapshot(self, lang: str) -> dict[str, Any]:
        hints = [h.to_json(ui("camera.down_hint", lang, seat=h.seat, seen=h.seen,
                              dealt=h.dealt)) for h in self.down_hints()]
        unzoned = self.unzoned_seats()
        with self.lock:
            return {
                "status": dict(self.status, text=self.status_text(lang)),
                "zones": {str(k): v.to_json() for k, v in sorted(self.zones.items())},
                "settings": self.settings.to_json(),
                "proposals": [p.to_json(lang) for p in self.proposals],
                "down": {str(k): v for k, v in sorted(self.down.seen.items())},
                "down_hints": hints,
                "readings": [s.to_json(lang) for s in self.seen],
                "corners": self.corners_shown(),
                "deck": self.deck_state(),
                "unzoned": {
                    "seats": [n for n, _name in unzoned],
                    "text": ui("camera.unzoned", lang, seats=", ".join(
                        f"{n} · {name}" if name else str(n) for n, name in unzoned))
                    if unzoned else "",
                },
                "frame": list(self.frame_size),
                "scale": self.scale(lang),
            }

    def reads_in_detail(self) -> bool:
        """Whether a still table is read in detail now (asked by the recognition loop at every
        frame): always or never as the house sets it, and by default (``auto``) unless the
        cards' index ranks were last seen ``SMALL_RANK_PX`` tall or more, where reading
        enlarged adds next to nothing (docs/camera.md, "How large the cards must be"). Before
        any frame has read enough cards to tell their size, they may be too small to be read at
        the frame's own scale: it reads in detail."""
        with self.lock:
            mode, px = self.settings.detail, self.rank_px
        if mode == "auto":
            return px is None or px < SMALL_RANK_PX
        return mode == "on"

    def scale(self, lang: str) -> dict[str, Any]:
        """How large the read cards' indices are in the picture, and what to do when they are
        too small to be read surely: ``rank_px`` (None until a frame reads ``SCALE_CARDS``
        cards), ``small``, the words for the camera's page (``text``) and, when the cards are
        too small, the shorter ``warning`` of the dealer screen, which leads to that page."""
        with self.lock:
            px = self.rank_px
            mode = self.settings.detail
        if px is None:
            return {"rank_px": None, "small": False, "text": "", "warning": ""}
        shown, best = round(px), round(GOOD_RANK_PX)
        small = px < SMALL_RANK_PX
        warning = ""
        if not small:
            text = ui("camera.scale", lang, px=shown, best=best)
        else:
            text = ui("camera.scale_small", lang, px=shown, best=best)
            warning = ui("camera.scale_warning", lang, px=shown, best=best)
            if mode == "off":
                text += " " + ui("camera.scale_detail", lang)
            elif mode == "auto":
                text += " " + ui("camera.scale_detail_auto", lang)
        return {"rank_px": round(px, 1), "small": small, "text": text, "warning": warning}

    def set_status(self, state: str, detail: str = "") -> None:
        with self.lock:
            self.status = {"state": state, "detail": detail}
        self._broadcast()

    def _broadcast(self) -> None:
        if self.emit is None:
            return
        for lang in LANGUAGES:
            try:
                self.emit("camera", self.snapshot(lang), lang)
            except Exception:  # a screen must never break the camera loop
                log.exception("camera: broadcast failed")

    def set_frame(self, jpeg: bytes) -> None:
        with self.lock:
            self._latest_jpeg = jpeg

    def latest_jpeg(self) -> bytes | None:
        with self.lock:
            return self._latest_jpeg

    # ---- life cycle -----------------------------------------------------------------------------

    def start(self, source: str, frame_interval_s: float = 0.0,
              size: tuple[int, int] | None = None) -> None:
        """Capture from ``source`` (its frames fitted to ``size``) and recognise in the
        background (:mod:`kiosk.camera.runner`)."""
        from kiosk.camera.runner import CameraRunner

        self.runner = CameraRunner(self, source, frame_interval_s, size)
        self.runner.start()

    @property
    def loop(self) -> Any:
        return None if self.runner is None else self.runner.loop

    def stop(self) -> None:
        if self.runner is not None:
            self.runner.stop()
        self.decks.close()


__all__ = ["CameraError", "Learned", "TableCamera", "check_card"]
