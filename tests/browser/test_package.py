"""The wheel installs the whole product: built from the checkout, installed in fresh virtualenvs
outside it, it serves the gallery and the apps, ships the positions, studies and notebooks, and
its engines play without numba.

The machine has no network in CI, so the fresh venvs take their third-party packages from this
test run's own environment: each venv's ``site-packages`` holds a ``.pth`` line naming a folder of
links to this environment's installed distributions (without tabletop_lab itself, and for the
no-numba venv without numba and llvmlite), and ``share/jupyter`` links to this environment's
(Voila's templates, the widgets' JavaScript). pip then resolves ``tabletop-lab[apps]`` offline
against them (``--no-index``): a missing or misnamed requirement fails the install.
Together these take about a minute (marked ``package``: ``-m "not package"`` leaves them out).
"""

from __future__ import annotations

import http.client
import os
import shutil
import signal
import socket
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

import psutil
import pytest

from tabletop_lab.serve import ROOT

pytestmark = pytest.mark.package

SITE = Path(sysconfig.get_paths()["purelib"])
#: What a fresh venv must not see of this environment: the checkout's own package, pip's and
#: setuptools' start-up hooks.
NOT_LINKED = ("tabletop_lab", "__editable__", "_tabletop", "distutils-precedence.pth", "pip", "_distutils_hack")
NUMBA = ("numba", "llvmlite")
SOURCES = ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "LICENSE", "CHANGELOG.md", "voila.json")
SHIPPED = ("tabletop_lab", "notebooks", "data", "docs/rules")
STOP_S = 10
START_S = 180  # a guard against hanging, not a speed requirement


def run(*command: str | Path, cwd: Path, timeout: float = 300) -> str:
    done = subprocess.run(
        [str(part) for part in command], cwd=cwd, env=clean_env(), capture_output=True, text=True, timeout=timeout
    )
    assert done.returncode == 0, f"{command} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done.stdout


def clean_env() -> dict[str, str]:
    """This environment without anything pointing into the checkout."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    return {**env, "TABLETOP_QUICK": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1"}


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The wheel built from a copy of the checkout's sources (the checkout gets no build files)."""
    source = tmp_path_factory.mktemp("source")
    for name in SOURCES:
        shutil.copy2(ROOT / name, source / name)
    for name in SHIPPED:
        shutil.copytree(
            ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__", "bundle", "*.egg-info", ".*")
        )
    dist = tmp_path_factory.mktemp("dist")
    run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", dist, source, cwd=source)
    (built,) = dist.glob("tabletop_lab-*.whl")
    return built


