"""Learning the deck on the table, with the real table service, engine and store, and real OpenCV
reading real pictures (the committed CC0 faces laid in stud rows,
:mod:`tests.helpers.camera_table`): an up card entered becomes an example of the table's deck,
whatever entered it, an undo takes it out again, also after a restart; the corners named on the
camera page; the decks kept, chosen, deleted; the JSON routes."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from hardware.camera.deck import Deck
from hardware.camera.recognize import FrameResult, Recognizer, decode_image
from hardware.camera.stable import Stabilizer
from kiosk.camera import CameraError, TableCamera
from kiosk.camera.settings import TableConfig
from kiosk.service import TableService
from kiosk.store import Store
from tests.helpers.camera_table import FRAME_H, FRAME_W, TablePictures
from tests.kiosk import driver

FRAME = (FRAME_W, FRAME_H)
#: third street of the scripted hand (driver.PLAN): each seat's two down cards, then its up card
THIRD = {1: [None, None, "5h"], 2: [None, None, "9s"], 3: [None, None, "8h"]}


@dataclass
class Seen:
    """A picture of the table and the recogniser's reading of it, as the kiosk reads it."""

    frame: Any
    result: FrameResult


@pytest.fixture(scope="module")
def pictures() -> dict[str, Seen]:
    """Third street dealt, and the table before it (the down cards only), read once each."""
    table = TablePictures()
    reader = Recognizer(min_confidence=0.2)
    third = decode_image(table.picture(THIRD))
    out = {"third": Seen(third, reader.read(third))}
    bare = decode_image(table.picture({1: [None, None], 2: [None, None], 3: [None, None]}))
    out["bare"] = Seen(bare, reader.read(bare))
    return out


def zones() -> dict[str, list[float]]:
    return {str(seat): TablePictures.zone(seat) for seat in (1, 2, 3)}


def camera_for(table: TableService, folder: Path) -> TableCamera:
    cam = TableCamera(table, folder / "camera-table-1.json", lang="en")
    cam.set_zones(zones())
    return cam


def look(cam: TableCamera, seen: Seen, frames: int = 3) -> None:
    """The camera reads the picture ``frames`` times (a stable reading needs three)."""
    stable = Stabilizer(3, 5)
    for _ in range(frames):
        # each frame read anew: a reading of its own, as the loop hands on
        result = FrameResult(list(seen.result.cards), seen.result.unknown,
                             list(seen.result.unread))
        cam.update(stable.update(result), FRAME, result, seen.frame)


def up_cards(table: TableService, seat: int) -> list[str]:
    hand = table.view("dealer", "en")["hand"]
    return [c["card"] for c in next(s for s in hand["seats"] if s["seat"] == seat)["cards"]
            if c.get("up")]


@pytest.fixture
def table(dealt_table: TableService) -> TableService:
    return dealt_table


def test_the_up_cards_entered_become_examples_of_the_tables_deck(
        table: TableService, tmp_path: Path, pictures: dict[str, Seen]) -> None:
    cam = camera_for(table, tmp_path)
    assert cam.decks.table_deck() is None  # nothing learned yet
    look(cam, pictures["third"])
    read = {r["card"]: r["seat"] for r in cam.snapshot("en")["readings"]}
    assert read == {"5h": 1, "9s": 2, "8h": 3}, read
    # seat 1's card through the camera's proposal, seat 2's from the picker (the dealer
    # corrected the camera: it is a 9 of clubs), seat 3's from a card reader
    cam.confirm(1, "5h")
    table.submit({"type": "deal", "seat": 2, "card": "9c", "up": True}, source="touch")
    table.submit({"type": "deal", "seat": 3, "card": "8h", "up": True}, source="serial")
    deck = cam.decks.table_deck()
    assert deck is not None and deck.name == "Deck 1"  # made for the first card learned
    assert sorted(e.card for e in deck) == ["5h", "8h", "9c"]
    assert {e.source for e in deck} == {"hand 1"}
    nine = deck.of_card("9c")[0]
    # the example is the corner read as 9s, upright: its rank and suit windows and thumbnail
    assert nine.rank is not None and nine.rank.shape == (48, 48, 3)
    assert nine.thumb.shape == (64, 64, 3)
    assert float(np.std(nine.rank)) > 10  # print, not a plain ground
    assert {(x.hand, x.seq) for x in cam.learning.links} \
        == {(table.hand_id, s) for s in (6, 7, 8)}
    saved = TableConfig.load(tmp_path / "camera-table-1.json")
    assert saved.learned == cam.learning.links and saved.deck is not None
    assert cam.decks.flush()
    assert len(Deck.load(tmp_path / "decks" / "deck-1.npz")) == 3
    ref = cam.deck_file()
    assert ref is not None and ref.path.endswith("deck-1.npz")
    # an undo takes the last entry's example out, and only that one
    table.undo()
    assert sorted(e.card for e in deck) == ["5h", "9c"]
    assert [x.seq for x in cam.learning.links] == [6, 7]
    assert cam.decks.flush()
    later = cam.deck_file()
    assert later is not None and later.version > ref.version  # the readers load it again
    assert sorted(e.card for e in Deck.load(later.path)) == ["5h", "9c"]
    cam.stop()


