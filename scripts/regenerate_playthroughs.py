"""Rewrite the golden playthrough files in tests/playthroughs/ (run on purpose, review the diff).

.venv/bin/python scripts/regenerate_playthroughs.py
"""

from pathlib import Path

from tabletop_lab import list_games, load_game
from tabletop_lab.testing import option_variants, playthrough

FOLDER = Path(__file__).resolve().parents[1] / "tests" / "playthroughs"


def golden_cases():
    """(file name, game, seed): two seeds under every option variant of every real game."""
    for info in list_games():  # the real games: toy games registered by tests are left out
        for index, options in enumerate(option_variants(info["name"])):
            for seed in (1, 2):
                yield f"{info['name']}-{index}-seed{seed}.txt", load_game(info["name"], **options), seed


if __name__ == "__main__":
    FOLDER.mkdir(exist_ok=True)
    for name, game, seed in golden_cases():
        (FOLDER / name).write_text(playthrough(game, seed))
        print("wrote", FOLDER / name)
