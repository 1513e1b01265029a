"""The real server: the PIN holds against guessing, a lock really locks, dealer sessions end.

Other loopback addresses (``127.0.0.2``...) stand for other machines of the LAN; ``127.0.0.1`` is
the kiosk's own touchscreen."""

from __future__ import annotations

import copy
import http.client
import threading
import time
import urllib.parse
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import requests
import socketio

from tests.conftest import TEST_PIN, LiveKiosk, csrf_from
from tests.kiosk import driver

pytestmark = pytest.mark.slow

WRONG = "1357"


class Browser:
    """A client from a chosen source address with its own cookies (http.client, as requests
    cannot choose the address it connects from)."""

    def __init__(self, server: LiveKiosk, address: str = "127.0.0.1") -> None:
        self.server = server
        self.address = address
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, form: dict[str, str] | None = None,
                body: bytes | None = None, headers: dict[str, str] | None = None,
                ) -> tuple[int, str, dict[str, str]]:
        conn = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=30,
                                          source_address=(self.address, 0))
        sent = dict(headers or {})
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if form is not None:
            body = urllib.parse.urlencode(form).encode()
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            conn.request(method, path, body=body, headers=sent)
            answer = conn.getresponse()
            text = answer.read().decode("utf-8", "replace")
        finally:
            conn.close()
        for name, value in answer.getheaders():
            if name.lower() == "set-cookie":
                key, _, rest = value.partition("=")
                self.cookies[key] = rest.split(";", 1)[0]
        return answer.status, text, {k.lower(): v for k, v in answer.getheaders()}

    def guess(self, pin: str) -> int:
        status, page, _ = self.request("GET", "/login")
        assert status == 200, page[:300]
        status, _text, _ = self.request("POST", "/login",
                                        form={"csrf_token": csrf_from(page), "pin": pin})
        return status


def _first_start(server: LiveKiosk) -> requests.Session:
    session: requests.Session = server.dealer_session()
    return session


def test_parallel_guesses_are_counted_before_they_are_checked(
    live_kiosk: Callable[..., LiveKiosk],
) -> None:
    server = live_kiosk()
    _first_start(server)
    guessers = [Browser(server, "127.0.0.2") for _ in range(16)]
    pages = [g.request("GET", "/login")[1] for g in guessers]
    barrier = threading.Barrier(len(guessers))

    def guess(pair: tuple[Browser, str]) -> int:
        browser, page = pair
        barrier.wait()
        return browser.request("POST", "/login",
                               form={"csrf_token": csrf_from(page), "pin": WRONG})[0]

    with ThreadPoolExecutor(len(guessers)) as pool:
        statuses = list(pool.map(guess, zip(guessers, pages, strict=True)))
    # three free failures from one address, a fourth that starts the lockout; the rest wait
    assert statuses.count(401) <= 4, statuses
    assert statuses.count(429) >= len(guessers) - 4, statuses


def test_changing_address_does_not_help_and_the_dealer_keeps_working(
    live_kiosk: Callable[..., LiveKiosk],
) -> None:
    server = live_kiosk()
    dealer = _first_start(server)  # the dealer's own screen, signed in before the guessing
    answers = []
    for n in range(2, 16):  # two guesses from each of 14 machines
        machine = Browser(server, f"127.0.0.{n}")
        answers += [machine.guess(WRONG), machine.guess(WRONG)]
    # ten wrong PINs from other machines together, then the lockout grows for all of them
    assert answers[:10] == [401] * 10, answers
    assert answers[11:] == [429] * (len(answers) - 11), answers
    newcomer = Browser(server, "127.0.0.99")
    assert newcomer.guess(TEST_PIN) == 429  # even the right PIN waits: it is not tried
    # the dealer's screen, signed in, goes on dealing; the touchscreen can still sign in
    assert dealer.get(server.url + "/api/setup", timeout=10).status_code == 200
    assert Browser(server, "127.0.0.1").guess(TEST_PIN) == 302


