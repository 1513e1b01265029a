"""The camera in the kiosk, with the real table service, engine and store: seat zones, proposals
for the cards the engine expects, one-tap confirmation, auto-confirmation, what is never entered."""

from __future__ import annotations

import copy
import json
import math
import os
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from hardware.camera.recognize import Recognizer, load_image
from hardware.camera.stable import Proposal
from kiosk.camera import CameraError, TableCamera
from kiosk.camera.proposals import SeatProposal, expected_seats
from kiosk.service import TableService
from kiosk.store import Store
from tests.helpers.camera import gone
from tests.helpers.camera_table import SCENES, ZONES
from tests.helpers.waiting import wait_until
from tests.kiosk import driver

FRAME = (1280, 720)
CENTRES = {1: (200.0, 400.0), 2: (640.0, 400.0), 3: (1100.0, 400.0)}


def reading(card: str, seat: int, confidence: float = 0.97, frames: int = 3) -> Proposal:
    """A stable reading, read in ``frames`` frames in a row (at most 5 of them in the window)."""
    x, y = CENTRES[seat]
    quad = ((x, y), (x + 60, y), (x + 60, y + 90), (x, y + 90))
    return Proposal(card, confidence, quad, min(frames, 5), 0.0, (x, y), streak=frames)


@pytest.fixture
def table(dealt_table: TableService) -> TableService:
    return dealt_table


@pytest.fixture
def camera(table: TableService, tmp_path: Path) -> TableCamera:
    cam = TableCamera(table, tmp_path / "camera-table-1.json")
    cam.set_zones({str(k): v for k, v in ZONES.items()})
    cam.set_settings({"min_confidence": 0.8})
    return cam


def up_cards(table: TableService, seat: int) -> list[str]:
    view = table.view("dealer", "en")
    s = next(s for s in view["hand"]["seats"] if s["seat"] == seat)
    return [c["card"] for c in s["cards"] if c.get("up")]


def test_proposals_name_the_seat_and_the_card(camera: TableCamera) -> None:
    props = camera.update([reading("5h", 1), reading("9s", 2, 0.88)], FRAME)
    assert [(p.seat, p.card, p.state) for p in props] == [(1, "5h", "ok"), (2, "9s", "ok")]
    snap = camera.snapshot("en")
    assert [p["text"] for p in snap["proposals"]] == ["Seat 1: 5♥ 97%", "Seat 2: 9♠ 88%"]
    assert camera.snapshot("it")["proposals"][0]["text"] == "Posto 1: 5♥ 97%"


def test_one_tap_enters_the_card_through_the_table(camera: TableCamera,
                                                   table: TableService) -> None:
    camera.update([reading("5h", 1)], FRAME)
    result = camera.confirm(1, "5h")
    assert result["ok"] and result["event"] == {"type": "deal", "seat": 1, "card": "5h",
                                                "up": True}
    assert up_cards(table, 1) == ["5h"]
    assert camera.proposals == []
    # seat 1 has its up card: a reading there is no longer proposed
    assert camera.update([reading("7d", 1)], FRAME) == []


def test_earlier_up_cards_lying_at_their_seat_are_not_proposed(camera: TableCamera,
                                                                table: TableService) -> None:
    # third street (up cards 5h, 9s, 8h) and its betting, as the dealer enters them
    while True:
        event = driver.next_event(table.view("dealer", "en"))
        assert event is not None
        if event["type"] == "deal" and len(up_cards(table, event["seat"])) == 1:
            break  # fourth street's first up card is due
        table.submit(event, source="touch")
    assert expected_seats(table.hand) == {1, 2, 3}
    props = camera.update([reading("5h", 1), reading("7d", 1), reading("9s", 2),
                           reading("8h", 1)], FRAME)
    # seat 1's own 5h and seat 2's own 9s are the cards lying there: not proposed; 8h is seat
    # 3's card read in seat 1's zone: shown flagged, never entered by itself
    assert [(p.seat, p.card, p.state) for p in props] == [
        (1, "7d", "ok"), (1, "8h", "in_hand")]


