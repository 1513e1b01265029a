"""The serial line protocol, line assembly, display updates and deck registration (no ports)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.cards import DECK, Card
from hardware.serial import (
    MAX_LINE,
    REGISTRATION_ORDER,
    DeckRegistration,
    DisplayState,
    LineAssembler,
    ProtocolError,
    RepeatFilter,
    TagMap,
    parse_device_line,
    parse_kiosk_line,
    parse_port_list,
)
from hardware.serial.protocol import (
    BUTTONS,
    Ack,
    ButtonPress,
    CardRead,
    DeviceError,
    Hello,
    Led,
    Message,
    Nak,
    Ping,
    Pong,
    Pot,
    TagRead,
    Text,
    Turn,
    to_ascii,
)

seats = st.integers(1, 10)
cards = st.sampled_from(DECK)
ups = st.sampled_from([None, True, False])
device_messages: st.SearchStrategy[Message] = st.one_of(
    st.builds(
        Hello,
        st.sampled_from([("reader",), ("buttons",), ("display",), ("reader", "display")]),
        st.integers(1, 99),
        st.one_of(st.none(), st.from_regex(r"[A-Za-z0-9_-]{1,20}", fullmatch=True)),
    ),
    st.builds(CardRead, seats, cards, ups),
    st.builds(TagRead, seats, st.from_regex(r"([0-9A-F]{2}){1,16}", fullmatch=True), ups),
    st.builds(ButtonPress, st.sampled_from([b for b in BUTTONS if b not in ("BET", "RAISE")])),
    st.builds(
        ButtonPress, st.sampled_from(["BET", "RAISE"]), st.one_of(st.none(), st.integers(0, 10**9))
    ),
    st.builds(DeviceError, st.from_regex(r"[!-~]([ -~]{0,50}[!-~])?", fullmatch=True)),
    st.just(Ack()),
    st.just(Ping()),
    st.just(Pong()),
)
kiosk_messages: st.SearchStrategy[Message] = st.one_of(
    st.just(Ack()),
    st.builds(Nak.for_error, st.sampled_from(["refused", "syntax"]), st.text(max_size=200)),
    st.builds(Pot, st.integers(0, 10**9)),
    st.builds(Turn, st.integers(0, 10)),
    st.builds(Text.fitted, st.text(max_size=100)),
    st.builds(Led, seats, st.sampled_from(["on", "off", "blink"])),
    st.just(Ping()),
    st.just(Pong()),
)


@given(device_messages)
def test_every_device_message_round_trips(message: Message) -> None:
    line = message.line()
    assert len(line) <= MAX_LINE and line.endswith(b"\n") and line.isascii()
    assert parse_device_line(line) == message


@given(kiosk_messages)
def test_every_kiosk_message_round_trips(message: Message) -> None:
    line = message.line()
    assert len(line) <= MAX_LINE and line.endswith(b"\n") and line.isascii()
    assert parse_kiosk_line(line) == message


def test_the_documented_examples_parse() -> None:
    assert parse_device_line(b"HELLO reader 1\n") == Hello(("reader",), 1)
    assert parse_device_line(b"hello Reader+Display 1 seat-box\r\n") == Hello(
        ("reader", "display"), 1, "seat-box"
    )
    assert parse_device_line(b"CARD 3 10h\n") == CardRead(3, Card.parse("Th"))
    assert parse_device_line(b"CARD 3 ah down\n") == CardRead(3, Card.parse("Ah"), False)
    assert parse_device_line(b"TAG 2 04a1b2c3\n") == TagRead(2, "04A1B2C3")
    assert parse_device_line(b"BTN fold\n") == ButtonPress("FOLD")
    assert parse_device_line(b"BTN RAISE 40\n") == ButtonPress("RAISE", 40)
    assert parse_device_line(b"ERR antenna 3 not responding\n") == DeviceError(
        "antenna 3 not responding"
    )
    assert parse_kiosk_line(b"TEXT\n") == Text("")
    assert parse_kiosk_line(b"LED 4 BLINK\n") == Led(4, "blink")
    assert parse_kiosk_line(b"NAK refused Ah is already in the hand\n").code == "refused"  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("line", "code"),
    [
        (b"CARD 0 Ah\n", "seat"),
        (b"CARD 11 Ah\n", "seat"),
        (b"CARD 1 Ax\n", "card"),
        (b"CARD 1 Ah sideways\n", "syntax"),
        (b"CARD 1\n", "syntax"),
        (b"TAG 1 0G\n", "tag"),
        (b"TAG 1 ABC\n", "tag"),
        (b"BTN JUMP\n", "button"),
        (b"BTN FOLD 10\n", "syntax"),
        (b"BTN BET lots\n", "syntax"),
        (b"HELLO toaster 1\n", "syntax"),
        (b"HELLO reader one\n", "syntax"),
        (b"ERR\n", "syntax"),
        (b"POT 10\n", "unknown"),
        (b"\n", "syntax"),
        (b"CARD 1 A\xe2\x99\xa5\n", "syntax"),
        (b"CARD 1 Ah\x00\n", "syntax"),
        (b"CARD 1 " + b"A" * 60 + b"\n", "toolong"),
    ],
)
def test_bad_device_lines_are_refused_with_a_code_and_a_reason(line: bytes, code: str) -> None:
    with pytest.raises(ProtocolError) as info:
        parse_device_line(line)
    assert info.value.code == code
    nak = info.value.nak().line()
    assert nak.startswith(b"NAK " + code.encode()) and len(nak) <= MAX_LINE and nak.isascii()
    assert len(str(info.value)) > 5  # says what was wrong


def test_naks_fit_one_line_whatever_the_message() -> None:
    nak = Nak.for_error("refused", "A♥ è già nella mano: " + "x" * 200)
    assert len(nak.line()) == MAX_LINE and nak.line().endswith(b"...\n")
    assert nak.reason.startswith("refused Ah e gia nella mano")
    assert to_ascii("Q♠\tK♣") == "Qs Kc"


def test_line_assembly_handles_split_lines_overlong_lines_and_stale_fragments() -> None:
    now = [0.0]
    lines = LineAssembler(stale_after=2.0, clock=lambda: now[0])
    assert lines.feed(b"CA") == []
    assert lines.feed(b"RD 1 Ah\nBTN") == [b"CARD 1 Ah\n"]
    assert lines.feed(b" FOLD\r\n") == [b"BTN FOLD\r\n"]
    (too_long,) = lines.feed(b"x" * 64 + b"\n")  # 65 bytes with the \n
    assert isinstance(too_long, ProtocolError) and too_long.code == "toolong"
    out = lines.feed(b"y" * 63 + b"\n")
    assert out == [b"y" * 63 + b"\n"]  # exactly 64 bytes: allowed
    for chunk in (b"z" * 50, b"z" * 50, b"z" * 50):
        assert lines.feed(chunk) == []
    (error, ok) = lines.feed(b"zz\nBTN CALL\n")
    assert isinstance(error, ProtocolError) and error.code == "toolong"
    assert "153 bytes" in str(error)
    assert ok == b"BTN CALL\n"
    lines.feed(b"noise without end")
    now[0] = 1.0
    assert lines.expire() is None
    now[0] = 5.0
    stale = lines.expire()
    assert stale is not None and stale.code == "syntax" and not lines.pending
    assert lines.feed(b"BTN NEXT\n") == [b"BTN NEXT\n"]


def test_display_updates_send_only_what_changed() -> None:
    first = DisplayState(pot=0, turn=0)
    assert [m.text() for m in first.messages(None)] == ["POT 0", "TURN 0", "TEXT"]
    second = DisplayState(pot=30, turn=2, text="Seat 2 to act", leds=((2, "blink"), (3, "on")))
    assert [m.text() for m in second.messages(first)] == [
        "POT 30", "TURN 2", "TEXT Seat 2 to act", "LED 2 blink", "LED 3 on",
    ]
    third = DisplayState(pot=30, turn=3, text="Seat 2 to act", leds=((2, "on"), (3, "on")))
    assert [m.text() for m in third.messages(second)] == ["TURN 3", "LED 2 on"]
    with pytest.raises(ValueError, match=r"seats 1\.\.10"):
        DisplayState(leds=((11, "on"),))


def test_repeat_filter_keeps_a_card_lying_on_a_reader_as_one_read() -> None:
    repeats = RepeatFilter(window=60)
    ace = Card.parse("Ah")
    assert not repeats.is_repeat(1, ace)
    repeats.record(1, ace)
    assert repeats.is_repeat(1, ace)
    assert not repeats.is_repeat(2, ace)  # another seat is not a repeat: the table decides
    repeats.clear()
    assert not repeats.is_repeat(1, ace)


def test_port_lists_from_configuration() -> None:
    specs = parse_port_list(" /dev/ttyACM0,reader+display=/dev/serial/by-id/usb-x  loop:// ")
    assert [(s.url, s.kinds) for s in specs] == [
        ("/dev/ttyACM0", ()),
        ("/dev/serial/by-id/usb-x", ("reader", "display")),
        ("loop://", ()),
    ]
    assert parse_port_list("") == []


def test_deck_registration_builds_and_stores_the_tag_map(tmp_path: Path) -> None:
    registration = DeckRegistration()
    assert registration.expected == Card.parse("As")
    for i, card in enumerate(REGISTRATION_ORDER):
        uid = f"04{i:06X}"
        assert registration.scan(uid) == card
        assert registration.scan(uid) is None  # the reader repeats: not a second card
        if i == 1:
            with pytest.raises(ProtocolError, match="is As already") as info:
                registration.scan("04000000")
            assert info.value.code == "register"
    assert registration.done and registration.expected is None
    path = tmp_path / "tags.json"
    registration.tag_map(path).save()
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["protocol"] == 1 and len(data["tags"]) == 52
    loaded = TagMap.load(path)
    assert loaded.card("04000000") == Card.parse("As")
    assert loaded.card("04000033") == Card.parse("Kc")
    with pytest.raises(ProtocolError, match="not in the registered deck"):
        loaded.card("DEADBEEF")
    assert len(TagMap.load(tmp_path / "missing.json")) == 0


def test_registration_can_step_back_and_refuses_an_unfinished_map() -> None:
    registration = DeckRegistration()
    registration.scan("AA")
    registration.scan("BB")
    assert registration.back() == Card.parse("2s")
    assert registration.scan("CC") == Card.parse("2s")
    with pytest.raises(ValueError, match="2 of 52"):
        registration.tag_map()


def test_a_damaged_tag_file_says_so(tmp_path: Path) -> None:
    path = tmp_path / "tags.json"
    path.write_text('{"tags": {"AA": "Zz"}}', encoding="utf-8")
    with pytest.raises(ProtocolError, match="register the deck again"):
        TagMap.load(path)


@pytest.mark.parametrize("name", ["protocol", "device", "ports", "tags"])
def test_the_examples_in_the_docstrings_hold(name: str) -> None:
    import doctest
    import importlib

    module = importlib.import_module(f"hardware.serial.{name}")
    failed, tried = doctest.testmod(module)
    assert tried > 0 and failed == 0