def test_the_lockout_grows_with_the_failures(live_kiosk: Callable[..., LiveKiosk]) -> None:
    server = live_kiosk()
    _first_start(server)
    machine = Browser(server, "127.0.0.2")
    assert [machine.guess(WRONG) for _ in range(4)] == [401, 401, 401, 401]
    status, page, _ = machine.request("GET", "/login")
    status, text, _ = machine.request("POST", "/login",
                                      form={"csrf_token": csrf_from(page), "pin": WRONG})
    assert status == 429 and "30 seconds" in text


def _worker_peak_mib(server: LiveKiosk) -> float:
    (worker,) = server.worker_pids()
    for line in Path(f"/proc/{worker}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmHWM")


def test_a_burst_of_guesses_costs_one_checks_memory(live_kiosk: Callable[..., LiveKiosk]) -> None:
    server = live_kiosk()
    _first_start(server)
    before = _worker_peak_mib(server)
    machines = [Browser(server, f"127.0.0.{n}") for n in range(2, 12)]
    pages = [m.request("GET", "/login")[1] for m in machines]
    barrier = threading.Barrier(len(machines))

    def guess(pair: tuple[Browser, str]) -> int:
        machine, page = pair
        barrier.wait()
        return machine.request("POST", "/login",
                               form={"csrf_token": csrf_from(page), "pin": WRONG})[0]

    with ThreadPoolExecutor(len(machines)) as pool:
        statuses = list(pool.map(guess, zip(machines, pages, strict=True)))
    assert statuses == [401] * len(machines)  # ten PINs checked, not refused unchecked
    grown = _worker_peak_mib(server) - before
    assert grown < 40, f"the worker's peak memory grew by {grown:.0f} MiB for ten PIN checks"


def test_a_large_body_is_refused_before_it_is_read(live_kiosk: Callable[..., LiveKiosk]) -> None:
    server = live_kiosk()
    _first_start(server)
    answer = requests.post(server.url + "/login", data={"pin": "1" * 2_000_000}, timeout=30)
    assert answer.status_code == 413
    deep = b"[" * 100_000 + b"]" * 100_000
    answer = requests.post(server.url + "/api/events", data=deep,
                           headers={"Content-Type": "application/json"}, timeout=30)
    assert answer.status_code == 413


def test_only_one_first_pin_can_be_set(live_kiosk: Callable[..., LiveKiosk]) -> None:
    server = live_kiosk()
    clients = [Browser(server, "127.0.0.1") for _ in range(2)]
    pages = [c.request("GET", "/pin/new")[1] for c in clients]
    pins = ["1111", "2222"]
    barrier = threading.Barrier(2)

    def choose(index: int) -> tuple[int, str, dict[str, str]]:
        barrier.wait()
        return clients[index].request("POST", "/pin/new", form={
            "csrf_token": csrf_from(pages[index]), "pin": pins[index],
            "pin_again": pins[index]})

    with ThreadPoolExecutor(2) as pool:
        answers = list(pool.map(choose, [0, 1]))
    statuses = sorted(a[0] for a in answers)
    assert statuses == [302, 409], statuses
    loser = next(a for a in answers if a[0] == 409)
    assert "already" in loser[1]
    winner = pins[[a[0] for a in answers].index(302)]
    other = pins[1 - pins.index(winner)]
    assert Browser(server, "127.0.0.1").guess(other) == 401
    assert Browser(server, "127.0.0.1").guess(winner) == 302


# -- a lock locks ----
def _dealer_socket(server: LiveKiosk, session: requests.Session) -> tuple[socketio.Client,
                                                                          list[Any]]:
    locked: list[Any] = []
    client = socketio.Client(reconnection=False)
    client.on("locked", locked.append)
    client.connect(server.url, auth={"role": "dealer", "lang": "en"},
                   headers={"Cookie": server.cookie_header(session)}, transports=["websocket"],
                   wait_timeout=10)
    return client, locked


