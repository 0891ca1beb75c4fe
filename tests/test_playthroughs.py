"""Golden playthroughs: seeded random games must replay exactly as recorded.

A deliberate rules change regenerates them with scripts/regenerate_playthroughs.py, and the
diff shows what changed.
"""

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("regenerate", ROOT / "scripts" / "regenerate_playthroughs.py")
regenerate = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(regenerate)
CASES = list(regenerate.golden_cases())


@pytest.mark.parametrize(("name", "game", "seed"), CASES, ids=[c[0] for c in CASES])
def test_playthrough_matches_its_golden_file(name, game, seed):
    from tabletop_lab.testing import playthrough

    golden = regenerate.FOLDER / name
    assert golden.exists(), f"missing {golden}: run scripts/regenerate_playthroughs.py"
    assert playthrough(game, seed) == golden.read_text()


def test_every_golden_file_is_still_generated():
    assert sorted(p.name for p in regenerate.FOLDER.glob("*.txt")) == sorted(c[0] for c in CASES)
