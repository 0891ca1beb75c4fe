"""The layers hold: the import-linter contracts in pyproject.toml (``[tool.importlinter]``) pass.

Rules import only the standard library and the core; rendering never imports widgets; games
import no agents but their own ``agents.py``, and no other game; the analysis sits above the agents
and engines; nothing imports the CLI.
"""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def test_the_import_contracts_are_kept():
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    done = subprocess.run([str(LINT_IMPORTS), "--no-cache"], cwd=ROOT, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "6 kept, 0 broken" in done.stdout  # every contract was read and checked
