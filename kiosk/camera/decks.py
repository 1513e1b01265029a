"""The learned decks of the kiosk and the one each table plays (docs/camera.md, "Learning the
deck").

Decks are kept in the instance folder (``instance/decks/``, one ``.npz`` each:
``hardware.camera.deck.DeckStore``) and known by a key, the name of their file (a deck's name
may hold any printable character; its key only letters, digits and ``-``). A table plays the
deck it chose, else the one learned last. Examples are added to the table's deck as the dealer
names cards; the deck is written by a thread of its own (a deck of a few hundred examples takes
a tenth of a second to write, which the table must not wait for), and only once it is written do
the readers get its new :class:`~hardware.camera.DeckFile`, so that they never read an older
file than the one they are told of. The decks' arrays need numpy, which a kiosk without a camera
never loads: it is imported only once a deck is read or made.
"""

from __future__ import annotations

import itertools
import logging
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hardware.camera import DeckFile
from kiosk.camera.settings import CameraError

if TYPE_CHECKING:
    from hardware.camera.deck import Deck, Example

log = logging.getLogger(__name__)

FOLDER = "decks"
#: ranks and suits a deck has to learn
RANKS_ALL, SUITS_ALL = 13, 4
#: a deck's key: the name of its file (``hardware.camera.deck.slug`` of its name)
KEY = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")
#: a version for each deck file written, counted over the kiosk's life
_versions = itertools.count(1)


@dataclass(frozen=True, slots=True)
class DeckSummary:
    """A deck as the camera page lists it: how many examples, how many of the ranks and suits
    it has learned, and whether the table plays it."""

    key: str
    name: str
    examples: int
    ranks: int
    suits: int
    table: bool

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "name": self.name, "examples": self.examples,
                "ranks": self.ranks, "suits": self.suits, "ranks_all": RANKS_ALL,
                "suits_all": SUITS_ALL, "table": self.table}


def _name(name: Any) -> str:
    from hardware.camera.deck import DeckError, check_name

    try:
        return check_name(name)
    except DeckError as exc:
        raise CameraError("camera.err.deck_name") from exc


def _slug(name: str) -> str:
    from hardware.camera.deck import slug

    return slug(name)


def _key(key: Any) -> str:
    """A deck's key as a route or the table's file gives it; a :class:`CameraError` naming it
    when it cannot be one."""
    if not isinstance(key, str) or not KEY.fullmatch(key):
        raise CameraError("camera.err.no_deck", deck=str(key))
    return key