def test_the_same_checks_as_touch(camera: TableCamera, table: TableService) -> None:
    events = len(table.hand.events) if table.hand else 0
    props = camera.update([reading("As", 2)], FRAME)  # As is seat 1's down card
    assert props[0].state == "in_hand"
    assert "already in the hand" in camera.snapshot("en")["proposals"][0]["text"]
    with pytest.raises(CameraError) as info:
        camera.confirm(2, "As")
    assert "A♠" in info.value.text("en") and "già in questa mano" in info.value.text("it")
    with pytest.raises(ValueError):
        camera.confirm(9, "8c")  # no such player: the engine refuses
    with pytest.raises(CameraError):
        camera.confirm(1, "banana")
    assert table.hand is not None and len(table.hand.events) == events


def test_auto_confirm_only_when_sure_and_stable(camera: TableCamera, table: TableService) -> None:
    camera.update([reading("5h", 1, 0.99, frames=5)], FRAME)
    assert up_cards(table, 1) == []  # the house setting is off by default
    camera.set_settings({"auto_confirm": True, "auto_frames": 4, "auto_threshold": 0.95})
    camera.update([reading("5h", 1, 0.99, frames=3)], FRAME)  # not yet stable enough
    camera.update([reading("9s", 2, 0.90, frames=6)], FRAME)  # not sure enough
    camera.update([reading("As", 3, 0.99, frames=6)], FRAME)  # already in the hand
    camera.update([reading("8c", 3, 0.60, frames=6)], FRAME)  # low confidence
    assert up_cards(table, 1) == [] and up_cards(table, 2) == [] and up_cards(table, 3) == []
    assert camera.proposals[0].state == "low"
    camera.update([reading("5h", 1, 0.99, frames=4)], FRAME)
    assert up_cards(table, 1) == ["5h"]
    # more frames in a row than the stabiliser's window of 5: counted all the same
    camera.set_settings({"auto_frames": 12})
    camera.update([reading("6h", 2, 0.99, frames=11)], FRAME)
    assert up_cards(table, 2) == []
    camera.update([reading("6h", 2, 0.99, frames=12)], FRAME)
    assert up_cards(table, 2) == ["6h"]


def test_readings_outside_the_zones_or_for_other_seats_are_not_proposed(
    camera: TableCamera,
) -> None:
    far = Proposal("5h", 0.99, ((0, 0),) * 4, 3, 0.0, (640.0, 400.0))
    camera.set_zones({"1": ZONES[1]})
    assert camera.update([far], FRAME) == []


def test_where_zones_overlap_a_reading_goes_to_the_nearest_zone(camera: TableCamera) -> None:
    camera.set_zones({"1": [0.0, 0.0, 0.5, 1.0], "2": [0.4, 0.0, 1.0, 1.0]})
    w, h = FRAME
    assert camera.seat_at(0.42 * w, 0.5 * h) == 1  # nearer the middle of seat 1's zone
    assert camera.seat_at(0.48 * w, 0.5 * h) == 2
    assert camera.seat_at(0.2 * w, 0.5 * h) == 1 and camera.seat_at(0.9 * w, 0.5 * h) == 2


def test_every_reading_is_shown_for_the_calibration_with_its_seat(camera: TableCamera) -> None:
    far = Proposal("5h", 0.99, ((640.0, 360.0),) * 4, 3, 0.0, (640.0, 400.0))
    camera.set_zones({"1": ZONES[1]})
    # seat 2 expects no card now and 5h lies outside every zone: neither is proposed, both shown
    camera.update([reading("Ks", 1, 0.5), far], FRAME)
    assert camera.proposals == [SeatProposal(1, "Ks", 0.5, 3, 3, "low", "deal")]
    shown = camera.snapshot("it")["readings"]
    assert [(r["card"], r["seat"], r["text"]) for r in shown] == [
        ("Ks", 1, "K♠ 50% · posto 1"), ("5h", None, "5♥ 99% · fuori dalle zone")]
    assert shown[1]["quad"][0] == [0.5, 0.5]  # fractions of the picture
    assert camera.snapshot("en")["readings"][1]["text"] == "5♥ 99% · outside the zones"



