"""The face-down cards the camera counts per seat zone in the kiosk, and the dealer's hints when
they differ from the cards dealt: with the real table service, real OpenCV and the committed
scenes, and on the dealer screen in real Chromium."""

from __future__ import annotations

import copy
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import pytest

from hardware.camera.down import find_down_cards
from hardware.camera.recognize import load_image
from kiosk.camera import CameraError, TableCamera
from kiosk.camera.facedown import HINT_COUNTS
from kiosk.service import TableService
from tests.conftest import LiveKiosk
from tests.helpers.camera_table import SCENES, ZONES
from tests.kiosk import driver

FRAME = (1280, 720)


@pytest.fixture
def table(dealt_table: TableService) -> TableService:
    return dealt_table


@pytest.fixture
def camera(table: TableService, tmp_path: Path) -> TableCamera:
    cam = TableCamera(table, tmp_path / "camera-table-1.json")
    cam.set_zones({str(k): v for k, v in ZONES.items()})
    cam.set_settings({"down_hints": True})
    return cam


def test_down_hints_are_off_until_the_house_turns_them_on(
    table: TableService, tmp_path: Path
) -> None:
    cam = TableCamera(table, tmp_path / "camera-table-1.json")
    cam.set_zones({str(k): v for k, v in ZONES.items()})
    assert cam.settings.down_hints is False
    centres = [(100.0, 300.0), (150.0, 320.0), (600.0, 300.0), (700.0, 310.0), (1100.0, 300.0)]
    for _ in range(HINT_COUNTS + 1):
        cam.update_down(centres, FRAME)
    snap = cam.snapshot("en")
    assert snap["down"] == {"1": 2, "2": 2, "3": 1}  # counted all the same
    assert snap["down_hints"] == []
    cam.set_settings({"down_hints": True})
    assert [h["seat"] for h in cam.snapshot("en")["down_hints"]] == [3]
    # kept with the table's camera settings
    again = TableCamera(table, tmp_path / "camera-table-1.json")
    assert again.settings.down_hints is True
    with pytest.raises(CameraError):
        cam.set_settings({"down_hints": "yes"})


def test_the_camera_payload_counts_down_cards_per_seat(camera: TableCamera) -> None:
    # two backs in seat 1's zone, two in seat 2's, one in seat 3's
    centres = [(100.0, 300.0), (150.0, 320.0), (600.0, 300.0), (700.0, 310.0), (1100.0, 300.0)]
    camera.update_down(centres, FRAME)
    snap = camera.snapshot("en")
    assert snap["down"] == {"1": 2, "2": 2, "3": 1}
    assert snap["down_hints"] == []  # one count is not enough for a hint
    for _ in range(HINT_COUNTS - 1):
        camera.update_down(centres, FRAME)
    snap = camera.snapshot("en")
    assert [(h["seat"], h["seen"], h["dealt"]) for h in snap["down_hints"]] == [(3, 1, 2)]
    assert snap["down_hints"][0]["text"] == "Seat 3: face-down cards seen 1, dealt 2"
    it = camera.snapshot("it")["down_hints"][0]["text"]
    assert it == "Posto 3: carte coperte viste 1, distribuite 2"
    # the camera sees seat 3's second card: the hint goes
    camera.update_down([*centres, (1150.0, 330.0)], FRAME)
    assert camera.snapshot("en")["down_hints"] == []
    assert camera.snapshot("en")["down"]["3"] == 2


def test_a_flicker_is_no_hint(camera: TableCamera) -> None:
    right = [(100.0, 300.0), (150.0, 320.0), (600.0, 300.0), (700.0, 310.0),
             (1100.0, 300.0), (1150.0, 330.0)]
    for k in range(2 * HINT_COUNTS):
        camera.update_down(right if k % 2 else right[:-1], FRAME)
        assert camera.snapshot("en")["down_hints"] == []


def test_the_payload_counts_a_real_picture(camera: TableCamera) -> None:
    image = load_image(SCENES / "scene03.jpg")
    found = find_down_cards(image)
    camera.set_zones({"1": [0.0, 0.0, 1.0, 1.0]})
    camera.update_down([d.center for d in found], FRAME)
    assert camera.snapshot("en")["down"] == {"1": len(found)}
    assert len(found) >= 3


def test_the_camera_loop_counts_down_cards_in_real_frames(table: TableService,
                                                          tmp_path: Path) -> None:
    from hardware.camera.recognize import Recognizer

    folder = tmp_path / "frames"
    folder.mkdir()
    image = load_image(SCENES / "scene03.jpg")
    cv2.imwrite(str(folder / "0001.png"), image)
    expected = len(find_down_cards(image, Recognizer(min_confidence=0.2).read(image)))
    cam = TableCamera(table, tmp_path / "camera-table-1.json")
    cam.set_zones({"1": [0.0, 0.0, 1.0, 1.0]})
    cam.start(str(folder), frame_interval_s=0.1)
    try:
        deadline = time.monotonic() + 30
        while not cam.down.seen and time.monotonic() < deadline:
            time.sleep(0.1)
    finally:
        cam.stop()
    assert cam.snapshot("en")["down"] == {"1": expected}
    assert expected >= 3


@pytest.mark.browser
@pytest.mark.slow
def test_the_dealer_screen_shows_a_down_card_hint(live_kiosk: Callable[..., LiveKiosk],
                                                  chromium: Any, artifacts: Path,
                                                  tmp_path: Path) -> None:
    """Seat 1's zone holds the whole of scene03 (six backs) but the engine dealt it two down
    cards: after three counts the camera area of the dealer screen says so."""
    folder = tmp_path / "frames"
    folder.mkdir()
    image = load_image(SCENES / "scene03.jpg")
    cv2.imwrite(str(folder / "0001.png"), image)
    server = live_kiosk(env={"STUD_KIOSK_CAMERA": str(folder)})
    session = server.dealer_session()
    assert session.put(server.url + "/api/setup", json=copy.deepcopy(driver.SETUP)).ok
    assert session.post(server.url + "/api/hands").ok
    for _ in range(2):
        assert session.post(server.url + "/api/events",
                            json={"type": "deal", "seat": 1, "card": None, "up": False}).ok
    assert session.post(server.url + "/api/camera/zones",
                        json={"zones": {"1": [0.0, 0.0, 1.0, 1.0]}}).ok
    assert session.post(server.url + "/api/camera/settings", json={"down_hints": True}).ok
    context = chromium.new_context(viewport={"width": 1280, "height": 800})
    try:
        server.signed_in(context, session)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(server.url + "/dealer?lang=en")
        hint = page.locator('[data-testid="camera-down-hint"]')
        hint.first.wait_for(state="visible", timeout=20_000)
        text = hint.first.inner_text()
        state = session.get(server.url + "/api/camera").json()
        seen = state["down"]["1"]
        assert seen != 2 and seen >= 3
        assert text == f"Seat 1: face-down cards seen {seen}, dealt 2"
        assert hint.count() == 1  # seats without a zone are not counted
        assert all("card" not in h for h in state["down_hints"])
        page.screenshot(path=str(artifacts / "dealer-down-hint-1280x800.jpg"))
        assert errors == []
    finally:
        context.close()