class TableDecks:
    """The kiosk's learned decks (``folder``) and the table's: ``chosen`` is the table's choice
    (None: the deck learned last), ``on_choice`` is told of every new choice (to keep it)."""

    def __init__(self, folder: Path, chosen: str | None,
                 on_choice: Callable[[str | None], None] = lambda _key: None) -> None:
        self.folder = folder
        self._lock = threading.RLock()
        self._on_choice = on_choice
        self._chosen = chosen if chosen is not None and KEY.fullmatch(chosen) else None
        #: decks loaded, by key, with the time their file was written then
        self._loaded: dict[str, tuple[int, Deck]] = {}
        self._ref: DeckFile | None = None
        self._dirty: set[str] = set()
        self._wake = threading.Condition(self._lock)
        self._stopping = False
        self._writer: threading.Thread | None = None
        self._published = False

    # ---- the decks kept -------------------------------------------------------------------------

    def _path(self, key: str) -> Path:
        return self.folder / f"{key}.npz"

    def _keys(self) -> list[str]:
        return sorted(p.stem for p in self.folder.glob("*.npz"))

    def deck(self, key: str) -> Deck:
        """The deck kept as ``key`` (loaded once for each time its file is written); a
        :class:`CameraError` when there is none."""
        from hardware.camera.deck import Deck, DeckError

        with self._lock:
            path = self._path(_key(key))
            try:
                stamp = path.stat().st_mtime_ns
            except OSError:
                stamp = None
            held = self._loaded.get(path.stem)
            if held is not None and (stamp is None or held[0] == stamp
                                     or path.stem in self._dirty):
                return held[1]
            if stamp is None:
                raise CameraError("camera.err.no_deck", deck=key)
            try:
                deck = Deck.load(path)
            except (OSError, DeckError) as exc:
                log.warning("camera: deck %s unreadable: %s", path, exc)
                raise CameraError("camera.err.deck_file", deck=key) from exc
            self._loaded[path.stem] = (stamp, deck)
            return deck

    def table_key(self) -> str | None:
        """The deck the table plays: its choice, else the deck written last; None when the kiosk
        has learned none."""
        with self._lock:
            # a deck being written is in its file or still to write, never neither (its file may
            # appear between two looks at the folder)
            keys = sorted(set(self._keys()) | self._dirty)
            if self._chosen is not None and self._chosen in keys:
                return self._chosen
            if not keys:
                return None
            return max(keys, key=lambda k: (self._path(k).stat().st_mtime_ns
                                            if self._path(k).exists() else 1 << 62))

    def table_deck(self) -> Deck | None:
        key = self.table_key()
        return None if key is None else self.deck(key)

    def summary(self, key: str, table: bool) -> DeckSummary:
        deck = self.deck(key)
        counts = deck.counts()
        return DeckSummary(key, deck.name, counts["examples"], len(counts["ranks"]),
                           len(counts["suits"]), table)

    def table_summary(self) -> DeckSummary | None:
        """The table's deck, summed up; None when there is none (or it cannot be read)."""
        key = self.table_key()
        try:
            return None if key is None else self.summary(key, True)
        except CameraError:
            return None

    def summaries(self) -> list[DeckSummary]:
        """Every deck kept (a file that cannot be read is left out)."""
        table = self.table_key()
        out = []
        with self._lock:  # a deck being written is in its file or still to write, never neither
            keys = sorted(set(self._keys()) | self._dirty)
        for key in keys:
            try:
                out.append(self.summary(key, key == table))
            except CameraError:
                continue
        return sorted(out, key=lambda s: s.name.casefold())

    # ---- choosing, making and deleting decks ---------------------------------------------------

    def create(self, name: Any) -> str:
        """A new empty deck, which the table plays from now on; its key."""
        from hardware.camera.deck import Deck

        name = _name(name)
        key = _slug(name)
        with self._lock:
            if self._path(key).exists() or key in self._dirty:
                raise CameraError("camera.err.deck_exists", deck=name)
            self._loaded[key] = (0, Deck(name))
            self._write(key)
        self.choose(key)
        return key

    def choose(self, key: Any) -> None:
        key = _key(key)
        self.deck(key)  # refused when there is none
        with self._lock:
            self._chosen = key
            self._publish()
        self._on_choice(self._chosen)

    def delete(self, key: Any) -> None:
        key = _key(key)
        with self._lock:
            if not self._path(key).exists() and key not in self._dirty:
                raise CameraError("camera.err.no_deck", deck=key)
            self._dirty.discard(key)
            self._loaded.pop(key, None)
            self._path(key).unlink(missing_ok=True)
            chosen = self._chosen
            if chosen == key:
                self._chosen = None
            self._publish()
        if chosen == key:
            self._on_choice(None)

    def ensure(self, default_name: Callable[[int], str]) -> Deck:
        """The table's deck, a new one named ``default_name(n)`` (the first n free) when the
        kiosk has none yet: the camera learns from the first card entered on."""
        with self._lock:
            deck = self.table_deck()
            if deck is not None:
                return deck
            for n in itertools.count(1):
                name = default_name(n)
                if not self._path(_slug(name)).exists():
                    self.create(name)
                    return self.deck(_slug(name))
        raise AssertionError("unreachable")

    # ---- examples -----------------------------------------------------------------------------

    def add(self, example: Example, default_name: Callable[[int], str]) -> tuple[str, Example]:
        """``example`` added to the table's deck (made when there is none); the deck's key."""
        with self._lock:
            deck = self.ensure(default_name)
            deck.add(example)
            key = _slug(deck.name)
            self._write(key)
            return key, example

    def remove(self, key: Any, example_id: Any) -> Example:
        """Take an example out of a deck (a wrong one, an entry undone)."""
        from hardware.camera.deck import DeckError

        with self._lock:
            key = _key(key)
            deck = self.deck(key)
            try:
                gone = deck.remove(str(example_id))
            except DeckError as exc:
                raise CameraError("camera.err.no_example") from exc
            self._write(key)
            return gone

    # ---- writing and the readers' reference ---------------------------------------------------

    def reference(self) -> DeckFile | None:
        """The table's deck as the readers read it: the file last written, and its version."""
        with self._lock:
            if not self._published:
                self._publish()
            return self._ref

    def _publish(self) -> None:
        self._published = True
        key = self.table_key()
        if key is None or key in self._dirty or not self._path(key).exists():
            self._ref = None if key is None else self._ref
            return
        if self._ref is None or self._ref.path != str(self._path(key)):
            self._ref = DeckFile(str(self._path(key)), next(_versions))

    def _write(self, key: str) -> None:
        """Have the deck written by the writer thread (started on the first change)."""
        self._dirty.add(key)
        if self._writer is None:
            self._writer = threading.Thread(target=self._write_on, daemon=True,
                                            name="camera-decks")
            self._writer.start()
        self._wake.notify_all()

    def _write_on(self) -> None:
        while True:
            with self._lock:
                while not self._dirty and not self._stopping:
                    self._wake.wait()
                if not self._dirty:
                    return
                key = sorted(self._dirty)[0]
                deck = self._loaded[key][1]
            self._save(key, deck)

    def _save(self, key: str, deck: Deck) -> None:
        version = deck.version
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self._path(key)
        # written aside, and put in place only while the deck is still kept: a deck deleted
        # meanwhile never reappears in the folder
        tmp = path.with_name(path.name + ".tmp")
        try:
            tmp.write_bytes(deck.to_bytes())
        except OSError as exc:
            log.error("camera: deck %s not written: %s", path, exc)
        with self._lock:
            if key in self._loaded and self._loaded[key][1] is deck:
                try:
                    tmp.replace(path)
                except OSError as exc:
                    log.error("camera: deck %s not written: %s", path, exc)
                if deck.version == version:
                    self._dirty.discard(key)
                self._loaded[key] = (path.stat().st_mtime_ns if path.exists() else 0, deck)
                if key == self.table_key():
                    self._ref = DeckFile(str(path), next(_versions))
            else:  # deleted meanwhile
                self._dirty.discard(key)
                tmp.unlink(missing_ok=True)
            self._wake.notify_all()

    def flush(self, timeout: float = 10.0) -> bool:
        """Wait until every change is written; whether it was."""
        with self._lock:
            return self._wake.wait_for(lambda: not self._dirty, timeout)

    def close(self) -> None:
        """Write what is left, and end the writer."""
        self.flush()
        with self._lock:
            self._stopping = True
            self._wake.notify_all()
        if self._writer is not None:
            self._writer.join(5.0)
            self._writer = None