def sized(card: str, seat: int, rank_px: float) -> Proposal:
    """A stable reading of a card whose rank is ``rank_px`` tall in the picture (its quad ten
    ranks tall, seven wide), turned a little."""
    x, y = CENTRES[seat]
    h, w = 10 * rank_px, 7 * rank_px
    a = math.radians(20)
    down, right = (-math.sin(a) * h, math.cos(a) * h), (math.cos(a) * w, math.sin(a) * w)
    quad = ((x, y), (x + right[0], y + right[1]), (x + right[0] + down[0], y + right[1] + down[1]),
            (x + down[0], y + down[1]))
    return Proposal(card, 0.97, quad, 3, 0.0, (x, y), streak=3)


def test_the_camera_page_tells_how_large_the_cards_are_and_when_they_are_too_small(
        camera: TableCamera) -> None:
    # nothing read yet: nothing said
    assert camera.snapshot("en")["scale"] == {"rank_px": None, "small": False, "text": "",
                                              "warning": ""}
    # a camera far off: ranks of 8-10 px (the median 9), read far less surely than from 14 px
    camera.update([sized("Ks", 1, 8.0), sized("5h", 2, 9.0), sized("Qd", 3, 10.4)], FRAME)
    scale = camera.snapshot("en")["scale"]
    assert scale["rank_px"] == pytest.approx(9.0, abs=0.05) and scale["small"] is True
    # by default the still table is then read in detail by itself
    assert scale["text"] == (
        "Letters and numbers in the card corners: about 9 px tall in the picture, too small to be "
        "read surely (best from 14 px). Bring the camera closer to the table, or zoom in. Until "
        "then, small cards are read in detail while the table is still.")
    assert camera.snapshot("it")["scale"]["text"].endswith(
        "Nel frattempo, a tavolo fermo le carte piccole sono lette in dettaglio.")
    # the house turned reading in detail off: the page says what it would give
    camera.set_settings({"detail": "off"})
    assert camera.snapshot("en")["scale"]["text"].endswith(
        "Until then, reading small cards in detail (below) reads more of them.")
    assert camera.snapshot("it")["scale"]["text"].startswith(
        "Lettere e numeri agli angoli delle carte: alti circa 9 px nell'immagine, troppo piccoli")
    # the dealer screen, busy with the hand, is told in fewer words (its note leads to the page)
    assert scale["warning"] == (
        "The camera sees the card corners too small (about 9 px, read best from 14 px): many "
        "cards will not be proposed. Bring the camera closer or zoom in: Camera page.")
    assert camera.snapshot("it")["scale"]["warning"].startswith(
        "La telecamera vede gli angoli delle carte troppo piccoli (circa 9 px")
    # reading in detail always on: only the camera's place is left to change
    camera.set_settings({"detail": "on"})
    assert camera.snapshot("en")["scale"]["text"].endswith("Bring the camera closer to the table, "
                                                           "or zoom in.")
    # a frame that reads fewer than three cards keeps what was measured (one card's quad may be
    # drawn from a part of its rank)
    camera.update([], FRAME)
    camera.update([sized("Ks", 1, 30.0), sized("5h", 2, 30.0)], FRAME)
    assert camera.snapshot("en")["scale"]["rank_px"] == pytest.approx(9.0, abs=0.05)
    # the camera brought closer: ranks of 16 px, nothing to do
    camera.update([sized("Ks", 1, 15.5), sized("5h", 2, 16.0), sized("Qd", 3, 7.0)], FRAME)
    scale = camera.snapshot("it")["scale"]
    assert scale["small"] is False and scale["rank_px"] == pytest.approx(15.5, abs=0.05)
    assert scale["warning"] == ""
    assert scale["text"] == ("Lettere e numeri agli angoli delle carte: alti circa 16 px "
                             "nell'immagine (letti al meglio da 14 px).")


