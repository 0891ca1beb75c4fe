"""``tabletop_lab.serve`` without a browser: the Voila command and the gallery's list of apps."""

from __future__ import annotations

import json
from pathlib import Path

import nbformat
import pytest

from tabletop_lab.serve import AppInfo, apps_dir, list_apps, voila_command


def write_notebook(path: Path, meta: dict | None) -> None:
    nb = nbformat.v4.new_notebook()
    if meta is not None:
        nb.metadata["tabletop_lab"] = meta
    nbformat.write(nb, path)


@pytest.fixture
def root(tmp_path):
    """A checkout holding a landing page and two apps of two games."""
    folder = tmp_path / "notebooks" / "apps"
    folder.mkdir(parents=True)
    write_notebook(folder / "index.ipynb", None)
    write_notebook(folder / "play_b.ipynb", {"title": "Play B", "description": "b", "game": "b_game"})
    write_notebook(folder / "study_a.ipynb", {"title": "Study A", "description": "a", "game": "a_game"})
    return tmp_path


def test_voila_command_serves_the_apps_folder_on_localhost_only(root):
    command = voila_command(9123, root=root)
    assert command[1:4] == ["-m", "voila", str(root / "notebooks" / "apps")]
    assert "--port=9123" in command
    assert "--Voila.ip=127.0.0.1" in command
    assert "--Voila.port_retries=0" in command  # the asked port or a failure, never another
    assert "--Voila.open_browser=False" in command
    assert "--Voila.tornado_settings=disable_check_xsrf=True" in command  # closed tabs free kernels
    assert "--Voila.open_browser=True" in voila_command(9123, open_browser=True, root=root)


@pytest.mark.parametrize("port", [0, 65536, -1, "8866", 8866.0, True])
def test_voila_command_rejects_a_bad_port(port, root):
    with pytest.raises(ValueError, match="port must be an int"):
        voila_command(port, root=root)


def test_apps_dir_explains_a_missing_apps_folder(tmp_path):
    with pytest.raises(FileNotFoundError, match="clone it"):
        apps_dir(tmp_path)


def test_list_apps_reads_each_notebooks_metadata_sorted_by_game(root):
    assert list_apps(root) == [
        AppInfo("study_a.ipynb", "Study A", "a", "a_game"),
        AppInfo("play_b.ipynb", "Play B", "b", "b_game"),
    ]


@pytest.mark.parametrize(
    "meta", [None, {"title": "T", "description": "D"}, {"title": 1, "description": "D", "game": "g"}]
)
def test_list_apps_names_the_notebook_with_bad_metadata(root, meta):
    write_notebook(root / "notebooks" / "apps" / "broken.ipynb", meta)
    with pytest.raises(ValueError, match=r"broken\.ipynb.*'tabletop_lab'"):
        list_apps(root)


def test_the_repository_apps_are_listed_and_link_existing_notebooks():
    apps = list_apps()
    assert {"play_cross_endodoi.ipynb", "study.ipynb"} <= {app.notebook for app in apps}
    for app in apps:
        assert (apps_dir() / app.notebook).is_file()
        assert app.title and app.description
        nb = json.loads((apps_dir() / app.notebook).read_text())
        assert nb["metadata"]["kernelspec"]["name"] == "python3"
