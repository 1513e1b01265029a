"""The project as a wheel: built from the project's files, installed into a fresh virtual
environment (not the checkout), ``stud-kiosk serve`` run from an empty folder answers every page.

The build uses the test environment's setuptools and the install takes no dependencies from an
index: the fresh environment sees the test environment's libraries through a ``.pth`` line added
after the install, so the test runs offline."""

from __future__ import annotations

import copy
import json
import re
import shutil
import subprocess
import sys
import sysconfig
import tomllib
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import LiveKiosk
from tests.helpers.deploy import ROOT, project_files
from tests.kiosk import driver

#: folders of the repository whose files the program reads at run time, and where they go
PACKAGED = {"engine": "engine", "kiosk": "kiosk", "hardware": "hardware",
            "templates": "kiosk/templates"}
#: every page, in English and Italian: path -> a text the page must hold
PAGES = {
    "/setup/": "csrf_token",
    "/dealer": "dealer.js",
    "/spectator": "spectator.js",
    "/history/": "/history/1",
    "/history/1": "Carla",
    "/devices": "devices.js",
    "/camera": "camera.js",
    "/camera/deck": "camera-deck.js",
    "/night": "night.js",
    "/nights": "night.css",
    "/players": "players.js",
    "/tournament": "tournament.js",
    "/room": "room.js",
    "/room/table/1": "room-watch.js",
}


def packaged_name(path: str) -> str | None:
    """Where a file of the repository is in the wheel (None: not in the wheel)."""
    top, _, rest = path.partition("/")
    return f"{PACKAGED[top]}/{rest}" if top in PACKAGED and rest else None


def test_every_folder_of_the_program_is_a_package_of_the_wheel() -> None:
    """pyproject.toml lists its packages (templates/ is mapped into kiosk/): a new folder of code
    or data must be listed there, or the wheel would go without it."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]
    listed = set(config["setuptools"]["packages"])
    assert config["setuptools"]["package-dir"] == {"kiosk.templates": "templates"}
    folders = {
        name.rsplit("/", 1)[0].replace("/", ".")
        for path in project_files()
        if (name := packaged_name(path)) and "/" in name
    }
    assert folders - listed == set(), "add these to [tool.setuptools] packages in pyproject.toml"
    assert listed - folders == set(), "these packages of pyproject.toml have no files"


@dataclass
class Installed:
    wheel: Path
    env: Path  # the fresh virtual environment
    empty: Path  # an empty folder to run from

    @property
    def python(self) -> Path:
        return self.env / "bin" / "python"

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(self.env / "bin" / "stud-kiosk"), *args], cwd=self.empty,
                              capture_output=True, text=True, timeout=120, check=False)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    base = tmp_path_factory.mktemp("package")
    source = base / "src"
    for name in project_files():
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, source / name)
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check"]
    subprocess.run([*pip, "wheel", "--quiet", "--no-deps", "--no-build-isolation", "--no-index",
                    "--wheel-dir", str(base / "dist"), str(source)], check=True, timeout=300)
    (wheel,) = (base / "dist").glob("stud_kiosk-*.whl")
    env = base / "env"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env)], check=True)
    python = env / "bin" / "python"
    subprocess.run([*pip, "--python", str(python), "install", "--quiet", "--no-deps",
                    "--no-index", str(wheel)], check=True, timeout=300)
    # The libraries it depends on: the test environment's (after the install, so that pip does
    # not see this checkout's own editable install there).
    (site,) = (env / "lib").glob("python3*/site-packages")
    libraries = {sysconfig.get_path("purelib"), sysconfig.get_path("platlib")}
    (site / "test-libraries.pth").write_text("\n".join(sorted(libraries)) + "\n")
    empty = base / "empty"
    empty.mkdir()
    return Installed(wheel, env, empty)


@pytest.fixture
def server(installed: Installed, tmp_path: Path) -> Iterator[LiveKiosk]:
    kiosk = LiveKiosk(tmp_path / "instance", program=[str(installed.env / "bin" / "stud-kiosk")],
                      cwd=installed.empty)
    try:
        yield kiosk.start()
    finally:
        kiosk.stop()


@pytest.mark.slow
def test_the_wheel_holds_every_file_the_program_reads(installed: Installed) -> None:
    with zipfile.ZipFile(installed.wheel) as wheel:
        names = set(wheel.namelist())
        # the firmware's build script stays a program (docs/hardware.md runs it from the install)
        assert wheel.getinfo("hardware/firmware/build").external_attr >> 16 & 0o111
    wanted = {name for path in project_files() if (name := packaged_name(path))}
    assert wanted - names == set(), "files of the program missing from the wheel"
    for name in ("kiosk/templates/dealer.html", "kiosk/static/vendor/socket.io.min.js",
                 "kiosk/locales/ui.it.json", "engine/locales/hand.it.json", "engine/_tables.bin",
                 "hardware/camera/model/cards.onnx", "hardware/serial/locales/serial.it.json",
                 "hardware/firmware/stud_table/stud_table.ino"):
        assert name in names
    # nothing of the checkout around the program
    assert not {n for n in names if n.split("/")[0] in ("tests", "templates", "deploy", "docs")}


@pytest.mark.slow
def test_the_installed_program_is_the_wheel_not_the_checkout(installed: Installed) -> None:
    code = "import engine, hardware.camera, kiosk; print(kiosk.__file__, kiosk.templates_folder())"
    done = subprocess.run([str(installed.python), "-c", code], cwd=installed.empty,
                          capture_output=True, text=True, check=True)
    module, templates = done.stdout.split()
    site = str(installed.env / "lib")
    assert module.startswith(site) and templates.startswith(site), done.stdout
    assert not module.startswith(str(ROOT))


@pytest.mark.slow
def test_the_installed_kiosk_answers_every_page_in_both_languages(
    installed: Installed, server: LiveKiosk
) -> None:
    import requests

    first = requests.get(server.url + "/dealer")
    assert first.status_code == 200 and first.url.endswith("/pin/new"), first.url
    dealer = server.dealer_session()
    answer = dealer.put(server.url + "/api/setup", json=copy.deepcopy(driver.SETUP))
    assert answer.status_code == 200, answer.text
    assert dealer.post(server.url + "/api/hands").status_code == 200
    while (event := driver.next_event(dealer.get(server.url + "/api/state?lang=en").json())):
        answer = dealer.post(server.url + "/api/events", json=event)
        assert answer.status_code == 200, (event, answer.text)
    assets: set[str] = set()
    for lang, title in (("en", "Table setup"), ("it", "Impostazione tavolo")):
        for path, text in PAGES.items():
            page = dealer.get(f"{server.url}{path}?lang={lang}")
            assert page.status_code == 200, (path, lang, page.text[-500:])
            assert text in page.text, (path, lang)
            assets.update(re.findall(r'(?:src|href)="(/static/[^"?]+)', page.text))
        # the catalogues are installed: the page is in the language asked for
        assert title in dealer.get(f"{server.url}/setup/?lang={lang}").text, lang
    assert len(assets) >= 5, assets
    for asset in sorted(assets):
        answer = dealer.get(server.url + asset)
        assert answer.status_code == 200 and answer.content, asset


@pytest.mark.slow
def test_the_installed_recognizer_reads_a_picture_with_the_packaged_models(
    installed: Installed,
) -> None:
    picture = ROOT / "tests/hardware/fixtures/camera/scene01.jpg"
    done = installed.run("recognize", str(picture), "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["cards"], done.stdout
