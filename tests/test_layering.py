"""The package layering of docs/architecture.md: engine imports nothing of the app or devices."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN_IN_ENGINE = {"kiosk", "hardware", "flask", "flask_socketio", "cv2", "serial", "socketio"}
FORBIDDEN_IN_HARDWARE = {"kiosk", "flask", "flask_socketio"}


def imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


def offenders(package: str, forbidden: set[str]) -> dict[str, set[str]]:
    found = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        bad = imported_roots(path) & forbidden
        if bad:
            found[str(path.relative_to(ROOT))] = bad
    return found


def test_engine_imports_no_app_no_devices() -> None:
    assert list((ROOT / "engine").rglob("*.py")), "engine/ has no Python files"
    assert offenders("engine", FORBIDDEN_IN_ENGINE) == {}


def test_hardware_does_not_import_the_web_app() -> None:
    assert offenders("hardware", FORBIDDEN_IN_HARDWARE) == {}


def test_the_check_can_fail(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("import flask\nfrom cv2 import dnn\nfrom . import sibling\n", encoding="utf-8")
    assert imported_roots(bad) == {"flask", "cv2"}