def _copy(server: LiveKiosk, session: requests.Session) -> requests.Session:
    """Another client holding the same cookies (a copied cookie) and CSRF header."""
    copied = requests.Session()
    copied.cookies.update(session.cookies)
    copied.headers.update(session.headers)
    return copied


def _wait(check: Callable[[], bool], timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def test_a_lock_ends_every_dealer_session_and_socket(live_kiosk: Callable[..., LiveKiosk]) -> None:
    server = live_kiosk()
    dealer = _first_start(server)
    copied = _copy(server, dealer)
    other = server.dealer_session()  # another screen, signed in too
    socket_before, told = _dealer_socket(server, other)
    assert copied.get(server.url + "/api/setup", timeout=10).status_code == 200
    page = dealer.get(server.url + "/dealer", timeout=10).text
    locked = dealer.post(server.url + "/logout", data={"csrf_token": csrf_from(page)},
                         timeout=10)
    assert locked.url.endswith("/login")
    assert _wait(lambda: not socket_before.connected), "the dealer socket stayed connected"
    assert told and "locked" in told[0]["message"]
    for session in (copied, other):  # the copied cookie and the other screen: no more rights
        assert session.post(server.url + "/api/misdeal", timeout=10).status_code == 403
        assert session.get(server.url + "/api/setup", timeout=10).status_code == 403
    with pytest.raises(socketio.exceptions.ConnectionError):
        _dealer_socket(server, copied)
    socket_before.disconnect()


def test_a_pin_change_ends_every_other_dealer_session(
    live_kiosk: Callable[..., LiveKiosk],
) -> None:
    server = live_kiosk()
    dealer = _first_start(server)
    other = server.dealer_session()
    socket_before, _told = _dealer_socket(server, other)
    page = dealer.get(server.url + "/pin/change", timeout=10)
    assert page.status_code == 200
    changed = dealer.post(server.url + "/pin/change", data={
        "csrf_token": csrf_from(page.text), "current": TEST_PIN, "pin": "97531",
        "pin_again": "97531"}, timeout=10)
    assert changed.status_code == 200 and changed.url.endswith("/setup/")
    assert _wait(lambda: not socket_before.connected)
    assert other.get(server.url + "/api/setup", timeout=10).status_code == 403
    assert dealer.get(server.url + "/api/setup", timeout=10).status_code == 200
    assert Browser(server).guess(TEST_PIN) == 401
    assert Browser(server).guess("97531") == 302
    socket_before.disconnect()


def test_an_idle_table_locks_by_itself(live_kiosk: Callable[..., LiveKiosk]) -> None:
    server = live_kiosk()
    dealer = _first_start(server)
    setup = dict(copy.deepcopy(driver.SETUP), lock_after_minutes=0.05)  # three seconds
    assert dealer.put(server.url + "/api/setup", json=setup, timeout=10).status_code == 200
    screen, told = _dealer_socket(server, dealer)
    assert _wait(lambda: not screen.connected, timeout=15), "the idle screen stayed connected"
    assert told and told[0]["reason"] == "idle"
    assert dealer.get(server.url + "/api/setup", timeout=10).status_code == 403
    screen.disconnect()


def test_a_dealer_session_expires(live_kiosk: Callable[..., LiveKiosk]) -> None:
    from flask import Flask
    from flask.sessions import SecureCookieSessionInterface

    server = live_kiosk()
    dealer = _first_start(server)
    signer = Flask("signer")
    signer.secret_key = (server.instance / "secret_key").read_text().strip()
    serializer = SecureCookieSessionInterface().get_signing_serializer(signer)
    assert serializer is not None
    cookie = serializer.loads(str(dealer.cookies["session"]))
    assert cookie["dealer"] is True
    old = dict(cookie, dealer_since=time.time() - 13 * 3600)
    stale = requests.Session()
    stale.cookies.set("session", serializer.dumps(old))
    assert stale.get(server.url + "/api/setup", timeout=10).status_code == 403
    assert dealer.get(server.url + "/api/setup", timeout=10).status_code == 200