def fresh_venv(folder: Path, *, numba: bool) -> Path:
    """A venv at ``folder`` whose only packages are links to this environment's third-party ones."""
    run(sys.executable, "-m", "venv", "--without-pip", folder, cwd=folder.parent)
    deps = folder / "deps"
    deps.mkdir()
    skipped = NOT_LINKED + (() if numba else NUMBA)
    for entry in SITE.iterdir():
        if entry.suffix == ".pth" or entry.name.startswith(skipped):
            continue
        (deps / entry.name).symlink_to(entry)
    site = Path(
        subprocess.run(
            [folder / "bin" / "python", "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    )
    (site / "deps.pth").write_text(f"{deps}\n")
    (folder / "share").mkdir(exist_ok=True)
    (folder / "share" / "jupyter").symlink_to(Path(sys.prefix) / "share" / "jupyter")
    return folder / "bin" / "python"


def pip_install(python: Path, wheel: Path, requirement: str, cwd: Path) -> None:
    run(
        sys.executable, "-m", "pip", "--python", python, "install", "-q", "--no-index",
        "--find-links", wheel.parent, requirement, cwd=cwd,
    )  # fmt: skip


def get(port: int, path: str) -> tuple[int, str]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=180)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        return response.status, response.read().decode("utf-8", "replace")
    finally:
        connection.close()


def test_the_apps_extra_serves_the_gallery_and_the_apps_from_an_empty_folder(wheel, tmp_path):
    python = fresh_venv(tmp_path / "venv", numba=True)
    empty = tmp_path / "empty"
    empty.mkdir()
    pip_install(python, wheel, "tabletop-lab[apps]", empty)
    where = run(python, "-c", "import tabletop_lab; print(tabletop_lab.__file__, tabletop_lab.__version__)", cwd=empty)
    assert where.startswith(str(tmp_path / "venv")) and "0.1.0" in where
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    console = tmp_path / "console.txt"
    with open(console, "w") as out:
        server = subprocess.Popen(
            [tmp_path / "venv" / "bin" / "tabletop-lab", "serve", "--port", str(port), "--no-browser", "--preheat", "0"]
            + ["--log", str(tmp_path / "server.log")],
            cwd=empty,
            env=clean_env(),
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    started: list[psutil.Process] = []
    try:
        deadline = time.monotonic() + START_S
        while "Server log" not in console.read_text():
            assert server.poll() is None and time.monotonic() < deadline, console.read_text()
            time.sleep(0.2)
        status, gallery = get(port, "/voila/render/index.ipynb")
        assert status == 200
        for title in ("Play Cross-endodoi", "Play Sygo", "Study"):
            assert title in gallery
        status, app = get(port, "/voila/render/play_cross_endodoi.ipynb")
        assert status == 200 and "There was an error" not in app and "application/vnd.jupyter.widget-view+json" in app
        started = psutil.Process(server.pid).children(recursive=True)
        assert any("ipykernel" in " ".join(p.cmdline()) for p in started), "the app ran in a kernel"
        assert all(str(tmp_path / "venv") in p.cmdline()[0] for p in started)  # the venv's Python, not ours
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=STOP_S)
        assert not psutil.wait_procs(started, timeout=STOP_S)[1], "processes left after the server stopped"
        assert not [
            p for p in psutil.process_iter(["cmdline"]) if str(tmp_path / "venv") in " ".join(p.info["cmdline"] or [])
        ]
    finally:
        for p in [*started, *([psutil.Process(server.pid)] if server.poll() is None else [])]:
            try:
                p.kill()
            except psutil.Error:
                pass
    copied = tmp_path / "my-notebooks"
    run(tmp_path / "venv" / "bin" / "tabletop-lab", "notebooks", copied, cwd=empty)
    expected = sorted(p.relative_to(ROOT / "notebooks") for p in (ROOT / "notebooks").rglob("*.ipynb"))
    assert sorted(p.relative_to(copied) for p in copied.rglob("*.ipynb")) == expected


CORE_WITHOUT_NUMBA = """
import importlib.util, json, warnings
assert importlib.util.find_spec("numba") is None, "numba is importable"
from tabletop_lab import data, list_games, load_game
from tabletop_lab.agents import make_agent
from tabletop_lab.kernels import playout_kernel
from tabletop_lab.sim import simulate
from tabletop_lab.serve import list_apps
warnings.simplefilter("ignore")  # "compiled kernels unavailable ... playing at Python speed"
out = {}
for info in list_games():
    game = load_game(info["name"])
    df = simulate(game, ["random"] * game.num_players, 3, seed=1, progress=False)
    search = "mcts" if game.info.perfect_information else "ismcts"
    move = make_agent(f"{search}:iterations=20", seed=1, game=game).choose_action(game.new_initial_state())
    out[game.name] = [len(df), playout_kernel(game) is None, move in game.new_initial_state().legal_actions()]
out["positions"] = len(data.load_positions("cross_endodoi"))
out["study rows"] = len(__import__("pandas").read_parquet(data.data_path("sygo", "ladder.parquet")))
out["apps"] = len(list_apps())
out["rule 2.1"] = __import__("tabletop_lab.rulebook").rulebook.section("sygo", "2.1").heading
print(json.dumps(out))
"""


def test_the_core_package_plays_every_game_without_numba(wheel, tmp_path):
    python = fresh_venv(tmp_path / "venv", numba=False)
    empty = tmp_path / "empty"
    empty.mkdir()
    pip_install(python, wheel, "tabletop-lab", empty)
    import json

    result = json.loads(run(python, "-c", CORE_WITHOUT_NUMBA, cwd=empty, timeout=600).strip().splitlines()[-1])
    games = {name: row for name, row in result.items() if isinstance(row, list)}
    assert len(games) == 5 and all(row == [3, True, True] for row in games.values()), games
    assert result["positions"] > 0 and result["study rows"] > 0 and result["apps"] >= 6
    assert result["rule 2.1"] == "2.1 Capture by reversal"  # the rules pages the apps quote
