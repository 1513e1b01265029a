"""The serial devices' typed settings and the refusals of their routes: where each setting comes
from, a timing that is no number of seconds refused in words, the registration refused with the
status and kind of its refusal, and the NAK code of each kind."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from kiosk.devices import DeviceSettings
from kiosk.errors import Kind, KioskError
from tests.kiosk import driver


def test_the_app_configuration_wins_then_the_environment_then_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "serial.json").write_text(json.dumps(
        {"ports": ["/dev/ttyACM0", "display=/dev/ttyUSB1"], "heartbeat": "2.5",
         "retry": 1, "tags": "deck-blue.json"}), encoding="utf-8")
    monkeypatch.delenv("STUD_KIOSK_SERIAL_PORTS", raising=False)
    stored = DeviceSettings.configured({}, tmp_path)
    assert stored == DeviceSettings(ports="/dev/ttyACM0,display=/dev/ttyUSB1",
                                    tags="deck-blue.json", heartbeat=2.5, retry=1.0)
    assert stored.manager_options() == {"heartbeat": 2.5, "retry_interval": 1.0}
    assert stored.tag_map_path(tmp_path) == tmp_path / "deck-blue.json"

    monkeypatch.setenv("STUD_KIOSK_SERIAL_PORTS", "/dev/stud-reader")
    assert DeviceSettings.configured({}, tmp_path).ports == "/dev/stud-reader"
    config = {"SERIAL_PORTS": ["loop://"], "SERIAL_HEARTBEAT": 0, "SERIAL_REPEAT_WINDOW": 3,
              "SERIAL_TAGS": "/srv/tags.json"}
    mine = DeviceSettings.configured(config, tmp_path)
    assert mine.ports == "loop://"
    assert mine.manager_options() == {"heartbeat": 0.0, "repeat_window": 3.0,
                                      "retry_interval": 1.0}
    assert mine.tag_map_path(tmp_path) == Path("/srv/tags.json")


def test_nothing_configured_is_no_port_and_the_managers_timings(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch
                                                                ) -> None:
    monkeypatch.delenv("STUD_KIOSK_SERIAL_PORTS", raising=False)
    settings = DeviceSettings.configured({}, tmp_path)
    assert settings.ports == "" and settings.manager_options() == {}
    assert settings.tag_map_path(tmp_path) == tmp_path / "serial-tags.json"


@pytest.mark.parametrize("value", [-1, "soon", float("nan"), True, [1]])
def test_a_timing_that_is_no_number_of_seconds_is_refused_in_words(value: Any) -> None:
    with pytest.raises(KioskError) as refused:
        DeviceSettings(heartbeat=value)
    assert refused.value.kind is Kind.REFUSED
    assert "heartbeat" in str(refused.value) and "0 or more" in str(refused.value)
    assert "numero di secondi" in refused.value.text("it")


def test_a_bad_timing_in_the_app_configuration_stops_the_start(tmp_path: Path) -> None:
    from kiosk import create_app

    with pytest.raises(KioskError, match="setting retry cannot be"):
        create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path / "instance"),
                    "SERIAL_PORTS": "", "SERIAL_RETRY": "-0.5"})


def test_the_registration_refused_says_why_with_its_status_and_kind(
    kiosk_app: Any, dealer_client: Any
) -> None:
    # every request that changes something carries the CSRF token, as the pages send it
    token = dealer_client.get("/api/csrf").json["csrf_token"]
    dealer_client.environ_base["HTTP_X_CSRFTOKEN"] = token
    wrong = dealer_client.post("/api/devices/registration", json={"action": "begin"})
    assert wrong.status_code == 400
    assert wrong.get_json() == {"ok": False, "kind": "unreadable",
                                "error": "The registration action is start or cancel"}
    assert dealer_client.post("/api/devices/registration", json=["start"]).status_code == 400

    table = kiosk_app.extensions["stud_table"]
    table.configure(copy.deepcopy(driver.SETUP))
    table.start_hand()
    mid_hand = dealer_client.post("/api/devices/registration", json={"action": "start"})
    assert mid_hand.status_code == 409 and mid_hand.get_json()["kind"] == "not_now"
    table.misdeal()
    started = dealer_client.post("/api/devices/registration", json={"action": "start"})
    assert started.status_code == 200
    assert started.get_json() == {"ok": True,
                                  "registration": {"expected": "As", "done": 0, "total": 52}}
    cancelled = dealer_client.post("/api/devices/registration", json={"action": "cancel"})
    assert cancelled.get_json() == {"ok": True, "registration": None}


def test_each_kind_of_device_refusal_has_its_nak_code() -> None:
    assert KioskError("devices.err.no_hand", Kind.NOT_NOW).code == "busy"
    assert KioskError("devices.err.nothing_to_confirm").code == "refused"
