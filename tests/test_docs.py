"""The documentation site builds with warnings as errors (a broken link or cross-reference fails),
and its generated tables and API pages show what the code says."""

import doctest
import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("site")
    env = {**os.environ, "TABLETOP_DOCS_EXECUTE": "false", "NO_MKDOCS_2_WARNING": "1"}
    run = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(ROOT / "mkdocs.yml"), "--site-dir", str(out)],
        cwd=out.parent,  # mkdocs-jupyter's cache goes there, not into the checkout
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    return out


def test_the_site_builds_strictly_with_every_page(site):
    for page in ["index", "games/sygo", "adding-a-game", "kernels", "agents", "statistics", "interop", "api/core"]:
        assert (site / f"{page}.html").is_file(), page
    assert (site / "notebooks/cross_endodoi/learn.html").is_file()
    capitals = (site / "games/capitals.html").read_text()
    board = re.search(r'<svg [^>]*class="tabletop-board"[^>]*>', capitals)  # inline, so the site's switch reaches it
    assert board and 'role="img"' in board.group(0)
    assert 'data-md-color-scheme="slate"' in capitals and "var(--tabletop-page" in capitals


def test_generated_tables_follow_the_code(site):
    from tabletop_lab import load_game

    sygo = (site / "games/sygo.html").read_text()
    for spec in load_game("sygo").option_specs + load_game("sygo").param_specs:
        assert f"<code>{spec.name}</code>" in sygo
    index = (site / "index.html").read_text()
    assert f"{load_game('sinoda').num_distinct_actions():,}" in index
    agents = (site / "agents.html").read_text()
    assert "<code>iterations=1000</code>" in agents and "<code>ismcts</code>" in agents


def test_api_pages_are_built_from_the_docstrings(site):
    core = (site / "api/core.html").read_text()
    assert "observation_tensor_shape" in core and "1 at each legal action" in core
    assert '<span class="gp">&gt;&gt;&gt; </span>' in core  # doctests fenced as sessions, not read as quotes


def test_the_hooks_helpers_do_what_they_say():
    spec = importlib.util.spec_from_file_location("docs_hooks", ROOT / "scripts" / "docs_hooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    result = doctest.testmod(module)
    assert result.attempted >= 2 and result.failed == 0


@pytest.mark.parametrize("script", ["acceptance.py", "expert_candidates.py"])
def test_the_experts_measured_strength_in_the_docs_is_the_saved_one(script):
    """docs/agents.md shows the saved acceptance and candidate results as the scripts print them
    (``--table``): a rerun that changes a row must change the page too."""
    printed = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / script), "--table"], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert printed.count("\n") >= 3
    assert printed in (ROOT / "docs" / "agents.md").read_text()
