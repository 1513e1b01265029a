"""The kiosk's one error type and its one mapping to statuses and NAK codes."""

from __future__ import annotations

from engine.errors import EngineError
from kiosk.camera.settings import CameraError
from kiosk.errors import STATUS, Kind, KioskError, answer, status_of


def test_every_kind_has_a_status_and_the_engine_is_422_everywhere() -> None:
    assert set(STATUS) == set(Kind)
    assert status_of(EngineError("seat 9 is not at the table")) == 422
    assert status_of(KioskError("table.err.no_hand", Kind.NOT_NOW)) == 409
    # the camera's refusals are the kiosk's, of the kind their key says
    assert status_of(CameraError("camera.err.in_hand", card="A♠")) == 409
    assert status_of(CameraError("camera.err.no_deck", deck="x")) == 404
    assert status_of(CameraError("camera.err.zone")) == 422


def test_a_refusal_says_itself_in_each_language_with_its_fields() -> None:
    inner = KioskError("setup.allow.whole", least=0, most=10)
    error = KioskError("setup.err.field", field="stakes.ante", allowed=inner,
                       problems=[("stakes.ante", inner)])
    body = answer(error, "it")
    assert body["ok"] is False and body["kind"] == "refused"
    assert body["error"] == "stakes.ante: un numero intero da 0 a 10."
    assert body["problems"] == [{"field": "stakes.ante", "error": "un numero intero da 0 a 10."}]
    assert KioskError("table.err.no_hand", Kind.NOT_NOW).code == "busy"
    assert KioskError("table.err.event").code == "refused"
