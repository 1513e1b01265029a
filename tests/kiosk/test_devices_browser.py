"""The real server (``stud-kiosk serve``, ports from ``STUD_KIOSK_SERIAL_PORTS``) with devices on
PTYs and real Chromium: a refused read shows on the dealer screen, the devices page follows a
reader being unplugged and plugged in again. Screenshots go to test-artifacts/."""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from hardware.serial.virtual import VirtualPort
from tests.conftest import LiveKiosk
from tests.kiosk import driver

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.timeout(120)]


def reply(port: VirtualPort, line: str) -> str:
    port.send(line)
    while True:
        (last,) = port.expect("*")[-1:]
        if last.startswith(("ACK", "NAK")):
            return last


def test_the_dealer_sees_device_refusals_and_connections(
    live_kiosk: Callable[..., LiveKiosk], chromium: Any, artifacts: Path, tmp_path: Path
) -> None:
    reader = VirtualPort(tmp_path / "ttyREADER")
    buttons = VirtualPort(tmp_path / "ttyBUTTONS")
    display = VirtualPort(tmp_path / "ttyDISPLAY")
    ports = f"{reader.path},{buttons.path},display={display.path}"
    server = live_kiosk(env={"STUD_KIOSK_SERIAL_PORTS": ports, "STUD_KIOSK_LANG": "it"})
    context = None
    try:
        session = server.dealer_session()
        assert session.put(server.url + "/api/setup", json=copy.deepcopy(driver.SETUP)).ok
        for port in (reader, buttons, display):
            port.expect("PING")
        assert reply(reader, "HELLO reader 1 under-the-felt") == "ACK"
        assert reply(buttons, "HELLO buttons 1") == "ACK"
        assert reply(buttons, "BTN NEXT") == "ACK"  # the panel starts the hand
        assert "POT 3" in display.expect("POT 3")  # three antes

        context = server.signed_in(chromium.new_context(viewport={"width": 1280, "height": 800}),
                                   session)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(server.url + "/dealer?lang=it")
        page.wait_for_selector('[data-testid="prompt"]:not(:empty)')

        assert reply(reader, "CARD 1 As down") == "ACK"
        assert reply(reader, "CARD 2 As down").startswith("NAK refused")
        toast = page.locator("#toast")
        toast.wait_for(state="visible")
        text = toast.inner_text()
        assert "rifiutato" in text and "As" in text, text
        page.screenshot(path=str(artifacts / "dealer-device-refusal-1280x800.jpg"))
        state = session.get(server.url + "/api/state?lang=en").json()
        seat1 = next(s for s in state["hand"]["seats"] if s["seat"] == 1)
        assert [c["card"] for c in seat1["cards"]] == ["As"]

        devices = context.new_page()
        devices.on("pageerror", lambda exc: errors.append(str(exc)))
        devices.goto(server.url + "/devices?lang=it")
        devices.locator('[data-testid="register"]').wait_for(state="visible")
        assert not devices.locator("#register-cancel").is_visible()
        row = devices.locator(f'tr.device[data-port="{reader.path}"]')
        row.locator(".state:has-text('collegato')").wait_for()
        assert "lettore di carte" in row.inner_text() and "under-the-felt" in row.inner_text()
        reader.write(b"\xff\xfe wrong speed\n")  # bad lines: counted on the page
        assert reader.expect("NAK*") == ["NAK syntax bytes outside printable ASCII"]
        assert reply(reader, "CARD 9 Zz").startswith("NAK card")
        reader.unplug()
        row.locator(".state:has-text('scollegato')").wait_for()
        assert "2 righe illeggibili" in row.locator(".detail").inner_text()
        devices.screenshot(path=str(artifacts / "devices-unplugged-1280x800.jpg"))
        reader.replug()
        reader.expect("PING")
        row = devices.locator(f'tr.device[data-port="{reader.path}"].connected')
        row.wait_for()
        assert reply(reader, "CARD 2 Kd down") == "ACK"  # the hand goes on where it was
        state = session.get(server.url + "/api/state?lang=en").json()
        seat2 = next(s for s in state["hand"]["seats"] if s["seat"] == 2)
        assert [c["card"] for c in seat2["cards"]] == ["Kd"]

        # between hands the dealer registers a deck from the page
        assert session.post(server.url + "/api/misdeal").ok
        devices.locator('[data-testid="register"]').click()
        prompt = devices.locator('[data-testid="registration"]')
        prompt.wait_for(state="visible")
        assert "A♠" in prompt.inner_text() and "0 di 52" in prompt.inner_text()
        assert "TEXT Passa As (1/52)" in display.expect("TEXT Passa As (1/52)")
        assert reply(reader, "TAG 1 04A1B2C3") == "ACK"
        devices.locator('[data-testid="registration"]:has-text("1 di 52")').wait_for()
        assert "2♠" in prompt.inner_text()
        devices.screenshot(path=str(artifacts / "devices-registration-1280x800.jpg"))
        devices.locator("#register-cancel").click()
        prompt.wait_for(state="hidden")
        assert devices.locator('[data-testid="register"]').is_visible()
        assert errors == []
    finally:
        if context is not None:
            context.close()
        server.stop()
        for port in (reader, buttons, display):
            port.close()
