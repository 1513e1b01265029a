"""The kiosk app in process: PIN, sessions, CSRF, setup, the JSON API, the store's durability."""

from __future__ import annotations

import html
import os
import stat
from pathlib import Path
from typing import Any

from sqlalchemy import text

from kiosk import create_app
from kiosk.views.auth import PIN_KEY, set_pin
from tests.conftest import TEST_PIN, csrf_from
from tests.helpers.forms import SETUP_FORM, post_form


def test_first_start_asks_for_a_pin_and_stores_only_its_hash(kiosk_app: Any) -> None:
    client = kiosk_app.test_client()
    first = client.get("/dealer")
    assert first.status_code == 302 and first.headers["Location"].endswith("/pin/new")
    bad = post_form(client, "/pin/new", {"pin": "12a", "pin_again": "12a"})
    assert bad.status_code == 200 and "4 to 8 digits" in bad.get_data(as_text=True)
    differ = post_form(client, "/pin/new", {"pin": "1234", "pin_again": "1235"})
    assert "differ" in differ.get_data(as_text=True)
    done = post_form(client, "/pin/new", {"pin": TEST_PIN, "pin_again": TEST_PIN})
    assert done.status_code == 302
    stored = kiosk_app.extensions["stud_store"].get(PIN_KEY)
    assert stored and TEST_PIN not in stored and stored.startswith(("scrypt:", "pbkdf2:"))
    assert client.get("/dealer").status_code == 200  # the session that set the PIN is the dealer's


def test_wrong_pin_is_refused_and_repeated_tries_lock_out(kiosk_app: Any) -> None:
    set_pin(kiosk_app.extensions["stud_store"], TEST_PIN)
    client = kiosk_app.test_client()
    assert client.get("/dealer").headers["Location"].startswith("/login")
    for _ in range(4):  # three free wrong PINs, and a fourth that starts the lockout
        assert post_form(client, "/login", {"pin": "0000"}).status_code == 401
    locked = post_form(client, "/login", {"pin": TEST_PIN})
    assert locked.status_code == 429
    other = kiosk_app.test_client()
    assert client.get("/dealer").status_code == 302 and other.get("/spectator").status_code == 200


def test_forms_need_the_csrf_token(kiosk_app: Any) -> None:
    set_pin(kiosk_app.extensions["stud_store"], TEST_PIN)
    client = kiosk_app.test_client()
    refused = client.post("/login", data={"pin": TEST_PIN})
    assert refused.status_code == 400
    assert post_form(client, "/login", {"pin": TEST_PIN}).status_code == 302


def test_the_secret_key_is_generated_once_into_the_instance(tmp_path: Path) -> None:
    instance = tmp_path / "inst"
    first = create_app({"INSTANCE_PATH": str(instance)})
    second = create_app({"INSTANCE_PATH": str(instance)})
    key_file = instance / "secret_key"
    assert first.secret_key == second.secret_key == key_file.read_text().strip()
    assert len(first.secret_key) == 64
    assert stat.S_IMODE(os.stat(key_file).st_mode) == 0o600
    for app in (first, second):
        app.extensions["stud_store"].close()


def test_the_store_is_sqlite_wal_with_full_sync(kiosk_app: Any) -> None:
    store = kiosk_app.extensions["stud_store"]
    assert store.url.startswith("sqlite:///") and str(kiosk_app.instance_path) in store.url
    with store.engine.connect() as conn:
        assert conn.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert conn.execute(text("PRAGMA synchronous")).scalar() == 2  # FULL


def test_setup_refuses_bad_input_with_words_and_saves_good_input(dealer_client: Any) -> None:
    one_player = {k: v for k, v in SETUP_FORM.items() if not k.endswith(("_2", "_3"))}
    bad = post_form(dealer_client, "/setup/", one_player)
    assert bad.status_code == 422
    assert "seven-card-stud-hilo is played by 2 to 8 players, not 1" in bad.get_data(as_text=True)
    bad_it = post_form(dealer_client, "/setup/?lang=it", {**SETUP_FORM, "big_bet": "4"})
    assert "la puntata grande (4) deve essere almeno la puntata piccola (5)" in html.unescape(
        bad_it.get_data(as_text=True)
    )
    worse = post_form(dealer_client, "/setup/", {**SETUP_FORM, "small_bet": "ten"})
    assert worse.status_code == 422
    assert "Small bet: a whole number from 1 to" in html.unescape(worse.get_data(as_text=True))
    good = post_form(dealer_client, "/setup/", SETUP_FORM)
    assert good.status_code == 302, good.get_data(as_text=True)
    setup = dealer_client.get("/api/setup").get_json()
    assert [s["name"] for s in setup["seats"] if s["active"]] == ["Anna", "Bruno", "Carla"]
    assert setup["stakes"] == {"ante": 1, "bring_in": 2, "small_bet": 5, "big_bet": 10}
    assert setup["rules"]["odd_chip"] == "nearest-dealer" and setup["rules"]["max_raises"] == 3