def test_a_card_the_camera_does_not_see_teaches_nothing(
        table: TableService, tmp_path: Path, pictures: dict[str, Seen]) -> None:
    cam = camera_for(table, tmp_path)
    look(cam, pictures["bare"])  # the down cards only: no face-up card in any zone
    table.submit({"type": "deal", "seat": 1, "card": "5h", "up": True})
    assert cam.decks.table_deck() is None and cam.learning.links == ()
    cam.stop()


def test_a_card_that_lands_after_its_entry_is_learned_from_the_next_frames(
        table: TableService, tmp_path: Path, pictures: dict[str, Seen]) -> None:
    cam = camera_for(table, tmp_path)
    look(cam, pictures["bare"])
    table.submit({"type": "deal", "seat": 1, "card": "5h", "up": True})
    assert cam.decks.table_deck() is None
    look(cam, pictures["third"], frames=1)
    deck = cam.decks.table_deck()
    assert deck is not None and [e.card for e in deck] == ["5h"]
    cam.stop()


def test_the_deck_and_the_entries_links_survive_a_restart(
        tmp_path: Path, pictures: dict[str, Seen]) -> None:
    db = f"sqlite:///{tmp_path / 'table.sqlite3'}"
    table = TableService(Store(db))
    table.configure(copy.deepcopy(driver.SETUP))
    table.start_hand()
    for seat, cards in THIRD.items():
        for card in cards[:2]:
            table.submit({"type": "deal", "seat": seat, "card": card, "up": False})
    cam = camera_for(table, tmp_path)
    cam.decks.create("Modiano rosso")
    look(cam, pictures["third"])
    cam.confirm(1, "5h")
    cam.confirm(2, "9s")
    cam.stop()  # writes what is left
    table.store.close()

    # the kiosk starts again: the hand resumes, the camera plays the same deck
    table = TableService(Store(db))
    cam = TableCamera(table, tmp_path / "camera-table-1.json", lang="it")
    deck = cam.decks.table_deck()
    assert deck is not None and deck.name == "Modiano rosso"
    assert sorted(e.card for e in deck) == ["5h", "9s"]
    assert cam.snapshot("it")["deck"] == {
        "key": "modiano-rosso", "name": "Modiano rosso", "examples": 2, "ranks": 2, "suits": 2,
        "ranks_all": 13, "suits_all": 4, "table": True}
    # the last entry undone after the restart: its example goes
    table.undo()
    assert [e.card for e in deck] == ["5h"]
    assert cam.decks.flush()
    assert [e.card for e in Deck.load(tmp_path / "decks" / "modiano-rosso.npz")] == ["5h"]
    cam.stop()
    table.store.close()


def test_the_dealer_names_the_corners_on_the_camera_page(
        table: TableService, tmp_path: Path, pictures: dict[str, Seen]) -> None:
    cam = camera_for(table, tmp_path)
    key = cam.decks.create("Modiano rosso")
    look(cam, pictures["third"])
    corners = cam.snapshot("en")["corners"]
    assert {c["card"] for c in corners} == {"5h", "9s", "8h"}
    assert all(c["state"] == "read" and not c["learned"] for c in corners)
    first = corners[0]
    assert 0 < first["center"][0] < 1 and len(first["quad"]) == 4
    # one corner corrected with the picker, then every other read confirmed in one tap
    nine = next(c for c in corners if c["card"] == "9s")
    answer = cam.name_corner(nine["id"], "9c")
    assert answer["deck"] == key and answer["example"]["card"] == "9c"
    assert sorted(cam.name_read()["named"]) == ["5h", "8h"]
    deck = cam.decks.deck(key)
    assert sorted(e.card for e in deck) == ["5h", "8h", "9c"]
    assert {e.source for e in deck} == {"registration"}
    shown = {c["id"]: c for c in cam.snapshot("en")["corners"]}
    assert shown[nine["id"]]["card"] == "9s"  # read so until the reader learns better
    assert all(c["learned"] for c in shown.values() if c["card"] != "9s")
    # refusals in words
    with pytest.raises(CameraError) as info:
        cam.name_corner("c999", "Kh")
    assert "no longer in sight" in info.value.text("en")
    assert "non è più in vista" in info.value.text("it")
    with pytest.raises(CameraError) as info:
        cam.name_corner(nine["id"], "1x")
    assert info.value.text("en") == "1x is not a card: a card is a rank and a suit, such as Qh."
    cam.stop()