def test_zones_and_settings_are_saved_per_table(camera: TableCamera, table: TableService,
                                                tmp_path: Path) -> None:
    camera.set_settings({"auto_confirm": True, "auto_frames": 6})
    saved = json.loads((tmp_path / "camera-table-1.json").read_text())
    assert saved["zones"]["2"] == ZONES[2] and saved["settings"]["auto_frames"] == 6
    again = TableCamera(table, tmp_path / "camera-table-1.json")
    assert {k: v.to_json() for k, v in again.zones.items()} == ZONES
    assert again.settings.auto_confirm


@pytest.mark.parametrize("zones", [
    {"1": [0.1, 0.1, 0.1, 0.5]}, {"1": [0.1, 0.1, 1.5, 0.5]}, {"x": [0, 0, 1, 1]},
    {"11": [0, 0, 1, 1]}, {"1": "everywhere"}, ["not", "a", "mapping"],
])
def test_bad_zones_are_refused_with_reasons(camera: TableCamera, zones: object) -> None:
    with pytest.raises(CameraError) as info:
        camera.set_zones(zones)
    assert info.value.text("en") and info.value.text("it") != info.value.text("en")
    assert {k: v.to_json() for k, v in camera.zones.items()} == ZONES


@pytest.mark.parametrize("settings", [
    {"auto_frames": 1}, {"auto_frames": "5"}, {"auto_threshold": 0.2}, {"auto_confirm": "yes"},
    {"colour": "red"}, {"detail": 1}, {"detail": True}, {"detail": "sometimes"},
])
def test_bad_settings_are_refused(camera: TableCamera, settings: dict[str, object]) -> None:
    with pytest.raises(CameraError, match="auto_confirm"):
        camera.set_settings(settings)


def far_table(tmp_path: Path) -> tuple[Path, set[str], set[str]]:
    """A camera farther off (ranks of about 11.5 px, some indices too small for the frame's own
    scale): a folder holding its picture, the cards read at the picture's own scale and those
    read only in detail."""
    scene = cv2.resize(load_image(SCENES / "scene07.jpg"),
                       None, fx=0.7, fy=0.7, interpolation=cv2.INTER_AREA)
    folder = tmp_path / "pictures"
    folder.mkdir()
    cv2.imwrite(str(folder / "table.png"), scene)
    reader = Recognizer()
    plain = {c.card for c in reader.read(scene).cards}
    small = {c.card for c in reader.read(scene, detail=True).cards} - plain
    assert plain and small
    return folder, plain, small


@pytest.mark.slow
def test_the_house_can_have_a_still_table_read_in_detail(table: TableService,
                                                         tmp_path: Path) -> None:
    folder, plain, small = far_table(tmp_path)
    cam = TableCamera(table, tmp_path / "camera-table-1.json")
    assert cam.settings.detail == "auto"
    cam.set_settings({"detail": "off"})

    def read() -> set[str]:
        return {r["card"] for r in cam.snapshot("en")["readings"]}

    cam.start(str(folder), frame_interval_s=1 / 25)
    pids: list[int | None] = []
    try:
        wait_until(lambda: plain <= read(), "the plain readings", 60)
        # read by two reader processes of the camera's own, not by the kiosk's process
        assert cam.loop is not None
        pids = [r.pid for r in cam.loop.reader_processes]
        assert len(pids) == 2 and None not in pids and os.getpid() not in pids, pids
        time.sleep(2.5)  # two rereads of the still table, and more frames than a window's
        assert not small & read(), read()
        cam.set_settings({"detail": "on"})
        wait_until(lambda: small <= read(), "the small cards read in detail", 60)
        assert plain <= read()
    finally:
        cam.stop()
    # the camera stopped, its reader processes have ended
    assert pids and all(pid is not None and gone(pid) for pid in pids), pids


@pytest.mark.slow
def test_by_default_a_still_table_is_read_in_detail_while_the_cards_look_small(
        table: TableService, tmp_path: Path) -> None:
    """The house setting left as it is (``auto``): the camera reads a still table in detail
    until it has seen the cards' ranks 12 px tall or more. A camera farther off (ranks of about
    11.5 px) has its small cards read without the dealer turning anything on."""
    folder, plain, small = far_table(tmp_path)
    cam = TableCamera(table, tmp_path / "camera-table-1.json")
    cam.start(str(folder), frame_interval_s=1 / 25)
    try:
        wait_until(lambda: plain | small <= {r["card"] for r in cam.snapshot("en")["readings"]},
                   "the small cards read in detail by themselves", 60)
        assert cam.snapshot("en")["scale"]["small"] is True
    finally:
        cam.stop()