def test_setup_offers_the_engines_games_with_its_house_rule_defaults(dealer_client: Any) -> None:
    from engine.settings import HouseRules
    from engine.variants import VARIANTS

    page = dealer_client.get("/setup/?lang=en").get_data(as_text=True)
    for game in VARIANTS:
        assert f'name="game" value="{game}"' in page
    rules = dealer_client.get("/api/setup").get_json()["rules"]
    house = HouseRules(**{("bring_in" if k == "soko_bring_in" else k): v
                          for k, v in rules.items() if k != "chip_unit"})
    assert house == HouseRules()
    razz = post_form(dealer_client, "/setup/", {**SETUP_FORM, "game": "razz", "max_raises": "0"})
    assert razz.status_code == 302, razz.get_data(as_text=True)
    setup = dealer_client.get("/api/setup").get_json()
    assert setup["game"] == "razz" and setup["rules"]["max_raises"] == 0


def test_pages_speak_italian_and_english(dealer_client: Any) -> None:
    it = dealer_client.get("/setup/?lang=it").get_data(as_text=True)
    en = dealer_client.get("/setup/?lang=en").get_data(as_text=True)
    assert "Impostazione tavolo" in it and "Regole della casa" in it
    assert "Table setup" in en and "House rules" in en
    page = dealer_client.get("/setup/", follow_redirects=True)
    token = csrf_from(page.get_data(as_text=True))
    dealer_client.post("/lang/it", data={"csrf_token": token, "next": "/setup/"})
    assert "Impostazione tavolo" in dealer_client.get("/setup/").get_data(as_text=True)


def test_the_json_api_needs_the_dealer(kiosk_app: Any) -> None:
    client = kiosk_app.test_client()
    for url in ("/api/hands", "/api/csrf", "/api/setup"):
        assert client.get(url).status_code == 403
    assert client.get("/api/state").get_json()["role"] == "spectator"
    assert client.get("/api/health").get_json()["ok"] is True


def test_ui_catalogues_have_the_same_messages() -> None:
    from kiosk.i18n import ui_catalog

    en, it = ui_catalog().messages("en"), ui_catalog().messages("it")
    assert set(en) == set(it)
    for key in en:
        assert set(_fields(en[key])) == set(_fields(it[key])), key


def _fields(template: str) -> list[str]:
    import string

    return [f for _, f, _, _ in string.Formatter().parse(template) if f]


def test_between_hands_the_dealer_adds_chips_seats_players_and_moves_the_dealer(
    kiosk_app: Any, dealer_client: Any
) -> None:
    assert post_form(dealer_client, "/setup/", SETUP_FORM).status_code == 302
    table = kiosk_app.extensions["stud_table"]
    table.start_hand()
    during = post_form(dealer_client, "/setup/", {**SETUP_FORM, "add_1": "50"})
    assert during.status_code == 409 and "between hands" in during.get_data(as_text=True)
    table.misdeal()
    form = {**SETUP_FORM, "add_1": "50", "active_4": "on", "name_4": "Dario", "stack_4": "80",
            "dealer": "2"}
    form.pop("active_3")
    assert post_form(dealer_client, "/setup/", form).status_code == 302
    setup = dealer_client.get("/api/setup").get_json()
    seats = {s["seat"]: s for s in setup["seats"]}
    assert seats[1]["stack"] == 150 and seats[4]["name"] == "Dario" and seats[4]["active"]
    assert not seats[3]["active"] and seats[3]["stack"] == 100 and setup["dealer"] == 2
    table.start_hand()
    view = table.view("dealer", "en")["hand"]
    assert [s["seat"] for s in view["seats"]] == [1, 2, 4]
    before_antes = {s["seat"]: s["stack"] + s["committed"] for s in view["seats"]}
    assert before_antes == {1: 150, 2: 100, 4: 80}


def test_locking_the_dealer_screen_ends_the_session(dealer_client: Any) -> None:
    page = dealer_client.get("/dealer")
    assert page.status_code == 200 and 'data-testid="lock"' in page.get_data(as_text=True)
    token = csrf_from(page.get_data(as_text=True))
    locked = dealer_client.post("/logout", data={"csrf_token": token})
    assert locked.status_code == 302 and locked.headers["Location"].endswith("/login")
    assert dealer_client.get("/dealer").status_code == 302
    assert dealer_client.get("/api/setup").status_code == 403


def test_a_command_without_a_server_does_not_load_the_web_app() -> None:
    """The program (``from kiosk.cli import main``) is what every command loads, and what each
    camera reader process loads again as its parent's main module: Flask, Flask-SocketIO and
    SQLAlchemy come with the server only."""
    import subprocess
    import sys

    probe = (
        "import sys\n"
        "from kiosk.cli import main\n"
        "assert main(['rank', '5c', '4d', '3h', '2s', 'Ad']) in (0, None)\n"
        "print(sorted(m for m in ('flask', 'flask_socketio', 'sqlalchemy') if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "[]", done.stdout


def test_a_kiosk_without_a_camera_does_not_load_opencv(tmp_path: Path) -> None:
    """OpenCV and numpy cost a Raspberry Pi about 55 MB of memory: only a camera loads them."""
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if not k.startswith("STUD_KIOSK_")}
    env["STUD_KIOSK_INSTANCE"] = str(tmp_path)
    probe = (
        "import sys\n"
        "from kiosk import create_app\n"
        "app = create_app()\n"
        "client = app.test_client()\n"
        "assert client.get('/spectator').status_code == 200\n"
        "print(sorted(m for m in ('cv2', 'numpy') if m in sys.modules))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