def test_decks_are_kept_chosen_per_table_and_deleted(table: TableService,
                                                     tmp_path: Path) -> None:
    cam = camera_for(table, tmp_path)
    first = cam.decks.create("Modiano rosso")
    second = cam.decks.create("Dal Negro")
    assert cam.decks.table_key() == second  # the last one learned
    cam.decks.choose(first)
    assert cam.decks.table_key() == first
    assert TableConfig.load(tmp_path / "camera-table-1.json").deck == first
    assert [(s.name, s.table) for s in cam.decks.summaries()] == [
        ("Dal Negro", False), ("Modiano rosso", True)]
    for bad, words in (("", "1 to 40"), ("x" * 41, "1 to 40"),
                       ("modiano  ROSSO", "exists already")):
        with pytest.raises(CameraError) as info:
            cam.decks.create(bad)
        assert words in info.value.text("en")
    cam.decks.delete(first)
    assert cam.decks.table_key() == second  # back to the last one learned
    assert TableConfig.load(tmp_path / "camera-table-1.json").deck is None
    with pytest.raises(CameraError) as info:
        cam.decks.delete(first)
    assert info.value.text("it") == "Non c'è nessun mazzo modiano-rosso."
    cam.stop()


def test_the_camera_routes_for_the_decks(dealer_client: Any, kiosk_app: Any,
                                         pictures: dict[str, Seen]) -> None:
    cam: TableCamera = kiosk_app.extensions["stud_camera"]
    cam.set_zones(zones())
    look(cam, pictures["third"])
    # every request that changes something carries the CSRF token, as the pages send it
    token = dealer_client.get("/api/csrf").json["csrf_token"]
    dealer_client.environ_base["HTTP_X_CSRFTOKEN"] = token
    made = dealer_client.post("/api/camera/decks", json={"name": "Modiano rosso"})
    assert made.status_code == 200 and made.json["key"] == "modiano-rosso"
    assert made.json["decks"][0]["table"] is True
    again = dealer_client.post("/api/camera/decks?lang=it", json={"name": "Modiano rosso"})
    assert again.status_code == 409 and "Esiste già" in again.json["error"]
    corner = next(c for c in dealer_client.get("/api/camera").json["corners"]
                  if c["card"] == "5h")
    named = dealer_client.post("/api/camera/corners", json={"corner": corner["id"],
                                                            "card": "5h"})
    assert named.status_code == 200, named.json
    example = named.json["example"]["id"]
    listed = dealer_client.get("/api/camera/decks/modiano-rosso").json
    assert [e["id"] for e in listed["cards"]["5h"]] == [example]
    assert listed["counts"]["ranks"] == {"5": 1}
    thumb = dealer_client.get(f"/camera/decks/modiano-rosso/examples/{example}.png")
    assert thumb.status_code == 200 and thumb.mimetype == "image/png"
    png = cv2.imdecode(np.frombuffer(thumb.data, np.uint8), cv2.IMREAD_COLOR)
    assert png is not None and png.shape == (64, 64, 3)
    for page in ("/camera/deck", "/camera/decks", "/camera/decks/modiano-rosso"):
        assert dealer_client.get(page).status_code == 200, page
    assert dealer_client.get("/camera/decks/nothing").status_code == 404
    gone = dealer_client.delete(f"/api/camera/decks/modiano-rosso/examples/{example}")
    assert gone.status_code == 200 and gone.json["removed"]["card"] == "5h"
    assert dealer_client.delete(
        f"/api/camera/decks/modiano-rosso/examples/{example}").status_code == 404
    assert dealer_client.delete("/api/camera/decks/modiano-rosso").status_code == 200
    assert dealer_client.get("/api/camera/decks").json["decks"] == []
    # a screen without the dealer's PIN gets nothing
    stranger = kiosk_app.test_client()
    assert stranger.get("/api/camera/decks").status_code == 403
    assert stranger.post("/api/camera/decks", json={"name": "x"}).status_code in (400, 403)
    assert cam.decks.summaries() == []
