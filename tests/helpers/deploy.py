"""What the deployment tests share: a still copy of the code, the installer run under a temporary
root, snapshots of that root, systemd's analyzer."""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
DEPLOY = ROOT / "deploy"
IGNORED = shutil.ignore_patterns(
    ".git",
    ".venv",
    ".cache",
    "instance",
    "__pycache__",
    "*.egg-info",
    ".*_cache",
    "test-artifacts",
    ".hypothesis",
    "node_modules",
)
#: build output at the top of the checkout only (hardware/firmware/build is a script of the project)
TOP_IGNORED = frozenset({"build", "dist"})


def _ignored(folder: str, names: list[str]) -> set[str]:
    skipped = set(IGNORED(folder, names))
    if Path(folder) == ROOT:
        skipped |= TOP_IGNORED & set(names)
    return skipped


def copy_source(dest: Path) -> Path:
    """A copy of the checkout (no .git: the installer takes every file) that stays still."""
    shutil.copytree(ROOT, dest, ignore=_ignored, symlinks=True)
    return dest


@dataclass
class Run:
    returncode: int
    stdout: str
    stderr: str


def run_install(
    source: Path,
    root: Path,
    *args: str,
    script: str = "install.sh",
    extra_env: dict[str, str] | None = None,
) -> Run:
    env = dict(os.environ)
    env.update(extra_env or {})
    env.pop("SUDO_USER", None)
    env.pop("DESTDIR", None)
    # The tests lay the files down, not the libraries: the project alone, without its dependencies.
    env["STUD_KIOSK_PIP_OPTIONS"] = "--no-deps"
    options = ["--root", str(root)]
    if script == "install.sh":
        options += ["--source", str(source)]
    done = subprocess.run(
        ["bash", str(source / "deploy" / script), *options, *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )
    return Run(done.returncode, done.stdout, done.stderr)


def fake_system_root(root: Path) -> Path:
    """A root with the /etc/passwd of a Raspberry Pi OS image whose desktop user is ``dealer``."""
    (root / "etc").mkdir(parents=True)
    (root / "etc" / "passwd").write_text(
        "root:x:0:0:root:/root:/bin/bash\ndealer:x:1000:1000:Dealer:/home/dealer:/bin/bash\n",
        encoding="utf-8",
    )
    return root


def snapshot(root: Path) -> dict[str, tuple[int, int, int, str]]:
    """Every path under ``root`` with its mode, size, modification time and link target."""
    found = {}
    for path in sorted(root.rglob("*")):
        info = path.lstat()
        target = os.readlink(path) if path.is_symlink() else ""
        found[str(path.relative_to(root))] = (info.st_mode, info.st_size, info.st_mtime_ns, target)
    return found


def release_of(root: Path, link: str) -> str:
    return os.readlink(root / "opt" / "stud-kiosk" / link).rsplit("/", 1)[-1]


@dataclass
class Deployment:
    """One machine's life, run once per test session: install, run it again, upgrade, roll back."""

    source: Path
    root: Path
    first: Run
    second: Run
    before_second: dict[str, tuple[int, int, int, str]]
    after_second: dict[str, tuple[int, int, int, str]]
    first_release: str
    first_conf: str
    first_autostart: str
    database_before: bytes
    env_before: str
    udev_before: str
    upgrade: Run
    upgraded_release: str
    previous_after_upgrade: str
    rollback: Run
    after_rollback: tuple[str, str]
    failed_upgrade: Run
    after_failed_upgrade: tuple[str, str]
    reupgrade: Run
    after_reupgrade: tuple[str, str]
    cage: Run


SYSTEM_UNITS = Path("/usr/lib/systemd/system")


def analyze() -> str:
    """systemd-analyze (the test is skipped without it)."""
    found = shutil.which("systemd-analyze")
    if found is None or not (SYSTEM_UNITS / "multi-user.target").exists():
        pytest.skip("systemd-analyze is not installed (Debian package systemd)")
    return found


def project_files(root: Path = ROOT) -> list[str]:
    """The project's files as deploy/install.sh takes them: git's view of a checkout (tracked and
    new files, not ignored ones), else every file but the ignored folders."""
    done = subprocess.run(
        ["git", "-C", str(root), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode == 0:
        return sorted(f for f in done.stdout.split("\0") if f and (root / f).is_file())
    skipped = {".git", ".venv", "instance", "test-artifacts", "__pycache__"}
    return sorted(
        str(path.relative_to(root))
        for path in root.rglob("*")
        if path.is_file()
        and not skipped & set(path.relative_to(root).parts)
        and path.relative_to(root).parts[0] not in TOP_IGNORED
        and not any(part.endswith((".egg-info", "_cache")) for part in path.parts)
    )
