"""scripts/setup.sh installs only when the venv is new or pyproject.toml or the extras changed."""

import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def make_project(tmp_path: Path) -> Path:
    """A copy of the setup script beside a pyproject.toml and a fake venv whose python logs its calls."""
    (tmp_path / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "setup.sh", tmp_path / "scripts" / "setup.sh")
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    python = tmp_path / ".venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text(f'#!/bin/sh\necho "$@" >> {tmp_path / "calls.log"}\n')
    python.chmod(0o755)
    return tmp_path


def installs(project: Path, extras: str) -> int:
    """How many pip installs one run of the setup script made."""
    log = project / "calls.log"
    before = log.read_text().count("install") if log.exists() else 0
    subprocess.run(["bash", str(project / "scripts" / "setup.sh"), extras], check=True, capture_output=True)
    return (log.read_text().count("install") if log.exists() else 0) - before


def test_setup_installs_once_and_again_only_after_a_change(tmp_path):
    project = make_project(tmp_path)
    assert installs(project, "notebooks") == 2  # pip itself, then the project
    assert installs(project, "notebooks") == 0
    assert installs(project, "test") == 2  # other extras
    assert installs(project, "notebooks") == 0
    (project / "pyproject.toml").write_text("[project]\nname = 'x'\nversion = '2'\n")
    assert installs(project, "notebooks") == 2
