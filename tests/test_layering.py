"""The package layering of docs/architecture.md: engine imports nothing of the app or devices; a
test module imports no other test module (tests/README.md)."""

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


def imported_test_modules(path: Path) -> set[str]:
    """The test modules (``test_*``) that a file imports, absolutely or relatively."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            module = "." * node.level + (node.module or "")
            names.add(module)
            names.update(f"{module}.{alias.name}" for alias in node.names)
    return {n for n in names if n.rsplit(".", 1)[-1].startswith("test_")}


def test_no_test_module_imports_another() -> None:
    found = {str(path.relative_to(ROOT)): bad
             for path in sorted((ROOT / "tests").rglob("*.py"))
             if (bad := imported_test_modules(path))}
    assert found == {}, "move what they share to tests/helpers/ or a fixture (tests/README.md)"


def test_the_test_import_check_can_fail(tmp_path: Path) -> None:
    bad = tmp_path / "test_bad.py"
    bad.write_text("from tests.kiosk.test_app import post_form\nfrom .test_other import x\n"
                   "from tests.kiosk import test_app\nfrom tests.helpers.pages import tap\n",
                   encoding="utf-8")
    assert imported_test_modules(bad) == {"tests.kiosk.test_app", ".test_other"}
