"""Re-run the saved studies: execute a study notebook with ``RERUN = True``.

The notebooks are the single definition of each study; this script only runs them headless,
papermill-style (a cell after the one tagged ``parameters`` overrides ``RERUN``), so the
results under ``data/`` are rewritten exactly as a reader's re-run would. The notebook file
itself is left untouched; ``--executed PATH`` also saves the executed copy for a look.

    python scripts/run_studies.py                                   # every study notebook
    python scripts/run_studies.py notebooks/cross_endodoi/statistics.ipynb --executed /tmp/s.ipynb
    python scripts/run_studies.py --only skilled                    # one study of each notebook

``--only NAME`` (repeatable) sets ``RERUN = [NAME, ...]`` instead: a notebook that reads its
``RERUN`` as a list re-runs those studies and loads the others' saved results.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]
#: Every game's statistics notebook. Every saved study was simulated with the counter-based random
#: streams (each game's notebook was re-run with them), so its rows replay from their seeds.
STUDIES = sorted((ROOT / "notebooks").glob("*/statistics.ipynb"))


def run_study(path: Path, executed: Path | None = None, timeout: int = 3600, only: list[str] | None = None) -> float:
    """Execute ``path`` with ``RERUN = True`` (``RERUN = only`` when given); return the seconds it took."""
    nb = nbformat.read(path, as_version=4)
    tagged = [i for i, cell in enumerate(nb.cells) if "parameters" in cell.metadata.get("tags", [])]
    if not tagged:
        raise SystemExit(f"{path}: no cell tagged 'parameters', so RERUN cannot be set")
    rerun = repr(only) if only else "True"
    override = nbformat.v4.new_code_cell(f"RERUN = {rerun}  # injected by scripts/run_studies.py", id="injected-rerun")
    nb.cells.insert(tagged[0] + 1, override)
    env_quick = os.environ.pop("TABLETOP_QUICK", None)  # a quick run would save nothing
    try:
        start = time.perf_counter()
        NotebookClient(
            nb, timeout=timeout, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}
        ).execute()
        seconds = time.perf_counter() - start
    finally:
        if env_quick is not None:
            os.environ["TABLETOP_QUICK"] = env_quick
    if executed is not None:
        nbformat.write(nb, executed)
    return seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="*", type=Path, default=STUDIES, help="study notebooks (default: all)")
    parser.add_argument("--executed", type=Path, help="also save the executed notebook here (one notebook only)")
    parser.add_argument("--only", action="append", metavar="STUDY", help="re-run only this study (repeatable)")
    args = parser.parse_args(argv)
    if args.executed and len(args.notebooks) != 1:
        parser.error("--executed needs exactly one notebook")
    for path in args.notebooks:
        print(f"running {path} ...", flush=True)
        seconds = run_study(path.resolve(), args.executed, only=args.only)
        print(f"done in {seconds / 60:.1f} min", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