def test_reading_in_detail_follows_the_house_setting_and_the_cards_size(
        camera: TableCamera) -> None:
    def at(mode: str, rank_px: float | None) -> bool:
        camera.set_settings({"detail": mode})
        camera.rank_px = rank_px
        return camera.reads_in_detail()

    # auto: until the cards are known to be large enough
    assert at("auto", None) and at("auto", 9.0) and at("auto", 11.9)
    assert not at("auto", 12.0) and not at("auto", 16.0)
    assert at("on", 16.0) and at("on", None)
    assert not at("off", 9.0) and not at("off", None)
    # measured from the stable readings of a frame, as the camera page shows it
    camera.set_settings({"detail": "auto"})
    camera.update([sized("Ks", 1, 15.5), sized("5h", 2, 16.0), sized("Qd", 3, 17.0)], FRAME)
    assert not camera.reads_in_detail()
    camera.update([sized("Ks", 1, 8.0), sized("5h", 2, 9.0), sized("Qd", 3, 10.4)], FRAME)
    assert camera.reads_in_detail()


@pytest.mark.parametrize(("saved", "mode"), [(True, "on"), (False, "auto"), ("off", "off"),
                                             ("on", "on"), ("sometimes", "auto"), (1, "auto")])
def test_a_saved_detail_setting_is_read_back(table: TableService, tmp_path: Path,
                                             saved: object, mode: str) -> None:
    """Saved as true or false before it had three modes: true was "on", false the default."""
    path = tmp_path / "camera-table-1.json"
    path.write_text(json.dumps({"zones": {}, "settings": {"detail": saved}}), encoding="utf-8")
    assert TableCamera(table, path).settings.detail == mode


def test_seats_in_the_hand_without_a_zone_are_named(table: TableService, tmp_path: Path) -> None:
    cam = TableCamera(table, tmp_path / "camera-table-1.json")
    assert cam.snapshot("it")["unzoned"] == {
        "seats": [1, 2, 3],
        "text": "Nessuna zona della telecamera per: 1 · Anna, 2 · Bruno, 3 · Carla. "
                "Segna le zone nella pagina Telecamera.",
    }
    cam.set_zones({"1": ZONES[1]})
    assert cam.snapshot("en")["unzoned"] == {
        "seats": [2, 3],
        "text": "No camera zone for: 2 · Bruno, 3 · Carla. Mark the zones on the Camera page."}
    # a seat that folded needs no zone any more; a finished hand none
    for seat, card in ((1, "5h"), (2, "9s"), (3, "8h")):
        table.submit({"type": "deal", "seat": seat, "card": card, "up": True})
    table.submit({"type": "act", "seat": 1, "action": "bring_in", "amount": 2})
    table.submit({"type": "act", "seat": 2, "action": "fold", "amount": 0})
    assert cam.snapshot("en")["unzoned"]["seats"] == [3]
    table.submit({"type": "act", "seat": 3, "action": "fold", "amount": 0})
    assert table.hand is not None and table.hand.finished
    assert cam.snapshot("en")["unzoned"] == {"seats": [], "text": ""}


def test_at_the_showdown_the_down_cards_turned_up_are_proposed(tmp_path: Path) -> None:
    table = TableService(Store(f"sqlite:///{tmp_path / 'show.sqlite3'}"))
    table.configure(copy.deepcopy(driver.SETUP))
    table.start_hand()
    # Carla's down cards were not entered as dealt: she shows first
    while (view := table.view("dealer", "en"))["hand"]["prompt"]["kind"] != "show":
        event = driver.next_event(view)
        assert event is not None
        table.submit(event)
    assert view["hand"]["prompt"]["seats"] == [3]
    events = view["hand"]["events"]
    cam = TableCamera(table, tmp_path / "camera-table-1.json")
    cam.set_zones({str(k): v for k, v in ZONES.items()})
    cam.set_settings({"auto_confirm": True, "auto_frames": 2})
    props = cam.update([reading("3c", 3, 0.98), reading("8h", 3), reading("Kd", 3),
                        reading("6d", 3, 0.5), reading("9c", 1)], FRAME)
    # her own up card is not proposed, Bruno's down card is flagged, seat 1 is not showing
    assert [(p.seat, p.card, p.kind, p.state) for p in props] == [
        (3, "3c", "show", "ok"), (3, "Kd", "show", "in_hand"), (3, "6d", "show", "low")]
    assert cam.snapshot("en")["proposals"][0]["text"] == "Seat 3 shows: 3♣ 98%"
    assert cam.snapshot("it")["proposals"][0]["text"] == "Posto 3 mostra: 3♣ 98%"
    # a showing is never entered by itself: the dealer picks the cards, then taps Show
    after = table.view("dealer", "en")["hand"]
    assert after["events"] == events and after["prompt"]["seats"] == [3]
    # once she has shown, Anna (every down card entered) is next: nothing to propose
    table.submit({"type": "show", "seat": 3, "cards": ["3c", "4c", "6d"]})
    assert cam.update([reading("As", 1), reading("7s", 1)], FRAME) == []


def test_the_camera_is_read_at_the_configured_size(live_kiosk: Any, tmp_path: Path) -> None:
    # a camera giving 1920x1080 read within 960x540 (STUD_KIOSK_CAMERA_SIZE): the snapshot the
    # dealer calibrates on is the frame the readers read
    folder = tmp_path / "pictures"
    folder.mkdir()
    scene = load_image(SCENES / "scene07.jpg")
    cv2.imwrite(str(folder / "table.png"), cv2.resize(scene, (1920, 1080)))
    server = live_kiosk(env={"STUD_KIOSK_CAMERA": str(folder),
                             "STUD_KIOSK_CAMERA_SIZE": "960x540"})
    session = server.dealer_session()
    got: list[bytes] = []

    def snapshot() -> bool:
        answer = session.get(server.url + "/camera/snapshot.jpg")
        if answer.status_code == 200:
            got.append(answer.content)
        return bool(got)

    wait_until(snapshot, "a snapshot", 30)
    frame = cv2.imdecode(np.frombuffer(got[0], np.uint8), cv2.IMREAD_COLOR)
    assert frame is not None and frame.shape[:2] == (540, 960)


def test_a_malformed_camera_size_is_reported_and_the_kiosk_runs_on(live_kiosk: Any,
                                                                   tmp_path: Path) -> None:
    folder = tmp_path / "pictures"
    folder.mkdir()
    cv2.imwrite(str(folder / "table.png"),
                load_image(SCENES / "scene07.jpg"))
    instance = tmp_path / "instance"
    instance.mkdir()
    (instance / "camera.json").write_text(json.dumps({"source": str(folder), "size": "big"}),
                                          encoding="utf-8")
    server = live_kiosk(instance=instance)
    session = server.dealer_session()
    allowed = ("camera size 'big': expected WIDTHxHEIGHT, such as 1280x720 "
               "(width 320-3840, height 180-2160)")
    # not started, and not retried: the status line names the setting and what is allowed
    status = session.get(server.url + "/api/camera?lang=en").json()["status"]
    assert status["state"] == "config" and status["detail"] == allowed
    assert status["text"] == f"camera not started, a setting is wrong: {allowed}"
    status = session.get(server.url + "/api/camera?lang=it").json()["status"]
    assert status["text"] == f"telecamera non avviata, un’impostazione è sbagliata: {allowed}"
    time.sleep(1.5)
    assert session.get(server.url + "/api/camera").json()["status"]["state"] == "config"
    assert session.get(server.url + "/camera/snapshot.jpg").status_code == 404
    # the kiosk runs on, its camera page there to read the status on
    assert session.get(server.url + "/dealer").status_code == 200
    assert session.get(server.url + "/camera").status_code == 200
